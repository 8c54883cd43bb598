"""SummEdits (Laban et al., 2023): human-labelled summary edits; does a score notice a wrong figure?

Modules, in dependency order:

* ``defaults``: the reference choices (light: shared with the CLI flags);
* ``data``: the rows, the five domains' files, the numeral difference that marks a figure edit (list labels
  skipped);
* ``metrics``: ROC AUC, balanced accuracy, the dev-fitted threshold;
* ``verdicts``: the flagged figures by verdict class (a binary field per class, the per-label breakdown);
* ``evaluation``: scoring the rows (against the original summary or the document), the value-anywhere check
  beside them, and `evaluate`;
* ``report``: the Markdown table and the plot.
"""

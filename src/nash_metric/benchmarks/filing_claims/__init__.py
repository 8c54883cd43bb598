"""FilingClaims: claims about the figures of annual-report tables (TAT-QA dev), each checked against its source.

Modules, in dependency order:

* ``defaults``: forms, kinds, groups, splits and the build's defaults (light: shared with the CLI flags);
* ``table``: a TAT-QA table read for claims (figures, row labels, column headers, scale), independent of NASH;
* ``render``: the table as a source in each form (Markdown pipes with ``$`` cells, HTML, plain-text columns);
* ``figures``: the misplaced and unsupported values (agreement at written precision, perturbation);
* ``templates``: claims about sampled cells; ``questions``: claims from TAT-QA's stated table answers;
  ``computed``: claims from TAT-QA's arithmetic answers (a derivation of cells), and false ones made from it;
* ``build``: every table's claims against every form, split by table, as claims-format JSONL;
* ``evaluation``: `benchmarks.claims` per split, form, kind and group; the tables ``nash bench`` prints.
"""

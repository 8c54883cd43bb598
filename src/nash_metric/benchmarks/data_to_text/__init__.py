"""Real, human-labelled errors in data-to-text: does the figure verdict flag the wrong figures and only them?

Three sets (`../shared/data`, read in place): Rotowire (the accuracy shared task: neural basketball summaries,
every error a person found, token spans), quintd-1 (LLM descriptions of JSON / Markdown records, crowd error
spans by character) and TabFact (a statement a table entails and its refuted rewrite, which differs in a number).

Modules, in dependency order:

* ``defaults``: names, default folders, the Rotowire renderings and text forms (light: shared with the CLI flags);
* ``spans``: character spans: tokens located in a text (the detokenised one included), overlap;
* ``boxscore``: a Rotowire record's box score as a user would give it (two Markdown tables, or its JSON);
* ``rotowire``, ``quintd``, ``tabfact``: reading each set with ``file:line`` errors, and its labels (the wrong
  spans of each text, or each claim's label);
* ``scoring``: every (text, source) pair scored in one call, each figure labelled by overlap, the metrics (BA per
  figure and per text, share of right figures flagged, recall of wrong ones, the value-anywhere check beside);
* ``report``: the Markdown tables;
* ``evaluation``: the three ``evaluate`` entry points (`nash bench rotowire | quintd | tabfact`).
"""

"""NumFinE: numerically perturbed financial sentences (docs/method.md §2.1), built from any sentence corpus.

Modules, in dependency order (each imports only those before it):

* ``formats``: numeral surface forms (dates and clock times: ``nash_metric.numbers.calendar``, the
  grammar the scorer reads them with);
* ``rules``: FinNum categories, variant rules and plausibility checks;
* ``construction``: units (one per target) with k seeded variants;
* ``tables``: the protocol tables (triplets, listwise, cross-pairs) from units;
* ``build``: a whole build (units + tables + report) from sentences or a file;
* ``schema``: the published ``datasets.Features`` and Parquet shard paths;
* ``card``: the dataset card; ``publish``: writing a dataset folder;
* ``released``: adapter for the authors' released JSON;
* ``evaluation``: Base vs +NASH on every protocol, τ sweep, alignment check.

The ``nash`` command reaches them through ``nash_metric.benchmarks.registry["numfine"]``.
"""

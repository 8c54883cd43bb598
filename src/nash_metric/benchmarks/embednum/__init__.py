"""EmbedNum-1K: ⟨Q, A+, A−⟩ numeric-comparison triples in 18 number formats plus extras (docs/method.md §2.2).

Modules, in dependency order (each imports only those before it):

* ``formats``: seeded threshold/answer draws and their renderings (paper Table 1 + extras);
* ``sources``: our seed questions (templates) or the authors' released triples;
* ``construction``: triples per format and candidate lists, written as Parquet configs;
* ``card``: the dataset card; ``dataset``: build a folder, read it back;
* ``evaluation``: accuracy per format for cosine, BERTScore, NASH and NASH+comparisons; P@k.

The ``nash`` command reaches them through ``nash_metric.benchmarks.registry["embednum1k"]``.
"""

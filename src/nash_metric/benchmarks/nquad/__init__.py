"""NQuAD: Chinese financial-news numeral cloze (docs/method.md §2.3), built from raw articles.

Modules, in dependency order: ``source`` (read raw articles or an article-level release),
``construction`` (questions, train/test split, build report, Parquet), ``evaluation`` (string baselines,
embeddings, NASH and its numeral-aware variants). The Chinese sentence splitter is ``.text``.

The ``nash`` command reaches them through ``nash_metric.benchmarks.registry["nquad"]``.
"""

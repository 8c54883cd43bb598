"""The backbone: which model, loaded once, run once per distinct text.

    models             hub id or path -> a loadable model, backend choice, per-model defaults
    cache              the one cache of loaded models (nash_score, the evaluate module, the Space, bert-score)
    encoders           one batched forward pass per text: token states, pooled embedding, number vectors
    similarity         the backbone score (BERTScore greedy matching, cosine) as precision, recall, F1
    bertscore_package  the `bert-score` package itself on the same model and layer, for side-by-side checks
"""

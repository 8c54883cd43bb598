"""What every room shares and nothing of NASH's own: the lowest layer (imports no other room).

    defaults     the numbers other rooms and the option docs quote (each stated once)
    io           generic file helpers: text in (encoding, binary refused), JSON, output paths checked first
    validation   input checks with index-precise errors
    blank        blank texts score 0 on every channel, as bert-score (the pipeline, rescaling, bert-score runs)
    batching     variable-size blocks cut into padded batches on a cell budget
    bootstrap    the one seeded percentile bootstrap
    protocols    evaluation protocols (triplets, Kendall tau_b, P@k, ...)
    reporting    Markdown/JSON tables, the result envelope, figures
    citations    BibTeX, one copy each
    memory       handing freed heap back to the OS between chunks
    atomic       outputs written whole or not at all (a temporary file renamed over the target)
    verdicts     the figure verdicts' names, marks and help, one home for the pipeline and every front end
    extras       the extras beyond the lean core, and the one message a missing one gives
"""

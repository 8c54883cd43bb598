"""What is fitted on sentences rather than given: tau and the rescale baseline.

    threshold  tau = mu + sigma over random sentence pairs; which tau a scorer uses (`choose_tau`);
               the hash sample threshold='auto' calibrates on
    rescale    (s - b) / (1 - b) with a random-pair baseline, as bert-score's rescale_with_baseline
"""

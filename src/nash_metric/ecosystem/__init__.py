"""Hub folders and Hub conventions: `export` writes the Space and the evaluate metric with the project's wheel
vendored; `bertscore_args` reads bert-score's `compute` arguments for the evaluate module."""

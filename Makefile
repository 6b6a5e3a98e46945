# Two commands on a fresh machine: `make serve` starts the embedded service, `make test` runs the tests.
# Each creates the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# `make serve PORT=8000 HOST=0.0.0.0`: the mail links follow the port (BASE_URL, in embedded mode).
PORT ?= 5000
HOST ?= 127.0.0.1

# The tests' venv: the service and the test extras (pytest, playwright, linters).
$(VENV)/test-installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $(VENV)/test-installed $(VENV)/runtime-installed

# What `make serve` needs: the service alone (a few seconds cold, not the test extras' minute).
$(VENV)/runtime-installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e .
	touch $(VENV)/runtime-installed

.PHONY: serve test lint bench
serve: $(VENV)/runtime-installed
	$(BIN)/pbem serve --host $(HOST) --port $(PORT)

test: $(VENV)/test-installed
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lint: $(VENV)/test-installed
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports && $(BIN)/mypy

bench: $(VENV)/test-installed
	$(BIN)/python bench/fold.py && $(BIN)/python bench/cold_read.py && $(BIN)/python bench/end_to_end.py && $(BIN)/python bench/replay.py && $(BIN)/python bench/bots.py && $(BIN)/python bench/pages.py && $(BIN)/python bench/load.py && $(BIN)/python bench/pace.py && $(BIN)/python bench/mail.py

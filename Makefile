# Two commands on a fresh machine: `make serve` starts the embedded service, `make test` runs the tests.
# Each creates the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/pbem: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $(BIN)/pbem

.PHONY: serve test lint bench
serve: $(BIN)/pbem
	$(BIN)/pbem serve

test: $(BIN)/pbem
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lint: $(BIN)/pbem
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports && $(BIN)/mypy

bench: $(BIN)/pbem
	$(BIN)/python bench/fold.py && $(BIN)/python bench/end_to_end.py && $(BIN)/python bench/replay.py && $(BIN)/python bench/bots.py && $(BIN)/python bench/pages.py && $(BIN)/python bench/load.py && $(BIN)/python bench/pace.py && $(BIN)/python bench/mail.py

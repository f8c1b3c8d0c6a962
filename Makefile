# The Sheepshead scorekeeper: `make run` serves it, `make test` tests it.
#
# Both create .venv when it is missing and (re)install the app into it only when
# pyproject.toml has changed since the last install (a stamp file inside .venv).

PYTHON ?= python3
VENV ?= .venv
PORT ?= 5000
WORKERS ?= 2
PYTEST_ARGS ?=
TEST_WORKERS ?= 2

BIN := $(VENV)/bin
APP_STAMP := $(VENV)/.installed-app
TEST_STAMP := $(VENV)/.installed-test

.DEFAULT_GOAL := help

.PHONY: help run test lint format clean

help:
	@echo "make run    install into $(VENV), upgrade the database schema, serve on port $(PORT)"
	@echo "make test   install the test extra into $(VENV) and run every test"
	@echo "make lint   ruff check, ruff format --check, mypy and the import layers (lint-imports)"
	@echo "make clean  remove $(VENV) and caches (never instance/, where the data lives)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(APP_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

# The schema upgrade also creates instance/ and its secret key before the
# server's workers start, so they all read the same key.
run: $(APP_STAMP)
	$(BIN)/flask --app scorekeeper db upgrade
	@$(BIN)/flask --app scorekeeper access status
	@ip=$$(hostname -I 2>/dev/null | awk '{print $$1}'); \
	[ -n "$$ip" ] || ip=$$(ip -4 route get 1.1.1.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p'); \
	[ -n "$$ip" ] || ip=$$(ipconfig getifaddr en0 2>/dev/null); \
	[ -n "$$ip" ] || ip=localhost; \
	echo; \
	echo "  Scorekeeper on this computer:  http://localhost:$(PORT)/"; \
	echo "  From a phone on the same Wi-Fi: http://$$ip:$(PORT)/"; \
	echo "  (Ctrl-C stops it.)"; \
	echo
	exec $(BIN)/gunicorn --bind 0.0.0.0:$(PORT) --workers $(WORKERS) \
		--config python:scorekeeper.serving \
		--access-logfile - "scorekeeper:create_app()"

# TEST_DATABASE_URL, from the environment or `make test TEST_DATABASE_URL=...`,
# reaches pytest as it is: the tests then also run against that PostgreSQL.
# Two pytest workers (pytest-xdist): the browser and server tests one after another on one,
# the rest shared between both.
test: $(TEST_STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

format: $(TEST_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis .ruff_cache .mypy_cache
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

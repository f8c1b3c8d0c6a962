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
# `make run HTTPS=1`: Caddy in front (deploy/Caddyfile.lan), with a certificate authority of its
# own kept in CADDY_DATA, for the phones on this computer's network.
HTTPS ?=
HTTPS_PORT ?= 8443
HTTP_PORT ?= 8080
CADDY ?= caddy
CADDY_DATA ?= $(CURDIR)/instance/caddy
# This computer's address on its network, as a phone on the same Wi-Fi reaches it.
LAN_ADDRESS = $(shell ip=$$(hostname -I 2>/dev/null | awk '{print $$1}'); \
	[ -n "$$ip" ] || ip=$$(ip -4 route get 1.1.1.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p'); \
	[ -n "$$ip" ] || ip=$$(ipconfig getifaddr en0 2>/dev/null); \
	echo "$${ip:-localhost}")
HTTPS_NAME ?= $(LAN_ADDRESS)

BIN := $(VENV)/bin
APP_STAMP := $(VENV)/.installed-app
TEST_STAMP := $(VENV)/.installed-test

.DEFAULT_GOAL := help

.PHONY: help run test lint format clean

help:
	@echo "make run    install into $(VENV), upgrade the database schema, serve on port $(PORT)"
	@echo "            (HTTPS=1: over https through Caddy, on port $(HTTPS_PORT), for installing on phones)"
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
# With HTTPS=1, Caddy serves https on HTTPS_PORT and the install page over plain http on
# HTTP_PORT, and gunicorn listens on this computer alone, behind it.
run: $(APP_STAMP)
	$(BIN)/flask --app scorekeeper db upgrade
	@$(BIN)/flask --app scorekeeper access status
ifeq ($(HTTPS),1)
	@command -v $(CADDY) >/dev/null || { \
		echo "make run HTTPS=1 serves through Caddy, which is not installed (Debian: apt-get install caddy)."; \
		exit 1; }
	@echo; \
	echo "  Scorekeeper over https:           https://$(HTTPS_NAME):$(HTTPS_PORT)/"; \
	echo "  Each phone trusts it once, here:  http://$(HTTPS_NAME):$(HTTP_PORT)/install"; \
	echo "  (Ctrl-C stops it.)"; \
	echo
	HTTPS_NAME=$(HTTPS_NAME) PORT=$(PORT) HTTPS_PORT=$(HTTPS_PORT) HTTP_PORT=$(HTTP_PORT) CADDY_DATA=$(CADDY_DATA) \
		$(CADDY) run --config deploy/Caddyfile.lan --adapter caddyfile & caddy=$$!; \
	trap 'kill $$caddy 2>/dev/null' EXIT; trap 'exit 130' INT TERM; \
	TRUSTED_PROXIES=1 ALLOWED_HOSTS=$(HTTPS_NAME) CA_ROOT=$(CADDY_DATA)/pki/authorities/local/root.crt \
		$(BIN)/gunicorn --bind 127.0.0.1:$(PORT) --workers $(WORKERS) \
		--config python:scorekeeper.serving \
		--access-logfile - "scorekeeper:create_app()"
else
	@echo; \
	echo "  Scorekeeper on this computer:  http://localhost:$(PORT)/"; \
	echo "  From a phone on the same Wi-Fi: http://$(LAN_ADDRESS):$(PORT)/"; \
	echo "  (Ctrl-C stops it.)"; \
	echo
	exec $(BIN)/gunicorn --bind 0.0.0.0:$(PORT) --workers $(WORKERS) \
		--config python:scorekeeper.serving \
		--access-logfile - "scorekeeper:create_app()"
endif

# TEST_DATABASE_URL, from the environment or `make test TEST_DATABASE_URL=...`,
# reaches pytest as it is: the tests then also run against that PostgreSQL.
# Two pytest workers (pytest-xdist): the browser and server tests one after another on one,
# the rest shared between both (three took longer: 1,577 s against 1,388 s).
# Python writes its bytecode caches during the tests even where PYTHONDONTWRITEBYTECODE is set:
# each gunicorn server and `flask` command the tests start imports the app from them 0.4 s
# sooner, and each pytest process collects the tests in 3 s instead of 12.
test: $(TEST_STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

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

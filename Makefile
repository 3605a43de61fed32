# Two commands matter: `make run` (the product) and `make test` (every test).
# Installs are stamped, so a second run with nothing changed starts at once.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY_STAMP := $(VENV)/.installed
WEB_STAMP := web/node_modules/.installed
WEB_SOURCES := $(shell find web/src web/public web/index.html web/vite.config.ts web/tsconfig*.json -type f 2>/dev/null)

.PHONY: run test lint deps web bench eval chromium clean

run: deps web/dist/index.html
	$(BIN)/python -m ops.run

test: deps web/dist/index.html chromium lint
	$(BIN)/python -m pytest -q -p no:cacheprovider

lint: deps
	$(BIN)/ruff check .
	$(BIN)/mypy
	cd web && npm run --silent lint && npm run --silent typecheck

bench: deps
	$(BIN)/python -m ops.bench

eval: deps
	$(BIN)/python -m ops.eval

deps: $(PY_STAMP) $(WEB_STAMP)

# Exact versions of every Python package (transitive too) are pinned in requirements.lock.
$(PY_STAMP): requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	touch $@

$(WEB_STAMP): web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web: web/dist/index.html

web/dist/index.html: $(WEB_STAMP) $(WEB_SOURCES)
	cd web && npm run --silent build

# The browser tests drive Debian's Chromium (no browser downloads are possible here).
chromium:
	@command -v chromium >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf $(VENV) web/node_modules web/dist

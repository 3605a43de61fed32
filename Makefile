# Two commands matter: `make run` (the product) and `make test` (every test).
# Installs are stamped, so a second run with nothing changed starts at once.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY_STAMP := $(VENV)/.installed
IMAGING_VENV := .venv-imaging
IMAGING_BIN := $(IMAGING_VENV)/bin
IMAGING_STAMP := $(IMAGING_VENV)/.installed
WEB_STAMP := web/node_modules/.installed
# The installs may run at once (`make -j4 deps imaging web chromium`, as .ci/run does); the two
# editable installs of this project both write its *.egg-info here, so they take turns.
EDITABLE_LOCK := /tmp/metamodel-editable-install.lock
WEB_SOURCES := $(shell find web/src web/public web/index.html web/vite.config.ts web/tsconfig*.json -type f 2>/dev/null)

.PHONY: run test lint deps web bench eval chromium clean lighthouse lighthouse-nginx
.PHONY: imaging tiny-weights
.PHONY: openapi web-check deploy-check

# `make run ENGINE=diffusion ENGINE_WEIGHTS_DIR=DIR` runs the generative engine (its imaging
# environment is built first); `make tiny-weights DIR=...` writes a set of small random models.
run: deps web/dist/index.html $(if $(filter diffusion,$(ENGINE)),imaging)
	$(BIN)/python -m ops.run

# The main run has no torch; tests/imaging (the generative engine itself) runs in the imaging
# environment, after it: two of its tests need two requests to meet in one batch window, which
# a loaded machine can miss. The lint and the web checks (types, OpenAPI, vitest: about three
# CPU-minutes) run one after the other beside the main run instead (tests/support/beside.sh),
# their logs printed after it; any failure fails `make test`.
test: deps imaging web/dist/index.html chromium
	bash tests/support/beside.sh "$(BIN)/python -m pytest -q -p no:cacheprovider" \
		"$(MAKE) --no-print-directory lint" "$(MAKE) --no-print-directory web-check"
	$(IMAGING_BIN)/python -m pytest -q -p no:cacheprovider tests/imaging

lint: deps
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	cd web && npm run --silent lint && npm run --silent typecheck

# The web app's API types come from the API's OpenAPI document (web/openapi.json →
# web/src/types/openapi.gen.ts, both committed). Regenerate after any API change.
openapi: deps
	$(BIN)/python -m ops.openapi --out web/openapi.json
	cd web && npx --no-install openapi-typescript openapi.json --output src/types/openapi.gen.ts

# Run by `make test`: the committed document and types match the API, and the web unit tests pass.
web-check: deps
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN)/python -m ops.openapi --out "$$tmp/openapi.json" && \
	(cd web && npx --no-install openapi-typescript "$$tmp/openapi.json" --output "$$tmp/openapi.gen.ts" >/dev/null) && \
	if ! cmp -s web/openapi.json "$$tmp/openapi.json" || ! cmp -s web/src/types/openapi.gen.ts "$$tmp/openapi.gen.ts"; then \
		diff -u web/src/types/openapi.gen.ts "$$tmp/openapi.gen.ts" | head -60; \
		echo "web/openapi.json or web/src/types/openapi.gen.ts is out of date with the API: run make openapi (and commit both files)"; \
		exit 1; \
	fi
	cd web && npm run --silent test:unit

# Issue 11's figures (out/bench.json). POSTGRES=1: SQLite and PostgreSQL side by side;
# BENCH_ARGS="--only polls --duration 20" for a part (python -m ops.bench --help).
bench: deps
	$(BIN)/python -m ops.bench $(if $(POSTGRES),--db both) $(BENCH_ARGS)

eval: deps
	$(BIN)/python -m ops.eval

# Issue 39's figures: Lighthouse's mobile preset (simulated throttling) on /, /upload-images,
# /subscription and /showcase, 3 runs a page, medians printed, reports in out/lighthouse/.
# Measures the app already running at BASE_URL (default http://127.0.0.1:8000: `make run` in
# another terminal); LIGHTHOUSE_ARGS="--runs 5 /help" for other counts or pages.
lighthouse: deps chromium
	cd web && node scripts/lighthouse.mjs $(LIGHTHOUSE_ARGS)

# The same through the compose nginx (ops/docker/nginx.conf, Debian's nginx as in the web image:
# gzip_static, the SSI-filled head of /) in front of `make run`'s API, serving web/dist.
lighthouse-nginx: deps chromium
	$(BIN)/python -m tests.support.nginx -- sh -c \
		'cd web && node scripts/lighthouse.mjs --out ../out/lighthouse/nginx $(LIGHTHOUSE_ARGS)'

# Issue 34: the production shape, built and run. Builds the images (ops/deploy/build-images.sh)
# and stand-ins for the third-party ones, runs docker-compose.yml under podman-compose
# (ops/deploy/compose.check.yml), drives it through nginx (generations, scaling, killed
# containers, the ledger and the reconciliation), then removes it, volumes included.
# Needs podman: `bash ops/deploy/podman-setup.sh` (as root). Figures in out/deploy-check.json.
deploy-check: deps
	$(BIN)/python ops/deploy/check.py

deps: $(PY_STAMP) $(WEB_STAMP)

# Exact versions of every Python package (transitive too): requirements.lock is what the app
# runs (the container images install only it), requirements-dev.lock adds the test and lint tools.
$(PY_STAMP): requirements.lock requirements-dev.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-dev.lock
	# The project itself, editable and without dependencies (all pinned above): its console
	# script `metamodel` (cli/). One editable install at a time (EDITABLE_LOCK).
	flock $(EDITABLE_LOCK) $(BIN)/python -m pip install -q --no-deps -e .
	touch $@

# The imaging worker's own environment: torch + diffusers (requirements-imaging.txt), never in
# $(VENV). Our packages go in without their dependencies, so that `ops` and `engine` import.
imaging: $(IMAGING_STAMP)

# The dev lock too: `make test` runs tests/imaging with this environment's pytest (the imaging
# image installs requirements-imaging.txt alone).
$(IMAGING_STAMP): requirements-imaging.txt requirements.lock requirements-dev.lock pyproject.toml
	test -x $(IMAGING_BIN)/python || $(PYTHON) -m venv $(IMAGING_VENV)
	$(IMAGING_BIN)/python -m pip install -q --upgrade pip
	$(IMAGING_BIN)/python -m pip install -q -r requirements-imaging.txt -r requirements-dev.lock
	flock $(EDITABLE_LOCK) $(IMAGING_BIN)/python -m pip install -q --no-deps -e .
	touch $@

# A complete set of small random-weight models in the real checkpoints' layout (issue 21):
# make tiny-weights DIR=/tmp/weights
tiny-weights: $(IMAGING_STAMP)
	@test -n "$(DIR)" || { echo "usage: make tiny-weights DIR=<folder>"; exit 2; }
	$(IMAGING_BIN)/python -m ops.weights tiny $(DIR)

$(WEB_STAMP): web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web: web/dist/index.html

web/dist/index.html: $(WEB_STAMP) $(WEB_SOURCES)
	cd web && npm run --silent build

# The browser tests drive Debian's Chromium (no browser downloads are possible here); the
# HTTP limit tests run the compose nginx's configuration in Debian's nginx.
chromium:
	@command -v chromium >/dev/null && command -v nginx >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium nginx-light >/dev/null; }

clean:
	rm -rf $(VENV) web/node_modules web/dist

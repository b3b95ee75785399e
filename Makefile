# Two commands: `make run` (install, build, migrate, seed, serve) and `make test` (install, build, every test).
SHELL := /bin/bash
.DEFAULT_GOAL := run

VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/studio
export DJANGO_SETTINGS_MODULE ?= studio.settings.local

.PHONY: run dev test install build migrate seed serve chromium pdf-packages test-python test-postgres test-islands test-lighthouse test-api test-imports lighthouse lint bench clean

$(VENV)/.installed: requirements.txt
	@test -x $(PY) || "$$(scripts/find-python.sh)" -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.txt
	@touch $@

# `npm ci`: exactly the committed lock (which lists every platform's optional packages), never rewriting it.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: $(VENV)/.installed node_modules/.installed

build: node_modules/.installed
	npm run --silent build

migrate: $(VENV)/.installed
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo

# The site as it runs in production, on the embedded defaults: gunicorn with DEBUG off (static files through
# whitenoise), the task worker and the scheduler (Procfile), started and stopped together by honcho; e-mails are
# printed, readable, by the worker. GUNICORN_WORKERS (default 2) sets the web workers.
serve:
	DJANGO_DEBUG=false $(PY) manage.py collectstatic --noinput -v 0
	@echo "Le site tourne sur http://$(HOST):$(PORT) : gunicorn, worker et planificateur (Ctrl+C arrête les trois)"
	DJANGO_DEBUG=false GUNICORN_BIND=$(HOST):$(PORT) GUNICORN_WORKERS=$${GUNICORN_WORKERS:-2} PYTHONUNBUFFERED=1 \
	  SITE_URL=$${SITE_URL:-http://$(HOST):$(PORT)} \
	  $(VENV)/bin/honcho start -f Procfile

run: install pdf-packages build seed serve

# For developers: runserver with DEBUG and autoreload, webpack rebuilding the islands on change, worker, scheduler.
dev: install pdf-packages seed
	@echo "Développement sur http://$(HOST):$(PORT) (DEBUG, rechargement automatique ; Ctrl+C pour arrêter)"
	DJANGO_DEBUG=true HOST=$(HOST) PORT=$(PORT) PYTHONUNBUFFERED=1 SITE_URL=$${SITE_URL:-http://$(HOST):$(PORT)} \
	  $(VENV)/bin/honcho start -f Procfile.dev

# Invoice PDFs embed DejaVu Sans with Droid Sans Fallback (Chinese, Japanese, Korean) and Symbola (emoji) for the
# characters it lacks (studio/pdf.py); the tests read the PDFs back with poppler's pdftotext and pdffonts.
PDF_PACKAGES := fonts-dejavu-core fonts-droid-fallback fonts-symbola poppler-utils
pdf-packages:
	@dpkg -s $(PDF_PACKAGES) >/dev/null 2>&1 || { \
	  echo "Installing Debian's $(PDF_PACKAGES) for the invoice PDFs"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(PDF_PACKAGES); }

chromium:
	@command -v /usr/bin/chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

# Every suite leaves its counts in $(RESULTS); `make test` runs them all, whatever fails, and ends with one line
# `N passed, N failed[, N skipped]` (scripts/test_totals.py), exiting non-zero when any suite failed.
RESULTS := .test-results
SUITES := imports vitest pytest-sqlite pytest-postgres lighthouse openapi schemathesis
# Run alone, a suite installs and builds first; inside `make test` that was done once already.
SUITE_PREREQS = $(if $(PREREQS_DONE),,install pdf-packages build chromium)

# The import contract (.importlinter): apps depend one way, the core imports no app, production code imports no demo
# data. Each contract counts as one test: kept passes, broken fails.
test-imports: $(if $(PREREQS_DONE),,$(VENV)/.installed)
	@mkdir -p $(RESULTS)
	@$(VENV)/bin/lint-imports --no-cache > $(RESULTS)/imports.txt 2>&1; status=$$?; cat $(RESULTS)/imports.txt; \
	sed -nE 's/^Contracts: ([0-9]+) kept, ([0-9]+) broken.*$$/{"passed": \1, "failed": \2}/p' $(RESULTS)/imports.txt \
	  > $(RESULTS)/imports.json; \
	test -s $(RESULTS)/imports.json || rm -f $(RESULTS)/imports.json; \
	if [ $$status -ne 0 ]; then touch $(RESULTS)/imports.crashed; exit 1; fi

test-islands: node_modules/.installed
	@mkdir -p $(RESULTS)
	npm run --silent test -- --reporter=default --reporter=json --outputFile.json=$(RESULTS)/vitest.json \
	  || { touch $(RESULTS)/vitest.crashed; exit 1; }

test-python: $(SUITE_PREREQS)
	@mkdir -p $(RESULTS)
	DJANGO_SETTINGS_MODULE=studio.settings.test $(VENV)/bin/pytest --junitxml=$(RESULTS)/pytest-sqlite.xml \
	  || { touch $(RESULTS)/pytest-sqlite.crashed; exit 1; }

# PostgreSQL runs what SQLite cannot prove: the row-lock races and other database-specific tests (markers `postgres`
# and `database`), not the whole suite a second time.
test-postgres: $(SUITE_PREREQS)
	@mkdir -p $(RESULTS)
	@if scripts/pg-available.sh $(PY); then \
	  echo "== Database-specific tests on PostgreSQL ($(PG_URL)) =="; \
	  DATABASE_URL=$(PG_URL) DJANGO_SETTINGS_MODULE=studio.settings.test $(VENV)/bin/pytest -m "postgres or database" \
	    --junitxml=$(RESULTS)/pytest-postgres.xml || { touch $(RESULTS)/pytest-postgres.crashed; exit 1; }; \
	else \
	  echo "PostgreSQL is not reachable on 127.0.0.1:5432: its tests cannot run."; exit 1; \
	fi

# Lighthouse accessibility, best practices and SEO on every public page (performance runs apart: make lighthouse).
test-lighthouse: $(SUITE_PREREQS)
	@mkdir -p $(RESULTS)
	$(PY) bench/lighthouse.py --no-performance --runs 1 --report $(RESULTS)/lighthouse.json \
	  || { touch $(RESULTS)/lighthouse.crashed; exit 1; }

# The OpenAPI schema validates, and schemathesis against a live gunicorn, bounded in time: any 5xx fails.
test-api: $(if $(PREREQS_DONE),,install)
	@mkdir -p $(RESULTS)
	@if DJANGO_SETTINGS_MODULE=studio.settings.test $(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null; \
	then echo '{"passed": 1, "failed": 0}' > $(RESULTS)/openapi.json; \
	else echo '{"passed": 0, "failed": 1}' > $(RESULTS)/openapi.json; fi
	$(PY) bench/api_fuzz.py --max-time 90 --report $(RESULTS)/schemathesis.json \
	  || { touch $(RESULTS)/schemathesis.crashed; exit 1; }

test: install pdf-packages build chromium
	@rm -rf $(RESULTS) && mkdir -p $(RESULTS)
	@for suite in test-imports test-islands test-python test-postgres test-lighthouse test-api; do \
	  $(MAKE) --no-print-directory $$suite PREREQS_DONE=1 || echo "($$suite failed)"; \
	done
	@$(PY) scripts/test_totals.py $(RESULTS) $(SUITES)

# Lighthouse on every page, public and logged in (performance ≥ 95, LCP < 2.0 s, CLS < 0.05 and the other categories).
lighthouse: install build chromium
	$(PY) bench/lighthouse.py --runs 3 --logged-in

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) node_modules static/dist frontend/webpack-stats.json .test-uploads

# The performance people feel, one table of goals on PostgreSQL + Redis with the processes `make run` starts; each run
# is written to bench/runs/ and a missed goal fails. BENCH_PROJECT=/path/to/checkout measures another checkout with
# this venv; BENCH_QUICK=1 is a smoke run (bench/README.md).
bench: install pdf-packages build chromium
	@command -v wrk >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk; }
	$(PY) bench/run.py

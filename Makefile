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

.PHONY: run test install build migrate seed serve chromium test-python test-postgres test-islands test-lighthouse test-api lighthouse lint bench clean

$(VENV)/.installed: requirements.txt
	@test -x $(PY) || "$$(scripts/find-python.sh)" -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.txt
	@touch $@

# `npm install` against the committed lock rather than `npm ci`: the registry reachable here does not serve rollup's
# binaries for other platforms, so the lock cannot list them and `npm ci` would refuse it as out of sync.
node_modules/.installed: package.json package-lock.json
	npm install --no-audit --no-fund
	@touch $@

install: $(VENV)/.installed node_modules/.installed

build: node_modules/.installed
	npm run --silent build

migrate: $(VENV)/.installed
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo

serve:
	@echo "Le site tourne sur http://$(HOST):$(PORT)  (Ctrl+C pour arrêter)"
	$(PY) manage.py runserver $(HOST):$(PORT)

run: install build seed serve

chromium:
	@command -v /usr/bin/chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

test-islands: node_modules/.installed
	npm run --silent test

test-python: install build chromium
	DJANGO_SETTINGS_MODULE=studio.settings.test $(VENV)/bin/pytest

test-postgres: install build chromium
	@if scripts/pg-available.sh $(PY); then \
	  echo "== The suite again on PostgreSQL ($(PG_URL)) =="; \
	  DATABASE_URL=$(PG_URL) DJANGO_SETTINGS_MODULE=studio.settings.test $(VENV)/bin/pytest; \
	else \
	  echo "PostgreSQL is not reachable on 127.0.0.1:5432: the PostgreSQL run (and its concurrency tests) is skipped."; \
	fi

# Lighthouse accessibility, best practices and SEO on every public page (performance runs apart: make lighthouse).
test-lighthouse: install build chromium
	$(PY) bench/lighthouse.py --no-performance --runs 1

# schemathesis against a live gunicorn from the OpenAPI schema, bounded in time: any 5xx fails.
test-api: install
	DJANGO_SETTINGS_MODULE=studio.settings.test $(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null
	$(PY) bench/api_fuzz.py --max-time 90

test: install build chromium test-islands test-python test-postgres test-lighthouse test-api

lighthouse: install build chromium
	$(PY) bench/lighthouse.py --runs 3

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) node_modules static/dist frontend/webpack-stats.json .test-uploads

bench: install build
	@command -v wrk >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk; }
	$(PY) bench/run.py

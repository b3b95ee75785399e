#!/usr/bin/env bash
# Exit 0 when PostgreSQL answers on 127.0.0.1:5432 (starting the local cluster once if it is installed but down).
set -u
PY=${1:-.venv/bin/python}
probe() { "$PY" -c 'import psycopg; psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", connect_timeout=3).close()' 2>/dev/null; }
probe && exit 0
if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start >/dev/null 2>&1 || true
  sleep 2
  probe && exit 0
fi
exit 1

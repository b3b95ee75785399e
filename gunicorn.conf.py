"""gunicorn settings for production; every value can be overridden by GUNICORN_* style env vars or the CLI."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", 2))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Recycle workers now and then (memory hygiene); 0 turns it off (make bench does, to measure the steady state).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 2000))
max_requests_jitter = max_requests // 10
# The application (Django, the URLconf and every view: studio/wsgi.py) is loaded once in the master, before the workers
# fork: a worker, at start and each time one is recycled, then answers its first request without half a second of
# imports, and the workers share that memory. Code changes need a restart (not a HUP). GUNICORN_PRELOAD=false: off.
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").lower() not in ("0", "false", "no")

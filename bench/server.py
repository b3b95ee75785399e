"""Start the site with gunicorn and the production settings on 127.0.0.1, for the benchmark and Lighthouse."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_env(workdir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.setdefault("DATABASE_URL", f"sqlite:///{workdir / 'site.sqlite3'}")
    env.update(
        DJANGO_SETTINGS_MODULE="studio.settings.production",
        DJANGO_SECRET_KEY="local-measurement-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_SECURE_HSTS_SECONDS="0",
        MEDIA_ROOT=str(workdir / "uploads"),
        LOG_LEVEL="ERROR",
        MAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        # The SQLite run measures with the local-memory cache; production proper refuses it (docs/decisions.md 31).
        DJANGO_ALLOW_UNSHARED_CACHE="true",
    )
    return env


def manage(env: dict, *args: str) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def prepare(env: dict, seed_command: str = "seed_demo") -> None:
    manage(env, "migrate", "--noinput")
    manage(env, seed_command)
    manage(env, "collectstatic", "--noinput")


@contextmanager
def gunicorn(env: dict, workdir: Path, workers: str = "4"):
    """Yield the base URL of a running gunicorn; stop it afterwards."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = workdir / "gunicorn.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [
                PY, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
                "--workers", workers, "--threads", "1", "--access-logfile", "/dev/null", "studio.wsgi",
            ],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            last_error = None
            for _ in range(60):
                try:
                    urllib.request.urlopen(base + "/", timeout=30).read()
                    break
                except OSError as error:
                    last_error = error
                    if server.poll() is not None:
                        break
                    time.sleep(0.5)
            else:
                raise RuntimeError(f"gunicorn did not answer: {last_error}\n{log_path.read_text()[-3000:]}")
            if server.poll() is not None:
                raise RuntimeError(log_path.read_text())
            yield base, server
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()

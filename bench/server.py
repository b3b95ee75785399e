"""Start the site with gunicorn and the production settings on 127.0.0.1, for the benchmark and Lighthouse.

`root` is the checkout served (make bench's BENCH_PROJECT may name another one); this venv runs it.
"""

import json
import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)s'
VENV_BIN = Path(PY).parent


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


def manage(env: dict, *args: str, root: Path = ROOT) -> None:
    subprocess.run([PY, "manage.py", *args], cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)


def prepare(env: dict, seed_command: str = "seed_demo", *seed_args: str, root: Path = ROOT) -> None:
    manage(env, "migrate", "--noinput", root=root)
    manage(env, seed_command, *seed_args, root=root)
    manage(env, "collectstatic", "--noinput", root=root)


def wait_until_served(base: str, web: subprocess.Popen, log_path: Path) -> None:
    last_error = None
    for _ in range(120):
        try:
            urllib.request.urlopen(base + "/", timeout=30).read()
            return
        except OSError as error:
            last_error = error
            if web.poll() is not None:
                break
            time.sleep(0.5)
    raise RuntimeError(f"gunicorn did not answer: {last_error}\n{log_path.read_text(errors='replace')[-3000:]}")


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def site(env: dict, workdir: Path, *, root: Path = ROOT, workers: str = "2"):
    """The processes `make serve` starts, from the checkout's Procfile (gunicorn with gunicorn.conf.py, the task
    worker, the scheduler), with this venv's programs; yields the base URL and stops them all afterwards. The web
    process's output (its access log) is `workdir / "web.log"`.

    gunicorn as `make serve` sets it (GUNICORN_WORKERS, 2 by default, and gunicorn.conf.py's threads), except that
    workers are not recycled (GUNICORN_MAX_REQUESTS=0): a measure does not straddle a worker's cold start."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **env,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": workers,
        "GUNICORN_MAX_REQUESTS": "0",
        # Each access line ends with the request's time in the server (ms), which row 2 reads, whatever the
        # measured checkout's gunicorn.conf.py says.
        "GUNICORN_CMD_ARGS": f"--access-logformat '{ACCESS_LOG_FORMAT}'",
        "PYTHONUNBUFFERED": "1",
        "SITE_URL": base,
    }
    processes: dict[str, subprocess.Popen] = {}
    logs = []
    try:
        for line in (root / "Procfile").read_text().splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, command = (part.strip() for part in line.split(":", 1))
            argv = [
                str(VENV_BIN / arg.removeprefix(".venv/bin/")) if arg.startswith(".venv/bin/") else arg
                for arg in shlex.split(command)
            ]
            log = open(workdir / f"{name}.log", "wb")  # noqa: SIM115 - closed in finally
            logs.append(log)
            processes[name] = subprocess.Popen(argv, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        wait_until_served(base, processes["web"], workdir / "web.log")
        yield base, processes
    finally:
        stop(list(processes.values()))
        for log in logs:
            log.close()


@contextmanager
def gunicorn(env: dict, workdir: Path, workers: str = "4", *, root: Path = ROOT):
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
            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
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


def shell(env: dict, script: str, *, root: Path = ROOT, **extra_env: str) -> dict:
    """Run a bench script (a file of bench/) inside `root`'s `manage.py shell`; its last output line is JSON."""
    code = (Path(__file__).resolve().parent / script).read_text()
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", code],
        cwd=root,
        env={**env, **extra_env},
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"{script} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])

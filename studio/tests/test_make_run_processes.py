"""`make run` serves the site from several processes (two gunicorn workers, the task worker, the scheduler) on the
embedded defaults, without Redis. What one process changes in the cache, every other sees: the anonymous page cache
dropped after a staff change, and the login lock-out counted per address whichever worker answers."""

import os
import subprocess
import urllib.error
import urllib.request

import pytest

from bench.server import PY, ROOT, gunicorn

pytestmark = pytest.mark.skipif(os.environ.get("REDIS_URL"), reason="the embedded defaults run without Redis")

RENAME = """
from courses.models import Tariff
tariff = Tariff.objects.get(title="Carte Découverte Partagée")
tariff.title = "Carte Découverte Renommée"
tariff.save()
"""
CREATE = """
from decimal import Decimal
from accounts.models import User
from courses.models import Tariff
Tariff.objects.create(
    title="Carte Découverte Partagée", type="forfait", price=Decimal("50.00"), frequency="", validity=""
)
User.objects.create_user(
    email="membre@example.fr", password="Bon-mot-de-passe-2026", email_confirmed_at="2026-01-01T00:00:00Z"
)
"""


@pytest.fixture
def embedded_site(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(
        DJANGO_SETTINGS_MODULE="studio.settings.local",
        DJANGO_DEBUG="false",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        CACHE_DIR=str(tmp_path / "cache"),
        MEDIA_ROOT=str(tmp_path / "uploads"),
        STATIC_ROOT=str(tmp_path / "static"),
        LOG_LEVEL="ERROR",
    )

    def manage(*args):
        subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)

    manage("migrate", "--noinput")
    manage("collectstatic", "--noinput")
    manage("shell", "-c", CREATE)
    with gunicorn(env, tmp_path, workers="2") as (base, _server):
        yield base, manage


def _get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


def _login(base, password):
    request = urllib.request.Request(
        f"{base}/api/users/login",
        data=f'{{"email": "membre@example.fr", "password": "{password}"}}'.encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_tariff_renamed_in_one_process_shows_on_every_following_request(embedded_site):
    base, manage = embedded_site
    for _ in range(10):  # each worker caches the page for visitors
        assert "Carte Découverte Partagée" in _get(f"{base}/tarifs")
    manage("shell", "-c", RENAME)
    pages = [_get(f"{base}/tarifs") for _ in range(20)]
    assert all("Carte Découverte Renommée" in page and "Carte Découverte Partagée" not in page for page in pages)


def test_the_sixth_wrong_password_is_refused_whichever_worker_answers(embedded_site):
    base, _manage = embedded_site
    assert [_login(base, "mauvais") for _ in range(5)] == [401] * 5
    assert [_login(base, "mauvais") for _ in range(6)] == [429] * 6
    assert _login(base, "Bon-mot-de-passe-2026") == 429  # locked out for the cool-off, right password or not


def test_installing_the_islands_dependencies_leaves_the_lock_as_committed(tmp_path):
    """`make run` installs with npm; a lock missing some platform's optional packages is rewritten on the first run,
    leaving a newcomer's tree dirty."""
    for name in ("package.json", "package-lock.json"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    subprocess.run(
        ["npm", "install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    assert (tmp_path / "package-lock.json").read_bytes() == (ROOT / "package-lock.json").read_bytes()

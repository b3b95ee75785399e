"""Lighthouse (mobile settings) on every page, median of N runs, against gunicorn + production settings.

    python bench/lighthouse.py                      # all four categories, 3 runs, public and logged-in pages
    python bench/lighthouse.py --no-performance --runs 1   # what make test runs (public pages)

Fails (exit 1) under performance 95, accessibility 100, best practices 95, SEO 100 (public pages), and, with the
performance category, at a median Largest Contentful Paint of 2.0 s or more or a median Cumulative Layout Shift of
0.05 or more.
`--logged-in` adds the member's and the staff's pages (as seed_demo's member and admin, with a session cookie);
`make lighthouse` passes it. `make bench` runs `audit` against its own server (bench/run.py).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import PY, ROOT, gunicorn, prepare, production_env  # noqa: E402

sys.path.insert(0, str(ROOT))
from studio.public_pages import PUBLIC_PAGES  # noqa: E402

THRESHOLDS = {"performance": 95, "accessibility": 100, "best-practices": 95, "seo": 100}
LCP_LIMIT_MS = 2000  # below
CLS_LIMIT = 0.05  # below
# The pages behind a login, by whose session opens them.
MEMBER_PAGES = ["/my-courses", "/user/profile", "/user/messages", "/user/requests"]
STAFF_PAGES = ["/admin/dashboard", "/admin/sessions", "/admin/overview"]

COOKIES_CODE = """
import json
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from accounts.models import User
from courses.models import Course
def cookie(email):
    user = User.objects.get(email=email)
    s = import_module(settings.SESSION_ENGINE).SessionStore()
    s[SESSION_KEY] = str(user.pk); s[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    s[HASH_SESSION_KEY] = user.get_session_auth_hash(); s.save()
    return s.session_key
print(json.dumps({"member": cookie("membre@studio-pole-danse.fr"), "staff": cookie("admin@studio-pole-danse.fr"),
                  "course": Course.objects.order_by("pk").values_list("pk", flat=True)[0]}))
"""


def demo_accounts(env: dict, root: Path = ROOT) -> dict:
    """Session cookies of seed_demo's member and admin, and the first course's id."""
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", COOKIES_CODE], cwd=root, env=env, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def pages_and_cookies(accounts: dict, logged_in: bool) -> tuple[list[str], dict]:
    """The pages to audit, and the browser cookies of those behind a login."""
    pages = [*PUBLIC_PAGES, f"/courses/{accounts['course']}"]
    cookies = {}
    if logged_in:
        for who, who_pages in (("member", MEMBER_PAGES), ("staff", STAFF_PAGES)):
            for page in who_pages:
                pages.append(page)
                cookies[page] = {"sessionid": accounts[who]}
    return pages, cookies


def audit(base: str, pages: list[str], runs: int, categories: list[str], cookies: dict | None = None) -> dict:
    """Lighthouse's answer for each page: {page: {category: [scores], metrics: [...], failing: [...]}}."""
    out = subprocess.run(
        ["node", "bench/lighthouse.mjs", base, str(runs), ",".join(categories), *pages],
        cwd=ROOT,
        env={**os.environ, "LIGHTHOUSE_COOKIES": json.dumps(cookies or {})},
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def medians(scores: dict, categories: list[str]) -> dict:
    """Each page's median score per category and, with performance, median LCP (ms) and CLS."""
    result = {}
    for page, data in scores.items():
        row = {c: statistics.median(data[c]) for c in categories}
        if "performance" in categories:
            # -1: Lighthouse could not measure it (the page did not load): worse than any limit.
            lcp = [m["lcp"] if m["lcp"] >= 0 else float("inf") for m in data["metrics"]]
            cls = [m["cls"] if m["cls"] >= 0 else float("inf") for m in data["metrics"]]
            row["lcp_ms"], row["cls"] = statistics.median(lcp), statistics.median(cls)
        row["failing"] = data.get("failing", [])
        result[page] = row
    return result


def checked(category: str, page: str, private: set[str]) -> bool:
    """SEO is not asked of the pages behind a login: they tell search engines not to index them, on purpose."""
    return not (category == "seo" and page in private)


def failures_of(rows: dict, categories: list[str], private: set[str] = frozenset()) -> list[str]:
    failures = []
    for page, row in rows.items():
        for c in categories:
            if checked(c, page, private) and row[c] < THRESHOLDS[c]:
                failures.append(f"{page} {c} {row[c]:.0f} < {THRESHOLDS[c]} (audits: {row['failing']})")
        if "performance" in categories:
            if row["lcp_ms"] >= LCP_LIMIT_MS:
                failures.append(f"{page} LCP {row['lcp_ms'] / 1000:.2f} s ≥ {LCP_LIMIT_MS / 1000:.1f} s")
            if row["cls"] >= CLS_LIMIT:
                failures.append(f"{page} CLS {row['cls']:.3f} ≥ {CLS_LIMIT}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-performance", action="store_true")
    parser.add_argument("--logged-in", action="store_true", help="also the member's and the staff's pages")
    parser.add_argument("--report", type=Path, help="write {passed, failed} (one check per page and category) here")
    parser.add_argument("pages", nargs="*")
    args = parser.parse_args()
    categories = [c for c in THRESHOLDS if not (args.no_performance and c == "performance")]

    workdir = Path(tempfile.mkdtemp(prefix="studio-lighthouse-"))
    env = production_env(workdir)
    prepare(env, "seed_demo")
    accounts = demo_accounts(env)
    pages, cookies = pages_and_cookies(accounts, args.logged_in)
    pages = args.pages or pages
    with gunicorn(env, workdir, "2") as (base, _server):
        scores = audit(base, pages, args.runs, categories, cookies)
    rows = medians(scores, categories)
    failures = failures_of(rows, categories, set(cookies))

    extra = ["LCP s", "CLS"] if "performance" in categories else []
    print("\n| page | " + " | ".join(categories + extra) + " |")
    print("|---|" + "---:|" * (len(categories) + len(extra)))
    for page in pages:
        row = rows[page]
        cells = [
            f"{row[c]:.0f}{'' if row[c] >= THRESHOLDS[c] else ' ✗'}" if checked(c, page, set(cookies)) else "n/a"
            for c in categories
        ]
        if extra:
            cells.append(f"{row['lcp_ms'] / 1000:.2f}{'' if row['lcp_ms'] < LCP_LIMIT_MS else ' ✗'}")
            cells.append(f"{row['cls']:.3f}{'' if row['cls'] < CLS_LIMIT else ' ✗'}")
        print(f"| {page} | " + " | ".join(cells) + " |")
    if "performance" in categories:
        # Each run's timings (ms; CLS unitless), to see what the performance score stands on.
        print("\n| page | run | FCP | LCP | TBT | Speed Index | CLS | performance |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for page in pages:
            runs = zip(scores[page]["metrics"], scores[page]["performance"], strict=True)
            for run, (m, score) in enumerate(runs, 1):
                cells = f"{m['fcp']} | {m['lcp']} | {m['tbt']} | {m['si']} | {m['cls']:.3f} | {score}"
                print(f"| {page} | {run} | {cells} |")
    if args.report:
        checks = sum(checked(c, p, set(cookies)) for p in pages for c in categories) + len(pages) * len(extra)
        args.report.write_text(json.dumps({"passed": checks - len(failures), "failed": len(failures)}))
    if failures:
        print("\nUnder the thresholds:\n  " + "\n  ".join(failures))
        return 1
    print("\nEvery page meets the thresholds.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

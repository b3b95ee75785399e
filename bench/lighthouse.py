"""Lighthouse on every public page (mobile settings), median of N runs, against gunicorn + production settings.

    python bench/lighthouse.py                      # all four categories, 3 runs (make lighthouse)
    python bench/lighthouse.py --no-performance --runs 1   # what make test runs

Fails (exit 1) under performance 90, accessibility 100, best practices 95, SEO 100.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import PY, ROOT, gunicorn, prepare, production_env  # noqa: E402

sys.path.insert(0, str(ROOT))
from studio.public_pages import PUBLIC_PAGES  # noqa: E402

THRESHOLDS = {"performance": 90, "accessibility": 100, "best-practices": 95, "seo": 100}


def first_course_path(env) -> str:
    code = "from courses.models import Course; print(Course.objects.order_by('pk').values_list('pk', flat=True)[0])"
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return f"/courses/{out.stdout.strip().splitlines()[-1]}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-performance", action="store_true")
    parser.add_argument("--report", type=Path, help="write {passed, failed} (one check per page and category) here")
    parser.add_argument("pages", nargs="*")
    args = parser.parse_args()
    categories = [c for c in THRESHOLDS if not (args.no_performance and c == "performance")]

    workdir = Path(tempfile.mkdtemp(prefix="studio-lighthouse-"))
    env = production_env(workdir)
    prepare(env, "seed_demo")
    pages = args.pages or [*PUBLIC_PAGES, first_course_path(env)]
    with gunicorn(env, workdir, "2") as (base, _server):
        out = subprocess.run(
            ["node", "bench/lighthouse.mjs", base, str(args.runs), ",".join(categories), *pages],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        )
    scores = json.loads(out.stdout)

    failures = []
    print("\n| page | " + " | ".join(categories) + " |")
    print("|---|" + "---:|" * len(categories))
    for page in pages:
        medians = {c: statistics.median(scores[page][c]) for c in categories}
        cells = []
        for c in categories:
            mark = "" if medians[c] >= THRESHOLDS[c] else " ✗"
            cells.append(f"{medians[c]:.0f}{mark}")
            if medians[c] < THRESHOLDS[c]:
                failures.append(f"{page} {c} {medians[c]:.0f} < {THRESHOLDS[c]} (audits: {scores[page]['failing']})")
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
        checks = len(pages) * len(categories)
        args.report.write_text(json.dumps({"passed": checks - len(failures), "failed": len(failures)}))
    if failures:
        print("\nUnder the thresholds:\n  " + "\n  ".join(failures))
        return 1
    print("\nEvery page meets the thresholds.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The API under schemathesis: the OpenAPI schema from /api/schema/ drives generated requests against a live
gunicorn with the production settings, as staff (a bearer token), with every check schemathesis has.

    python bench/api_fuzz.py [--max-time 180]

Exit 1 on any failure of any check: a server error, an undocumented status code, a response that
violates the schema, a schema-valid request rejected or a schema-violating one accepted.

    python bench/api_fuzz.py --include-path-regex '^/api/users'   # one part of the API while working on it
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import PY, ROOT, gunicorn, prepare, production_env  # noqa: E402


def staff_token(env) -> str:
    code = (
        "from rest_framework_simplejwt.tokens import RefreshToken;"
        "from accounts.models import User;"
        "u = User.objects.filter(role='admin').order_by('pk').first();"
        "print(RefreshToken.for_user(u).access_token)"
    )
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return out.stdout.strip().splitlines()[-1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-time", type=int, default=150)
    parser.add_argument("--max-examples", type=int, default=25)
    parser.add_argument("--report", type=Path, help="write {passed, failed} (one check: no failure at all) here")
    parser.add_argument("--include-path-regex", help="only the operations whose path matches")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="studio-fuzz-"))
    env = production_env(workdir)
    env.update(JWT_ACCESS_MINUTES="120", API_ANON_RATE="100000/min", API_USER_RATE="100000/min")
    # The code checks' per-address limits would answer most of the run 429: the fuzz reaches past them.
    env.update(RATE_PROMO_CHECK="100000/m", RATE_GIFT_CARD_CHECK="100000/m")
    prepare(env, "seed_demo")
    token = staff_token(env)
    with gunicorn(env, workdir, "2") as (base, _server):
        cmd = [
            str(Path(PY).parent / "schemathesis"), "run", f"{base}/api/schema/",
            # Every check runs: schemathesis enables them all by default. They are not named with `--checks all`,
            # which would override schemathesis.toml's per-operation exceptions in the stateful phase.
            "--header", f"Authorization: Bearer {token}",
            "--max-time", str(args.max_time),
            "--max-examples", str(args.max_examples),
            "--workers", "2",
            "--seed", "2026",
            "--generation-database", "none",
            "--request-timeout", "20",
            "--no-color",
            "--report", "junit",
            "--report-dir", str(workdir / "report"),
        ]  # fmt: skip
        if args.include_path_regex:
            cmd += ["--include-path-regex", args.include_path_regex]
        result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    output = result.stdout + result.stderr
    results_dir = ROOT / "bench" / "results"
    results_dir.mkdir(parents=True, exist_ok=True)
    name = "last" if not args.include_path_regex else re.sub(r"\W+", "_", args.include_path_regex).strip("_")
    (results_dir / f"schemathesis-{name}.txt").write_text(output)
    summary = output[output.find("=== SUMMARY") - 40 :] if "=== SUMMARY" in output else output[-4000:]
    print(summary)
    print(f"Full output: bench/results/schemathesis-{name}.txt")
    failures = re.findall(r"^  ❌ (ST\d+ [^:]+): (\d+)$", output, flags=re.MULTILINE)
    errored = result.returncode != 0 and not failures
    if args.report:
        args.report.write_text(
            json.dumps({"passed": 0 if failures or errored else 1, "failed": 1 if failures or errored else 0})
        )
    if failures:
        total = sum(int(count) for _name, count in failures)
        print(f"\n{total} schemathesis finding(s): " + ", ".join(f"{name} {count}" for name, count in failures))
        return 1
    if errored:
        print(f"\nschemathesis exited {result.returncode} without a summary of failures: see the full output.")
        return 1
    print("\nschemathesis: no failure under any check.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

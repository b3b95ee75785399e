"""Add up what every suite of `make test` reported and print one line: `N passed, N failed[, N skipped]`.

Each suite leaves its report in the results folder under its own name:
- `<suite>.xml`: a JUnit report (pytest's --junitxml);
- `<suite>.json`: either Vitest's JSON report (numPassedTests…) or our own `{"passed", "failed", "skipped"}`
  (Lighthouse, the API checks).
A suite whose command failed leaves `<suite>.crashed`: if its report counts no failure (pytest stopped by a usage or
collection error, say), that counts as one failure. A suite named on the command line that left no report crashed
before it could count: it counts as one failure, so a broken suite can never pass unnoticed.
Exit 1 when anything failed.

Usage: test_totals.py RESULTS_DIR SUITE [SUITE ...]
"""

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def junit_counts(path: Path) -> tuple[int, int, int]:
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    tests = failed = skipped = 0
    for suite in suites:
        tests += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return tests - failed - skipped, failed, skipped


def json_counts(path: Path) -> tuple[int, int, int]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if "numPassedTests" in data:  # Vitest's (Jest-compatible) JSON reporter
        failed = data["numFailedTests"]
        if not data.get("success", failed == 0) and failed == 0:
            failed = 1  # a test file that failed to load counts no test but fails the run
        return data["numPassedTests"], failed, data.get("numPendingTests", 0) + data.get("numTodoTests", 0)
    return int(data["passed"]), int(data["failed"]), int(data.get("skipped", 0))


def suite_counts(results: Path, suite: str) -> tuple[int, int, int]:
    passed, failed, skipped = report_counts(results, suite)
    if failed == 0 and (results / f"{suite}.crashed").exists():
        print(f"{suite}: the command failed although its report counts no failure: counted as one failure")
        failed = 1
    return passed, failed, skipped


def report_counts(results: Path, suite: str) -> tuple[int, int, int]:
    for path, reader in ((results / f"{suite}.xml", junit_counts), (results / f"{suite}.json", json_counts)):
        if path.exists():
            try:
                return reader(path)
            except (ValueError, KeyError, ET.ParseError) as exc:
                print(f"{suite}: unreadable report {path.name} ({exc}): counted as one failure")
                return 0, 1, 0
    print(f"{suite}: no report (the suite did not run to the end): counted as one failure")
    return 0, 1, 0


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    results = Path(argv[1])
    passed = failed = skipped = 0
    print("\nSuites:")
    for suite in argv[2:]:
        p, f, s = suite_counts(results, suite)
        print(f"  {suite:<22} {p:>5} passed {f:>4} failed {s:>4} skipped")
        passed, failed, skipped = passed + p, failed + f, skipped + s
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""`make test` runs pytest with the `testpaths` of pytest.ini: an app whose tests folder is missing from it has its
tests never run, in CI or anywhere, while they look present."""

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_folder_with_tests_is_in_pytest_testpaths():
    config = configparser.ConfigParser()
    config.read(ROOT / "pytest.ini")
    testpaths = set(config["pytest"]["testpaths"].split())
    with_tests = {
        path.parent.parent.name
        for path in ROOT.glob("*/tests/test_*.py")
        if path.parent.parent.name not in {"node_modules", "bench", "frontend"}
    }
    assert with_tests, "no test found: the search itself is wrong"
    assert sorted(with_tests - testpaths) == []

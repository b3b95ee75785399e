import pytest


@pytest.fixture
def stored_files(settings):
    """The files under MEDIA_ROOT now (a fresh temporary folder per test)."""

    def _list():
        from pathlib import Path

        root = Path(settings.MEDIA_ROOT)
        return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) if root.exists() else []

    return _list

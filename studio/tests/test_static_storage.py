"""The static storage works each URL out once and gives the same URLs as whitenoise's storage."""

import json

import pytest
from whitenoise.storage import CompressedManifestStaticFilesStorage

from studio.static_storage import StudioStaticFilesStorage


@pytest.fixture
def manifest_dir(tmp_path):
    paths = {"css/site.css": "css/site.0123abcd.css", "img/logo.svg": "img/logo.89ef4567.svg"}
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": paths, "version": "1.1", "hash": "x"}))
    return tmp_path


def test_urls_are_whitenoises_and_worked_out_once(manifest_dir, monkeypatch, settings):
    settings.DEBUG = False
    ours = StudioStaticFilesStorage(location=str(manifest_dir), base_url="/static/")
    theirs = CompressedManifestStaticFilesStorage(location=str(manifest_dir), base_url="/static/")
    for name in ("css/site.css", "img/logo.svg"):
        assert ours.url(name) == theirs.url(name)
    assert ours.url("css/site.css") == "/static/css/site.0123abcd.css"

    calls = []
    original = CompressedManifestStaticFilesStorage.url
    monkeypatch.setattr(
        CompressedManifestStaticFilesStorage, "url", lambda self, *a, **k: calls.append(a) or original(self, *a, **k)
    )
    for _ in range(3):
        assert ours.url("img/logo.svg") == "/static/img/logo.89ef4567.svg"
    assert calls == []


def test_a_file_missing_from_the_manifest_still_fails_and_is_not_remembered(manifest_dir, settings):
    settings.DEBUG = False
    ours = StudioStaticFilesStorage(location=str(manifest_dir), base_url="/static/")
    for _ in range(2):
        with pytest.raises(ValueError):
            ours.url("css/missing.css")
    assert "css/missing.css" not in ours._urls

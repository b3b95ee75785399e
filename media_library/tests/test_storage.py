"""Uploads go through Django's storage API: local disk by default, an S3-compatible bucket when configured."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.storage import InMemoryStorage, default_storage
from django.test import override_settings

from media_library import services
from media_library.models import SlideshowImage

from . import files

ROOT = Path(__file__).resolve().parents[2]
IN_MEMORY = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
S3 = {
    "default": {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": "studio-uploads",
            "custom_domain": "cdn.example.com",
            "querystring_auth": False,
            "access_key": "test",
            "secret_key": "test",
        },
    },
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


@pytest.mark.django_db
def test_every_file_goes_through_the_configured_storage(stored_files):
    with override_settings(STORAGES=IN_MEMORY):
        slide = services.slideshow_image_create(image=files.jpeg(size=(1600, 900)))
        assert isinstance(SlideshowImage._meta.get_field("image").storage._wrapped, InMemoryStorage)
        assert default_storage.exists(slide.image.name)
        for _width, name in slide.renditions["webp"]:
            assert default_storage.exists(name)
    assert stored_files() == []  # nothing on the local disk


@pytest.mark.django_db
def test_s3_storage_builds_bucket_urls_without_a_live_bucket(api_client):
    from storages.backends.s3 import S3Storage

    with override_settings(STORAGES=S3):
        default_storage.exists  # noqa: B018 - set the lazy storage up
        assert isinstance(default_storage._wrapped, S3Storage)
        SlideshowImage.objects.create(image="slideshow/abc.jpg", width=1600, height=900, renditions={})
        body = api_client.get("/api/slideshow-images").json()
    assert body[0]["image_url"] == "https://cdn.example.com/slideshow/abc.jpg"


def test_settings_switch_to_s3_when_a_bucket_is_configured():
    script = "from django.conf import settings; import json; print(json.dumps(settings.STORAGES['default']))"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "studio.settings.base", "AWS_STORAGE_BUCKET_NAME": "studio"}
    env["AWS_S3_ENDPOINT_URL"] = "https://s3.example.com"
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + script],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    storage = json.loads(out.stdout)
    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    assert storage["OPTIONS"]["bucket_name"] == "studio"
    assert storage["OPTIONS"]["endpoint_url"] == "https://s3.example.com"
    env.pop("AWS_STORAGE_BUCKET_NAME")
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + script],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert json.loads(out.stdout)["BACKEND"] == "django.core.files.storage.FileSystemStorage"

"""Private uploads (identity documents): never served from the public uploads, kept on a storage of their own."""

import io
from pathlib import Path

import pytest
from django.test import override_settings

S3_OPTIONS = {
    "bucket_name": "studio-uploads",
    "custom_domain": "cdn.example.com",
    "querystring_auth": False,
    "access_key": "test",
    "secret_key": "test",
    "file_overwrite": False,
}


@pytest.mark.parametrize(
    "path",
    [
        "justificatifs/reste.png",
        "./justificatifs/reste.png",
        "slider/../justificatifs/reste.png",
        "/justificatifs/reste.png",
        "Justificatifs/reste.png",
        "justificatifs/",
        "justificatifs",
    ],
)
def test_files_left_in_the_public_proofs_folder_are_never_served(client, settings, path):
    folder = Path(settings.MEDIA_ROOT) / "justificatifs"
    folder.mkdir(parents=True)
    (folder / "reste.png").write_bytes(b"\x89PNG a card sent before the private storage")
    assert client.get(f"/uploads/{path}").status_code == 404


def test_other_uploads_are_still_served(client, settings):
    folder = Path(settings.MEDIA_ROOT) / "slider"
    folder.mkdir(parents=True)
    (folder / "a.png").write_bytes(b"\x89PNG slide")
    response = client.get("/uploads/slider/a.png")
    assert response.status_code == 200 and b"".join(response.streaming_content) == b"\x89PNG slide"


def test_the_private_storage_is_outside_media_root_and_has_no_public_address(settings, tmp_path):
    from media_library.private import private_storage

    storage = private_storage()
    name = storage.save("justificatifs/a.png", io.BytesIO(b"card"))
    assert Path(storage.path(name)).is_relative_to(Path(settings.PRIVATE_MEDIA_ROOT))
    assert not Path(storage.path(name)).is_relative_to(Path(settings.MEDIA_ROOT))
    with pytest.raises(ValueError):
        storage.url(name)
    settings.PRIVATE_MEDIA_ROOT = Path(settings.MEDIA_ROOT) / "private"
    with pytest.raises(Exception, match="PRIVATE_MEDIA_ROOT"):
        storage.exists(name)


def test_with_a_bucket_private_files_are_private_objects_under_their_own_prefix():
    from storages.backends.s3 import S3Storage

    from media_library.private import PRIVATE_S3_LOCATION, private_storage

    with override_settings(AWS_STORAGE_BUCKET_NAME="studio-uploads", STORAGE_DEFAULT_OPTIONS=S3_OPTIONS):
        storage = private_storage()
    assert isinstance(storage, S3Storage)
    assert storage.bucket_name == "studio-uploads"
    assert storage.querystring_auth is True and storage.default_acl == "private"
    assert storage.location == PRIVATE_S3_LOCATION and storage.custom_domain is None
    url = storage.url("justificatifs/a.png")
    assert f"/{PRIVATE_S3_LOCATION}/justificatifs/a.png?" in url and "Signature" in url

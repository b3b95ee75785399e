"""Private uploads: identity documents (a reduced rate's proof) that must never have a public address.

On local disk they live under PRIVATE_MEDIA_ROOT, outside MEDIA_ROOT, which Django (serve_upload) or the proxy serve
to anyone; with a bucket, as private objects under their own prefix, readable only with signed requests. Either way
the files are read through the storage by a view that checks who asks, never linked to directly.
"""

import os
import posixpath
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.files.storage import FileSystemStorage, default_storage
from django.utils.deconstruct import deconstructible

# Folders of MEDIA_ROOT that held identity documents before they moved to the private storage: the public uploads
# refuse them, so a file left behind (a failed move, a restored backup) is still not served.
PRIVATE_UPLOAD_DIRS = frozenset({"justificatifs"})
PRIVATE_S3_LOCATION = "private"
# A signed address is only a fallback (the files are streamed by a view): short-lived if one ever leaks.
PRIVATE_S3_URL_SECONDS = 300


def is_private_upload(path: str) -> bool:
    """Whether a path asked of the public uploads falls in a private folder, as the file server would resolve it
    (dots, repeated slashes, a folder named in another case on a case-insensitive disk)."""
    normalized = posixpath.normpath("/" + path.replace("\\", "/")).lstrip("/")
    return normalized.split("/", 1)[0].casefold() in PRIVATE_UPLOAD_DIRS


def private_media_root() -> Path:
    root = getattr(settings, "PRIVATE_MEDIA_ROOT", None) or Path(settings.BASE_DIR) / "private-uploads"
    root = Path(os.path.abspath(root))
    public = Path(os.path.abspath(settings.MEDIA_ROOT))
    if root.is_relative_to(public):
        # Inside MEDIA_ROOT the files would be served to anyone again.
        raise ImproperlyConfigured("PRIVATE_MEDIA_ROOT must be a folder outside MEDIA_ROOT.")
    return root


@deconstructible(path="media_library.private.PrivateFileSystemStorage")
class PrivateFileSystemStorage(FileSystemStorage):
    """Django's disk storage rooted at PRIVATE_MEDIA_ROOT, read at each use (the tests give every test its own
    folder), and without any URL."""

    def __init__(self):
        super().__init__(directory_permissions_mode=0o700, file_permissions_mode=0o600)

    @property
    def base_location(self):
        return str(private_media_root())

    @property
    def location(self):
        return self.base_location

    def url(self, name):
        raise ValueError("A private upload has no public address: link to the view that checks who reads it.")


def private_storage():
    """The storage of private uploads (a FileField's `storage=`, called once when the model loads)."""
    if getattr(settings, "AWS_STORAGE_BUCKET_NAME", ""):
        from storages.backends.s3 import S3Storage

        options = {
            **getattr(settings, "STORAGE_DEFAULT_OPTIONS", {}),
            "bucket_name": settings.AWS_STORAGE_BUCKET_NAME,
            # Whatever the public uploads use: private objects, addresses signed and short-lived, no CDN domain
            # (django-storages does not sign those).
            "querystring_auth": True,
            "querystring_expire": PRIVATE_S3_URL_SECONDS,
            "default_acl": "private",
            "custom_domain": None,
            "location": PRIVATE_S3_LOCATION,
            "file_overwrite": False,
        }
        return S3Storage(**options)
    return PrivateFileSystemStorage()


def private_files_move(model, field_name: str) -> int:
    """Move the files of `model.field_name` from the public storage to the field's (private) one, under the same
    name. Idempotent: a file already moved is only removed from the public side; a row whose file is nowhere is
    skipped. Used by the migration that made the field private, with its historical model. Returns how many moved."""
    private = model._meta.get_field(field_name).storage
    moved = 0
    for pk, name in model.objects.exclude(**{field_name: ""}).values_list("pk", field_name).order_by("pk"):
        if not name or not default_storage.exists(name):
            continue
        if not private.exists(name):
            with default_storage.open(name, "rb") as source:
                saved = private.save(name, source)
            if saved != name:  # taken meanwhile: the row follows its file
                model.objects.filter(pk=pk).update(**{field_name: saved})
            moved += 1
        default_storage.delete(name)
    return moved

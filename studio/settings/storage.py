"""Where files go (docs/decisions.md 22): uploads on local disk or an S3-compatible bucket, static files through
WhiteNoise, backups (django-dbbackup, operations/backups.py, docs/operations.md "Backups") in a folder or a bucket of
their own."""

from .environment import BASE_DIR, env

# Uploads go to local disk unless an S3-compatible bucket is configured.
AWS_STORAGE_BUCKET_NAME = env("AWS_STORAGE_BUCKET_NAME", default="")
if AWS_STORAGE_BUCKET_NAME:
    DEFAULT_FILE_STORAGE_BACKEND = "storages.backends.s3.S3Storage"
    STORAGE_DEFAULT_OPTIONS = {
        "bucket_name": AWS_STORAGE_BUCKET_NAME,
        "endpoint_url": env("AWS_S3_ENDPOINT_URL", default=None),
        "region_name": env("AWS_S3_REGION_NAME", default=None),
        "access_key": env("AWS_ACCESS_KEY_ID", default=None),
        "secret_key": env("AWS_SECRET_ACCESS_KEY", default=None),
        "custom_domain": env("AWS_S3_CUSTOM_DOMAIN", default=None),
        "querystring_auth": env.bool("AWS_QUERYSTRING_AUTH", default=False),
        "file_overwrite": False,
    }
else:
    DEFAULT_FILE_STORAGE_BACKEND = "django.core.files.storage.FileSystemStorage"
    STORAGE_DEFAULT_OPTIONS = {}
# Backups (django-dbbackup, operations/backups.py, docs/operations.md "Backups"): to a local folder, or to a bucket of
# their own (never the public uploads' bucket) when BACKUP_BUCKET is set.
BACKUP_BUCKET = env("BACKUP_BUCKET", default="")
if BACKUP_BUCKET:
    BACKUP_STORAGE = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            **STORAGE_DEFAULT_OPTIONS,
            "bucket_name": BACKUP_BUCKET,
            "location": env("BACKUP_PREFIX", default="backups"),
            "default_acl": "private",
            "querystring_auth": True,
            "custom_domain": None,
            "file_overwrite": False,
        },
    }
else:
    BACKUP_STORAGE = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": str(env.path("BACKUP_DIR", default=BASE_DIR / "backups")),
            "file_permissions_mode": 0o600,
        },
    }
STORAGES = {
    "default": {"BACKEND": DEFAULT_FILE_STORAGE_BACKEND, "OPTIONS": STORAGE_DEFAULT_OPTIONS},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "dbbackup": BACKUP_STORAGE,
}
BACKUP_KEEP = env.int("BACKUP_KEEP", default=14)  # the last N of each kind (database, uploads, private uploads)
DBBACKUP_CLEANUP_KEEP = DBBACKUP_CLEANUP_KEEP_MEDIA = BACKUP_KEEP
# Encrypted with GnuPG for this recipient's public key (imported into the gpg keyring of the user running the worker)
# when set; restored with the private key and its passphrase.
DBBACKUP_GPG_RECIPIENT = env("BACKUP_GPG_RECIPIENT", default=None)
DBBACKUP_GPG_ALWAYS_TRUST = env.bool("BACKUP_GPG_ALWAYS_TRUST", default=True)
# A failed backup is an alert through the outbox (operations/alerts.py), not the library's direct e-mail.
DBBACKUP_SEND_EMAIL = False
BACKUP_CRON = env("BACKUP_CRON", default="30 2 * * *")  # empty: no scheduled backup (a systemd timer instead)
BACKUP_MAX_AGE_HOURS = env.int("BACKUP_MAX_AGE_HOURS", default=25)  # a day, and an hour for the daily run itself

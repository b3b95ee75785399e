"""Backups with django-dbbackup: the database (PostgreSQL's pg_dump in its custom format, SQLite's online backup API
for the embedded default), the uploads (MEDIA_ROOT, or the bucket) and the private uploads (PRIVATE_MEDIA_ROOT),
each gzip-compressed, encrypted with GnuPG when BACKUP_GPG_RECIPIENT is set, written to the backup storage
(STORAGES["dbbackup"]: BACKUP_DIR, or BACKUP_BUCKET), keeping the last BACKUP_KEEP of each.

`backup_run` is the daily job's and `manage.py backup`'s; `restore` is `manage.py restore_backup`'s, step by step in
docs/operations.md ("Backups and restore"). Each run is a `BackupRun`: the alerts and /readyz read the last one."""

import logging
from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage, default_storage
from django.core.management import call_command
from django.db import connections
from django.utils import timezone

from .models import BackupRun

logger = logging.getLogger(__name__)

# dbbackup names a media archive "{servername}-{datetime}.tar.gz": the server name tells the two kinds of uploads
# apart, when listing, cleaning and restoring the latest.
UPLOADS = "uploads"
PRIVATE = "private"


def _private_storage():
    return FileSystemStorage(location=str(settings.PRIVATE_MEDIA_ROOT))


def _media_command(action: str, storage):
    """dbbackup's mediabackup or mediarestore, on `storage` instead of the default one (the private uploads)."""
    if action == "backup":
        from dbbackup.management.commands.mediabackup import Command as Base
    else:
        from dbbackup.management.commands.mediarestore import Command as Base
    from dbbackup.storage import get_storage

    class Command(Base):
        def handle(self, **options):
            self.verbosity, self.quiet = options.get("verbosity"), options.get("quiet")
            self._set_logger_level()
            self.servername = options.get("servername")
            self.storage = get_storage()
            self.media_storage = storage
            if action == "backup":
                self.encrypt, self.compress = options.get("encrypt", False), options.get("compress", False)
                self.filename, self.path = options.get("output_filename"), options.get("output_path")
                self.backup_mediafiles()
                if options.get("clean"):
                    self._cleanup_old_backups(servername=self.servername)
            else:
                self.decrypt, self.uncompress = options.get("decrypt"), options.get("uncompress")
                self.filename, self.path = options.get("input_filename"), options.get("input_path")
                self.replace, self.passphrase = options.get("replace"), options.get("passphrase")
                self.interactive = options.get("interactive")
                self._restore_backup()

    return Command()


def backup_run() -> BackupRun:
    """One full backup, recorded. A failure is recorded (the alert follows) and raised to the caller."""
    from dbbackup.signals import post_backup, post_media_backup

    run = BackupRun.objects.create(started_at=timezone.now())
    files = []
    # A site without any upload yet has no folder: it backs up as an empty archive, not as a failure.
    Path(settings.PRIVATE_MEDIA_ROOT).mkdir(parents=True, exist_ok=True)
    if isinstance(default_storage, FileSystemStorage):
        Path(settings.MEDIA_ROOT).mkdir(parents=True, exist_ok=True)

    def written(sender, **kwargs):
        if kwargs.get("filename"):
            files.append(kwargs["filename"])

    post_backup.connect(written, dispatch_uid="operations-backup")
    post_media_backup.connect(written, dispatch_uid="operations-media-backup")
    options = {"compress": True, "clean": True, "encrypt": bool(settings.DBBACKUP_GPG_RECIPIENT), "verbosity": 0}
    try:
        call_command("dbbackup", database="default", **options)
        call_command("mediabackup", servername=UPLOADS, **options)
        call_command(_media_command("backup", _private_storage()), servername=PRIVATE, **options)
    except BaseException as exc:
        BackupRun.objects.filter(pk=run.pk).update(
            finished_at=timezone.now(), succeeded=False, files=files, error=f"{exc.__class__.__name__}: {exc}"[:2000]
        )
        logger.exception("Backup failed")
        raise
    finally:
        post_backup.disconnect(dispatch_uid="operations-backup")
        post_media_backup.disconnect(dispatch_uid="operations-media-backup")
    BackupRun.objects.filter(pk=run.pk).update(finished_at=timezone.now(), succeeded=True, files=files)
    run.refresh_from_db()
    logger.info("Backup written: %s", ", ".join(files))
    return run


def latest(kind: str) -> str:
    """The newest backup file of a kind: "db", UPLOADS or PRIVATE."""
    from dbbackup.storage import get_storage

    storage = get_storage()
    if kind == "db":
        return storage.get_latest_backup(content_type="db")
    return storage.get_latest_backup(content_type="media", servername=f"{kind}-")


def restore(*, database="default", db_file=None, uploads_file=None, private_file=None, passphrase=None) -> list[str]:
    """Restore a backup into `database` (an alias of DATABASES) and the uploads' storages; the newest files unless
    named. The database is overwritten (PostgreSQL: its objects dropped and recreated; SQLite: its file replaced);
    uploads of the same name are replaced, others are left."""
    names = [db_file or latest("db"), uploads_file or latest(UPLOADS), private_file or latest(PRIVATE)]
    common = {"interactive": False, "verbosity": 0}

    def unpacking(name):
        return {"uncompress": ".gz" in name, "decrypt": name.endswith(".gpg"), "passphrase": passphrase}

    connections[database].close()
    call_command("dbrestore", database=database, input_filename=names[0], **unpacking(names[0]), **common)
    call_command("mediarestore", input_filename=names[1], replace=True, **unpacking(names[1]), **common)
    restore_private = _media_command("restore", _private_storage())
    call_command(restore_private, input_filename=names[2], replace=True, **unpacking(names[2]), **common)
    return names

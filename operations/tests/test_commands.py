"""The operator's commands: a backup now, a restore of the newest backup, with French answers."""

import io

import pytest
from django.core.management import CommandError, call_command

from operations.models import Alert, AlertKind, BackupRun

from .test_backups import backup_storage  # noqa: F401 - the test's own backup folder

pytestmark = pytest.mark.django_db(transaction=True)


def test_backup_prints_the_files_it_wrote(backup_storage):  # noqa: F811
    out = io.StringIO()
    call_command("backup", stdout=out)
    run = BackupRun.objects.get()
    assert run.succeeded
    assert out.getvalue().startswith("Sauvegarde terminée :\n")
    assert all(name in out.getvalue() for name in run.files)
    assert sorted(p.name for p in backup_storage.iterdir() if not p.name.endswith(".metadata")) == sorted(run.files)


def test_a_failed_backup_says_so_in_french_and_raises_the_alert(backup_storage, monkeypatch):  # noqa: F811
    from dbbackup.management.commands import mediabackup

    def full_disk(self, **options):
        raise OSError("No space left on device")

    monkeypatch.setattr(mediabackup.Command, "handle", full_disk)
    with pytest.raises(CommandError, match="^La sauvegarde a échoué : No space left on device$"):
        call_command("backup", stdout=io.StringIO())
    assert Alert.objects.get(kind=AlertKind.BACKUP).message == "La dernière sauvegarde a échoué."


def test_restore_without_any_backup_says_so_and_changes_nothing(backup_storage):  # noqa: F811
    backup_storage.mkdir()
    with pytest.raises(CommandError, match="^Aucune sauvegarde à restaurer"):
        call_command("restore_backup", interactive=False, stdout=io.StringIO())


def test_restore_asks_before_overwriting_and_a_no_changes_nothing(backup_storage, monkeypatch):  # noqa: F811
    call_command("backup", stdout=io.StringIO())
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    restored = []
    monkeypatch.setattr("operations.backups.restore", lambda **kwargs: restored.append(kwargs))
    with pytest.raises(CommandError, match="^Restauration annulée.$"):
        call_command("restore_backup", stdout=io.StringIO())
    assert restored == []

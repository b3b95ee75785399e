"""The restore drill: a backup of a seeded, used site, restored into an empty database and empty upload folders,
gives back the same members, orders, invoices (numbers unchanged, PDFs included) and files. On SQLite (the online
backup API) and on PostgreSQL (pg_dump / pg_restore)."""

import hashlib
import io
import os
import shutil
import subprocess
import uuid
from decimal import Decimal

import pytest
from django.conf import settings as django_settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, default_storage
from django.core.management import call_command
from django.db import connection, connections
from django.db.utils import load_backend

from courses.tests.factories import TariffFactory
from invoices.documents import invoice_document
from invoices.models import Invoice, InvoiceDocument
from invoices.tests.helpers import pay_tariff
from operations import backups
from operations.models import BackupRun
from payments.models import PaymentOrder

pytestmark = pytest.mark.django_db(transaction=True)

RESTORED = "restored"
PHOTO = b"\xff\xd8\xff\xe0 photo du cours de pole" * 100
PROOF = b"%PDF-1.4 justificatif de tarif reduit" * 50


@pytest.fixture
def backup_storage(tmp_path, monkeypatch):
    """Backups to a folder of the test's own (dbbackup reads its storage's options once, at import)."""
    from dbbackup import settings as dbbackup_settings

    folder = tmp_path / "backups"
    monkeypatch.setattr(dbbackup_settings, "STORAGE_OPTIONS", {"location": str(folder)})
    return folder


def used_site(api_client, member, other_member):
    """Two members who paid, an invoice each with its PDF, a course photo and a reduced-rate proof."""
    tariff = TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")
    for who in (member, other_member):
        pay_tariff(api_client, who, tariff)
    for invoice in Invoice.objects.all():
        invoice_document(invoice=invoice)  # the PDF, kept in the database
    default_storage.save("courses/pole-debutant.jpg", ContentFile(PHOTO))
    FileSystemStorage(location=str(django_settings.PRIVATE_MEDIA_ROOT)).save("proofs/etudiant.pdf", ContentFile(PROOF))


def snapshot(alias):
    from accounts.models import User

    return {
        "members": sorted(User.objects.using(alias).values_list("email", "first_name", "last_name")),
        "orders": sorted(PaymentOrder.objects.using(alias).values_list("order_id", "amount", "status")),
        "invoices": sorted(Invoice.objects.using(alias).values_list("number", "customer_name", "total_amount")),
        "pdfs": sorted(
            hashlib.sha256(bytes(content)).hexdigest()
            for content in InvoiceDocument.objects.using(alias).values_list("content", flat=True)
        ),
    }


def empty_database(tmp_path) -> dict:
    """The settings of an empty database of the same engine, beside the test's."""
    source = connection.settings_dict
    target = {**source}
    if connection.vendor == "sqlite":
        target["NAME"] = str(tmp_path / "restored.sqlite3")
    else:
        target["NAME"] = f"{source['NAME']}_restored_{uuid.uuid4().hex[:6]}"
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{target["NAME"]}"')
    return target


@pytest.fixture
def restored_alias(tmp_path, settings):
    target = empty_database(tmp_path)
    settings.DATABASES = {**settings.DATABASES, RESTORED: target}
    # A connection made here, not from the settings the test run started with: Django's test isolation lets a test
    # use the connections it creates itself.
    connections[RESTORED] = load_backend(target["ENGINE"]).DatabaseWrapper(target, RESTORED)
    yield RESTORED
    connections[RESTORED].close()
    del connections[RESTORED]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{target["NAME"]}"')


def restore_drill(api_client, member, other_member, tmp_path, settings, alias, passphrase=None):
    used_site(api_client, member, other_member)
    before = snapshot("default")
    assert len(before["invoices"]) == 2 and len(before["pdfs"]) == 2

    call_command("backup", verbosity=0)
    run = BackupRun.objects.get()
    assert run.succeeded and len(run.files) == 3
    assert all(name.endswith(".gz.gpg" if passphrase else ".gz") for name in run.files)  # compressed, encrypted

    # A new machine: an empty database, empty upload folders.
    settings.MEDIA_ROOT = tmp_path / "new-uploads"
    settings.PRIVATE_MEDIA_ROOT = tmp_path / "new-private-uploads"
    out = io.StringIO()
    call_command("restore_backup", database=alias, interactive=False, passphrase=passphrase, stdout=out)
    assert out.getvalue().startswith("Restauration de :\n")
    assert all(name in out.getvalue() for name in run.files)  # the newest: the ones just written
    assert out.getvalue().endswith("Restauration terminée. Lancez `manage.py migrate` puis le site.\n")

    after = snapshot(alias)
    assert after == before
    assert after["invoices"][0][0].endswith("-000001")  # numbers unchanged: the series goes on from the same point
    assert (settings.MEDIA_ROOT / "courses" / "pole-debutant.jpg").read_bytes() == PHOTO
    assert (settings.PRIVATE_MEDIA_ROOT / "proofs" / "etudiant.pdf").read_bytes() == PROOF


def test_a_backup_restores_into_an_empty_sqlite_database_with_the_same_data_and_files(
    api_client, member, other_member, tmp_path, settings, backup_storage, restored_alias
):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite drill; the PostgreSQL one is below")
    restore_drill(api_client, member, other_member, tmp_path, settings, restored_alias)


@pytest.mark.postgres
def test_a_backup_restores_into_an_empty_postgresql_database_with_the_same_data_and_files(
    api_client, member, other_member, tmp_path, settings, backup_storage, restored_alias
):
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("needs PostgreSQL's client tools (Debian: postgresql-client) for pg_dump and pg_restore")
    restore_drill(api_client, member, other_member, tmp_path, settings, restored_alias)


@pytest.fixture
def gnupg_home(tmp_path, monkeypatch):
    """A keyring of the test's own; the agent gpg starts for it is stopped at the end."""
    if not shutil.which("gpg"):
        pytest.skip("needs GnuPG (Debian: gnupg) for encrypted backups")
    home = tmp_path / "gnupg"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("GNUPGHOME", str(home))
    yield home
    subprocess.run(["gpgconf", "--kill", "gpg-agent"], env={**os.environ, "GNUPGHOME": str(home)}, check=False)


def test_an_encrypted_backup_restores_with_the_private_key(
    api_client, member, other_member, tmp_path, settings, backup_storage, restored_alias, monkeypatch, gnupg_home
):
    """Encrypted for the public key of BACKUP_GPG_RECIPIENT; only the private key and its passphrase read it."""
    import gnupg
    from dbbackup import settings as dbbackup_settings

    gpg = gnupg.GPG()
    key = gpg.gen_key(
        gpg.gen_key_input(
            key_type="EDDSA",
            key_curve="ed25519",
            subkey_type="ECDH",
            subkey_curve="cv25519",
            name_email="sauvegardes@studio.example",
            passphrase="phrase secrète",
        )
    )
    assert key.fingerprint
    settings.DBBACKUP_GPG_RECIPIENT = key.fingerprint
    monkeypatch.setattr(dbbackup_settings, "GPG_RECIPIENT", key.fingerprint)
    restore_drill(api_client, member, other_member, tmp_path, settings, restored_alias, passphrase="phrase secrète")
    with open(backup_storage / BackupRun.objects.get().files[0], "rb") as stored:
        assert b"SQLite format" not in stored.read()  # unreadable without the key


def test_the_daily_backup_keeps_the_last_n_of_each_kind(settings, backup_storage, monkeypatch):
    from dbbackup import settings as dbbackup_settings

    monkeypatch.setattr(dbbackup_settings, "CLEANUP_KEEP", 2)
    monkeypatch.setattr(dbbackup_settings, "CLEANUP_KEEP_MEDIA", 2)
    default_storage.save("a.txt", ContentFile(b"a"))
    from freezegun import freeze_time

    for day in range(1, 5):
        with freeze_time(f"2027-01-0{day} 02:30:00"):
            backups.backup_run()
    names = sorted(p.name for p in backup_storage.iterdir() if not p.name.endswith(".metadata"))
    assert len(names) == 6, names  # two of each: database, uploads, private uploads
    assert sum("2027-01-04" in name for name in names) == 3 and not any("2027-01-01" in name for name in names)


def test_the_scheduler_runs_the_backup_daily():
    from crontask import scheduler

    from operations.tasks import operations_backup

    jobs = [job for job in scheduler.get_jobs() if "operations_backup" in job.name]
    assert len(jobs) == 1 and str(jobs[0].trigger).startswith("cron[")
    assert "hour='2'" in str(jobs[0].trigger) and "minute='30'" in str(jobs[0].trigger)
    assert operations_backup.name == "operations_backup"

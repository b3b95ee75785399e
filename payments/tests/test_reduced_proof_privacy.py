"""Reduced-rate proofs are identity documents (a student card, a France Travail certificate): kept out of the public
uploads, sent only to the member who uploaded one and to staff, deleted with the account."""

from pathlib import Path

import pytest
from freezegun import freeze_time

from accounts.tests.factories import DEFAULT_PASSWORD
from media_library.tests.files import png
from payments.subscriptions.models import ReducedRateProof

from . import test_subscription_reduced as reduced
from .test_subscription_reduced import PROOFS, buy

student = reduced.student  # the student rate's tariff (a fixture)

pytestmark = pytest.mark.django_db


def _files_under(root) -> list[Path]:
    root = Path(root)
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def _upload(api_client, member) -> ReducedRateProof:
    api_client.force_authenticate(member)
    response = api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart")
    assert response.status_code == 201, response.content
    return ReducedRateProof.objects.get(pk=response.json()["id"])


def test_a_proof_is_stored_outside_the_public_uploads_and_not_served_there(api_client, client, member, settings):
    proof = _upload(api_client, member)
    assert _files_under(settings.MEDIA_ROOT) == []
    [stored] = _files_under(settings.PRIVATE_MEDIA_ROOT)
    assert stored.name == proof.file.name.rsplit("/", 1)[-1]
    # The address the public uploads would have given it answers as for a file that does not exist.
    assert client.get(f"{settings.MEDIA_URL}{proof.file.name}").status_code == 404


def _proof_url(api_client, member, staff, tariff) -> tuple[ReducedRateProof, str]:
    proof = _upload(api_client, member)
    with freeze_time("2030-01-10 10:00:00"):
        buy(api_client, member, tariff, reduced_status="student", reduced_confirmed=True, reduced_proof_id=proof.pk)
    api_client.force_authenticate(staff)
    [row] = api_client.get("/api/subscriptions").json()
    return proof, row["reduced"]["proof_url"]


@pytest.mark.parametrize("reader", ["member", "staff", "supervisor"])
def test_the_member_and_staff_download_the_proof(request, api_client, client, member, staff, student, settings, reader):
    proof, url = _proof_url(api_client, member, staff, student)
    assert url == f"/reduced-proofs/{proof.pk}/file"
    client.force_login(request.getfixturevalue(reader))
    response = client.get(url)
    assert response.status_code == 200
    [stored] = _files_under(settings.PRIVATE_MEDIA_ROOT)
    assert b"".join(response.streaming_content) == stored.read_bytes()
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"] == f'attachment; filename="justificatif-{proof.pk}.png"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "no-store" in response["Cache-Control"]


def test_anyone_else_gets_404_as_for_a_proof_that_does_not_exist(
    api_client, client, member, other_member, staff, student
):
    proof, url = _proof_url(api_client, member, staff, student)
    assert client.get(url).status_code == 404  # anonymous: not a 401 that would tell the proof exists
    client.force_login(other_member)
    assert client.get(url).status_code == 404
    assert client.get(f"/reduced-proofs/{proof.pk + 1000}/file").status_code == 404
    assert client.get("/reduced-proofs/99999999999/file").status_code == 404
    client.force_login(staff)
    assert client.get(f"/reduced-proofs/{proof.pk + 1000}/file").status_code == 404


def test_a_proof_whose_file_is_gone_answers_404(api_client, client, member, settings):
    proof = _upload(api_client, member)
    for path in _files_under(settings.PRIVATE_MEDIA_ROOT):
        path.unlink()
    client.force_login(member)
    assert client.get(f"/reduced-proofs/{proof.pk}/file").status_code == 404


def test_deleting_the_account_deletes_the_proof_file(api_client, member, settings, django_capture_on_commit_callbacks):
    _upload(api_client, member)
    assert len(_files_under(settings.PRIVATE_MEDIA_ROOT)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        done = api_client.delete("/api/users/me", {"password": DEFAULT_PASSWORD}, format="json")
    assert done.status_code == 200
    assert not ReducedRateProof.objects.exists()
    assert _files_under(settings.PRIVATE_MEDIA_ROOT) == []


def test_the_migration_moves_proofs_left_in_the_public_uploads(api_client, member, settings):
    """Proofs sent before the private storage sit under MEDIA_ROOT: the move puts them in the private folder under
    the same name, skips a row whose file is missing, and running it again changes nothing."""
    from django.apps import apps as current_apps

    from media_library.private import private_files_move

    public = Path(settings.MEDIA_ROOT) / "justificatifs"
    public.mkdir(parents=True)
    (public / "ancienne.png").write_bytes(b"\x89PNG old card")
    old = ReducedRateProof.objects.create(member=member, file="justificatifs/ancienne.png")
    lost = ReducedRateProof.objects.create(member=member, file="justificatifs/perdue.png")

    model = current_apps.get_model("payments", "ReducedRateProof")
    assert private_files_move(model, "file") == 1
    assert private_files_move(model, "file") == 0
    assert _files_under(settings.MEDIA_ROOT) == []
    private = Path(settings.PRIVATE_MEDIA_ROOT)
    assert (private / "justificatifs" / "ancienne.png").read_bytes() == b"\x89PNG old card"
    old.refresh_from_db()
    lost.refresh_from_db()
    assert old.file.name == "justificatifs/ancienne.png" and lost.file.name == "justificatifs/perdue.png"

"""Student and job-seeker plans: the member confirms the status at purchase (a required checkbox, a French
message without it, an optional proof checked by its content and size), staff see it and can end the reduced plan."""

from datetime import date
from decimal import Decimal

import pytest
from freezegun import freeze_time

from courses.tests.factories import TariffFactory
from media_library.tests.files import png, upload
from payments.models import PaymentOrder
from payments.services import reduced_rate
from payments.subscriptions.models import (
    ReducedRateDeclaration,
    ReducedRateProof,
    Subscription,
    SubscriptionPlan,
    SubscriptionStatus,
)
from payments.subscriptions.services import staff as subscription_staff
from payments.subscriptions.services.lifecycle import subscription_charges_run

from .conftest import tariff_payload
from .test_attacks_money import CREATE, approve, capture

pytestmark = pytest.mark.django_db

PROOFS = "/api/subscriptions/reduced-proofs"


@pytest.fixture
def student(db):
    return TariffFactory(
        title="Abonnement annuel étudiant / demandeur d'emploi",
        type="abonnement",
        price=Decimal("44.00"),
        frequency="par mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )


def order(api_client, member, tariff, **extra):
    api_client.force_authenticate(member)
    return api_client.post(CREATE, tariff_payload(tariff, member, **extra), format="json")


def buy(api_client, member, tariff, **extra):
    response = order(api_client, member, tariff, **extra)
    assert response.status_code == 201, response.json()
    approve(api_client, response.json()["id"])
    assert capture(api_client, response.json()["id"]).status_code == 200
    return Subscription.objects.get(source_order__order_id=response.json()["id"])


def test_a_reduced_rate_needs_the_checkbox(api_client, member, student):
    response = order(api_client, member, student)
    assert response.status_code == 400
    assert response.json()["error"] == (
        "Ce tarif réduit est réservé aux étudiant(e)s et aux demandeur(se)s d'emploi : cochez la case pour "
        "confirmer votre statut."
    )
    assert response.json()["errors"] == {"reduced_confirmed": [reduced_rate.MSG_REDUCED_CONFIRM]}
    unchecked = order(api_client, member, student, reduced_status="student", reduced_confirmed=False)
    assert unchecked.status_code == 400 and unchecked.json()["error"] == reduced_rate.MSG_REDUCED_CONFIRM
    no_status = order(api_client, member, student, reduced_confirmed=True)
    assert no_status.status_code == 400
    assert no_status.json()["error"] == "Indiquez votre statut : étudiant(e) ou demandeur(se) d'emploi."
    assert not PaymentOrder.objects.exists()


def test_the_full_rate_needs_nothing(api_client, member, annual):  # noqa: F811
    subscription = buy(api_client, member, annual)
    assert not ReducedRateDeclaration.objects.exists()
    assert subscription.status == SubscriptionStatus.ACTIVE


def test_the_plan_setting_wins_over_the_title(member, student, annual):  # noqa: F811
    assert reduced_rate.tariff_is_reduced(student) and not reduced_rate.tariff_is_reduced(annual)
    SubscriptionPlan.objects.create(tariff=student, reduced_rate=False)
    SubscriptionPlan.objects.create(tariff=annual, reduced_rate=True)
    assert not reduced_rate.tariff_is_reduced(student) and reduced_rate.tariff_is_reduced(annual)


def test_confirmed_with_a_proof_staff_see_it(api_client, member, staff, student):
    api_client.force_authenticate(member)
    uploaded = api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart")
    assert uploaded.status_code == 201
    proof_id = uploaded.json()["id"]
    stored = ReducedRateProof.objects.get(pk=proof_id)
    assert stored.member == member and stored.file.name.startswith("justificatifs/") and "carte" not in stored.file.name
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(
            api_client, member, student, reduced_status="job_seeker", reduced_confirmed=True, reduced_proof_id=proof_id
        )
    api_client.force_authenticate(staff)
    [row] = api_client.get("/api/subscriptions").json()
    assert row["id"] == subscription.pk
    assert row["reduced"]["status"] == "job_seeker"
    assert row["reduced"]["status_label"] == "Demandeur(se) d'emploi"
    assert row["reduced"]["proof_url"] == f"/reduced-proofs/{proof_id}/file"  # the view that checks who reads it
    assert row["reduced"]["ended_at"] is None


def test_proofs_are_checked_by_content_and_size(api_client, member, other_member, settings, student):
    api_client.force_authenticate(member)
    fake = api_client.post(
        PROOFS, {"file": upload("carte.png", b"%PDF-1.4 not an image", "image/png")}, format="multipart"
    )
    assert fake.status_code == 400
    assert fake.json()["error"] == "Le justificatif doit être une photo ou un scan JPEG, PNG, GIF ou WebP."
    missing = api_client.post(PROOFS, {}, format="multipart")
    assert missing.status_code == 400 and missing.json()["error"] == "Choisissez le fichier du justificatif."
    settings.MAX_IMAGE_UPLOAD_BYTES = 1000
    heavy = api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart")
    assert heavy.status_code == 400
    assert heavy.json()["error"].startswith("L'image dépasse la taille maximale autorisée")
    assert not ReducedRateProof.objects.exists()
    settings.MAX_IMAGE_UPLOAD_BYTES = 10 * 1024 * 1024
    theirs = api_client.post(PROOFS, {"file": png()}, format="multipart").json()["id"]
    response = order(
        api_client, other_member, student, reduced_status="student", reduced_confirmed=True, reduced_proof_id=theirs
    )
    assert response.status_code == 404
    assert response.json()["error"] == "Ce justificatif est introuvable : envoyez-le de nouveau."
    anonymous = api_client.__class__().post(PROOFS, {"file": png()}, format="multipart")
    assert anonymous.status_code in (401, 403)


def test_staff_end_the_reduced_plan(api_client, member, staff, student, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, student, reduced_status="student", reduced_confirmed=True)
        full = buy(api_client, member, annual)
    api_client.force_authenticate(staff)
    with freeze_time("2030-01-20 10:00:00"):
        missing = api_client.post(f"/api/subscriptions/{subscription.pk}/end-reduced", {}, format="json")
        assert missing.status_code == 400 and missing.json()["error"] == subscription_staff.MSG_REASON_REQUIRED
        response = api_client.post(
            f"/api/subscriptions/{subscription.pk}/end-reduced", {"reason": "Plus étudiante"}, format="json"
        )
        not_reduced = api_client.post(f"/api/subscriptions/{full.pk}/end-reduced", {"reason": "?"}, format="json")
    assert response.status_code == 200
    assert (
        response.json()["message"] == "Tarif réduit terminé : plus aucune échéance ne sera prélevée sur cet abonnement."
    )
    body = response.json()["subscription"]
    assert body["status"] == SubscriptionStatus.ENDED and body["reduced"]["ended_at"]
    assert [(a["kind"], a["reason"]) for a in body["actions"]] == [("end_reduced", "Plus étudiante")]
    assert not_reduced.status_code == 409
    assert not_reduced.json()["error"] == "Cet abonnement n'est pas (ou plus) à tarif réduit."
    with freeze_time("2030-02-10 07:00:00"):
        subscription_charges_run(as_of=date(2030, 2, 10))
    assert subscription.charges.count() == 1  # nothing more charged


def test_the_purchase_modal_learns_how_a_tariff_is_sold(api_client, member, student, card_tariff):
    api_client.force_authenticate(member)
    offer = api_client.get(f"/api/subscriptions/offers/{student.pk}").json()
    assert offer == {
        "tariff_id": student.pk,
        "per_period": True,
        "reduced": True,
        "period_months": 1,
        "periods_committed": 12,
        "amount": "44.00",
    }
    card = api_client.get(f"/api/subscriptions/offers/{card_tariff.pk}").json()
    assert (card["per_period"], card["reduced"], card["periods_committed"]) == (False, False, None)
    missing = api_client.get("/api/subscriptions/offers/999999")
    assert missing.status_code == 404 and missing.json()["error"] == "Ce tarif est introuvable."


def test_admins_set_a_plans_reduced_rate_in_the_django_admin(client, staff, annual):  # noqa: F811
    """The weekly cap is the tariff's own field, edited in the dashboard's tariff form (courses' tests)."""
    client.force_login(staff)
    response = client.post(
        "/django-admin/payments/subscriptionplan/add/",
        {"tariff": annual.pk, "reduced_rate": "true", "pause_weeks_per_year": "2"},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    plan = SubscriptionPlan.objects.get(tariff=annual)
    assert plan.reduced_rate is True and reduced_rate.tariff_is_reduced(annual)
    assert plan.pause_weeks_per_year == 2  # docs/decisions.md 46: the weeks a member may pause it themselves
    assert client.get("/django-admin/payments/subscriptionaction/").status_code == 200


def _stored(settings) -> list[str]:
    from pathlib import Path

    root = Path(settings.PRIVATE_MEDIA_ROOT) / "justificatifs"
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def test_proof_uploads_are_limited_per_member_and_hour(api_client, member, other_member, settings):
    """A member sending proof after proof (identity documents kept on the studio's disk) is stopped at the hourly
    limit, with the API's error shape and 429; nothing is stored past it; the limit is the member's own."""
    settings.REDUCED_PROOFS_PER_HOUR = 3
    api_client.force_authenticate(member)
    with freeze_time("2030-01-10 10:00:00"):
        for _ in range(3):
            assert api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart").status_code == 201
    with freeze_time("2030-01-10 10:45:00"):
        refused = api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart")
    assert refused.status_code == 429
    message = "Vous avez déjà envoyé 3 justificatifs en moins d'une heure : réessayez dans 15 min."
    assert message == reduced_rate.MSG_PROOF_TOO_MANY.format(limit=3, minutes=15)
    assert refused.json() == {
        "error": message,
        "message": message,
        "code": "proof_too_many",
        "errors": {"file": [message]},
    }
    assert refused["Retry-After"] == str(15 * 60)
    assert ReducedRateProof.objects.filter(member=member).count() == 3 and len(_stored(settings)) == 3

    api_client.force_authenticate(other_member)
    with freeze_time("2030-01-10 10:45:00"):
        assert api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart").status_code == 201
    api_client.force_authenticate(member)
    with freeze_time("2030-01-10 11:00:01"):  # the first three are more than an hour old
        assert api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart").status_code == 201


def test_proofs_not_attached_to_a_purchase_are_deleted_after_a_day(
    api_client, member, other_member, settings, student, django_capture_on_commit_callbacks
):
    """An identity document nobody bought with is deleted (row and file) a day after its upload by a periodic job;
    one a purchase names stays. Running the job again (or from two schedulers) deletes nothing more."""
    from payments.subscriptions.tasks import reduced_proofs_unattached_delete

    with freeze_time("2030-01-10 10:00:00"):
        api_client.force_authenticate(member)
        kept = api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart").json()["id"]
        forgotten = api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart").json()["id"]
        buy(api_client, member, student, reduced_status="student", reduced_confirmed=True, reduced_proof_id=kept)
    with freeze_time("2030-01-11 09:00:00"):
        api_client.force_authenticate(other_member)
        recent = api_client.post(PROOFS, {"file": png("carte.png")}, format="multipart").json()["id"]
    kept_file = ReducedRateProof.objects.get(pk=kept).file.name.rsplit("/", 1)[-1]
    recent_file = ReducedRateProof.objects.get(pk=recent).file.name.rsplit("/", 1)[-1]
    assert len(_stored(settings)) == 3

    with freeze_time("2030-01-11 09:59:00"), django_capture_on_commit_callbacks(execute=True):  # not a day old yet
        assert reduced_proofs_unattached_delete.call() == 0
    with freeze_time("2030-01-11 10:01:00"), django_capture_on_commit_callbacks(execute=True):
        assert reduced_proofs_unattached_delete.call() == 1
        assert reduced_proofs_unattached_delete.call() == 0
    assert set(ReducedRateProof.objects.values_list("pk", flat=True)) == {kept, recent}
    assert not ReducedRateProof.objects.filter(pk=forgotten).exists()
    assert _stored(settings) == sorted([kept_file, recent_file])
    assert ReducedRateDeclaration.objects.get().proof_id == kept

"""Staff cancel every class planned inside a closure at once ("Annuler les cours de la fermeture", docs/decisions.md
27, 51): each class as one class cancellation does (card payments refunded, credits back, e-mails), classes outside
the closure, already cancelled or over untouched; the answer counts classes, bookings and refunds; again, nothing."""

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import PassAdjustment, PassAdjustmentAction, ReservationStatus
from bookings.services.class_cancellation import MSG_CANCEL_REASON_REQUIRED
from bookings.tests.factories import PassFactory
from courses.models import ClosurePeriod, SessionStatus
from courses.services.closures import MSG_CLOSURE_NOT_FOUND
from courses.tests.factories import CourseSessionFactory
from payments.models import PaymentStatus, SimulatedProviderOrder
from payments.services.closure_cancellation import MSG_CLOSURE_NOTHING_TO_CANCEL, MSG_CLOSURE_SESSIONS_CANCELLED

from .test_class_cancellation import book_with_card_pass, pay_by_card

CANCEL = "/api/closures/{}/cancel-sessions"
REASON = "Le studio est fermé pour les vacances de Noël."


def _at(day: date, hour: int):
    return timezone.make_aware(datetime(day.year, day.month, day.day, hour, 0))


@pytest.fixture
def christmas(db):
    today = timezone.localdate()
    return ClosurePeriod.objects.create(
        label="Vacances de Noël", starts_on=today + timedelta(days=10), ends_on=today + timedelta(days=18)
    )


@pytest.fixture
def classes(christmas, member, other_member, make_reservation):
    """Inside the closure: a class paid by card by one member, with a class-card booking of another, and an empty
    class; one already cancelled inside; one the day after the closure."""
    first = CourseSessionFactory(start=_at(christmas.starts_on, 18), price_per_participant=Decimal("25.00"))
    order = pay_by_card(member, make_reservation(member, participants=1, session=first))
    card = PassFactory(member=other_member, credits_total=10)
    with_pass = book_with_card_pass(other_member, first, card)
    empty = CourseSessionFactory(start=_at(christmas.ends_on, 20))
    gone = CourseSessionFactory(start=_at(christmas.starts_on, 10), status=SessionStatus.CANCELLED)
    after = CourseSessionFactory(start=_at(christmas.ends_on + timedelta(days=1), 9))
    return {
        "first": first,
        "order": order,
        "card": card,
        "with_pass": with_pass,
        "empty": empty,
        "gone": gone,
        "after": after,
    }


def test_staff_cancel_the_classes_of_a_closure_as_class_cancellations_do(
    api_client, staff, christmas, classes, mailoutbox, django_capture_on_commit_callbacks
):
    mailoutbox.clear()
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(CANCEL.format(christmas.pk), {"reason": REASON}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body == {
        "sessions_cancelled": 2,
        "bookings_cancelled": 2,
        "refunds_queued": 1,
        "message": MSG_CLOSURE_SESSIONS_CANCELLED.format(sessions=2, label="Vacances de Noël", bookings=2, refunds=1),
    }
    assert body["message"] == (
        "2 cours annulé(s) pendant la fermeture « Vacances de Noël » : 2 réservation(s) annulée(s), "
        "1 remboursement(s) par carte en cours. Les inscrits sont prévenus par e-mail."
    )
    for name in ("first", "empty"):
        classes[name].refresh_from_db()
        assert classes[name].status == SessionStatus.CANCELLED and classes[name].cancellation_reason == REASON
    classes["after"].refresh_from_db()
    assert classes["after"].status == SessionStatus.SCHEDULED
    order = classes["order"]
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    assert SimulatedProviderOrder.objects.get(order_id=order.order_id).refund_id == order.refund_id
    classes["card"].refresh_from_db()
    assert classes["card"].credits_left == 10
    assert PassAdjustment.objects.filter(pass_ref=classes["card"], action=PassAdjustmentAction.RETURN).count() == 1
    classes["with_pass"].refresh_from_db()
    assert classes["with_pass"].status == ReservationStatus.CANCELLED
    cancelled = [m for m in mailoutbox if "Cours annulé : " in m.subject]
    assert len(cancelled) == 2 and all(REASON in m.body for m in cancelled)


def test_running_it_again_cancels_and_refunds_nothing_more(
    api_client, staff, christmas, classes, mailoutbox, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post(CANCEL.format(christmas.pk), {"reason": REASON}, format="json")
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        again = api_client.post(CANCEL.format(christmas.pk), {"reason": REASON}, format="json")
    assert again.status_code == 200
    assert again.json()["sessions_cancelled"] == 0 and again.json()["refunds_queued"] == 0
    assert again.json()["message"] == MSG_CLOSURE_NOTHING_TO_CANCEL.format(label="Vacances de Noël")
    assert again.json()["message"] == "Aucun cours à annuler pendant la fermeture « Vacances de Noël »."
    assert not mailoutbox
    classes["card"].refresh_from_db()
    assert classes["card"].credits_left == 10


def test_a_class_already_over_inside_the_closure_is_left_as_it_was(api_client, staff, member):
    today = timezone.localdate()
    closure = ClosurePeriod.objects.create(label="Pont", starts_on=today - timedelta(days=1), ends_on=today)
    over = CourseSessionFactory(start=timezone.now() - timedelta(hours=26), end=timezone.now() - timedelta(hours=25))
    api_client.force_authenticate(staff)
    response = api_client.post(CANCEL.format(closure.pk), {"reason": REASON}, format="json")
    assert response.json()["sessions_cancelled"] == 0
    over.refresh_from_db()
    assert over.status == SessionStatus.SCHEDULED


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_the_reason_is_required_in_french(api_client, staff, christmas, classes, reason):
    api_client.force_authenticate(staff)
    payload = {} if reason is None else {"reason": reason}
    response = api_client.post(CANCEL.format(christmas.pk), payload, format="json")
    assert response.status_code == 400 and response.json()["errors"]["reason"] == [MSG_CANCEL_REASON_REQUIRED]
    classes["first"].refresh_from_db()
    assert classes["first"].status == SessionStatus.SCHEDULED


def test_an_unknown_closure_is_a_french_404_and_members_are_refused(api_client, staff, member, christmas):
    api_client.force_authenticate(staff)
    missing = api_client.post(CANCEL.format(999_999), {"reason": REASON}, format="json")
    assert missing.status_code == 404 and missing.json()["error"] == MSG_CLOSURE_NOT_FOUND
    api_client.force_authenticate(member)
    assert api_client.post(CANCEL.format(christmas.pk), {"reason": REASON}, format="json").status_code == 403

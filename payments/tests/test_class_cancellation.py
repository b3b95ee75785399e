"""The studio cancels a class (docs/decisions.md 27, 35). Every booking cancelled, card payments refunded in
full through the provider (once, recorded on the order), class-card credits back, each member e-mailed the reason
with an iCalendar CANCEL, the class "Annulé" in the calendar and no longer bookable; staff see who got what."""

from decimal import Decimal

import icalendar
import pytest

from bookings.models import PassAdjustment, PassAdjustmentAction, ReservationStatus
from bookings.services.cancellation import reservation_cancel
from bookings.services.class_cancellation import (
    MSG_CANCEL_REASON_REQUIRED,
    MSG_SESSION_ALREADY_CANCELLED,
    MSG_SESSION_CANCELLED,
    course_session_cancel,
)
from bookings.services.common import ReservationError
from bookings.services.passes import reservation_book_with_pass
from bookings.tests.calendar_mail import calendar_filenames, calendar_parts
from bookings.tests.factories import PassFactory
from courses.models import SessionStatus
from courses.tests.factories import CourseSessionFactory
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.services.capture import payment_order_capture
from payments.services.class_refunds import payment_orders_refund_cancelled_class
from payments.simulator import SimulatorProvider

from .conftest import open_reservation_order

CANCEL = "/api/course-sessions/{}/cancel"
REPORT = "/api/course-sessions/{}/cancellation"
REASON = "Professeure malade, nous sommes désolés."


def pay_by_card(member, reservation):
    order = open_reservation_order(member, reservation)
    SimulatorProvider().approve_order(order_id=order.order_id, card_declined=False)
    outcome = payment_order_capture(order_id=order.order_id, user=member)
    assert outcome.completed
    return outcome.order


def book_with_card_pass(member, session, card):
    return reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=card.pk,
        participants=1,
        first_name=member.first_name,
        last_name=member.last_name,
        email=member.email,
    )


@pytest.fixture
def booked_class(member, other_member, make_reservation):
    """A class two members booked: one paid 25 € by card, the other spent a class-card credit."""
    session = CourseSessionFactory(price_per_participant=Decimal("25.00"))
    held = make_reservation(member, participants=1, session=session)
    order = pay_by_card(member, held)
    card = PassFactory(member=other_member, credits_total=10)
    with_pass = book_with_card_pass(other_member, session, card)
    card.refresh_from_db()
    assert card.credits_left == 9
    return session, held, order, with_pass, card


def test_staff_cancel_a_class_refunds_credits_and_emails_everyone(
    api_client, staff, booked_class, mailoutbox, django_capture_on_commit_callbacks
):
    session, held, order, with_pass, card = booked_class
    mailoutbox.clear()
    api_client.force_authenticate(staff)

    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(CANCEL.format(session.pk), {"reason": REASON}, format="json")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "cancelled" and body["status_label"] == "Annulé"
    assert body["message"] == MSG_SESSION_CANCELLED.format(count=2)
    assert body["cancelled_reservations"] == 2
    session.refresh_from_db()
    assert session.status == SessionStatus.CANCELLED and session.cancellation_reason == REASON
    held.refresh_from_db()
    with_pass.refresh_from_db()
    assert held.status == ReservationStatus.CANCELLED and with_pass.status == ReservationStatus.CANCELLED
    # The card payment: refunded in full through the provider, once, recorded on its order.
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED and order.refund_id and order.refunded_at
    assert order.provider_note.startswith(f"Le cours « {session.course.title} » du ")
    assert SimulatedProviderOrder.objects.get(order_id=order.order_id).refund_id == order.refund_id
    # The class-card credit: back on the card, with a ledger line.
    card.refresh_from_db()
    assert card.credits_left == 10
    line = PassAdjustment.objects.get(pass_ref=card, action=PassAdjustmentAction.RETURN)
    assert line.credits_delta == 1 and line.reason == f"Cours annulé par le studio : {REASON}"
    # Each member: an e-mail with the reason and an iCalendar CANCEL of the event their confirmation added.
    cancelled = [m for m in mailoutbox if "Cours annulé : " in m.subject]
    assert len(cancelled) == 2 and all(f"Cours annulé : {session.course.title} du " in m.subject for m in cancelled)
    assert sorted(m.to[0] for m in cancelled) == sorted([held.email, with_pass.email])
    for mail in cancelled:
        assert REASON in mail.body
        reservation = held if mail.to[0] == held.email else with_pass
        ((mimetype, method, content),) = calendar_parts(mail)
        assert mimetype == "text/calendar" and method == "CANCEL" and calendar_filenames(mail)[0].endswith(".ics")
        calendar = icalendar.Calendar.from_ical(content)
        assert calendar["METHOD"] == "CANCEL"
        event = calendar.walk("VEVENT")[0]
        assert str(event["UID"]).startswith(f"reservation-{reservation.pk}@")
        assert event["STATUS"] == "CANCELLED" and int(event["SEQUENCE"]) == 1
    assert "Votre paiement de 25,00 € vous est remboursé intégralement" in next(
        m.body for m in cancelled if m.to[0] == held.email
    )
    assert "Les 1 crédit(s) utilisé(s) sont rendus sur votre Carte 10 cours." in next(
        m.body for m in cancelled if m.to[0] == with_pass.email
    )
    # A second run of the refund job refunds nothing twice.
    assert payment_orders_refund_cancelled_class() == 0
    assert PaymentOrder.objects.get(pk=order.pk).refund_id == order.refund_id


def test_staff_see_who_was_refunded_or_credited(
    api_client, staff, booked_class, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    session, held, order, with_pass, card = booked_class
    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=session.pk, reason=REASON)
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(8):
        response = api_client.get(REPORT.format(session.pk))
    assert response.status_code == 200
    rows = {r["reservation_id"]: r for r in response.json()["results"]}
    assert rows[held.pk]["outcome"] == "refunded" and rows[held.pk]["outcome_label"] == "Remboursé"
    assert rows[held.pk]["amount"] == "25.00" and rows[held.pk]["order_id"] == order.order_id
    assert rows[with_pass.pk]["outcome_label"] == "Crédits rendus" and rows[with_pass.pk]["credits"] == 1
    assert response.json()["refunds_pending"] == 0


def test_a_refund_the_provider_could_not_take_is_pending_then_retried(
    api_client, staff, booked_class, monkeypatch, django_capture_on_commit_callbacks
):
    session, held, order, with_pass, card = booked_class
    from payments.provider_types import ProviderError

    def down(self, **kwargs):
        raise ProviderError("indisponible", issue="DOWN", status_code=503)

    monkeypatch.setattr(SimulatorProvider, "refund_capture", down)
    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=session.pk, reason=REASON)
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUND_PENDING
    api_client.force_authenticate(staff)
    report = api_client.get(REPORT.format(session.pk)).json()
    assert report["refunds_pending"] == 1
    assert {r["outcome_label"] for r in report["results"]} == {"Remboursement en attente", "Crédits rendus"}
    monkeypatch.undo()
    assert payment_orders_refund_cancelled_class() == 1
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED


def test_a_cancelled_class_cannot_be_booked(api_client, member, booked_class):
    session, *_ = booked_class
    course_session_cancel(session_id=session.pk, reason=REASON)
    api_client.force_authenticate(member)
    response = api_client.post(
        "/api/reservations-courses",
        {
            "session_id": session.pk,
            "participants": 1,
            "first_name": "Zoé",
            "last_name": "Martin",
            "email": member.email,
            "amount": "25.00",
        },
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["error"] == "Ce cours est annulé par le studio : il ne peut plus être réservé."
    card = PassFactory(member=member, credits_total=10)
    with pytest.raises(ReservationError) as refused:
        book_with_card_pass(member, session, card)
    assert refused.value.message == "Ce cours est annulé par le studio : il ne peut plus être réservé."


def test_a_class_is_cancelled_once_with_a_reason(api_client, staff):
    session = CourseSessionFactory()
    api_client.force_authenticate(staff)
    missing = api_client.post(CANCEL.format(session.pk), {"reason": "  "}, format="json")
    assert missing.status_code == 400 and MSG_CANCEL_REASON_REQUIRED in str(missing.json())
    assert api_client.post(CANCEL.format(session.pk), {"reason": REASON}, format="json").status_code == 200
    again = api_client.post(CANCEL.format(session.pk), {"reason": REASON}, format="json")
    assert again.status_code == 409 and again.json()["error"] == MSG_SESSION_ALREADY_CANCELLED
    assert api_client.post(CANCEL.format(999999), {"reason": REASON}, format="json").status_code == 404


def test_members_and_visitors_cannot_cancel_a_class(api_client, member):
    session = CourseSessionFactory()
    assert api_client.post(CANCEL.format(session.pk), {"reason": REASON}, format="json").status_code in (401, 403)
    api_client.force_authenticate(member)
    assert api_client.post(CANCEL.format(session.pk), {"reason": REASON}, format="json").status_code == 403
    assert api_client.get(REPORT.format(session.pk)).status_code == 403


def test_a_member_who_cancelled_earlier_keeps_the_avoir_and_is_not_refunded(
    member, make_reservation, django_capture_on_commit_callbacks
):
    session = CourseSessionFactory(price_per_participant=Decimal("25.00"))
    held = make_reservation(member, participants=1, session=session)
    order = pay_by_card(member, held)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = reservation_cancel(user=member, reservation_id=held.pk)
    assert outcome.credit_pass is not None
    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=session.pk, reason=REASON)
    order.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED  # the money became an 'avoir' when the member cancelled


def test_the_waiting_list_is_cleared(other_member):
    from bookings.models_operations import WaitlistEntry, WaitlistStatus

    session = CourseSessionFactory()
    entry = WaitlistEntry.objects.create(session=session, user=other_member, participants=1)
    course_session_cancel(session_id=session.pk, reason=REASON)
    entry.refresh_from_db()
    assert entry.status == WaitlistStatus.EXPIRED and entry.ended_at is not None


def test_a_cancelled_class_shows_annule_in_the_calendar_and_the_staff_list(api_client, staff, booked_class):
    session, *_ = booked_class
    course_session_cancel(session_id=session.pk, reason=REASON)
    feed = api_client.get("/api/course-sessions", {"start": f"{session.start:%Y-%m-%d}"}).json()
    event = next(e for e in feed if e["id"] == session.pk)
    assert event["status"] == "cancelled" and event["status_label"] == "Annulé"
    assert event["cancellation_reason"] == REASON
    api_client.force_authenticate(staff)
    rows = api_client.get("/api/course-sessions", {"view": "staff"}).json()["results"]
    assert next(r for r in rows if r["id"] == session.pk)["status_label"] == "Annulé"


def test_deleting_a_booked_session_points_to_annuler_le_cours(api_client, staff, booked_class):
    session, *_ = booked_class
    api_client.force_authenticate(staff)
    response = api_client.delete(f"/api/course-sessions/{session.pk}")
    assert response.status_code == 409
    assert response.json()["error"] == (
        "Impossible de supprimer cette session : elle a déjà des réservations. Pour ne pas la donner, utilisez "
        "« Annuler le cours » : les inscrits sont prévenus, remboursés ou recrédités."
    )


def test_the_report_of_an_unknown_session_is_a_404(api_client, staff):
    api_client.force_authenticate(staff)
    response = api_client.get(REPORT.format(999999))
    assert response.status_code == 404 and response.json()["error"] == "Cette session n'existe pas."

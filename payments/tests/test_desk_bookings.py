"""Staff booking a client into a class on their behalf (docs/decisions.md 50): with the client's pass, paid at the
desk, or "à régler"; every seat and pass rule of the member's own booking, but not the members' booking window;
cancelling on their behalf under the member's rules."""

import uuid
from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from accounts.models import StaffAction
from bookings.emails import SUBJECT_RESERVATION_CONFIRMED
from bookings.models import DeskPayment, Pass, PassAdjustment, Reservation, ReservationStatus
from bookings.pass_rules import PassRule
from bookings.services.cancellation import MSG_CANCELLED_CREDITS_RETURNED, MSG_CANCELLED_SUBSCRIPTION
from bookings.services.common import MSG_ALREADY_RESERVED, MSG_SESSION_FULL, MSG_SESSION_PAST
from bookings.services.late_cancellation import CANCELLATION_CREDIT_TITLE
from bookings.services.pass_rules import MSG_PASS_WEEKLY_CAP
from bookings.services.session_status import MSG_SESSION_IS_CANCELLED
from bookings.services.staff_bookings import MSG_BOOKED_ON_BEHALF, MSG_CANCELLED_ON_BEHALF, MSG_MEMBER_NOT_FOUND
from bookings.tests.factories import PassFactory
from courses.models import SessionStatus
from courses.tests.factories import CourseSessionFactory
from invoices.models import Invoice
from payments.apis.desk_bookings import (
    MSG_DESK_PAYMENTS_REQUIRED,
    MSG_PAID_WITH_INVALID,
    MSG_PARTICIPANTS_INVALID,
    MSG_PASS_ID_INVALID,
    MSG_USER_ID_INVALID,
)
from payments.apis.desk_fields import MSG_IDEMPOTENCY_KEY_INVALID
from payments.choices import PaymentProviderName
from payments.models import PaymentOrder, PaymentStatus
from payments.services.desk import MSG_DESK_TOTAL_MISMATCH

BOOK = "/api/course-sessions/{}/bookings"
CANCEL = "/api/course-sessions/{}/bookings/{}/cancel"


def _session(days=3, **kwargs):
    start = (timezone.now() + timedelta(days=days)).replace(second=0, microsecond=0)
    return CourseSessionFactory(start=start, end=start + timedelta(minutes=75), **kwargs)


def _when(session):
    return timezone.localtime(session.start).strftime("%d/%m/%Y %H:%M")


def test_staff_book_a_client_with_their_card_who_gets_the_confirmation_and_a_history_line(
    api_client, staff, member, mailoutbox, django_capture_on_commit_callbacks
):
    session = _session()
    card = PassFactory(member=member, credits_total=10, credits_left=10)
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "pass"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["message"] == MSG_BOOKED_ON_BEHALF.format(
        name="Emma Petit", course=session.course.title, when=_when(session), how="avec sa carte ou son abonnement"
    )
    assert body["message"].startswith("Emma Petit est inscrit(e) au cours « ")
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    assert reservation.status == ReservationStatus.CONFIRMED
    assert reservation.booked_by == staff and reservation.paid_with_pass == card and reservation.credits_spent == 1
    card.refresh_from_db()
    assert card.credits_left == 9
    assert PassAdjustment.objects.filter(pass_ref=card, reservation=reservation, credits_delta=-1).exists()
    (line,) = StaffAction.objects.filter(member=member)
    assert (line.action, line.staff_name) == ("booked", "Camille Laurent")
    assert line.summary == f"Cours réservé : {session.course.title}, {_when(session)} (avec sa carte ou son abonnement)"
    (mail,) = mailoutbox
    assert mail.to == [member.email] and mail.subject.endswith(SUBJECT_RESERVATION_CONFIRMED)


def test_staff_may_book_before_the_members_booking_window_opens(api_client, staff, member, settings):
    settings.BOOKING_OPENS_DAYS_BEFORE = 14  # the studio's default (the suite's settings open sessions far earlier)
    session = _session(days=40)
    PassFactory(member=member, expires_on=timezone.localdate() + timedelta(days=100))
    api_client.force_authenticate(member)
    own = api_client.post(
        "/api/reservations-courses",
        {
            "session_id": session.pk,
            "participants": 1,
            "first_name": "Emma",
            "last_name": "Petit",
            "email": member.email,
        },
        format="json",
    )
    assert own.status_code == 409
    assert own.json()["error"].startswith("Les réservations de ce cours ne sont pas encore ouvertes")
    api_client.force_authenticate(staff)
    response = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "pass"}, format="json")
    assert response.status_code == 201, response.json()


def test_the_pass_rules_hold_for_staff_as_for_the_member(api_client, staff, member):
    session = _session()
    card = PassFactory(member=member)
    PassRule.objects.create(pass_ref=card, weekly_cap=1)
    PassFactory(
        member=member,
        expires_on=timezone.localdate() - timedelta(days=1),
        starts_on=timezone.localdate() - timedelta(days=100),
    )
    other = CourseSessionFactory(start=session.start + timedelta(hours=2), end=session.start + timedelta(hours=3))
    api_client.force_authenticate(staff)
    first = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "pass"}, format="json")
    assert first.status_code == 201
    second = api_client.post(BOOK.format(other.pk), {"user_id": member.pk, "paid_with": "pass"}, format="json")
    assert second.status_code == 409
    assert second.json()["error"] == MSG_PASS_WEEKLY_CAP.format(cap=1)
    assert second.json()["error"].startswith("Votre abonnement permet 1 cours par semaine")
    again = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == MSG_ALREADY_RESERVED


def test_a_full_class_refuses_staff_too(api_client, staff, member, other_member):
    session = _session(max_attendees=1)
    api_client.force_authenticate(staff)
    assert api_client.post(BOOK.format(session.pk), {"user_id": other_member.pk, "paid_with": "due"}, format="json")
    response = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_SESSION_FULL


def test_a_booking_a_regler_is_shown_so_on_the_sheet_and_settled_by_a_desk_sale(
    api_client, staff, member, mailoutbox, django_capture_on_commit_callbacks
):
    session = _session(price_per_participant=Decimal("22.00"))
    api_client.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    assert response.status_code == 201
    assert response.json()["message"].endswith("(à régler).")
    reservation = Reservation.objects.get(pk=response.json()["reservation_id"])
    assert reservation.status == ReservationStatus.CONFIRMED and reservation.desk_payment == DeskPayment.DUE
    sheet = api_client.get(f"/api/course-sessions/{session.pk}/attendance").json()
    assert [(row["payment"], row["desk_payment"]) for row in sheet["results"]] == [("À régler", "due")]
    assert len(mailoutbox) == 1  # the confirmation

    with django_capture_on_commit_callbacks(execute=True):
        sale = api_client.post(
            "/api/desk/sales",
            {
                "user_id": member.pk,
                "reservation_id": reservation.pk,
                "payments": [{"means": "cash", "amount": "22.00"}],
                "idempotency_key": str(uuid.uuid4()),
            },
            format="json",
        )
    assert sale.status_code == 201, sale.json()
    reservation.refresh_from_db()
    assert reservation.desk_payment == DeskPayment.PAID
    sheet = api_client.get(f"/api/course-sessions/{session.pk}/attendance").json()
    assert [row["payment"] for row in sheet["results"]] == ["Payé à l'accueil"]
    assert Invoice.objects.filter(payment_order__reservation=reservation).count() == 1
    settled = StaffAction.objects.get(member=member, action="settled")
    assert settled.summary == f"Séance réglée à l'accueil : {session.course.title}, 22,00 € (Espèces 22,00 €)"
    # The receipt, not a second confirmation.
    assert [m.subject.endswith(SUBJECT_RESERVATION_CONFIRMED) for m in mailoutbox[1:]] == [False]


def test_a_desk_booking_is_paid_now_by_the_means_adding_up_to_the_session_price(
    api_client, staff, member, mailoutbox, django_capture_on_commit_callbacks
):
    session = _session(price_per_participant=Decimal("25.00"))
    api_client.force_authenticate(staff)
    short = api_client.post(
        BOOK.format(session.pk),
        {"user_id": member.pk, "paid_with": "desk", "payments": [{"means": "cash", "amount": "20.00"}]},
        format="json",
    )
    assert short.status_code == 400
    assert short.json()["error"] == MSG_DESK_TOTAL_MISMATCH.format(total="20,00 €", price="25,00 €", remainder="5,00 €")
    assert not Reservation.objects.exists() and not PaymentOrder.objects.exists()
    missing = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "desk"}, format="json")
    assert missing.status_code == 400 and missing.json()["errors"]["payments"] == [MSG_DESK_PAYMENTS_REQUIRED]

    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(
            BOOK.format(session.pk),
            {
                "user_id": member.pk,
                "paid_with": "desk",
                "payments": [{"means": "card_terminal", "amount": "15.00"}, {"means": "cash", "amount": "10.00"}],
            },
            format="json",
        )
    assert response.status_code == 201, response.json()
    reservation = Reservation.objects.get(pk=response.json()["reservation_id"])
    assert reservation.status == ReservationStatus.CONFIRMED and reservation.desk_payment == DeskPayment.PAID
    order = PaymentOrder.objects.get(reservation=reservation)
    assert (order.provider, order.status, order.amount) == (
        PaymentProviderName.DESK,
        PaymentStatus.COMPLETED,
        Decimal("25.00"),
    )
    invoice = Invoice.objects.get(payment_order=order)
    assert invoice.payment_lines == [["Carte bancaire (TPE)", "15.00"], ["Espèces", "10.00"]]
    subjects = [m.subject for m in mailoutbox]
    assert sum(s.endswith(SUBJECT_RESERVATION_CONFIRMED) for s in subjects) == 1 and len(subjects) == 2
    assert set(StaffAction.objects.filter(member=member).values_list("action", flat=True)) == {"booked", "desk_sale"}


def test_bad_input_is_answered_in_french(api_client, staff, member, other_member):
    session = _session()
    api_client.force_authenticate(staff)
    response = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "cb"}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["paid_with"] == [MSG_PAID_WITH_INVALID]
    response = api_client.post(BOOK.format(session.pk), {"user_id": 999999, "paid_with": "due"}, format="json")
    assert response.status_code == 404 and response.json()["error"] == MSG_MEMBER_NOT_FOUND
    api_client.force_authenticate(other_member)
    forbidden = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    assert forbidden.status_code == 403


def test_staff_cancel_on_behalf_in_time_gives_the_credit_back_and_records_who(
    api_client, staff, member, mailoutbox, django_capture_on_commit_callbacks
):
    session = _session()
    card = PassFactory(member=member, credits_total=10, credits_left=10)
    api_client.force_authenticate(staff)
    booked = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "pass"}, format="json")
    reservation_id = booked.json()["reservation_id"]
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(CANCEL.format(session.pk, reservation_id))
    assert response.status_code == 200, response.json()
    outcome = MSG_CANCELLED_CREDITS_RETURNED.format(credits=1, title=card.title)
    assert response.json() == {
        "reservation_id": reservation_id,
        "late": False,
        "message": MSG_CANCELLED_ON_BEHALF.format(name="Emma Petit", outcome=outcome),
    }
    reservation = Reservation.objects.get(pk=reservation_id)
    assert reservation.status == ReservationStatus.CANCELLED and reservation.cancelled_by == staff
    card.refresh_from_db()
    assert card.credits_left == 10
    assert StaffAction.objects.filter(member=member, action="cancelled").count() == 1
    assert any(outcome in m.body for m in mailoutbox)  # the member's own cancellation e-mail


def test_staff_cancel_late_keeps_the_credit_as_for_the_member(api_client, staff, member):
    start = (timezone.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
    session = CourseSessionFactory(start=start, end=start + timedelta(minutes=75))  # inside the 24 h window
    PassFactory(member=member, credits_total=10, credits_left=10)
    api_client.force_authenticate(staff)
    booked = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "pass"}, format="json")
    response = api_client.post(CANCEL.format(session.pk, booked.json()["reservation_id"]))
    assert response.status_code == 200 and response.json()["late"] is True
    assert "Annulation tardive enregistrée" in response.json()["message"]
    line = StaffAction.objects.get(member=member, action="cancelled")
    assert line.summary.endswith("(annulation tardive)")


def test_cancelling_a_booking_a_regler_gives_no_avoir(api_client, staff, member):
    session = _session()
    api_client.force_authenticate(staff)
    booked = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    response = api_client.post(CANCEL.format(session.pk, booked.json()["reservation_id"]))
    assert response.status_code == 200
    assert response.json()["message"].endswith(MSG_CANCELLED_SUBSCRIPTION)
    assert not Pass.objects.filter(member=member, title=CANCELLATION_CREDIT_TITLE).exists()


def test_cancel_of_another_sessions_booking_is_not_found(api_client, staff, member):
    session, elsewhere = _session(), _session(days=4)
    api_client.force_authenticate(staff)
    booked = api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    response = api_client.post(CANCEL.format(elsewhere.pk, booked.json()["reservation_id"]))
    assert response.status_code == 404


def test_the_members_history_says_a_booking_is_to_settle_at_the_desk(api_client, staff, member):
    session = _session()
    api_client.force_authenticate(staff)
    api_client.post(BOOK.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    api_client.force_authenticate(member)
    (row,) = api_client.get(f"/api/course-feedback/user/{member.pk}").json()["results"]
    assert (row["session_id"], row["desk_payment"]) == (session.pk, "due")


def test_each_malformed_booking_field_is_said_in_french(api_client, staff, member):
    session = _session()
    api_client.force_authenticate(staff)
    cases = [
        ({"user_id": "x", "paid_with": "due"}, "user_id", MSG_USER_ID_INVALID),
        ({"user_id": member.pk, "paid_with": "pass", "pass_id": "x"}, "pass_id", MSG_PASS_ID_INVALID),
        ({"user_id": member.pk, "paid_with": "due", "participants": 0}, "participants", MSG_PARTICIPANTS_INVALID),
        (
            {
                "user_id": member.pk,
                "paid_with": "desk",
                "payments": [{"means": "cash", "amount": "25"}],
                "idempotency_key": "x",
            },
            "idempotency_key",
            MSG_IDEMPOTENCY_KEY_INVALID,
        ),
    ]
    for body, field, message in cases:
        response = api_client.post(BOOK.format(session.pk), body, format="json")
        assert response.status_code == 400 and response.json()["errors"][field] == [message]
    assert MSG_USER_ID_INVALID == "Choisissez le client à inscrire."


def test_a_cancelled_or_started_class_is_refused_to_staff_as_to_the_member(api_client, staff, member):
    cancelled = _session(status=SessionStatus.CANCELLED)
    started = CourseSessionFactory(start=timezone.now() - timedelta(minutes=5))
    api_client.force_authenticate(staff)
    response = api_client.post(BOOK.format(cancelled.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_SESSION_IS_CANCELLED
    response = api_client.post(BOOK.format(started.pk), {"user_id": member.pk, "paid_with": "due"}, format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_SESSION_PAST
    assert not Reservation.objects.exists()

"""Late cancellations (docs/decisions.md 44): inside the course's free-cancellation window a member still cancels;
the seats go to the waiting list or back on sale, and what was paid comes back only if the class fills back."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.cancellation_emails import SUBJECT_LATE_CANCELLATION_RETURNED
from bookings.models import CancelReason, Pass, PassAdjustment, PassAdjustmentAction, PassOrigin, Reservation
from bookings.models import ReservationStatus as RS
from bookings.models_operations import LateCancellation, LateCancellationStatus, WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services.cancellation import (
    MSG_CANCEL_SESSION_STARTED,
    MSG_CANCELLED_CREDITS_RETURNED,
    reservation_cancel,
)
from bookings.services.common import add_months
from bookings.services.departure import member_future_bookings_cancel
from bookings.services.late_cancellation import (
    CANCELLATION_CREDIT_MONTHS,
    LATE_BACK_CREDITS,
    LATE_BACK_PAYMENT,
    LATE_KEPT_CREDITS,
    LATE_KEPT_PAYMENT,
    MSG_CANCELLED_LATE,
    MSG_CANCELLED_LATE_NOTHING,
    RETURN_REASON,
    RETURN_REASON_CLASS_CANCELLED,
    RETURNED_AVOIR,
    RETURNED_CREDITS,
    late_cancellations_settle,
)
from bookings.services.passes import reservation_book_with_pass
from bookings.services.reservations import reservation_confirm
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.booking_windows import MSG_FREE_CANCELLATION_UNTIL, moment_text
from courses.tests.factories import CourseFactory, CourseSessionFactory
from studio.models import OutgoingEmail

pytestmark = pytest.mark.django_db


def _session_in(hours: float, *, places=2, window=24):
    start = (timezone.now() + timedelta(hours=hours)).replace(second=0, microsecond=0)
    return CourseSessionFactory(
        course=CourseFactory(title="Pole Flow", free_cancellation_hours=window), start=start, max_attendees=places
    )


def _booked_with_card(session, user, *, credits_left=10):
    card = PassFactory(member=user, credits_total=10, credits_left=credits_left)
    reservation = reservation_book_with_pass(
        user=user,
        session_id=session.pk,
        pass_id=card.pk,
        participants=1,
        first_name=user.first_name,
        last_name=user.last_name,
        email=user.email,
    )
    return card, reservation


def _fill(session, count):
    return [ReservationFactory(session=session) for _ in range(count)]


def _cancel(api_client, user, reservation, capture):
    api_client.force_authenticate(user)
    with capture(execute=True):
        return api_client.post(f"/api/reservations-courses/{reservation.pk}/cancel")


def _returned_mails(user):
    return OutgoingEmail.objects.filter(to=[user.email], template="bookings_late_cancellation_returned")


def test_a_late_cancel_of_a_full_class_goes_to_the_waiting_list_and_the_credit_comes_back(
    api_client, member, other_member, django_capture_on_commit_callbacks
):
    session = _session_in(3)
    card, reservation = _booked_with_card(session, member, credits_left=10)
    _fill(session, 1)
    waiting_card = PassFactory(member=other_member)
    wl.waitlist_join(user=other_member, session_id=session.pk, auto_book=True, pass_id=waiting_card.pk)

    response = _cancel(api_client, member, reservation, django_capture_on_commit_callbacks)

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["late"] is True
    assert body["message"] == MSG_CANCELLED_LATE.format(
        what=LATE_KEPT_CREDITS.format(credits=1), back=LATE_BACK_CREDITS
    )
    assert Reservation.objects.get(pk=reservation.pk).cancel_reason == CancelReason.LATE
    # The waiting member got the seat at once (automatic booking), so the credit came back once.
    assert WaitlistEntry.objects.get(user=other_member).status == WaitlistStatus.BOOKED
    assert Reservation.objects.filter(session=session, user=other_member, status=RS.CONFIRMED).count() == 1
    card.refresh_from_db()
    assert card.credits_left == 10
    returned = PassAdjustment.objects.get(pass_ref=card, action=PassAdjustmentAction.RETURN)
    assert (returned.credits_delta, returned.reason) == (1, RETURN_REASON)
    late = LateCancellation.objects.get(reservation=reservation)
    assert late.status == LateCancellationStatus.RETURNED and late.returned_at is not None
    (mail,) = _returned_mails(member)
    start = timezone.localtime(session.start)
    assert SUBJECT_LATE_CANCELLATION_RETURNED.format(title="Pole Flow", date=f"{start:%d/%m/%Y}") in mail.subject
    assert RETURNED_CREDITS.format(credits=1, title=card.title) in mail.body_text


def test_nobody_takes_the_seat_nothing_comes_back(api_client, member, django_capture_on_commit_callbacks):
    session = _session_in(3)
    card, reservation = _booked_with_card(session, member, credits_left=10)
    _fill(session, 1)
    assert _cancel(api_client, member, reservation, django_capture_on_commit_callbacks).json()["late"] is True
    card.refresh_from_db()
    assert card.credits_left == 9
    assert LateCancellation.objects.get().status == LateCancellationStatus.PENDING
    # Once the class has started, a confirmation (a walk-in at the desk) gives nothing back.
    _fill(session, 1)
    assert late_cancellations_settle(session_id=session.pk, at=session.start) == []
    assert not _returned_mails(member).exists()


def test_a_card_payment_late_cancelled_becomes_an_avoir_once_the_offered_seat_is_paid(
    api_client, member, other_member, django_capture_on_commit_callbacks
):
    session = _session_in(5, places=1)
    reservation = ReservationFactory(session=session, user=member, participants=1)
    wl.waitlist_join(user=other_member, session_id=session.pk)

    response = _cancel(api_client, member, reservation, django_capture_on_commit_callbacks)

    assert response.json()["message"] == MSG_CANCELLED_LATE.format(what=LATE_KEPT_PAYMENT, back=LATE_BACK_PAYMENT)
    assert response.json()["credit_pass"] is None
    offer = WaitlistEntry.objects.get(user=other_member)
    assert offer.status == WaitlistStatus.OFFERED
    assert not Pass.objects.filter(member=member).exists()  # an offer is not a seat taken: held, not paid

    with django_capture_on_commit_callbacks(execute=True):
        reservation_confirm(reservation_id=offer.reservation_id)

    avoir = Pass.objects.get(member=member)
    expires = add_months(timezone.localdate(), CANCELLATION_CREDIT_MONTHS)
    assert (avoir.origin, avoir.credits_left, avoir.expires_on, avoir.source_reservation_id) == (
        PassOrigin.CANCELLATION,
        1,
        expires,
        reservation.pk,
    )
    (mail,) = _returned_mails(member)
    assert RETURNED_AVOIR.format(credits=1, date=expires.strftime("%d/%m/%Y")) in mail.body_text
    # Settling again gives nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        assert late_cancellations_settle(session_id=session.pk, at=timezone.now()) == []
    assert Pass.objects.filter(member=member).count() == 1


def test_a_seat_back_on_sale_taken_by_a_direct_booking_gives_the_credit_back(
    api_client, member, other_member, django_capture_on_commit_callbacks
):
    session = _session_in(10, places=5)
    card, reservation = _booked_with_card(session, member)
    _fill(session, 1)
    _cancel(api_client, member, reservation, django_capture_on_commit_callbacks)
    assert LateCancellation.objects.get().seats_taken_before == 2
    with django_capture_on_commit_callbacks(execute=True):
        _booked_with_card(session, other_member)
    card.refresh_from_db()
    assert card.credits_left == 10
    assert _returned_mails(member).count() == 1


def test_a_subscription_or_a_free_booking_has_nothing_to_give_back(
    api_client, member, other_member, django_capture_on_commit_callbacks
):
    session = _session_in(3)
    subscription = PassFactory(member=member, subscription=True)
    booked = reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=subscription.pk,
        participants=1,
        first_name="E",
        last_name="P",
        email="e@p.fr",
    )
    response = _cancel(api_client, member, booked, django_capture_on_commit_callbacks)
    assert (response.json()["late"], response.json()["message"]) == (True, MSG_CANCELLED_LATE_NOTHING)
    free = ReservationFactory(session=session, user=other_member, unit_price=0)
    response = _cancel(api_client, other_member, free, django_capture_on_commit_callbacks)
    assert response.json()["message"] == MSG_CANCELLED_LATE_NOTHING
    assert not LateCancellation.objects.exists()


def test_in_time_is_not_late_and_a_started_class_is_refused(api_client, member, django_capture_on_commit_callbacks):
    session = _session_in(30)
    card, reservation = _booked_with_card(session, member)
    response = _cancel(api_client, member, reservation, django_capture_on_commit_callbacks)
    assert response.json()["late"] is False
    assert response.json()["message"] == MSG_CANCELLED_CREDITS_RETURNED.format(credits=1, title=card.title)
    started = CourseSessionFactory(start=timezone.now() - timedelta(minutes=5))
    booked = ReservationFactory(session=started, user=member)
    response = _cancel(api_client, member, booked, django_capture_on_commit_callbacks)
    assert response.status_code == 409
    assert response.json()["error"] == MSG_CANCEL_SESSION_STARTED
    assert Reservation.objects.get(pk=booked.pk).status == RS.CONFIRMED


def test_the_window_is_per_course(api_client, member, django_capture_on_commit_callbacks):
    session = _session_in(30, window=48)
    _card, reservation = _booked_with_card(session, member)
    api_client.force_authenticate(member)
    (row,) = api_client.get(f"/api/course-feedback/user/{member.pk}").json()["results"]
    deadline = session.start - timedelta(hours=48)
    assert row["free_cancellation_text"] == MSG_FREE_CANCELLATION_UNTIL.format(when=moment_text(deadline))
    assert (row["can_cancel"], row["cancel_is_late"]) == (True, True)
    assert _cancel(api_client, member, reservation, django_capture_on_commit_callbacks).json()["late"] is True


def test_a_member_leaving_drops_a_late_booking_without_a_late_cancellation(member):
    session = _session_in(3)
    card, _reservation = _booked_with_card(session, member)
    member_future_bookings_cancel(user=member)
    assert Reservation.objects.get(user=member).cancel_reason == CancelReason.LATE
    assert not LateCancellation.objects.exists()


def test_the_confirmation_email_states_the_window(member, django_capture_on_commit_callbacks):
    session = _session_in(72)
    with django_capture_on_commit_callbacks(execute=True):
        _booked_with_card(session, member)
    mail = OutgoingEmail.objects.get(to=[member.email], template="bookings_reservation_confirmed")
    deadline = session.start - timedelta(hours=24)
    assert MSG_FREE_CANCELLATION_UNTIL.format(when=moment_text(deadline)) in mail.body_text


def test_two_members_late_cancel_the_second_booking_back_returns_both(
    api_client, member, other_member, django_capture_on_commit_callbacks
):
    session = _session_in(4, places=3)
    first_card, first = _booked_with_card(session, member)
    second_card, second = _booked_with_card(session, other_member)
    _fill(session, 1)
    _cancel(api_client, member, first, django_capture_on_commit_callbacks)
    _cancel(api_client, other_member, second, django_capture_on_commit_callbacks)
    newcomers = [UserFactory(), UserFactory()]
    with django_capture_on_commit_callbacks(execute=True):
        _booked_with_card(session, newcomers[0])
    second_card.refresh_from_db()
    first_card.refresh_from_db()
    # The class is back to the level it had before the second cancellation, not yet before the first.
    assert (first_card.credits_left, second_card.credits_left) == (9, 10)
    with django_capture_on_commit_callbacks(execute=True):
        _booked_with_card(session, newcomers[1])
    first_card.refresh_from_db()
    assert first_card.credits_left == 10


@pytest.mark.postgres
def test_a_late_cancel_racing_the_waiting_list_gives_one_seat_and_the_credit_back_once(member, other_member):
    """The late cancellation, the waiting list's offer of the freed seat and two schedulers' sweeps at once: the
    waiting member books the seat once and the credit comes back once (the session lock orders them)."""
    from bookings.tasks import waitlist_offers_sweep
    from studio.tests.races import run_together

    session = _session_in(3, places=2)
    card, reservation = _booked_with_card(session, member, credits_left=10)
    _fill(session, 1)
    waiting_card = PassFactory(member=other_member)
    wl.waitlist_join(user=other_member, session_id=session.pk, auto_book=True, pass_id=waiting_card.pk)

    errors = run_together(
        lambda: reservation_cancel(user=member, reservation_id=reservation.pk),
        waitlist_offers_sweep.call,
        waitlist_offers_sweep.call,
    )
    waitlist_offers_sweep.call()  # whichever ran first, the seat is offered by now

    assert errors == []
    assert Reservation.objects.filter(session=session, user=other_member, status=RS.CONFIRMED).count() == 1
    assert Reservation.objects.filter(session=session, status=RS.CONFIRMED).count() == 2
    card.refresh_from_db()
    assert card.credits_left == 10
    assert PassAdjustment.objects.filter(pass_ref=card, action=PassAdjustmentAction.RETURN).count() == 1
    assert LateCancellation.objects.get().status == LateCancellationStatus.RETURNED
    waiting_card.refresh_from_db()
    assert waiting_card.credits_left == 9


def test_staff_read_the_late_cancellations_in_the_admin(client, admin_user, member):
    session = _session_in(3)
    _card, reservation = _booked_with_card(session, member)
    reservation_cancel(user=member, reservation_id=reservation.pk)
    client.force_login(admin_user)
    response = client.get("/django-admin/bookings/latecancellation/")
    assert response.status_code == 200
    assert "Place remise en vente" in response.content.decode()


def test_a_class_the_studio_cancels_gives_the_late_cancellers_credit_back(
    api_client, member, django_capture_on_commit_callbacks
):
    from bookings.services.class_cancellation import course_session_cancel

    session = _session_in(3)
    card, reservation = _booked_with_card(session, member, credits_left=10)
    _cancel(api_client, member, reservation, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        course_session_cancel(session_id=session.pk, reason="Professeure malade")
    card.refresh_from_db()
    assert card.credits_left == 10
    assert LateCancellation.objects.get().status == LateCancellationStatus.RETURNED
    returned = PassAdjustment.objects.get(pass_ref=card, action=PassAdjustmentAction.RETURN)
    assert returned.reason == RETURN_REASON_CLASS_CANCELLED
    (mail,) = _returned_mails(member)
    assert "Le studio a depuis annulé ce cours :" in mail.body_text
    assert RETURNED_CREDITS.format(credits=1, title=card.title) in mail.body_text

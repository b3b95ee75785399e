"""A plan's rules (docs/decisions.md 25–26: unpaid for 7 days, frozen, weekly cap) hold on the waiting list as they hold
on a direct booking: joining with automatic booking is refused, and the automatic booking when a seat frees skips the
entry (nothing booked, nothing spent, the member told why) and offers the seat to the next in line."""

from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.models import Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services.cancellation import reservation_cancel
from bookings.services.pass_rules import MSG_PASS_FROZEN, MSG_PASS_UNPAID, MSG_PASS_WEEKLY_CAP, pass_rule_set
from bookings.services.passes import MSG_PASS_NO_CREDITS
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory
from studio.models import OutgoingEmail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("monday")]

WAITLIST = "/api/course-sessions/{}/waitlist"
RESERVE = "/api/reservations-courses"
TUESDAY, WEDNESDAY = date(2030, 1, 8), date(2030, 1, 9)


@pytest.fixture
def monday():
    with freeze_time("2030-01-07 10:00:00"):  # a Monday; the classes below fall in the same Paris week
        yield


def _session_on(day: date, *, places=1, hour=19):
    start = timezone.make_aware(datetime(day.year, day.month, day.day, hour, 0))
    session = CourseSessionFactory(start=start, end=start + timedelta(hours=1), max_attendees=places)
    booked = [ReservationFactory(session=session) for _ in range(places)]
    return session, booked


def _subscription(member):
    return PassFactory(member=member, subscription=True, starts_on=date(2030, 1, 1), expires_on=date(2030, 12, 31))


def _frozen(pass_obj):
    pass_rule_set(pass_id=pass_obj.pk, frozen=(TUESDAY, WEDNESDAY + timedelta(days=7)))
    return MSG_PASS_FROZEN.format(start="08/01/2030", end="16/01/2030")


def _over_its_weekly_cap(pass_obj):
    pass_rule_set(pass_id=pass_obj.pk, weekly_cap=1)
    tuesday, _ = _session_on(TUESDAY, places=2, hour=12)
    ReservationFactory(session=tuesday, user=pass_obj.member, paid_with_pass=pass_obj)
    return MSG_PASS_WEEKLY_CAP.format(cap=1)


def _unpaid(pass_obj):
    pass_rule_set(pass_id=pass_obj.pk, blocked_from=date(2030, 1, 6))
    return MSG_PASS_UNPAID


RULES = pytest.mark.parametrize("rule", [_frozen, _over_its_weekly_cap, _unpaid], ids=["frozen", "cap", "unpaid"])


def _join(api_client, member, session, pass_obj):
    api_client.force_authenticate(member)
    return api_client.post(
        WAITLIST.format(session.pk), {"auto_book": True, "pass_id": pass_obj.pk, "participants": 1}, format="json"
    )


def _book_directly(api_client, member, session, pass_obj):
    api_client.force_authenticate(member)
    payload = {
        "session_id": session.pk,
        "participants": 1,
        "first_name": member.first_name,
        "last_name": member.last_name,
        "email": member.email,
        "pass_id": pass_obj.pk,
    }
    return api_client.post(RESERVE, payload, format="json")


@RULES
def test_joining_with_automatic_booking_is_refused_as_a_direct_booking_is(api_client, member, rule):
    pass_obj = _subscription(member)
    message = rule(pass_obj)
    open_class = CourseSessionFactory(
        start=timezone.make_aware(datetime(2030, 1, 9, 12, 0)), end=timezone.make_aware(datetime(2030, 1, 9, 13, 0))
    )
    direct = _book_directly(api_client, member, open_class, pass_obj)
    assert direct.status_code == 409 and direct.json()["error"] == message
    full_class, _ = _session_on(WEDNESDAY)
    joined = _join(api_client, member, full_class, pass_obj)
    assert joined.status_code == 409
    assert joined.json()["error"] == message
    assert not WaitlistEntry.objects.filter(user=member).exists()


@RULES
def test_joining_without_automatic_booking_stays_open(api_client, member, rule):
    """The line itself is free: a member whose plan refuses may still wait for an offer and pay it by card."""
    pass_obj = _subscription(member)
    rule(pass_obj)
    full_class, _ = _session_on(WEDNESDAY)
    api_client.force_authenticate(member)
    joined = api_client.post(WAITLIST.format(full_class.pk), {"auto_book": False}, format="json")
    assert joined.status_code == 201


@RULES
def test_the_automatic_booking_skips_an_entry_the_plan_now_refuses_and_offers_the_seat_to_the_next(
    member, rule, django_capture_on_commit_callbacks
):
    pass_obj = _subscription(member)
    full_class, booked = _session_on(WEDNESDAY)
    wl.waitlist_join(user=member, session_id=full_class.pk, auto_book=True, pass_id=pass_obj.pk)
    next_in_line = UserFactory()
    wl.waitlist_join(user=next_in_line, session_id=full_class.pk)
    message = rule(pass_obj)  # the plan changed while the member waited

    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)

    entry = WaitlistEntry.objects.get(user=member)
    assert entry.status == WaitlistStatus.SKIPPED and entry.reservation is None
    assert not Reservation.objects.filter(session=full_class, user=member).exists()
    assert not pass_obj.reservations.filter(session=full_class).exists()
    mail = OutgoingEmail.objects.get(to=[member.email], template="bookings_waitlist_skipped")
    assert message in mail.body_text and "Rien ne vous a été débité" in mail.body_text
    assert not OutgoingEmail.objects.filter(to=[member.email], template="bookings_waitlist_booked").exists()
    offered = WaitlistEntry.objects.get(user=next_in_line)
    assert offered.status == WaitlistStatus.OFFERED and offered.reservation.status == ReservationStatus.HELD


def test_the_automatic_booking_still_books_within_the_weekly_cap(member, django_capture_on_commit_callbacks):
    pass_obj = _subscription(member)
    pass_rule_set(pass_id=pass_obj.pk, weekly_cap=2)
    _over_its_weekly_cap_by_one = _session_on(TUESDAY, places=2, hour=12)[0]
    ReservationFactory(session=_over_its_weekly_cap_by_one, user=member, paid_with_pass=pass_obj)
    full_class, booked = _session_on(WEDNESDAY)
    wl.waitlist_join(user=member, session_id=full_class.pk, auto_book=True, pass_id=pass_obj.pk)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
    entry = WaitlistEntry.objects.get(user=member)
    assert entry.status == WaitlistStatus.BOOKED
    assert entry.reservation.paid_with_pass_id == pass_obj.pk
    assert entry.reservation.status == ReservationStatus.CONFIRMED


def test_a_skipped_member_reads_why_in_plain_text(member, django_capture_on_commit_callbacks):
    card = PassFactory(member=member, credits_total=10, credits_left=1, starts_on=date(2030, 1, 1))
    full_class, booked = _session_on(WEDNESDAY)
    wl.waitlist_join(user=member, session_id=full_class.pk, auto_book=True, pass_id=card.pk)
    card.credits_left = 0
    card.save(update_fields=["credits_left"])
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
    mail = OutgoingEmail.objects.get(to=[member.email], template="bookings_waitlist_skipped")
    assert f"automatiquement : {MSG_PASS_NO_CREDITS} Rien ne vous a été débité" in mail.body_text

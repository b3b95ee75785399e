"""Rules edited in the dashboard's tariff form hold on every path that books with a pass (docs/decisions.md 26, 51):
the member's direct booking, the waiting list's automatic booking and the walk-in at the attendance sheet all call
the same pass rule functions; the commitment edited there is the one a new subscription binds."""

from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services.cancellation import reservation_cancel
from bookings.services.pass_admin import pass_grant
from bookings.services.pass_rules import MSG_PASS_COURSE_NOT_COVERED, MSG_PASS_WEEKLY_CAP
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, TariffFactory
from payments.subscriptions.services.paypal_purchase import subscription_offer
from studio.models import OutgoingEmail

from .test_subscriptions import buy

pytestmark = pytest.mark.django_db

RULES = "/api/tariff-rules/{}"
RESERVE = "/api/reservations-courses"
WALK_IN = "/api/course-sessions/{}/walk-ins"


def _at(day: date, hour: int):
    return timezone.make_aware(datetime(day.year, day.month, day.day, hour, 0))


def _session(day: date, *, places=5, course=None):
    start = _at(day, 19)
    extra = {"course": course} if course else {}
    return CourseSessionFactory(start=start, end=start + timedelta(hours=1), max_attendees=places, **extra)


def _book(api_client, member, session, pass_obj):
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


def _sold_after_the_edit(staff, member, tariff):
    return pass_grant(actor=staff, member_email=member.email, reason="Vente au comptoir", tariff_id=tariff.pk)


@freeze_time("2030-01-09 18:05:00")  # Wednesday 19:05 in Paris: the evening class started 5 minutes ago
def test_a_weekly_cap_edited_in_the_dashboard_holds_on_every_booking_path(  # direct, waiting list, walk-in, desk
    api_client, staff, member, django_capture_on_commit_callbacks
):
    tariff = TariffFactory(type="abonnement", pass_unlimited=True, pass_validity_months=3, pass_weekly_cap=0)
    api_client.force_authenticate(staff)
    edited = api_client.put(RULES.format(tariff.pk), {"pass_weekly_cap": 1}, format="json")
    assert edited.status_code == 200 and edited.json()["pass_weekly_cap"] == 1
    pass_obj = _sold_after_the_edit(staff, member, tariff)
    wednesday, thursday = _session(date(2030, 1, 9)), _session(date(2030, 1, 10))
    friday = _session(date(2030, 1, 11), places=1)
    taken = ReservationFactory(session=friday)
    wl.waitlist_join(user=member, session_id=friday.pk, auto_book=True, pass_id=pass_obj.pk)

    first = _book(api_client, member, thursday, pass_obj)  # the week's one class
    assert first.status_code == 201, first.json()

    message = MSG_PASS_WEEKLY_CAP.format(cap=1)
    second = _book(api_client, member, _session(date(2030, 1, 12)), pass_obj)
    assert second.status_code == 409 and second.json()["error"] == message

    with django_capture_on_commit_callbacks(execute=True):  # a seat frees on Friday: the automatic booking
        reservation_cancel(user=taken.user, reservation_id=taken.pk)
    assert WaitlistEntry.objects.get(user=member).status == WaitlistStatus.SKIPPED
    mail = OutgoingEmail.objects.get(to=[member.email], template="bookings_waitlist_skipped")
    assert message in mail.body_text

    api_client.force_authenticate(staff)
    walk_in = api_client.post(WALK_IN.format(wednesday.pk), {"email": member.email, "paid_with": "pass"}, format="json")
    assert walk_in.status_code == 409 and walk_in.json()["error"] == message
    # The front desk booking on the member's behalf with their pass (docs/decisions.md 50).
    sunday = _session(date(2030, 1, 13))  # still the same week, and not started (the desk books only what is to come)
    on_behalf = api_client.post(
        f"/api/course-sessions/{sunday.pk}/bookings",
        {"user_id": member.pk, "participants": 1, "paid_with": "pass", "pass_id": pass_obj.pk},
        format="json",
    )
    assert on_behalf.status_code == 409 and on_behalf.json()["error"] == message
    assert pass_obj.reservations.count() == 1


@freeze_time("2030-01-09 18:05:00")
def test_a_cap_lifted_in_the_dashboard_lets_the_next_pass_book_as_often_as_it_likes(api_client, staff, member):
    tariff = TariffFactory(type="abonnement", pass_unlimited=True, pass_validity_months=3, pass_weekly_cap=1)
    api_client.force_authenticate(staff)
    assert api_client.put(RULES.format(tariff.pk), {"pass_weekly_cap": 0}, format="json").status_code == 200
    pass_obj = _sold_after_the_edit(staff, member, tariff)
    for day in (date(2030, 1, 10), date(2030, 1, 11)):
        assert _book(api_client, member, _session(day), pass_obj).status_code == 201


@freeze_time("2030-01-09 18:05:00")
def test_courses_covered_are_read_when_booking_on_every_path(api_client, staff, member):
    barre, pole = CourseFactory(title="Barre au sol"), CourseFactory(title="Pole Dance débutant")
    tariff = TariffFactory(type="forfait", pass_credits=10, pass_validity_months=6)
    pass_obj = _sold_after_the_edit(staff, member, tariff)
    api_client.force_authenticate(staff)
    edited = api_client.put(RULES.format(tariff.pk), {"covered_course_ids": [barre.pk]}, format="json")
    assert edited.status_code == 200  # read live: the card already sold follows the edit

    message = MSG_PASS_COURSE_NOT_COVERED.format(title=tariff.title, course="Pole Dance débutant")
    refused = _book(api_client, member, _session(date(2030, 1, 10), course=pole), pass_obj)
    assert refused.status_code == 409 and refused.json()["error"] == message
    assert _book(api_client, member, _session(date(2030, 1, 10), course=barre), pass_obj).status_code == 201

    tonight = _session(date(2030, 1, 9), course=pole)
    api_client.force_authenticate(staff)
    walk_in = api_client.post(WALK_IN.format(tonight.pk), {"email": member.email, "paid_with": "pass"}, format="json")
    assert walk_in.status_code == 409 and walk_in.json()["error"] == message

    other = UserFactory()
    full = _session(date(2030, 1, 11), places=1, course=pole)
    ReservationFactory(session=full)
    api_client.force_authenticate(member)
    joined = api_client.post(
        f"/api/course-sessions/{full.pk}/waitlist", {"auto_book": True, "pass_id": pass_obj.pk}, format="json"
    )
    assert joined.status_code == 409 and joined.json()["error"] == message
    assert not WaitlistEntry.objects.filter(user__in=[member, other]).exists()


def test_the_commitment_edited_in_the_dashboard_is_what_a_new_subscription_binds(api_client, staff):
    tariff = TariffFactory(
        type="abonnement", frequency="par mois", pass_unlimited=True, pass_validity_months=12, price="55.00"
    )
    assert subscription_offer(tariff_id=tariff.pk)["periods_committed"] == 12  # its validity's periods
    api_client.force_authenticate(staff)
    assert api_client.put(RULES.format(tariff.pk), {"commitment_periods": 6}, format="json").status_code == 200
    assert subscription_offer(tariff_id=tariff.pk)["periods_committed"] == 6


@freeze_time("2030-01-10 10:00:00")
def test_a_subscription_bought_after_the_edit_binds_the_commitment_set_in_the_dashboard(
    api_client,
    staff,
    member,
    annual,  # noqa: F811 - the fixture imported above
):
    api_client.force_authenticate(staff)
    assert api_client.put(RULES.format(annual.pk), {"commitment_periods": 6}, format="json").status_code == 200
    subscription = buy(api_client, member, annual)
    assert (subscription.periods_committed, subscription.periods_paid) == (6, 1)
    [row] = api_client.get("/api/subscriptions/mine").json()
    assert (row["periods_committed"], row["periods_left"], row["ends_on"]) == (6, 5, "2030-07-09")


def test_the_course_message_reads_as_the_studio_writes_it():
    assert MSG_PASS_COURSE_NOT_COVERED == "Votre formule « {title} » ne permet pas de réserver le cours « {course} »."

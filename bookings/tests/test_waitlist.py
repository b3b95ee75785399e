"""Waiting lists (docs/decisions.md 28, 35): join, leave, offers in order, auto-booking, lapsed offers."""

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation, ReservationStatus
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services.availability import session_seats_left
from bookings.services.cancellation import reservation_cancel
from bookings.services.common import MSG_SESSION_FULL, ReservationError
from bookings.services.passes import MSG_PASS_NO_CREDITS
from bookings.services.reservations import reservation_confirm, reservation_hold
from bookings.services.session_places import course_session_update
from bookings.tasks import waitlist_offers_sweep
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory
from studio.models import OutgoingEmail

WAITLIST = "/api/course-sessions/{}/waitlist"


def _full_session(places=1, **kwargs):
    session = CourseSessionFactory(max_attendees=places, **kwargs)
    booked = [ReservationFactory(session=session) for _ in range(places)]
    return session, booked


def _mails(user, template):
    return OutgoingEmail.objects.filter(to=[user.email], template=template)


@pytest.mark.django_db
def test_members_join_a_full_session_in_order_and_see_true_positions():
    session, _ = _full_session()
    members = [UserFactory() for _ in range(3)]
    entries = [wl.waitlist_join(user=m, session_id=session.pk) for m in members]
    assert [wl.waitlist_position(e) for e in entries] == [1, 2, 3]
    wl.waitlist_leave(user=members[0], session_id=session.pk)
    entries = [WaitlistEntry.objects.get(pk=e.pk) for e in entries]
    assert [wl.waitlist_position(e) for e in entries] == [None, 1, 2]


@pytest.mark.django_db
def test_joining_is_refused_in_french_when_it_makes_no_sense(member):
    open_session = CourseSessionFactory(max_attendees=3)
    with pytest.raises(wl.WaitlistError) as not_full:
        wl.waitlist_join(user=member, session_id=open_session.pk)
    assert not_full.value.message == wl.MSG_WAITLIST_NOT_FULL
    session, booked = _full_session()
    with pytest.raises(wl.WaitlistError) as mine:
        wl.waitlist_join(user=booked[0].user, session_id=session.pk)
    assert mine.value.message == wl.MSG_WAITLIST_ALREADY_BOOKED
    wl.waitlist_join(user=member, session_id=session.pk)
    with pytest.raises(wl.WaitlistError) as twice:
        wl.waitlist_join(user=member, session_id=session.pk)
    assert twice.value.message == wl.MSG_WAITLIST_ALREADY_IN.format(position=1)
    with pytest.raises(wl.WaitlistError) as needs_pass:
        wl.waitlist_join(user=UserFactory(), session_id=session.pk, auto_book=True)
    assert needs_pass.value.message == wl.MSG_WAITLIST_AUTO_BOOK_NEEDS_PASS
    with pytest.raises(wl.WaitlistError) as not_in:
        wl.waitlist_leave(user=UserFactory(), session_id=session.pk)
    assert not_in.value.message == wl.MSG_WAITLIST_NOT_IN
    soon, _ = _full_session(start=timezone.now() + timedelta(minutes=50))
    with pytest.raises(wl.WaitlistError) as closed:
        wl.waitlist_join(user=member, session_id=soon.pk)
    assert closed.value.message == wl.MSG_WAITLIST_CLOSED


@pytest.mark.django_db
def test_a_cancellation_offers_the_seat_to_the_first_in_line_with_a_two_hour_hold_and_a_link(
    django_capture_on_commit_callbacks,
):
    session, booked = _full_session()
    first, second = UserFactory(), UserFactory()
    wl.waitlist_join(user=first, session_id=session.pk)
    wl.waitlist_join(user=second, session_id=session.pk)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
    entry = WaitlistEntry.objects.get(user=first)
    assert entry.status == WaitlistStatus.OFFERED
    hold = entry.reservation
    assert hold.status == ReservationStatus.HELD and hold.paid_with_pass_id is None
    assert hold.hold_expires_at == entry.offered_at + timedelta(hours=2)
    mail = _mails(first, "bookings_waitlist_offered").get()
    assert "Une place s'est libérée" in mail.subject
    assert "/courses/calendar?date=" in mail.body_text and "Rien n'est débité" in mail.body_text
    assert WaitlistEntry.objects.get(user=second).status == WaitlistStatus.WAITING
    assert session_seats_left(session=session) == 0


@pytest.mark.django_db
def test_an_unclaimed_offer_passes_to_the_next_after_two_hours(django_capture_on_commit_callbacks):
    session, booked = _full_session(start=timezone.now() + timedelta(days=2))
    first, second = UserFactory(), UserFactory()
    wl.waitlist_join(user=first, session_id=session.pk)
    wl.waitlist_join(user=second, session_id=session.pk)
    with freeze_time(timezone.now()) as clock:
        with django_capture_on_commit_callbacks(execute=True):
            reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
        clock.tick(timedelta(hours=1, minutes=59))
        assert waitlist_offers_sweep.call() == 0
        assert WaitlistEntry.objects.get(user=first).status == WaitlistStatus.OFFERED
        clock.tick(timedelta(minutes=2))
        with django_capture_on_commit_callbacks(execute=True):
            assert waitlist_offers_sweep.call() == 1
    assert WaitlistEntry.objects.get(user=first).status == WaitlistStatus.EXPIRED
    assert WaitlistEntry.objects.get(user=second).status == WaitlistStatus.OFFERED
    assert _mails(second, "bookings_waitlist_offered").count() == 1
    assert waitlist_offers_sweep.call() == 0  # idempotent


@pytest.mark.django_db
def test_an_offer_never_holds_later_than_one_hour_before_and_none_is_made_in_the_last_hour():
    start = timezone.now() + timedelta(hours=2, minutes=30)
    session, booked = _full_session(start=start)
    first, second = UserFactory(), UserFactory()
    wl.waitlist_join(user=first, session_id=session.pk)
    wl.waitlist_join(user=second, session_id=session.pk)
    with freeze_time(timezone.now()) as clock:
        booked[0].status = ReservationStatus.CANCELLED
        booked[0].save()
        assert len(wl.waitlist_offer_freed_seats(session_id=session.pk)) == 1
        entry = WaitlistEntry.objects.get(user=first)
        assert entry.offer_expires_at == start - timedelta(hours=1)
        clock.move_to(start - timedelta(minutes=59))
        assert waitlist_offers_sweep.call() == 0
    assert WaitlistEntry.objects.get(user=first).status == WaitlistStatus.EXPIRED
    assert WaitlistEntry.objects.get(user=second).status == WaitlistStatus.WAITING
    assert not _mails(second, "bookings_waitlist_offered").exists()


@pytest.mark.django_db
def test_auto_booking_books_with_the_pass_and_a_pass_without_credits_is_skipped_not_charged(
    django_capture_on_commit_callbacks,
):
    session, booked = _full_session(places=2)
    empty_card_owner, card_owner = UserFactory(), UserFactory()
    empty = PassFactory(member=empty_card_owner, credits_total=10, credits_left=1)
    card = PassFactory(member=card_owner, credits_total=10, credits_left=3)
    wl.waitlist_join(user=empty_card_owner, session_id=session.pk, auto_book=True, pass_id=empty.pk)
    wl.waitlist_join(user=card_owner, session_id=session.pk, auto_book=True, pass_id=card.pk)
    Pass.objects.filter(pk=empty.pk).update(credits_left=0)  # spent elsewhere meanwhile
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
    skipped = WaitlistEntry.objects.get(user=empty_card_owner)
    assert skipped.status == WaitlistStatus.SKIPPED and skipped.reservation is None
    assert Pass.objects.get(pk=empty.pk).credits_left == 0
    assert _mails(empty_card_owner, "bookings_waitlist_skipped").count() == 1
    auto = WaitlistEntry.objects.get(user=card_owner)
    assert auto.status == WaitlistStatus.BOOKED
    assert auto.reservation.status == ReservationStatus.CONFIRMED and auto.reservation.paid_with_pass_id == card.pk
    assert Pass.objects.get(pk=card.pk).credits_left == 2
    assert _mails(card_owner, "bookings_waitlist_booked").count() == 1


@pytest.mark.django_db
def test_staff_raising_the_places_offers_them(staff, django_capture_on_commit_callbacks):
    session, _ = _full_session()
    member = UserFactory()
    wl.waitlist_join(user=member, session_id=session.pk)
    with django_capture_on_commit_callbacks(execute=True):
        course_session_update(
            session_id=session.pk,
            course_id=session.course_id,
            start=session.start,
            end=session.end,
            instructor_id=session.instructor_id,
            max_attendees=2,
        )
    assert WaitlistEntry.objects.get(user=member).status == WaitlistStatus.OFFERED


@pytest.mark.django_db
def test_paying_the_offered_hold_books_it_and_leaving_withdraws_an_offer(django_capture_on_commit_callbacks):
    session, booked = _full_session(places=2)
    payer, leaver, next_one = UserFactory(), UserFactory(), UserFactory()
    for user in (payer, leaver, next_one):
        wl.waitlist_join(user=user, session_id=session.pk)
    for reservation in booked:
        with django_capture_on_commit_callbacks(execute=True):
            reservation_cancel(user=reservation.user, reservation_id=reservation.pk)
    paid = WaitlistEntry.objects.get(user=payer)
    reservation_confirm(reservation_id=paid.reservation_id)
    with django_capture_on_commit_callbacks(execute=True):
        wl.waitlist_leave(user=leaver, session_id=session.pk)
    assert Reservation.objects.get(pk=WaitlistEntry.objects.get(user=leaver).reservation_id).status == "cancelled"
    assert WaitlistEntry.objects.get(user=next_one).status == WaitlistStatus.OFFERED
    waitlist_offers_sweep.call()
    assert WaitlistEntry.objects.get(user=payer).status == WaitlistStatus.BOOKED


# --- API ---


def test_api_join_position_mine_staff_list_and_leave(api_client, member, staff):
    session, _ = _full_session()
    other = UserFactory()
    wl.waitlist_join(user=other, session_id=session.pk)
    api_client.force_authenticate(member)
    joined = api_client.post(WAITLIST.format(session.pk), {"auto_book": False}, format="json")
    assert joined.status_code == 201
    assert joined.json() == {"position": 2, "message": "Vous êtes inscrit(e) sur la liste d'attente : position 2."}
    mine = api_client.get("/api/waitlist/mine").json()
    assert [(e["session_id"], e["position"], e["status"]) for e in mine] == [(session.pk, 2, "waiting")]
    assert api_client.get(WAITLIST.format(session.pk)).status_code == 403
    again = api_client.post(WAITLIST.format(session.pk), {}, format="json")
    assert again.status_code == 409 and again.json()["error"] == wl.MSG_WAITLIST_ALREADY_IN.format(position=2)
    api_client.force_authenticate(staff)
    listed = api_client.get(WAITLIST.format(session.pk)).json()
    assert [(r["email"], r["position"]) for r in listed["results"]] == [(other.email, 1), (member.email, 2)]
    assert api_client.get(WAITLIST.format(999999)).status_code == 404
    api_client.force_authenticate(member)
    left = api_client.delete(WAITLIST.format(session.pk))
    assert left.status_code == 200 and left.json()["message"] == "Vous avez quitté la liste d'attente."
    assert api_client.delete(WAITLIST.format(session.pk)).status_code == 404
    assert api_client.get("/api/waitlist/mine").json() == []


def test_api_refusals_in_french(api_client, member):
    session, _ = _full_session()
    assert api_client.post(WAITLIST.format(session.pk), {}, format="json").status_code in (401, 403)
    api_client.force_authenticate(member)
    bad = api_client.post(WAITLIST.format(session.pk), {"auto_book": "peut-être"}, format="json")
    assert bad.status_code == 400
    assert "Le choix de réservation automatique doit être vrai ou faux." in str(bad.json())
    no_pass = api_client.post(WAITLIST.format(session.pk), {"auto_book": True}, format="json")
    assert no_pass.status_code == 409 and no_pass.json()["error"] == wl.MSG_WAITLIST_AUTO_BOOK_NEEDS_PASS
    empty = PassFactory(member=member, credits_total=5, credits_left=0)
    spent = api_client.post(WAITLIST.format(session.pk), {"auto_book": True, "pass_id": empty.pk}, format="json")
    assert spent.status_code == 409 and spent.json()["error"] == MSG_PASS_NO_CREDITS
    open_session = CourseSessionFactory(max_attendees=5)
    not_full = api_client.post(WAITLIST.format(open_session.pk), {}, format="json")
    assert not_full.status_code == 409 and not_full.json()["error"] == wl.MSG_WAITLIST_NOT_FULL


def test_api_waitlist_queries_are_bounded(api_client, staff, django_assert_max_num_queries):
    session, _ = _full_session()
    for _ in range(6):
        wl.waitlist_join(user=UserFactory(), session_id=session.pk)
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(8):
        assert len(api_client.get(WAITLIST.format(session.pk)).json()["results"]) == 6


@pytest.mark.django_db
def test_a_freed_seat_goes_to_the_line_not_to_a_direct_booking_until_the_last_hour():
    session, booked = _full_session()
    waiting, walker = UserFactory(), UserFactory()
    wl.waitlist_join(user=waiting, session_id=session.pk)
    Reservation.objects.filter(pk=booked[0].pk).update(status=ReservationStatus.CANCELLED)  # freed, not yet offered
    with pytest.raises(ReservationError) as refused:
        reservation_hold(
            user=walker, session_id=session.pk, participants=1, first_name="A", last_name="B", email="a@b.fr"
        )
    assert refused.value.message == MSG_SESSION_FULL
    assert waitlist_offers_sweep.call() == 1
    assert WaitlistEntry.objects.get(user=waiting).status == WaitlistStatus.OFFERED
    # In the last hour no offer is made: a freed seat is anyone's.
    last_hour, taken = _full_session(start=timezone.now() + timedelta(minutes=90))
    wl.waitlist_join(user=waiting, session_id=last_hour.pk)
    Reservation.objects.filter(pk=taken[0].pk).update(status=ReservationStatus.CANCELLED)
    with freeze_time(timezone.now() + timedelta(minutes=31)):
        hold = reservation_hold(
            user=walker, session_id=last_hour.pk, participants=1, first_name="A", last_name="B", email="a@b.fr"
        )
    assert hold.status == ReservationStatus.HELD


def test_my_waitlist_answers_in_a_fixed_number_of_queries(api_client, member, django_assert_max_num_queries):
    for _ in range(4):
        session, _ = _full_session()
        wl.waitlist_join(user=UserFactory(), session_id=session.pk)
        wl.waitlist_join(user=member, session_id=session.pk)
    api_client.force_authenticate(member)
    with django_assert_max_num_queries(4):
        mine = api_client.get("/api/waitlist/mine").json()
    assert [e["position"] for e in mine] == [2, 2, 2, 2]


@pytest.mark.django_db
def test_opening_the_payment_of_an_offer_keeps_its_two_hour_hold(django_capture_on_commit_callbacks):
    session, booked = _full_session()
    member = UserFactory()
    wl.waitlist_join(user=member, session_id=session.pk)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
    entry = WaitlistEntry.objects.get(user=member)
    hold = reservation_hold(
        user=member, session_id=session.pk, participants=1, first_name="E", last_name="P", email=member.email
    )
    assert hold.pk == entry.reservation_id and hold.hold_expires_at == entry.offer_expires_at

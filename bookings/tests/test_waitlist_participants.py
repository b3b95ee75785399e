"""A member joins a waiting list "with the number of participants" they need; an offer goes to the first in
line whose request fits the seats freed; a request larger than the class's places, or than the pass can pay for, is
refused in French; the staff list and the member's answers say it."""

import pytest

from accounts.tests.factories import UserFactory
from bookings.apis.waitlist import MSG_WAITLIST_PARTICIPANTS_INVALID
from bookings.models_operations import WaitlistEntry, WaitlistStatus
from bookings.services import waitlist as wl
from bookings.services.cancellation import reservation_cancel
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory

WAITLIST = "/api/course-sessions/{}/waitlist"

pytestmark = pytest.mark.django_db


def _full(places):
    session = CourseSessionFactory(max_attendees=places)
    return session, [ReservationFactory(session=session) for _ in range(places)]


def test_members_join_with_their_participants_and_the_first_that_fits_is_offered(
    api_client, staff, django_capture_on_commit_callbacks
):
    session, booked = _full(3)
    duo, solo = UserFactory(), UserFactory()
    api_client.force_authenticate(duo)
    joined = api_client.post(WAITLIST.format(session.pk), {"participants": 2}, format="json")
    assert joined.status_code == 201, joined.json()
    assert joined.json() == {"position": 1, "message": "Vous êtes inscrit(e) sur la liste d'attente : position 1."}
    api_client.force_authenticate(solo)
    assert api_client.post(WAITLIST.format(session.pk), {}, format="json").status_code == 201  # 1 by default
    assert WaitlistEntry.objects.get(user=duo).participants == 2
    assert WaitlistEntry.objects.get(user=solo).participants == 1

    # One seat frees: the duo does not fit, the next one does; the duo keeps the first place in line.
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[0].user, reservation_id=booked[0].pk)
    assert WaitlistEntry.objects.get(user=solo).status == WaitlistStatus.OFFERED
    assert WaitlistEntry.objects.get(user=duo).status == WaitlistStatus.WAITING
    api_client.force_authenticate(staff)
    rows = api_client.get(WAITLIST.format(session.pk)).json()["results"]
    assert [(r["participants"], r["position"]) for r in rows] == [(2, 1), (1, None)]
    # Two more seats free: now the duo fits.
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[1].user, reservation_id=booked[1].pk)
    with django_capture_on_commit_callbacks(execute=True):
        reservation_cancel(user=booked[2].user, reservation_id=booked[2].pk)
    duo_entry = WaitlistEntry.objects.get(user=duo)
    assert duo_entry.status == WaitlistStatus.OFFERED and duo_entry.reservation.participants == 2


def test_a_request_the_class_or_the_pass_cannot_take_is_refused_in_french(api_client, member):
    session, _ = _full(2)
    api_client.force_authenticate(member)
    too_many = api_client.post(WAITLIST.format(session.pk), {"participants": 3}, format="json")
    assert too_many.status_code == 409
    assert too_many.json()["error"] == wl.MSG_WAITLIST_PARTICIPANTS_OVER_PLACES.format(places=2)
    assert too_many.json()["error"] == "Ce cours compte 2 places : la liste d'attente ne peut pas en demander plus."
    for bad in (0, -1, "deux", None, 40000):
        refused = api_client.post(WAITLIST.format(session.pk), {"participants": bad}, format="json")
        assert refused.status_code == 400, bad
        assert MSG_WAITLIST_PARTICIPANTS_INVALID in str(refused.json())
    assert MSG_WAITLIST_PARTICIPANTS_INVALID == "Le nombre de participants doit être un nombre entier entre 1 et 32767."
    # Automatic booking: the pass must pay for every participant asked.
    card = PassFactory(member=member, credits_total=5, credits_left=1)
    short = api_client.post(
        WAITLIST.format(session.pk), {"participants": 2, "auto_book": True, "pass_id": card.pk}, format="json"
    )
    assert short.status_code == 409
    assert not WaitlistEntry.objects.filter(user=member).exists()

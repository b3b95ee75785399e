"""The questionnaire and the documents are asked in every way a member books (docs/decisions.md 48): the calendar's
hold, a booking with a class card or subscription (how a tariff bought in the popup books), the waiting list; staff
booking on a member's behalf are not stopped but told what is missing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.models import Reservation
from bookings.models_operations import WaitlistEntry
from bookings.services.staff_bookings import MSG_BOOKED_ON_BEHALF
from bookings.tests.factories import PassFactory, ReservationFactory
from courses.tests.factories import CourseSessionFactory
from waivers import services
from waivers.models import DocumentKind
from waivers.seed import run as publish_demo_set
from waivers.selectors import MSG_MISSING_AT_THE_DESK, missing_text

pytestmark = pytest.mark.django_db

RESERVE = "/api/reservations-courses"
WAITLIST = "/api/course-sessions/{}/waitlist"
BOOK_ON_BEHALF = "/api/course-sessions/{}/bookings"
DECLARE = "/api/health/declaration"


@pytest.fixture
def published(db):
    publish_demo_set()


def _session(**kwargs):
    start = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    return CourseSessionFactory(start=start, end=start + timedelta(minutes=75), **kwargs)


def _reserve(api_client, member, session, **extra):
    api_client.force_authenticate(member)
    body = {
        "session_id": session.pk,
        "participants": 1,
        "first_name": member.first_name or "Emma",
        "last_name": member.last_name or "Petit",
        "email": member.email,
        "message": "",
        **extra,
    }
    return api_client.post(RESERVE, body, format="json")


def _declare(api_client, member, **versions):
    api_client.force_authenticate(member)
    body = {"questionnaire_version": 1, "waiver_version": 1, "house_rules_version": 1, **versions}
    response = api_client.post(DECLARE, {**body, "answers": [False] * 4, "accepted": True}, format="json")
    assert response.status_code == 201, response.json()


def _asked(response, code, missing=("questionnaire", "waiver", "house_rules")):
    assert response.status_code == 409, response.json()
    body = response.json()
    assert body["code"] == code
    assert body["missing"] == list(missing)
    return body


def test_the_calendar_hold_asks_first_then_books(api_client, member, published):
    session = _session()
    body = _asked(_reserve(api_client, member, session), "declaration_required")
    assert body["error"] == services.MSG_DECLARATION_REQUIRED
    assert not Reservation.objects.exists()
    _declare(api_client, member)
    assert _reserve(api_client, member, session).status_code == 201


def test_booking_with_a_pass_asks_too(api_client, member, published):
    session = _session()
    card = PassFactory(member=member, credits_total=10, credits_left=10)
    _asked(_reserve(api_client, member, session, pass_id=card.pk), "declaration_required")
    card.refresh_from_db()
    assert card.credits_left == 10 and not Reservation.objects.exists()
    _declare(api_client, member)
    assert _reserve(api_client, member, session, pass_id=card.pk).status_code == 201


def test_a_new_waiver_asks_again_only_for_it(api_client, member, staff, published):
    _declare(api_client, member)
    services.document_publish(by=staff, kind=DocumentKind.WAIVER, title="Décharge", body="Version deux.")
    body = _asked(_reserve(api_client, member, _session()), "declaration_renew", missing=["waiver"])
    assert body["error"] == services.MSG_DECLARATION_RENEW


def test_joining_the_waiting_list_asks_too(api_client, member, published):
    session = _session(max_attendees=1)
    ReservationFactory(session=session)
    api_client.force_authenticate(member)
    _asked(api_client.post(WAITLIST.format(session.pk), {"auto_book": False}, format="json"), "declaration_required")
    assert not WaitlistEntry.objects.exists()
    _declare(api_client, member)
    assert api_client.post(WAITLIST.format(session.pk), {"auto_book": False}, format="json").status_code == 201


def test_staff_book_on_behalf_and_are_told_what_is_missing(api_client, staff, member, published):
    session = _session()
    api_client.force_authenticate(staff)
    response = api_client.post(
        BOOK_ON_BEHALF.format(session.pk), {"user_id": member.pk, "paid_with": "due"}, format="json"
    )
    assert response.status_code == 201, response.json()
    booked = MSG_BOOKED_ON_BEHALF.format(
        name="Emma Petit",
        course=session.course.title,
        when=timezone.localtime(session.start).strftime("%d/%m/%Y %H:%M"),
        how="à régler",
    )
    at_the_desk = (
        "À compléter à l'accueil : le questionnaire de santé, la décharge de responsabilité, le règlement intérieur."
    )
    assert response.json()["message"] == f"{booked} {at_the_desk}"
    assert MSG_MISSING_AT_THE_DESK.format(what="x") == "À compléter à l'accueil : x."

    _declare(api_client, member)
    api_client.force_authenticate(staff)
    other = _session()
    response = api_client.post(
        BOOK_ON_BEHALF.format(other.pk), {"user_id": member.pk, "paid_with": "due"}, format="json"
    )
    assert response.status_code == 201 and "accueil" not in response.json()["message"]


def test_missing_text_names_each_part():
    assert missing_text(["waiver"]) == "À compléter à l'accueil : la décharge de responsabilité."
    assert missing_text([]) == ""


def test_nothing_published_asks_nothing_in_the_flows(api_client, member):
    assert _reserve(api_client, member, _session()).status_code == 201


def test_the_demo_seed_declares_for_its_members_once_and_keeps_theirs(api_client, member):
    from accounts.seed import MEMBERS
    from accounts.tests.factories import UserFactory
    from waivers.models import HealthDeclaration
    from waivers.seed import DEMO_MEMBER_EMAIL, FLAGGED_DEMO_EMAIL
    from waivers.selectors import declaration_missing, members_flagged

    demo = [UserFactory(email=email) for email in (DEMO_MEMBER_EMAIL, *(row[0] for row in MEMBERS))]
    publish_demo_set()
    publish_demo_set()  # twice over a used database
    assert HealthDeclaration.objects.count() == len(demo)
    assert all(declaration_missing(member_id=user.pk) == [] for user in demo)
    flagged = members_flagged(member_ids=[user.pk for user in demo])
    assert [user.email for user in demo if user.pk in flagged] == [FLAGGED_DEMO_EMAIL]
    assert declaration_missing(member_id=member.pk) != []  # anyone else is asked
    assert _reserve(api_client, demo[0], _session()).status_code == 201


def test_the_bench_members_have_a_declaration_once():
    from accounts.tests.factories import UserFactory
    from project.management.commands.seed_bench import Command
    from waivers.models import HealthDeclaration
    from waivers.selectors import declaration_missing

    publish_demo_set()
    ids = [UserFactory().pk for _ in range(2)]
    Command._health_declarations(ids)
    Command._health_declarations(ids)  # a second seeding keeps them
    assert HealthDeclaration.objects.count() == 2
    assert all(declaration_missing(member_id=pk) == [] for pk in ids)

"""Nobody books or is given a pass on behalf of a closed account: a deleted account (anonymised,
`compte-supprime-…@anonyme.invalid`) or a deactivated one. Staff and instructors get a French refusal and nothing is
written."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Role
from accounts.services.authentication import user_deactivate
from accounts.tests.factories import UserFactory
from bookings.models import Pass, Reservation
from bookings.services.attendance import MSG_WALK_IN_ACCOUNT_CLOSED
from bookings.services.pass_admin import MSG_GRANT_ACCOUNT_CLOSED
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseSessionFactory, InstructorFactory
from privacy.services import account_erase, erased_email

pytestmark = pytest.mark.django_db

WALK_IN = "/api/course-sessions/{}/walk-ins"
PASSES = "/api/passes"


def _deleted(member, staff):
    account_erase(user_id=member.pk, by=staff)
    member.refresh_from_db()
    assert member.email == erased_email(member.pk) and not member.is_active
    return member


def _deactivated(member, staff):
    return user_deactivate(user=member)


CLOSED = pytest.mark.parametrize("close", [_deleted, _deactivated], ids=["deleted", "deactivated"])


@pytest.fixture
def lea(db):
    account = UserFactory(first_name="Léa", last_name="Garnier", role=Role.INSTRUCTOR)
    return InstructorFactory(name="Léa Garnier", user=account)


@pytest.fixture
def class_now(lea):
    start = timezone.now() - timedelta(minutes=5)
    return CourseSessionFactory(start=start, end=start + timedelta(minutes=75), max_attendees=3, instructor=lea)


@CLOSED
@pytest.mark.parametrize("paid_with", ["desk", "pass"])
def test_staff_cannot_add_a_closed_account_as_a_walk_in(api_client, staff, member, class_now, close, paid_with):
    PassFactory(member=member, credits_total=10, credits_left=5)
    closed = close(member, staff)
    api_client.force_authenticate(staff)
    response = api_client.post(
        WALK_IN.format(class_now.pk), {"email": closed.email, "paid_with": paid_with}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["error"] == MSG_WALK_IN_ACCOUNT_CLOSED
    assert response.json()["errors"] == {"email": [MSG_WALK_IN_ACCOUNT_CLOSED]}
    assert not Reservation.objects.filter(session=class_now).exists()
    assert Pass.objects.get(member=member).credits_left == 5


@CLOSED
def test_an_instructor_cannot_add_a_closed_account_as_a_walk_in(api_client, staff, member, lea, class_now, close):
    closed = close(member, staff)
    api_client.force_authenticate(lea.user)
    response = api_client.post(
        WALK_IN.format(class_now.pk), {"email": closed.email, "paid_with": "desk"}, format="json"
    )
    assert response.status_code == 409 and response.json()["error"] == MSG_WALK_IN_ACCOUNT_CLOSED
    assert not Reservation.objects.filter(session=class_now).exists()


def test_an_open_account_is_still_added(api_client, staff, member, class_now):
    api_client.force_authenticate(staff)
    response = api_client.post(
        WALK_IN.format(class_now.pk), {"email": member.email, "paid_with": "desk"}, format="json"
    )
    assert response.status_code == 201


@CLOSED
def test_staff_cannot_grant_a_pass_to_a_closed_account(api_client, staff, member, close):
    closed = close(member, staff)
    api_client.force_authenticate(staff)
    far = (timezone.localdate() + timedelta(days=30)).isoformat()
    body = {"member_email": closed.email, "kind": "card", "credits": 4, "expires_on": far, "reason": "geste"}
    response = api_client.post(PASSES, body, format="json")
    assert response.status_code == 409
    assert response.json()["error"] == MSG_GRANT_ACCOUNT_CLOSED
    assert not Pass.objects.filter(member=member).exists()


def test_the_refusals_read_as_the_studio_writes_them():
    assert MSG_WALK_IN_ACCOUNT_CLOSED == (
        "Ce compte est fermé (supprimé ou désactivé) : cette personne ne peut pas être ajoutée au cours."
    )
    assert MSG_GRANT_ACCOUNT_CLOSED == (
        "Ce compte est fermé (supprimé ou désactivé) : il ne peut pas recevoir de carte ni d'abonnement."
    )

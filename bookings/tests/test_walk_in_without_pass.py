"""A walk-in "paid with a pass" for someone who has no pass that is still valid (docs/decisions.md 38): the
request is well formed, the person's state refuses it, so 409 (not 400, schemathesis ST202), with a French message
that says what to do: record it as paid at the desk."""

from datetime import timedelta

from django.utils import timezone

from bookings.services.attendance import MSG_WALK_IN_PASS_REQUIRED
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseSessionFactory

WALK_IN = "/api/course-sessions/{}/walk-ins"


def test_a_walk_in_on_a_pass_for_someone_without_one_is_a_conflict_saying_what_to_do(api_client, staff, member):
    start = timezone.now() - timedelta(minutes=5)
    session = CourseSessionFactory(start=start, end=start + timedelta(minutes=75))
    today = timezone.localdate()
    PassFactory(member=member, starts_on=today - timedelta(days=200), expires_on=today - timedelta(days=1))  # expired
    api_client.force_authenticate(staff)
    response = api_client.post(WALK_IN.format(session.pk), {"email": member.email, "paid_with": "pass"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"] == MSG_WALK_IN_PASS_REQUIRED
    assert MSG_WALK_IN_PASS_REQUIRED == (
        "Cette personne n'a ni carte de cours ni abonnement valable : enregistrez-la comme payée à l'accueil."
    )
    assert not session.reservations.exists()

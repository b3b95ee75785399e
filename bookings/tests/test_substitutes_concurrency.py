"""Two instructors accepting the same substitute request at once (PostgreSQL): one teaches the class, the other
hears in French that it is taken, and the members are told once."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.models_team import SubstituteRequest, SubstituteStatus
from bookings.services.substitutes import (
    MSG_SUBSTITUTE_TAKEN,
    SubstituteError,
    substitute_request_accept,
    substitute_request_create,
)
from bookings.tests.factories import ReservationFactory
from courses.models import CourseSession
from courses.tests.factories import CourseSessionFactory, InstructorFactory
from studio.models import OutgoingEmail


@pytest.mark.postgres
def test_two_instructors_accepting_at_once_one_wins_the_other_hears_it_is_taken():
    lea, ines, zoe = (
        InstructorFactory(name=name, user=UserFactory(role=Role.INSTRUCTOR))
        for name in ("Léa Garnier", "Inès Moreau", "Zoé Martin")
    )
    session = CourseSessionFactory(instructor=lea, start=timezone.now() + timedelta(days=3))
    member = ReservationFactory(session=session)
    request = substitute_request_create(instructor=lea, session_id=session.pk)

    barrier = threading.Barrier(2)
    outcomes = {}

    def accept(instructor):
        try:
            barrier.wait()
            substitute_request_accept(instructor=instructor, request_id=request.pk)
            outcomes[instructor.name] = "accepted"
        except SubstituteError as error:
            outcomes[instructor.name] = (error.status, error.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(who,)) for who in (ines, zoe)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes.values(), key=str) == sorted(["accepted", (409, MSG_SUBSTITUTE_TAKEN)], key=str)
    winner = next(name for name, outcome in outcomes.items() if outcome == "accepted")
    stored = SubstituteRequest.objects.select_related("accepted_by").get(pk=request.pk)
    assert stored.status == SubstituteStatus.ACCEPTED and stored.accepted_by.name == winner
    assert CourseSession.objects.select_related("instructor").get(pk=session.pk).instructor.name == winner
    assert OutgoingEmail.objects.filter(to=[member.email]).count() == 1

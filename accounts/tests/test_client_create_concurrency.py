"""Two desks creating the same newcomer at once (PostgreSQL): one account, one history line, one invitation; the
other desk hears the account exists (409), never a server error."""

import pytest

from accounts.models import StaffAction, User
from accounts.services.clients import client_create
from accounts.services.errors import AccountError
from accounts.tests.factories import StaffFactory, SupervisorFactory
from studio.models import OutgoingEmail
from studio.tests.races import race


@pytest.mark.postgres
def test_the_same_address_created_at_two_desks_at_once_gives_one_account():
    def create(staff):
        return lambda: client_create(staff=staff, first_name="Inès", last_name="Moreau", email="ines.moreau@example.fr")

    created, refusals, crashes = race(create(StaffFactory()), create(SupervisorFactory()))

    assert crashes == []
    assert len(created) == 1 and [(refusal.code, refusal.status) for refusal in refusals] == [
        ("client_email_taken", 409)
    ]
    assert all(isinstance(refusal, AccountError) for refusal in refusals)
    assert User.objects.filter(email="ines.moreau@example.fr").count() == 1
    assert StaffAction.objects.filter(action="client_created").count() == 1
    assert OutgoingEmail.objects.filter(to__icontains="ines.moreau@example.fr").count() == 1

"""Two desks creating the same newcomer at once (PostgreSQL): one account, one history line, one invitation; the
other desk hears the account exists (409), never a server error."""

import threading

import pytest
from django.db import connection

from accounts.models import StaffAction, User
from accounts.services.clients import client_create
from accounts.services.errors import AccountError
from accounts.tests.factories import StaffFactory, SupervisorFactory
from studio.models import OutgoingEmail


@pytest.mark.postgres
def test_the_same_address_created_at_two_desks_at_once_gives_one_account():
    desks = [StaffFactory(), SupervisorFactory()]
    barrier = threading.Barrier(len(desks))
    created, refused, errors = [], [], []

    def create(staff):
        try:
            barrier.wait()
            created.append(
                client_create(staff=staff, first_name="Inès", last_name="Moreau", email="ines.moreau@example.fr")
            )
        except AccountError as error:
            refused.append((error.code, error.status))
        except Exception as exc:  # noqa: BLE001 - asserted below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(staff,)) for staff in desks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(created) == 1 and refused == [("client_email_taken", 409)]
    assert User.objects.filter(email="ines.moreau@example.fr").count() == 1
    assert StaffAction.objects.filter(action="client_created").count() == 1
    assert OutgoingEmail.objects.filter(to__icontains="ines.moreau@example.fr").count() == 1

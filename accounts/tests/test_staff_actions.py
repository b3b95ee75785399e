import pytest

from accounts.models import StaffAction
from accounts.selectors import staff_actions_of
from accounts.services.staff_actions import staff_action_record
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_staff_action_keeps_the_staff_members_name_after_their_account_goes():
    member = UserFactory()
    staff = UserFactory(first_name="Marie", last_name="Dupont", role="admin")
    staff_action_record(member=member, staff=staff, action="booked", summary="Cours réservé : Pole débutant")
    staff.delete()
    (line,) = staff_actions_of(member_id=member.pk)
    assert (line.staff_name, line.summary, line.staff_id) == ("Marie Dupont", "Cours réservé : Pole débutant", None)


def test_a_clients_history_lists_their_own_lines_newest_first():
    member, other = UserFactory(), UserFactory()
    staff = UserFactory(first_name="Marie", last_name="Dupont", role="admin")
    staff_action_record(member=member, staff=staff, action="client_created", summary="Compte créé à l'accueil")
    staff_action_record(member=member, staff=staff, action="booked", summary="Cours réservé")
    staff_action_record(member=other, staff=staff, action="booked", summary="Autre")
    assert [line.summary for line in staff_actions_of(member_id=member.pk)] == [
        "Cours réservé",
        "Compte créé à l'accueil",
    ]
    assert StaffAction.objects.count() == 3

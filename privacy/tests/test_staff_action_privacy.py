"""The lines of what staff did on a client's behalf (docs/decisions.md 50) are the client's personal data
(docs/decisions.md 34): the export holds them, and deleting the account removes them."""

import pytest

from accounts.models import StaffAction
from accounts.services.staff_actions import staff_action_record
from accounts.tests.factories import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk_lines(member, other_member, supervisor):
    staff_action_record(member=member, staff=supervisor, action="client_created", summary="Compte créé à l'accueil")
    staff_action_record(member=member, staff=supervisor, action="booked", summary="Cours réservé : Pole débutant")
    staff_action_record(member=other_member, staff=supervisor, action="booked", summary="Cours réservé : Souplesse")


def test_the_export_holds_the_lines_about_the_member(api_client, member, desk_lines):
    api_client.force_authenticate(member)
    data = api_client.get("/api/users/me/export").json()
    assert [(line["summary"], line["by"]) for line in data["staff_actions"]] == [
        ("Compte créé à l'accueil", "Paul Durand"),
        ("Cours réservé : Pole débutant", "Paul Durand"),
    ]
    assert all(line["at"] for line in data["staff_actions"])
    assert "Souplesse" not in str(data)


def test_staff_erasing_an_account_leaves_no_line_about_the_client(
    api_client, member, other_member, supervisor, desk_lines, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(supervisor)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(f"/api/users/{member.pk}/erase").status_code == 200
    assert not StaffAction.objects.filter(member_id=member.pk).exists()
    assert list(StaffAction.objects.values_list("member_id", "summary")) == [
        (other_member.pk, "Cours réservé : Souplesse")
    ]
    history = api_client.get(f"/api/users/{member.pk}/history").json()
    assert history["staff_actions"] == []


def test_a_member_deleting_their_own_account_takes_the_lines_with_it(
    api_client, member, desk_lines, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(member)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.delete("/api/users/me", {"password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 200
    assert not StaffAction.objects.filter(member_id=member.pk).exists()
    assert StaffAction.objects.count() == 1

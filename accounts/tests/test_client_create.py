"""Staff create a client's account at the desk (docs/decisions.md 50): `POST /api/users`."""

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.models import AccountToken, StaffAction, TokenPurpose, User
from accounts.services.clients import (
    CLIENT_CREATED_SUMMARY,
    MSG_CLIENT_CREATED,
    SUBJECT_INVITATION,
)
from accounts.services.errors import (
    MSG_CLIENT_EMAIL_TAKEN,
    MSG_EMAIL_INVALID,
    MSG_NAMES_REQUIRED,
    MSG_PHONE_INVALID,
    MSG_RESET_LINK_INVALID,
)
from accounts.services.passwords import MSG_PASSWORD_RESET
from accounts.tests.factories import UserFactory
from accounts.tests.helpers import link_token
from studio.api import MSG_FORBIDDEN

pytestmark = pytest.mark.django_db

NEW_CLIENT = {"first_name": "Inès", "last_name": "Moreau", "email": "Ines.Moreau@Example.fr", "phone": "06 11 22 33 44"}


def create(client, body=None, **extra):
    return client.post("/api/users", {**NEW_CLIENT, **(body or {})}, format="json", **extra)


@pytest.fixture
def desk(api_client, supervisor):
    api_client.force_authenticate(supervisor)
    return api_client


def test_staff_create_a_member_without_a_password_who_is_invited_by_email(
    desk, supervisor, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = create(desk)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["message"] == MSG_CLIENT_CREATED.format(email="ines.moreau@example.fr")
    assert body["message"] == (
        "Client créé : un e-mail pour choisir son mot de passe a été envoyé à ines.moreau@example.fr."
    )
    client = User.objects.get(pk=body["id"])
    assert (client.first_name, client.last_name, client.email, client.phone, client.role) == (
        "Inès",
        "Moreau",
        "ines.moreau@example.fr",
        "0611223344",
        "user",
    )
    assert not client.has_usable_password() and client.email_confirmed_at is None
    (line,) = StaffAction.objects.filter(member=client)
    assert (line.action, line.summary, line.staff_name) == ("client_created", "Compte créé à l'accueil", "Paul Durand")
    assert CLIENT_CREATED_SUMMARY == "Compte créé à l'accueil"
    (mail,) = mailoutbox
    assert mail.to == ["ines.moreau@example.fr"] and mail.subject.endswith(SUBJECT_INVITATION)
    assert "expire dans 7 jours" in mail.body


def test_the_invitation_is_sent_after_the_commit_through_the_outbox(
    desk, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert create(desk).status_code == 201
    assert mailoutbox == [] and callbacks  # nothing leaves inside the request's transaction
    for callback in callbacks:
        callback()
    assert len(mailoutbox) == 1


def test_the_invitation_link_sets_a_password_that_logs_the_client_in(
    desk, api_client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        create(desk)
    token = link_token(mailoutbox[-1], "reset-password")
    api_client.force_authenticate(None)
    reset = api_client.post(f"/api/users/reset-password/{token}", {"newPassword": "Barre-Verticale-31"}, format="json")
    assert reset.status_code == 200 and reset.json()["message"] == MSG_PASSWORD_RESET
    login = api_client.post(
        "/api/users/login", {"email": "ines.moreau@example.fr", "password": "Barre-Verticale-31"}, format="json"
    )
    assert login.status_code == 200, login.json()


def test_the_invitation_link_lasts_a_week(desk, api_client, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(desk)
    token = link_token(mailoutbox[-1], "reset-password")
    (stored,) = AccountToken.objects.filter(purpose=TokenPurpose.RESET_PASSWORD)
    assert abs(stored.expires_at - stored.created_at - timedelta(days=7)) < timedelta(seconds=5)
    with freeze_time(timezone.now() + timedelta(days=6, hours=23)):
        assert api_client.get(f"/reset-password/{token}").context["valid"] is True
    with freeze_time(timezone.now() + timedelta(days=7, minutes=1)):
        response = api_client.post(f"/api/users/reset-password/{token}", {"newPassword": "Barre-Verticale-31"})
        assert response.status_code == 400 and response.json()["error"] == MSG_RESET_LINK_INVALID


def test_an_email_already_taken_is_a_409_naming_the_account(desk, member):
    response = create(desk, {"email": " EMMA@example.fr "})
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == MSG_CLIENT_EMAIL_TAKEN.format(name="Emma Petit", email="emma@example.fr")
    assert body["error"] == (
        "Un compte existe déjà avec cet e-mail : Emma Petit (emma@example.fr). "
        "Retrouvez-le dans la liste des utilisateurs."
    )
    assert body["existing_user_id"] == member.pk
    assert User.objects.count() == 2 and not StaffAction.objects.exists()


@pytest.mark.parametrize("who", ["member", "instructor", "anonymous"])
def test_only_staff_create_a_client_and_nothing_is_said_about_the_address(api_client, member, who):
    if who == "member":
        api_client.force_authenticate(UserFactory())
    elif who == "instructor":
        api_client.force_authenticate(UserFactory(role="instructor"))
    response = create(api_client, {"email": member.email})  # taken: still a refusal that names nobody
    assert response.status_code in (401, 403)
    if who != "anonymous":
        assert response.status_code == 403 and response.json()["error"] == MSG_FORBIDDEN
    assert "Emma" not in response.content.decode()
    assert not StaffAction.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"first_name": "  "}, "first_name", MSG_NAMES_REQUIRED),
        ({"last_name": ""}, "last_name", MSG_NAMES_REQUIRED),
        ({"email": "pas-un-email"}, "email", MSG_EMAIL_INVALID),
        ({"email": None}, "email", MSG_EMAIL_INVALID),
        ({"phone": "06 12"}, "phone", MSG_PHONE_INVALID),
        ({"phone": 612345678}, "phone", None),
    ],
)
def test_bad_input_is_a_french_400(desk, body, field, message):
    response = create(desk, body)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert field in errors
    if message:
        assert errors[field] == [message]
    assert User.objects.filter(role="user").count() == 0


@pytest.mark.parametrize("phone", [None, ""])
def test_the_phone_is_optional(desk, phone):
    body = {key: value for key, value in NEW_CLIENT.items() if key != "phone"}
    if phone is not None:
        body["phone"] = phone
    response = desk.post("/api/users", body, format="json")
    assert response.status_code == 201 and User.objects.get(pk=response.json()["id"]).phone == ""


def test_the_users_list_is_still_served_on_the_same_path(desk, member):
    response = desk.get("/api/users")
    assert response.status_code == 200 and response.json()["results"][0]["no_shows"] == 0


def test_the_service_refuses_a_non_staff_caller_before_looking_at_the_address(member):
    from accounts.services.clients import client_create
    from accounts.services.errors import MSG_CLIENT_CREATE_FORBIDDEN, AccountError

    with pytest.raises(AccountError) as refused:
        client_create(staff=UserFactory(), first_name="A", last_name="B", email=member.email)
    assert refused.value.status == 403 and refused.value.message == MSG_CLIENT_CREATE_FORBIDDEN

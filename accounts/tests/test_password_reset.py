"""Forgot and reset password (docs/decisions.md 9)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.services.errors import (
    MSG_FORGOT_EMAIL_REQUIRED,
    MSG_PASSWORD_TOO_SHORT,
    MSG_PASSWORDS_DIFFER,
    MSG_RESET_LINK_INVALID,
)
from accounts.services.passwords import MSG_FORGOT_SENT, MSG_PASSWORD_RESET
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from accounts.tests.helpers import link_token

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Nouveau-Cerceau-77"


def forgot(api_client, email):
    return api_client.post("/api/users/forgot-password", {"email": email}, format="json")


def reset(api_client, token, password=NEW_PASSWORD, **extra):
    return api_client.post(f"/api/users/reset-password/{token}", {"newPassword": password, **extra}, format="json")


@pytest.fixture
def reset_token(api_client, member, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        forgot(api_client, member.email)
    return link_token(mailoutbox[-1], "reset-password")


def test_forgot_always_answers_the_same_and_mails_only_existing_accounts(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        known = forgot(api_client, "  EMMA@example.fr ")
        unknown = forgot(api_client, "personne@example.fr")
    assert known.status_code == unknown.status_code == 200
    assert known.json() == unknown.json() == {"message": MSG_FORGOT_SENT}
    assert len(mailoutbox) == 1 and mailoutbox[0].to == [member.email]
    assert "Réinitialisation de votre mot de passe" in mailoutbox[0].subject
    assert mailoutbox[0].alternatives  # HTML too


@pytest.mark.parametrize("email", ["", "   ", "pas-un-email"])
def test_forgot_needs_an_email(api_client, email):
    response = forgot(api_client, email)
    assert response.status_code == 400 and response.json()["error"] == MSG_FORGOT_EMAIL_REQUIRED


def test_reset_sets_the_password_and_the_link_is_single_use(api_client, member, reset_token):
    response = reset(api_client, reset_token)
    assert response.status_code == 200 and response.json()["message"] == MSG_PASSWORD_RESET
    member.refresh_from_db()
    assert member.check_password(NEW_PASSWORD)
    again = reset(api_client, reset_token, "Encore-Autre-88")
    assert again.status_code == 400 and again.json()["error"] == MSG_RESET_LINK_INVALID


def test_reset_link_expires_after_an_hour(api_client, member, reset_token):
    with freeze_time(timezone.now() + timedelta(hours=1, seconds=1)):
        response = reset(api_client, reset_token)
    assert response.status_code == 400 and response.json()["error"] == MSG_RESET_LINK_INVALID
    member.refresh_from_db()
    assert member.check_password(DEFAULT_PASSWORD)


def test_a_new_link_and_a_reset_spend_the_older_links(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        forgot(api_client, member.email)
        forgot(api_client, member.email)
    first, second = (link_token(m, "reset-password") for m in mailoutbox)
    assert reset(api_client, second).status_code == 200
    assert reset(api_client, first).json()["error"] == MSG_RESET_LINK_INVALID


@pytest.mark.parametrize(
    ("password", "extra", "message"),
    [
        (NEW_PASSWORD, {"confirmPassword": "autre-chose-99"}, MSG_PASSWORDS_DIFFER),
        ("abc", {}, MSG_PASSWORD_TOO_SHORT),
        ("", {}, MSG_PASSWORD_TOO_SHORT),
    ],
)
def test_reset_checks_the_password_and_keeps_the_link(api_client, member, reset_token, password, extra, message):
    response = reset(api_client, reset_token, password, **extra)
    assert response.status_code == 400 and response.json()["error"] == message
    assert reset(api_client, reset_token).status_code == 200  # a refused password does not spend the link


def test_reset_confirms_an_unconfirmed_email(api_client, mailoutbox, django_capture_on_commit_callbacks):
    user = UserFactory(email_confirmed_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        forgot(api_client, user.email)
    assert reset(api_client, link_token(mailoutbox[-1], "reset-password")).status_code == 200
    login = api_client.post("/api/users/login", {"email": user.email, "password": NEW_PASSWORD}, format="json")
    assert login.status_code == 200


def test_reset_logs_out_other_sessions(client, member, reset_token, api_client):
    client.force_login(member)
    assert client.get("/user/profile").status_code == 200
    reset(api_client, reset_token)
    assert client.get("/user/profile").status_code == 302


# --- The pages ------------------------------------------------------------------------------------------------


def test_forgot_page_form(client, member, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/forgot-password", {"email": member.email})
    assert MSG_FORGOT_SENT.replace("'", "&#x27;") in response.text
    assert len(mailoutbox) == 1
    blank = client.post("/forgot-password", {"email": " "})
    assert blank.status_code == 400 and MSG_FORGOT_EMAIL_REQUIRED in blank.text


def test_reset_page_with_a_bad_link_says_so(client):
    response = client.get("/reset-password/un-jeton")
    assert response.status_code == 200
    assert MSG_RESET_LINK_INVALID in response.text
    assert 'name="newPassword"' not in response.text
    assert 'href="/forgot-password"' in response.text


def test_reset_page_form_resets_then_goes_to_login(client, member, reset_token):
    page = client.get(f"/reset-password/{reset_token}")
    assert 'name="newPassword"' in page.text
    differ = client.post(f"/reset-password/{reset_token}", {"newPassword": NEW_PASSWORD, "confirmPassword": "x"})
    assert differ.status_code == 400 and MSG_PASSWORDS_DIFFER in differ.text
    done = client.post(f"/reset-password/{reset_token}", {"newPassword": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/login"
    used = client.get(f"/reset-password/{reset_token}")
    assert MSG_RESET_LINK_INVALID in used.text


def test_an_unknown_reset_link_is_refused(api_client):
    """A token the studio never issued answers 400 with its French message (the reset island shows it)."""
    response = api_client.post("/api/users/reset-password/pas-un-jeton", {"newPassword": NEW_PASSWORD})
    assert response.status_code == 400 and response.json()["error"] == MSG_RESET_LINK_INVALID

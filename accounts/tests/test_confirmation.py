"""E-mail confirmation (docs/decisions.md 10): single-use links that expire after 3 days."""

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.models import User
from accounts.services.errors import MSG_CONFIRM_LINK_INVALID
from accounts.services.registration import MSG_CONFIRMATION_RESENT, MSG_EMAIL_CONFIRMED
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from accounts.tests.helpers import VALID_REGISTRATION, link_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def registered(api_client, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post("/api/users/register", VALID_REGISTRATION, format="json")
    user = User.objects.get(email=VALID_REGISTRATION["email"])
    return user, link_token(mailoutbox[-1], "confirm-email")


def test_the_link_confirms_once(api_client, registered):
    user, token = registered
    response = api_client.get(f"/api/users/validate-email/{token}")
    assert response.status_code == 200 and response.json()["message"] == MSG_EMAIL_CONFIRMED
    user.refresh_from_db()
    assert user.email_confirmed
    again = api_client.get(f"/api/users/validate-email/{token}")
    assert again.status_code == 400 and again.json()["error"] == MSG_CONFIRM_LINK_INVALID
    login = api_client.post("/api/users/login", {"email": user.email, "password": VALID_REGISTRATION["password"]})
    assert login.status_code == 200


def test_the_link_expires_after_3_days(api_client, registered):
    user, token = registered
    with freeze_time(timezone.now() + timedelta(days=3, seconds=1)):
        response = api_client.get(f"/api/users/validate-email/{token}")
    assert response.status_code == 400 and response.json()["error"] == MSG_CONFIRM_LINK_INVALID
    user.refresh_from_db()
    assert not user.email_confirmed


def test_an_unknown_link_is_refused(api_client):
    response = api_client.get("/api/users/validate-email/pas-un-jeton")
    assert response.status_code == 400 and response.json()["error"] == MSG_CONFIRM_LINK_INVALID


def test_a_reset_link_does_not_confirm(api_client, mailoutbox, django_capture_on_commit_callbacks):
    user = UserFactory(email_confirmed_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post("/api/users/forgot-password", {"email": user.email}, format="json")
    token = link_token(mailoutbox[-1], "reset-password")
    assert api_client.get(f"/api/users/validate-email/{token}").status_code == 400


def test_resend_sends_a_new_link_only_to_unconfirmed_accounts(
    api_client, mailoutbox, member, django_capture_on_commit_callbacks
):
    user = UserFactory(email_confirmed_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        for email in (user.email, member.email, "personne@example.fr"):
            response = api_client.post("/api/users/resend-confirmation", {"email": email}, format="json")
            assert response.status_code == 200 and response.json()["message"] == MSG_CONFIRMATION_RESENT
    assert [m.to for m in mailoutbox] == [[user.email]]
    token = link_token(mailoutbox[0], "confirm-email")
    assert api_client.get(f"/api/users/validate-email/{token}").status_code == 200
    assert api_client.post("/api/users/login", {"email": user.email, "password": DEFAULT_PASSWORD}).status_code == 200


def test_resend_page_form(client, mailoutbox, django_capture_on_commit_callbacks):
    user = UserFactory(email_confirmed_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/confirm-email/resend", {"email": user.email}, follow=True)
    assert MSG_CONFIRMATION_RESENT.replace("'", "&#x27;") in response.text
    assert len(mailoutbox) == 1


def test_the_page_confirms_without_javascript_too(client, registered):
    user, token = registered
    page = client.get(f"/confirm-email/{token}")
    assert page.status_code == 200 and "accounts-confirm" in page.text
    user.refresh_from_db()
    assert not user.email_confirmed  # showing the page changes nothing; the script or the button confirms
    done = client.post(f"/confirm-email/{token}")
    assert MSG_EMAIL_CONFIRMED in done.text
    again = client.post(f"/confirm-email/{token}")
    assert again.status_code == 400 and MSG_CONFIRM_LINK_INVALID in again.text and 'href="/register"' in again.text

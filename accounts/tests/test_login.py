"""Login (docs/decisions.md 6-8): same answer for unknown e-mail and wrong password, throttle,
session lifetime, JWT for API clients, safe ?next=."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from freezegun import freeze_time
from rest_framework_simplejwt.tokens import AccessToken

from accounts.services.authentication import LOGIN_MAX_FAILURES, MSG_LOGGED_OUT, REMEMBER_ME_SECONDS
from accounts.services.errors import MSG_EMAIL_NOT_CONFIRMED, MSG_LOGIN_BLANK, MSG_LOGIN_FAILED, MSG_LOGIN_THROTTLED
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOGIN_URL = "/api/users/login"


def login(api_client, email, password=DEFAULT_PASSWORD, **extra):
    return api_client.post(LOGIN_URL, {"email": email, "password": password, **extra}, format="json")


def test_login_answers_user_id_role_and_a_bearer_token_and_opens_a_session(api_client, member):
    response = login(api_client, "Emma@Example.fr")
    assert response.status_code == 200
    body = response.json()
    assert body["userId"] == member.pk and body["role"] == "user"
    assert AccessToken(body["token"])["user_id"] == str(member.pk)
    assert body["refresh"]
    session_cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert session_cookie["httponly"]
    assert api_client.get("/api/users/profile").json()["email"] == member.email  # by the session alone


def test_bearer_token_reads_the_profile(api_client, member):
    token = login(api_client, member.email).json()["token"]
    from rest_framework.test import APIClient

    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert bearer.get("/api/users/profile").json()["id"] == member.pk


def test_remember_me_keeps_the_session_7_days_otherwise_it_ends_with_the_browser(client, member):
    client.post(
        LOGIN_URL,
        {"email": member.email, "password": DEFAULT_PASSWORD, "remember": True},
        content_type="application/json",
    )
    assert client.session.get_expiry_age() == REMEMBER_ME_SECONDS == 7 * 24 * 3600
    assert not client.session.get_expire_at_browser_close()
    client.logout()
    response = client.post(
        LOGIN_URL, {"email": member.email, "password": DEFAULT_PASSWORD}, content_type="application/json"
    )
    assert client.session.get_expire_at_browser_close()
    assert response.cookies[settings.SESSION_COOKIE_NAME]["expires"] == ""  # a browser-session cookie


@pytest.mark.parametrize("payload", [{"email": "", "password": "x"}, {"email": "a@b.fr", "password": "   "}, {}])
def test_blank_fields(api_client, payload):
    response = api_client.post(LOGIN_URL, payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_LOGIN_BLANK


def test_unknown_email_and_wrong_password_answer_alike(api_client, member):
    unknown = login(api_client, "personne@example.fr")
    wrong = login(api_client, member.email, "pas-le-bon")
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json()
    assert unknown.json()["error"] == MSG_LOGIN_FAILED


def test_inactive_account_answers_like_a_wrong_password(api_client):
    user = UserFactory(is_active=False)
    response = login(api_client, user.email)
    assert response.status_code == 401 and response.json()["error"] == MSG_LOGIN_FAILED


def test_unconfirmed_account_gets_403_and_a_way_to_resend(api_client, mailoutbox):
    user = UserFactory(email_confirmed_at=None)
    response = login(api_client, user.email)
    assert response.status_code == 403
    assert response.json()["error"] == MSG_EMAIL_NOT_CONFIRMED
    assert response.json()["resendUrl"] == "/api/users/resend-confirmation"
    assert "sessionid" not in response.cookies
    # A wrong password on an unconfirmed account still says nothing about the account.
    assert login(api_client, user.email, "pas-le-bon").json()["error"] == MSG_LOGIN_FAILED


def test_sixth_attempt_is_throttled_and_login_works_after_the_cool_off(api_client, member):
    start = timezone.now()
    with freeze_time(start) as frozen:
        for _ in range(LOGIN_MAX_FAILURES):
            assert login(api_client, member.email, "mauvais").status_code == 401
        sixth = login(api_client, member.email)  # even the right password is refused now
        assert sixth.status_code == 429
        assert sixth.json()["error"] == MSG_LOGIN_THROTTLED
        frozen.tick(timedelta(minutes=14, seconds=59))
        assert login(api_client, member.email).status_code == 429
        frozen.tick(timedelta(seconds=2))
        assert login(api_client, member.email).status_code == 200


def test_throttle_is_per_email_and_address(api_client, member, other_member):
    for _ in range(LOGIN_MAX_FAILURES):
        login(api_client, member.email, "mauvais")
    assert login(api_client, member.email).status_code == 429
    assert login(api_client, other_member.email).status_code == 200
    from rest_framework.test import APIClient

    elsewhere = APIClient(REMOTE_ADDR="10.0.0.9")
    assert login(elsewhere, member.email).status_code == 200


def test_a_success_clears_earlier_failures(api_client, member):
    for _ in range(LOGIN_MAX_FAILURES - 1):
        login(api_client, member.email, "mauvais")
    assert login(api_client, member.email).status_code == 200
    for _ in range(LOGIN_MAX_FAILURES - 1):
        assert login(api_client, member.email, "mauvais").status_code == 401
    assert login(api_client, member.email).status_code == 200


def test_refresh_rotates_and_logout_blacklists(api_client, member):
    refresh = login(api_client, member.email).json()["refresh"]
    rotated = api_client.post("/api/users/token/refresh", {"refresh": refresh}, format="json")
    assert rotated.status_code == 200
    new_refresh = rotated.json()["refresh"]
    assert rotated.json()["access"] and new_refresh != refresh
    assert api_client.post("/api/users/token/refresh", {"refresh": refresh}, format="json").status_code == 401
    out = api_client.post("/api/users/logout", {"refresh": new_refresh}, format="json")
    assert out.status_code == 200 and out.json()["message"] == MSG_LOGGED_OUT
    assert api_client.post("/api/users/token/refresh", {"refresh": new_refresh}, format="json").status_code == 401
    assert api_client.get("/api/users/profile").status_code in (401, 403)  # the session ended too


# --- The HTML form -------------------------------------------------------------------------------------------


def test_login_page_form_logs_in_and_goes_home(client, member):
    response = client.post("/login", {"email": member.email, "password": DEFAULT_PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.session.get_expire_at_browser_close()


def test_login_page_honours_a_same_site_next_only(client, member):
    response = client.post("/login?next=/my-courses", {"email": member.email, "password": DEFAULT_PASSWORD})
    assert response["Location"] == "/my-courses"
    client.logout()
    for evil in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        response = client.post("/login", {"email": member.email, "password": DEFAULT_PASSWORD, "next": evil})
        assert response["Location"] == "/"
        client.logout()


def test_login_page_messages(client, member):
    blank = client.post("/login", {"email": "", "password": ""})
    assert MSG_LOGIN_BLANK in blank.text
    wrong = client.post("/login", {"email": member.email, "password": "mauvais"})
    assert wrong.status_code == 401 and MSG_LOGIN_FAILED in wrong.text
    assert 'value="emma@example.fr"' in wrong.text


def test_login_page_offers_to_resend_the_confirmation(client, mailoutbox):
    user = UserFactory(email_confirmed_at=None)
    response = client.post("/login", {"email": user.email, "password": DEFAULT_PASSWORD})
    assert response.status_code == 403
    assert "Renvoyer le lien de confirmation" in response.text
    assert MSG_EMAIL_NOT_CONFIRMED.replace("'", "&#x27;") in response.text


def test_logout_page_ends_the_session(client, member):
    client.force_login(member)
    response = client.post("/logout")
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/user/profile").status_code == 302

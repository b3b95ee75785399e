"""The adversarial suite for accounts and the public forms: what an attacker tries on every account and public
write endpoint (ids of others, role changes, replays, forged tokens, sizes, hostile bodies, enumeration).

Each attack must fail safely: refused with a French message, changing nothing, never a 500. Runs on SQLite and
again on PostgreSQL (`-m database`), where NUL characters and over-long values reach a stricter database."""

import base64
import json

import pytest
from django.conf import settings
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.models import AccountToken, Role, TokenPurpose, User
from accounts.services.authentication import user_deactivate
from accounts.services.errors import MSG_RESET_LINK_INVALID, MSG_ROLE_CHANGE_FORBIDDEN, MSG_ROLE_INVALID
from accounts.services.tokens import account_token_create
from accounts.tests.factories import DEFAULT_PASSWORD, StaffFactory, SupervisorFactory, UserFactory
from accounts.tests.helpers import VALID_REGISTRATION, link_token
from studio.api import MSG_NOT_AUTHENTICATED
from studio.parsers import MSG_CSRF_FAILED, MSG_JSON_INVALID, MSG_TEXT_TOO_LONG

pytestmark = [pytest.mark.django_db, pytest.mark.database]

PUBLIC_WRITES = [
    "/api/users/register",
    "/api/users/login",
    "/api/users/logout",
    "/api/users/forgot-password",
    "/api/users/resend-confirmation",
    "/api/users/reset-password/not-a-token",
    "/api/users/token/refresh",
    "/api/contact-messages",
    "/api/rental-requests",
]

HOSTILE_BODIES = [
    "[]",
    '"chaine"',
    "123",
    "null",
    "true",
    '{"email": {"$ne": 1}, "password": {"$gt": ""}}',
    '{"email": ["a@b.fr"], "password": ["x"], "refresh": ["x"]}',
    '{"email": "a\\u0000@b.fr", "password": "x\\u0000", "name": "\\u0000", "message": "\\u0000"}',
    '{"email": 1e400, "password": 1e400}',
    '{"email": "' + "a" * 100_000 + '@b.fr", "password": "' + "p" * 100_000 + '"}',
    "{" * 50,
    "\ud800",
]


def login(client, user, password=DEFAULT_PASSWORD):
    return client.post("/api/users/login", {"email": user.email, "password": password}, format="json")


# --- Never a 500 ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PUBLIC_WRITES)
@pytest.mark.parametrize("body", HOSTILE_BODIES, ids=range(len(HOSTILE_BODIES)))
def test_hostile_json_bodies_on_public_writes_never_answer_500(path, body):
    client = APIClient()
    response = client.generic("POST", path, body.encode("utf-8", "surrogatepass"), content_type="application/json")
    assert response.status_code < 500, (path, body[:40], response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    payload = response.json()
    if response.status_code >= 400:
        assert payload["error"] and payload["error"] == payload["message"]


@pytest.mark.parametrize("path", PUBLIC_WRITES)
def test_invalid_utf8_and_wrong_content_types_never_answer_500(path):
    client = APIClient()
    for body, content_type in (
        (b"\xff\xfe\xfa", "application/json"),
        (b"email=%ff%fe&password=%00", "application/x-www-form-urlencoded"),
        (b'{"email": "a@b.fr"}', "text/plain"),
        (b"--x\r\nbroken", "multipart/form-data; boundary=x"),
    ):
        response = client.generic("POST", path, body, content_type=content_type)
        assert response.status_code < 500, (path, content_type, response.content[:300])


def test_invalid_json_is_answered_in_french():
    response = APIClient().generic("POST", "/api/users/login", b"{pas du json", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == MSG_JSON_INVALID


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/login", {"email": "a\x00@b.fr", "password": "x\x00"}),
        ("/register", {**VALID_REGISTRATION, "first_name": "A\x00", "acceptCGU": "on"}),
        ("/forgot-password", {"email": "a\x00@b.fr"}),
        ("/confirm-email/resend", {"email": "a\x00@b.fr"}),
        ("/contact", {"name": "A\x00", "email": "a@b.fr", "message": "\x00"}),
        ("/login", {"email": "a" * 100_000, "password": "p" * 100_000}),
        ("/register", {**VALID_REGISTRATION, "city": "L" * 100_000, "acceptCGU": "on"}),
    ],
)
def test_hostile_no_js_form_posts_never_answer_500(client, path, data):
    response = client.post(path, data)
    assert response.status_code < 500, response.content[:300]


def test_a_nul_character_in_a_page_form_or_query_is_refused_in_french(client):
    from studio.request_limits import MSG_FORBIDDEN_CHARACTER

    for response in (
        client.post("/login", {"email": "a\x00@b.fr", "password": "x"}),
        client.get("/login?next=%00"),
    ):
        assert response.status_code == 400
        assert MSG_FORBIDDEN_CHARACTER in response.content.decode()


# --- Ids of others and role changes --------------------------------------------------------------------------


def test_a_member_cannot_read_change_or_delete_anyone_else(api_client, member, other_member):
    api_client.force_authenticate(member)
    admin = StaffFactory()
    for target in (other_member, admin):
        assert api_client.get(f"/api/users/{target.pk}").status_code == 403
        assert api_client.put(f"/api/users/{target.pk}", {"city": "X"}, format="json").status_code == 403
        assert api_client.patch(f"/api/users/{target.pk}", {"email": "x@x.fr"}, format="json").status_code == 403
        assert api_client.delete(f"/api/users/{target.pk}").status_code == 403
    assert api_client.get("/api/users").status_code == 403
    for user in (other_member, admin):
        user.refresh_from_db()
        assert user.city == "Lyon"


@pytest.mark.parametrize("role", ["admin", "supervisor", "ADMIN", " admin", "root"])
def test_nobody_but_an_admin_changes_a_role(api_client, role):
    member = UserFactory()
    supervisor = SupervisorFactory()
    for actor, target in ((member, member), (supervisor, supervisor), (supervisor, member)):
        api_client.force_authenticate(actor)
        for path in (f"/api/users/{target.pk}", "/api/users/profile"):
            if (path == "/api/users/profile" and actor != target) or role == target.role:
                continue  # sending the role one already has is not a change
            response = api_client.put(path, {"role": role}, format="json")
            if role in ("admin", "supervisor"):
                assert response.status_code == 403, (actor.role, role)
                assert response.json()["error"] == MSG_ROLE_CHANGE_FORBIDDEN
            else:  # not a role at all: refused at the API boundary by the typed input
                assert response.status_code == 400, (actor.role, role)
                assert response.json()["error"] == MSG_ROLE_INVALID
    assert User.objects.filter(role=Role.ADMIN).count() == 0
    assert {member.role, supervisor.role} == {Role.USER, Role.SUPERVISOR}


def test_registration_never_creates_staff(api_client):
    payload = {**VALID_REGISTRATION, "role": "admin", "is_staff": True, "is_superuser": True, "is_active": True}
    assert api_client.post("/api/users/register", payload, format="json").status_code == 201
    assert User.objects.get(email=VALID_REGISTRATION["email"]).role == Role.USER


def test_profile_mass_assignment_is_ignored(api_client, member):
    api_client.force_authenticate(member)
    payload = {
        "is_active": False,
        "email_confirmed_at": None,
        "pending_email": "pirate@example.fr",
        "password": "pirate",
        "date_joined": "2000-01-01T00:00:00Z",
        "id": 1,
        "city": "Bron",
    }
    assert api_client.put("/api/users/profile", payload, format="json").status_code == 200
    member.refresh_from_db()
    assert member.is_active and member.email_confirmed and member.pending_email == ""
    assert member.check_password(DEFAULT_PASSWORD) and member.city == "Bron"


def test_a_supervisor_cannot_delete_staff_or_take_over_through_the_profile_page(client):
    admin = StaffFactory(email="patronne@example.fr")
    supervisor = SupervisorFactory()
    client.force_login(supervisor)
    response = client.post(
        f"/user/profile/{admin.pk}",
        {"first_name": "A", "last_name": "B", "email": "sup@example.fr", "phone": "0612345678", "postal_code": "69001"},
    )
    assert response.status_code == 403
    admin.refresh_from_db()
    assert admin.email == "patronne@example.fr" and admin.pending_email == ""


def test_a_supervisor_cannot_move_a_members_email_onto_an_existing_account(api_client):
    supervisor = SupervisorFactory()
    member = UserFactory(email="membre@example.fr")
    StaffFactory(email="patronne@example.fr")
    api_client.force_authenticate(supervisor)
    response = api_client.put(f"/api/users/{member.pk}", {"email": "PATRONNE@example.fr"}, format="json")
    assert response.status_code == 409
    member.refresh_from_db()
    assert member.email == "membre@example.fr" and member.pending_email == ""


@pytest.mark.parametrize(
    "path",
    [
        "/api/users/{big}",
        "/api/contact-messages/{big}",
        "/api/contact-messages/user/{big}",
        "/api/course-feedback/user/{big}",
        "/user/profile/{big}",
        "/user/messages/{big}",
        "/messages/{big}",
    ],
)
def test_ids_beyond_the_databases_integers_answer_404_or_403(client, staff, path):
    client.force_login(staff)
    response = client.get(path.format(big="9" * 30))
    assert response.status_code in (200, 403, 404), response.content[:200]


# --- Replays --------------------------------------------------------------------------------------------------


def test_reset_confirmation_and_email_change_links_are_single_use(
    api_client, client, mailoutbox, django_capture_on_commit_callbacks
):
    member = UserFactory(email="emma@example.fr")
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post("/api/users/forgot-password", {"email": member.email}, format="json")
    reset = link_token(mailoutbox[-1], "reset-password")
    ok = api_client.post(f"/api/users/reset-password/{reset}", {"newPassword": "Nouveau-Cerceau-77"}, format="json")
    assert ok.status_code == 200
    again = api_client.post(f"/api/users/reset-password/{reset}", {"newPassword": "Encore-Un-88"}, format="json")
    assert again.status_code == 400 and again.json()["error"] == MSG_RESET_LINK_INVALID

    api_client.force_authenticate(StaffFactory())
    with django_capture_on_commit_callbacks(execute=True):
        api_client.put(f"/api/users/{member.pk}", {"email": "premiere@example.fr"}, format="json")
    first = link_token([m for m in mailoutbox if m.to == ["premiere@example.fr"]][-1], "confirm-new-email")
    with django_capture_on_commit_callbacks(execute=True):
        api_client.put(f"/api/users/{member.pk}", {"email": "seconde@example.fr"}, format="json")
    assert client.post(f"/confirm-new-email/{first}").status_code == 400  # superseded by the second change
    second = link_token([m for m in mailoutbox if m.to == ["seconde@example.fr"]][-1], "confirm-new-email")
    assert client.post(f"/confirm-new-email/{second}").status_code == 200
    assert client.post(f"/confirm-new-email/{second}").status_code == 400
    member.refresh_from_db()
    assert member.email == "seconde@example.fr"


def test_a_reset_link_sent_to_the_old_address_dies_when_the_email_changes(
    api_client, client, mailoutbox, django_capture_on_commit_callbacks
):
    member = UserFactory(email="ancienne@example.fr")
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post("/api/users/forgot-password", {"email": member.email}, format="json")
    reset = link_token(mailoutbox[-1], "reset-password")
    api_client.force_authenticate(StaffFactory())
    with django_capture_on_commit_callbacks(execute=True):
        api_client.put(f"/api/users/{member.pk}", {"email": "nouvelle@example.fr"}, format="json")
    change = link_token([m for m in mailoutbox if m.to == ["nouvelle@example.fr"]][-1], "confirm-new-email")
    client.post(f"/confirm-new-email/{change}")
    api_client.force_authenticate(None)
    response = api_client.post(f"/api/users/reset-password/{reset}", {"newPassword": "Pirate-Cerceau-1"}, format="json")
    assert response.status_code == 400


def test_a_rotated_refresh_token_cannot_be_replayed(api_client, member):
    tokens = login(api_client, member).json()
    first = api_client.post("/api/users/token/refresh", {"refresh": tokens["refresh"]}, format="json")
    assert first.status_code == 200
    replay = api_client.post("/api/users/token/refresh", {"refresh": tokens["refresh"]}, format="json")
    assert replay.status_code == 401 and replay.json()["error"] == MSG_NOT_AUTHENTICATED


def test_an_access_token_is_not_a_refresh_token_and_forged_tokens_fail(api_client, member):
    tokens = login(api_client, member).json()
    as_refresh = api_client.post("/api/users/token/refresh", {"refresh": tokens["token"]}, format="json")
    assert as_refresh.status_code == 401
    header, payload, _signature = tokens["token"].split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["user_id"] = str(StaffFactory().pk)
    forged_payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    none_header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
    for forged in (f"{header}.{forged_payload}.{_signature}", f"{none_header}.{forged_payload}."):
        api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {forged}")
        assert api_client.get("/api/users").status_code == 401
    api_client.credentials()
    garbage = RefreshToken.for_user(member)
    garbage["user_id"] = "pas-un-id"
    answer = api_client.post("/api/users/token/refresh", {"refresh": str(garbage)}, format="json")
    assert answer.status_code == 401


def test_logout_with_someone_elses_refresh_token_changes_nothing_for_them(api_client, member, other_member):
    theirs = login(api_client, other_member).json()
    response = api_client.post("/api/users/logout", {"refresh": "pas-un-jeton"}, format="json")
    assert response.status_code == 200
    assert api_client.post("/api/users/token/refresh", {"refresh": theirs["refresh"]}, format="json").status_code == 200


def test_a_deactivated_account_cannot_log_in_or_refresh(api_client):
    member = UserFactory()
    tokens = login(api_client, member).json()
    user_deactivate(user=member)
    assert login(api_client, member).status_code == 401
    assert api_client.post("/api/users/token/refresh", {"refresh": tokens["refresh"]}, format="json").status_code == 401
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['token']}")
    assert api_client.get("/api/users/profile").status_code == 401


# --- CSRF on session writes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("put", "/api/users/profile", {"city": "Pirate"}),
        ("post", "/api/users/logout", {}),
        ("post", "/api/contact-messages", {"name": "A", "email": "a@b.fr", "message": "B"}),
        ("post", "/api/users/forgot-password", {"email": "a@b.fr"}),
        ("post", "/api/users/register", VALID_REGISTRATION),
    ],
)
def test_session_writes_without_the_csrf_token_are_refused(browser, member, method, path, body):
    browser.force_login(member)
    response = getattr(browser, method)(path, body, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["error"] in (MSG_CSRF_FAILED, "Vous n'avez pas accès à cette ressource.")
    member.refresh_from_db()
    assert member.city == "Lyon"


def test_a_cross_site_form_post_cannot_register_or_mail(browser, mailoutbox, django_capture_on_commit_callbacks):
    """A form on another site posts form-encoded bodies: without the token, nothing is created or mailed."""
    with django_capture_on_commit_callbacks(execute=True):
        for path, data in (
            ("/api/users/register", {**VALID_REGISTRATION, "acceptCGU": "true"}),
            ("/api/users/forgot-password", {"email": "victime@example.fr"}),
            ("/api/contact-messages", {"name": "A", "email": "a@b.fr", "message": "B"}),
        ):
            assert browser.post(path, data).status_code == 403
    assert not User.objects.exists() and mailoutbox == []


# --- Enumeration ------------------------------------------------------------------------------------------------


def test_no_public_endpoint_tells_who_has_an_account(api_client, mailoutbox):
    UserFactory(email="emma@example.fr")
    UserFactory(email="attente@example.fr", email_confirmed_at=None)
    pairs = [
        ("/api/users/login", {"password": "mauvais-mot"}),
        ("/api/users/forgot-password", {}),
        ("/api/users/resend-confirmation", {}),
        ("/api/users/register", {k: v for k, v in VALID_REGISTRATION.items() if k != "email"}),
    ]
    for path, extra in pairs:
        answers = []
        for email in ("emma@example.fr", "personne@example.fr", "attente@example.fr"):
            if path == "/api/users/register" and email == "personne@example.fr":
                email = "personne2@example.fr"
            response = api_client.post(path, {**extra, "email": email}, format="json")
            answers.append((response.status_code, response.json()))
        if path == "/api/users/login":
            answers = answers[:2]  # an unconfirmed account with the right password is told to confirm (403)
        assert len(set(json.dumps(a, sort_keys=True) for a in answers)) == 1, (path, answers)


def test_the_reset_page_says_the_same_for_a_used_and_an_unknown_link(client, member, mailoutbox):
    token = account_token_create(user=member, purpose=TokenPurpose.RESET_PASSWORD)
    AccountToken.objects.update(used_at="2026-01-01T00:00:00Z")
    used = client.get(f"/reset-password/{token}")
    unknown = client.get("/reset-password/inconnu")
    assert used.status_code == unknown.status_code
    assert MSG_RESET_LINK_INVALID.replace("'", "&#x27;") in used.text


# --- Sizes ------------------------------------------------------------------------------------------------------


def test_an_over_long_token_in_a_link_is_refused_quietly(api_client, client):
    long_token = "a" * 10_000
    assert api_client.get(f"/api/users/validate-email/{long_token}").status_code == 400
    assert client.get(f"/reset-password/{long_token}").status_code < 500
    assert client.post(f"/confirm-new-email/{long_token}").status_code == 400


def test_a_megabyte_password_is_refused_without_hashing_it_for_long(api_client, member):
    response = login(api_client, member, password="p" * 1_000_000)
    # Refused by the login's typed input before any lookup or hashing, the same for every address.
    assert response.status_code == 400 and response.json()["error"] == MSG_TEXT_TOO_LONG.format(max_length=4096)
    payload = {**VALID_REGISTRATION, "password": "p" * 1_000_000, "confirmPassword": "p" * 1_000_000}
    refused = api_client.post("/api/users/register", payload, format="json")
    assert refused.status_code == 400 and "4096" in refused.json()["error"]


def test_settings_of_the_limits():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 10 * 1024 * 1024
    assert settings.SIMPLE_JWT["CHECK_REVOKE_TOKEN"] is True

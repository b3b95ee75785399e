"""The account APIs' typed boundary and error contract: rubbish is refused in French with a 400, never a
500 or a silent default; every refusal comes from `AccountError`'s table through the shared handler."""

import pytest

from accounts.models import Role
from accounts.services.errors import (
    MSG_AVATAR_INVALID,
    MSG_CGU_REQUIRED,
    MSG_EMAIL_NOT_CONFIRMED,
    MSG_FORGOT_EMAIL_REQUIRED,
    MSG_LAST_ADMIN,
    MSG_LOGIN_BLANK,
    MSG_LOGIN_FAILED,
    MSG_NAMES_REQUIRED,
    MSG_PROFILE_FORBIDDEN,
    MSG_RESET_LINK_INVALID,
    MSG_ROLE_INVALID,
    MSG_SELF_DELETE,
    MSG_USER_HAS_HISTORY,
    MSG_USER_NOT_FOUND,
    AccountError,
)
from accounts.tests.factories import DEFAULT_PASSWORD, StaffFactory, UserFactory
from accounts.tests.helpers import VALID_REGISTRATION
from studio.api import MSG_INVALID, MSG_NOT_FOUND, MSG_UNSUPPORTED_MEDIA_TYPE

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def admin_client(api_client):
    admin = StaffFactory()
    api_client.force_authenticate(admin)
    api_client.admin = admin
    return api_client


# --- Bodies that are not an object -----------------------------------------------------------------------------


@pytest.mark.parametrize("body", ["false", "[]", "1", '"texte"', "null"])
def test_a_json_body_that_is_not_an_object_is_a_french_400_not_a_500(admin_client, member, body):
    """schemathesis found `PATCH /api/users/1` with the body `false` answered 500."""
    for url in (f"/api/users/{member.pk}", f"/api/users/{admin_client.admin.pk}", "/api/users/profile"):
        response = admin_client.generic("PATCH", url, body, content_type="application/json")
        assert response.status_code == 400, (url, body, response.content)
        assert response.json()["error"] == MSG_INVALID == "Données invalides."


@pytest.mark.parametrize(
    "url", ["/api/users/register", "/api/users/login", "/api/users/forgot-password", "/api/users/logout"]
)
def test_public_forms_refuse_a_body_that_is_not_an_object(api_client, url):
    response = api_client.generic("POST", url, "false", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_INVALID


@pytest.mark.parametrize("body", [{}, None])
def test_a_profile_change_with_no_field_is_refused(admin_client, member, body):
    url = f"/api/users/{member.pk}"
    if body is None:  # a multipart body with no part at all
        response = admin_client.generic("PATCH", url, "", content_type="multipart/form-data; boundary=x")
    else:
        response = admin_client.patch(url, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_INVALID


@pytest.mark.parametrize("body", ["last_name=&city=Brest", "city=Brest&remove_avatar=true", "avatar=null&city=Brest"])
def test_a_form_encoded_body_is_refused_and_changes_nothing(admin_client, member, body):
    """The API reads JSON, and multipart where a file is uploaded: a form-encoded body cannot say null
    or an empty list, and is what a cross-site HTML form sends."""
    response = admin_client.patch(f"/api/users/{member.pk}", body, content_type=FORM)
    assert response.status_code == 415
    assert response.json()["error"] == MSG_UNSUPPORTED_MEDIA_TYPE
    member.refresh_from_db()
    assert member.city != "Brest" and member.last_name


def test_an_empty_avatar_is_not_a_picture(admin_client, member):
    response = admin_client.patch(f"/api/users/{member.pk}", {"avatar": "", "city": "Lyon"}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_AVATAR_INVALID


def test_a_control_character_is_not_a_name(admin_client, member):
    response = admin_client.patch(f"/api/users/{member.pk}", {"last_name": "\x1c"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_NAMES_REQUIRED


def test_an_avatar_url_sent_back_is_ignored_but_an_object_is_refused(admin_client, member):
    url = f"/api/users/{member.pk}"
    kept = admin_client.patch(url, {"city": "Lyon", "avatar": "/static/accounts/avatar-default.svg"}, format="json")
    assert kept.status_code == 200 and kept.json()["city"] == "Lyon"
    refused = admin_client.patch(url, {"city": "Lyon", "avatar": {"name": "x"}}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"]["avatar"]
    refused = admin_client.patch(url, {"city": "Lyon", "avatar": "pas une image"}, format="json")
    assert refused.status_code == 400


@pytest.mark.parametrize("url", ["/api/users/abc", "/api/users/null,null", "/api/emails/x/resend"])
def test_an_id_that_is_not_a_number_is_the_apis_json_404(admin_client, settings, url):
    settings.DEBUG = False
    response = admin_client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == MSG_NOT_FOUND == "Ressource introuvable."


# --- Types: no number or boolean turned into text ---------------------------------------------------------------


def test_a_number_is_not_an_email_or_a_token(api_client):
    response = api_client.post("/api/users/resend-confirmation", {"email": 0}, format="json")
    assert response.status_code == 400 and response.json()["error"] == MSG_FORGOT_EMAIL_REQUIRED
    response = api_client.post("/api/users/logout", {"refresh": 0}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["refresh"]
    response = api_client.post("/api/users/token/refresh", {"refresh": 12}, format="json")
    assert response.status_code == 400


def test_the_cgu_box_must_be_true_not_one_or_a_word(api_client):
    for value in (1, "yes please", False, None):
        response = api_client.post("/api/users/register", {**VALID_REGISTRATION, "acceptCGU": value}, format="json")
        assert response.status_code == 400, value
        assert response.json()["error"] == MSG_CGU_REQUIRED


def test_login_with_blank_or_spaces_only_is_the_blank_message(api_client):
    for body in ({}, {"email": "  ", "password": "x"}, {"email": "emma@example.fr", "password": "   "}):
        response = api_client.post("/api/users/login", body, format="json")
        assert response.status_code == 400
        assert response.json()["error"] == MSG_LOGIN_BLANK


def test_an_unknown_role_is_refused_by_the_boundary(admin_client, member):
    response = admin_client.patch(f"/api/users/{member.pk}", {"role": "superstar"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_ROLE_INVALID


# --- The user list's query ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query", ["page=0", "page=abc", "page=", "page_size=", "page_size=0", "page_size=101", "page_size=-3"]
)
def test_the_user_list_refuses_a_bad_page_or_size(admin_client, query):
    response = admin_client.get(f"/api/users?{query}")
    assert response.status_code == 400
    assert response.json()["error"]


def test_a_page_beyond_the_list_is_a_404(admin_client):
    response = admin_client.get("/api/users?page=99")
    assert response.status_code == 404
    assert response.json()["error"]


def test_the_user_list_keeps_what_the_dashboard_sends(admin_client, member):
    response = admin_client.get("/api/users?page=1&page_size=10&ordering=last_name&search=petit")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert [row["id"] for row in body["results"]] == [member.pk]


# --- Refusals: code and status from the table -----------------------------------------------------------------


def test_unconfirmed_login_answers_403_with_its_code_and_where_to_resend(api_client):
    UserFactory(email="new@example.fr", email_confirmed_at=None)
    response = api_client.post(
        "/api/users/login", {"email": "new@example.fr", "password": DEFAULT_PASSWORD}, format="json"
    )
    assert response.status_code == 403
    assert response.json() == {
        "error": MSG_EMAIL_NOT_CONFIRMED,
        "message": MSG_EMAIL_NOT_CONFIRMED,
        "code": "email_not_confirmed",
        "resendUrl": "/api/users/resend-confirmation",
    }


def test_wrong_password_is_401_with_its_code(api_client, member):
    response = api_client.post("/api/users/login", {"email": member.email, "password": "nope-nope"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_credentials" and response.json()["error"] == MSG_LOGIN_FAILED


def test_a_bad_reset_link_keeps_its_400_for_the_island(api_client):
    response = api_client.post("/api/users/reset-password/nope", {"newPassword": "Cerceau-2027"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_RESET_LINK_INVALID
    assert response.json()["code"] == "invalid_reset_link"


def test_staff_reaching_an_unknown_user_is_a_404(admin_client):
    response = admin_client.get("/api/users/999999")
    assert response.status_code == 404
    assert response.json()["error"] == MSG_USER_NOT_FOUND == "Utilisateur introuvable."
    assert response.json()["code"] == "user_not_found"


def test_a_member_reaching_another_is_a_403(api_client, member, other_member):
    api_client.force_authenticate(member)
    for method in ("get", "patch", "delete"):
        response = getattr(api_client, method)(f"/api/users/{other_member.pk}", {}, format="json")
        assert response.status_code == 403
        assert response.json()["error"] == MSG_PROFILE_FORBIDDEN


@pytest.mark.parametrize(
    ("code", "status", "message"),
    [
        ("email_taken", 409, None),
        ("user_has_history", 409, MSG_USER_HAS_HISTORY),
        ("invalid_credentials", 401, MSG_LOGIN_FAILED),
        ("email_not_confirmed", 403, MSG_EMAIL_NOT_CONFIRMED),
        ("throttled", 429, None),
        ("profile_forbidden", 403, MSG_PROFILE_FORBIDDEN),
        ("user_not_found", 404, MSG_USER_NOT_FOUND),
        ("last_admin", 409, MSG_LAST_ADMIN),
        ("self_delete", 403, None),
        ("role_invalid", 400, MSG_ROLE_INVALID),
    ],
)
def test_the_table_gives_each_code_its_status_and_text(code, status, message):
    error = AccountError.of(code)
    assert (error.code, error.status) == (code, status)
    if message:
        assert error.message == message


def test_every_code_has_a_french_text():
    for code, text in AccountError.messages.items():
        assert text and code == code.lower()
    assert set(AccountError.statuses) <= set(AccountError.messages)


def test_the_last_admin_cannot_be_demoted(api_client):
    admin = StaffFactory(role=Role.ADMIN)
    api_client.force_authenticate(admin)
    response = api_client.patch(f"/api/users/{admin.pk}", {"role": "user"}, format="json")
    assert response.status_code == 409  # was 400: a conflict with the studio's state, not a malformed request
    assert response.json()["error"] == MSG_LAST_ADMIN


def test_staff_cannot_delete_themselves(api_client):
    admin = StaffFactory(role=Role.ADMIN)
    api_client.force_authenticate(admin)
    response = api_client.delete(f"/api/users/{admin.pk}")
    assert response.status_code == 403  # was 400: not this actor's to do
    assert response.json()["error"] == MSG_SELF_DELETE


def test_an_empty_refresh_at_logout_is_accepted_and_the_schema_says_so(api_client):
    """schemathesis: the server takes `{"refresh": ""}`; the schema's oneOf refused '' (it matched both branches)."""
    from drf_spectacular.generators import SchemaGenerator

    assert api_client.post("/api/users/logout", {"refresh": ""}, format="json").status_code == 200
    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    assert "oneOf" not in components["LogoutInput"]["properties"]["refresh"]

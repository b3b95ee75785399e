"""Registration: the form's seven checks in order, one service for the page and the API."""

import pytest

from accounts.models import AccountToken, Role, TokenPurpose, User
from accounts.services.errors import (
    MSG_CGU_REQUIRED,
    MSG_EMAIL_INVALID,
    MSG_PASSWORD_TOO_COMMON,
    MSG_PASSWORD_TOO_SHORT,
    MSG_PASSWORDS_DIFFER,
    MSG_PHONE_INVALID,
    MSG_POSTAL_CODE_INVALID,
    MSG_REQUIRED_FIELDS,
)
from accounts.services.registration import MSG_REGISTERED, SUBJECT_ACCOUNT_EXISTS, user_register
from accounts.tests.helpers import VALID_REGISTRATION, link_token

pytestmark = pytest.mark.django_db

REGISTER_URL = "/api/users/register"

# One failing field per check, in the order the form checks them.
FAILURES = [
    ({"last_name": "  "}, MSG_REQUIRED_FIELDS),
    ({"first_name": ""}, MSG_REQUIRED_FIELDS),
    ({"email": ""}, MSG_REQUIRED_FIELDS),
    ({"password": "", "confirmPassword": ""}, MSG_REQUIRED_FIELDS),
    ({"phone": "06123"}, MSG_PHONE_INVALID),
    ({"phone": "06123456789"}, MSG_PHONE_INVALID),
    ({"phone": "06l2345678"}, MSG_PHONE_INVALID),
    ({"phone": ""}, MSG_PHONE_INVALID),
    ({"email": "chloe@"}, MSG_EMAIL_INVALID),
    ({"email": "chloe.example.fr"}, MSG_EMAIL_INVALID),
    ({"postal_code": "6900"}, MSG_POSTAL_CODE_INVALID),
    ({"postal_code": "69OO2"}, MSG_POSTAL_CODE_INVALID),
    ({"password": "abc12", "confirmPassword": "abc12"}, MSG_PASSWORD_TOO_SHORT),
    ({"password": "password", "confirmPassword": "password"}, MSG_PASSWORD_TOO_COMMON),
    ({"confirmPassword": "Cerceau-Lyon-2027"}, MSG_PASSWORDS_DIFFER),
    ({"acceptCGU": False}, MSG_CGU_REQUIRED),
]


@pytest.mark.parametrize(("change", "message"), FAILURES)
def test_each_check_answers_its_message_and_creates_nothing(
    api_client, mailoutbox, change, message, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(REGISTER_URL, {**VALID_REGISTRATION, **change}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == message
    assert response.json()["message"] == message
    assert not User.objects.exists()
    assert mailoutbox == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"first_name": "", "phone": "12"}, MSG_REQUIRED_FIELDS),
        ({"phone": "12", "email": "nope"}, MSG_PHONE_INVALID),
        ({"email": "nope", "postal_code": "1"}, MSG_EMAIL_INVALID),
        ({"postal_code": "1", "password": "abc", "confirmPassword": "abc"}, MSG_POSTAL_CODE_INVALID),
        ({"password": "abc", "confirmPassword": "xyz"}, MSG_PASSWORD_TOO_SHORT),
        ({"confirmPassword": "different-one", "acceptCGU": False}, MSG_PASSWORDS_DIFFER),
    ],
)
def test_two_failures_give_the_earlier_message(api_client, change, message):
    response = api_client.post(REGISTER_URL, {**VALID_REGISTRATION, **change}, format="json")
    assert response.json()["error"] == message


def test_api_registration_creates_an_unconfirmed_member_and_sends_the_confirmation(
    api_client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(REGISTER_URL, {**VALID_REGISTRATION, "role": "admin"}, format="json")
    assert response.status_code == 201
    assert response.json()["message"] == MSG_REGISTERED
    user = User.objects.get(email="chloe@example.fr")
    assert user.role == Role.USER  # a registrant never chooses a role
    assert user.email_confirmed_at is None
    assert user.check_password("Cerceau-Lyon-2026")
    assert user.password != "Cerceau-Lyon-2026"
    assert (user.first_name, user.last_name, user.phone, user.postal_code) == (
        "Chloé",
        "Bernard",
        "0611223344",
        "69002",
    )
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["chloe@example.fr"]
    assert "Confirmez votre adresse email" in mail.subject
    token = link_token(mail, "confirm-email")
    html = mail.alternatives[0][0]
    assert f"/confirm-email/{token}" in html and "Bonjour Chloé" in html
    stored = AccountToken.objects.get(user=user, purpose=TokenPurpose.CONFIRM_EMAIL)
    assert stored.token_hash != token  # only a hash is kept


def test_country_defaults_to_france_and_phone_spaces_are_accepted(api_client):
    payload = {**VALID_REGISTRATION, "country": "", "phone": "06 11 22 33 44"}
    assert api_client.post(REGISTER_URL, payload, format="json").status_code == 201
    user = User.objects.get()
    assert (user.country, user.phone) == ("France", "0611223344")


def test_an_email_already_registered_answers_as_a_new_one_and_mails_its_owner(
    api_client, member, mailoutbox, django_capture_on_commit_callbacks
):
    """docs/decisions.md 30: a 409 'Un compte existe déjà' would tell anyone who has an account."""
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(REGISTER_URL, {**VALID_REGISTRATION, "email": "EMMA@example.fr"}, format="json")
    assert response.status_code == 201
    assert response.json() == {"message": MSG_REGISTERED}
    assert User.objects.count() == 1
    assert [m.to for m in mailoutbox] == [["emma@example.fr"]]
    assert mailoutbox[0].subject.endswith(SUBJECT_ACCOUNT_EXISTS)


def test_the_form_page_registers_through_the_same_service(client, mailoutbox, django_capture_on_commit_callbacks):
    form = {**VALID_REGISTRATION, "acceptCGU": "true"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/register", form)
    assert response.status_code == 302 and response["Location"] == "/"
    assert User.objects.filter(email="chloe@example.fr", role=Role.USER).exists()
    assert len(mailoutbox) == 1
    follow = client.get("/")
    assert MSG_REGISTERED in follow.text  # shown as a toast by the shell


def test_the_form_page_shows_the_first_error_and_keeps_the_values(client):
    form = {**VALID_REGISTRATION, "acceptCGU": "", "phone": "123"}
    response = client.post("/register", form)
    assert response.status_code == 400
    assert MSG_PHONE_INVALID.replace("'", "&#x27;") in response.text
    assert 'value="Bernard"' in response.text
    assert "Cerceau-Lyon-2026" not in response.text  # passwords are never echoed back
    assert not User.objects.exists()


def test_register_page_has_the_four_sections_and_its_script(client):
    response = client.get("/register")
    for legend in ("Identité", "Adresse", "Sécurité", "Validation"):
        assert f"<legend>{legend}</legend>" in response.text
    assert "accounts-register" in response.text
    assert "<script>" not in response.text  # props travel through json_script only


def test_logged_in_members_are_sent_home_from_login_and_register(client, member):
    client.force_login(member)
    for path in ("/login", "/register"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"] == "/"


def test_generated_password_rules_are_the_pages_props(client):
    from accounts.views.sign_in import GENERATED_PASSWORD_ALPHABET, GENERATED_PASSWORD_LENGTH

    assert GENERATED_PASSWORD_LENGTH == 12
    assert set(GENERATED_PASSWORD_ALPHABET) == set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*"
    )
    response = client.get("/register")
    assert '"passwordLength": 12' in response.text


def test_service_is_keyword_only():
    with pytest.raises(TypeError):
        user_register("Bernard")  # noqa


def test_seed_is_idempotent():
    from accounts import seed

    seed.run()
    seed.run()
    assert User.objects.filter(role=Role.SUPERVISOR).count() == 1
    assert User.objects.count() == 1 + len(seed.MEMBERS) + 1  # the members, and the one buying for a company


@pytest.mark.parametrize("path", ["/login", "/register", "/forgot-password", "/confirm-email/x", "/reset-password/x"])
def test_account_pages_load_no_react(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert "vendor-react" not in response.text

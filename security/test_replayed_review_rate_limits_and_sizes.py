"""The security review's items 6 and 8 (listed in security/outside/__main__.py) reproduced as the outside attack
did them: bad input never answers 500, and the public
forms that write or mail are rate-limited per client address, with a per-recipient cap on e-mails."""

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.services.passwords import MSG_FORGOT_SENT
from accounts.tests.factories import UserFactory
from accounts.tests.helpers import VALID_REGISTRATION
from bookings.apis.common import MSG_AMOUNT_INVALID
from bookings.models import Reservation
from courses.tests.factories import CourseSessionFactory
from messaging import services as messaging_services
from studio.parsers import MSG_BODY_TOO_LARGE, MSG_JSON_INVALID, MSG_JSON_TOO_DEEP, MSG_RATE_LIMITED, MSG_TEXT_TOO_LONG

# Also on PostgreSQL (`-m database`): over-long values and NULs meet a stricter database there.
pytestmark = [pytest.mark.django_db, pytest.mark.database]


@pytest.fixture
def session(db):
    start = timezone.now() + timedelta(days=3)
    return CourseSessionFactory(start=start, end=start + timedelta(hours=1), max_attendees=10)


def hold_payload(session, **extra):
    return {
        "session_id": session.pk,
        "participants": 1,
        "first_name": "Emma",
        "last_name": "Petit",
        "email": "emma@example.fr",
        "type": "cours",
        **extra,
    }


# --- Item 6: server errors on bad input ---------------------------------------------------------------------


@pytest.mark.parametrize("amount", ["Infinity", "-Infinity", "1e400", "sNaN", "NaN", "-25.00", "1e-400"])
def test_item6_a_hold_with_a_non_finite_or_absurd_total_amount_is_refused(api_client, member, session, amount):
    api_client.force_authenticate(member)
    response = api_client.post("/api/reservations-courses", hold_payload(session, total_amount=amount), format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == MSG_AMOUNT_INVALID


def test_item6_a_zero_amount_is_well_formed_but_not_the_price(api_client, member, session):
    """A well-formed amount that is not the session's price conflicts with it (409): the request itself is not
    malformed (400)."""
    api_client.force_authenticate(member)
    response = api_client.post("/api/reservations-courses", hold_payload(session, total_amount="0"), format="json")
    assert response.status_code == 409 and response.json()["code"] == "amount_mismatch"
    assert not Reservation.objects.exists()


def test_item6_a_hold_with_a_json_number_amount_of_1e400_is_refused(api_client, member, session):
    api_client.force_authenticate(member)
    body = json.dumps(hold_payload(session)).rstrip("}") + ', "total_amount": 1e400}'
    response = api_client.post("/api/reservations-courses", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] in (MSG_AMOUNT_INVALID, MSG_JSON_INVALID)


@pytest.mark.parametrize("constant", ["Infinity", "NaN", "-Infinity"])
def test_item6_json_constants_outside_the_standard_are_refused_in_french(api_client, member, session, constant):
    api_client.force_authenticate(member)
    body = json.dumps(hold_payload(session)).rstrip("}") + f', "total_amount": {constant}}}'
    response = api_client.post("/api/reservations-courses", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == MSG_JSON_INVALID


def test_item6_a_30_mb_json_body_answers_413_in_french(api_client, member):
    api_client.force_authenticate(member)
    body = json.dumps({"message": "x" * (30 * 1024 * 1024)})
    response = api_client.post("/api/contact-messages", body, content_type="application/json")
    assert response.status_code == 413 and response.json()["error"] == MSG_BODY_TOO_LARGE


def test_item6_a_30_mb_form_on_a_page_answers_413_in_french(client):
    response = client.post(
        "/contact", "message=" + "x" * (30 * 1024 * 1024), content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413 and MSG_BODY_TOO_LARGE in response.content.decode()


def test_item6_json_nested_100000_deep_answers_400(api_client, member, session):
    api_client.force_authenticate(member)
    body = '{"participants": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = api_client.post("/api/reservations-courses", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == MSG_JSON_TOO_DEEP
    anonymous = api_client.post("/api/contact-messages", "[" * 100_000, content_type="application/json")
    assert anonymous.status_code == 400


def test_item6_a_first_name_of_100000_characters_on_a_hold_is_refused(api_client, member, session):
    api_client.force_authenticate(member)
    response = api_client.post(
        "/api/reservations-courses", hold_payload(session, first_name="A" * 100_000), format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == MSG_TEXT_TOO_LONG.format(max_length=150)


def test_item6_a_megabyte_message_or_email_on_a_hold_is_refused(api_client, member, session):
    api_client.force_authenticate(member)
    for field, size, bound in (("message", 1_000_000, 5000), ("email", 100_000, 254)):
        response = api_client.post(
            "/api/reservations-courses", hold_payload(session, **{field: "m" * size}), format="json"
        )
        assert response.status_code == 400, field
        assert response.json()["error"] == MSG_TEXT_TOO_LONG.format(max_length=bound)


def test_item6_profile_and_registration_texts_are_bounded_by_the_model(api_client, member):
    api_client.force_authenticate(member)
    response = api_client.put("/api/users/profile", {"first_name": "A" * 100_000}, format="json")
    assert response.status_code == 400 and response.json()["error"] == MSG_TEXT_TOO_LONG.format(max_length=150)
    api_client.force_authenticate(None)
    payload = {**VALID_REGISTRATION, "email": "long@example.fr", "city": "L" * 100_000}
    response = api_client.post("/api/users/register", payload, format="json")
    assert response.status_code == 400 and response.json()["error"] == MSG_TEXT_TOO_LONG.format(max_length=120)


# --- Item 8: no limits on public forms that send mail ----------------------------------------------------------


def contact(api_client, n, **meta):
    payload = {"name": "Spam", "email": f"spam{n}@example.fr", "message": "Bonjour"}
    return api_client.post("/api/contact-messages", payload, format="json", **meta)


def test_item8_thirty_contact_posts_from_one_address_are_cut_at_the_limit(
    api_client, mailoutbox, rate_limits, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        statuses = [contact(api_client, n).status_code for n in range(30)]
        refused = contact(api_client, 99)
    limit = int(rate_limits.DEFAULT_PUBLIC_FORM_RATES["contact"].split("/")[0])
    assert statuses == [201] * limit + [429] * (30 - limit)
    assert refused.json()["error"] == MSG_RATE_LIMITED and int(refused["Retry-After"]) > 0
    assert len(mailoutbox) == limit
    assert contact(api_client, 100, REMOTE_ADDR="203.0.113.9").status_code == 201  # another visitor is not blocked


def test_item8_fifteen_room_rentals_are_cut_at_the_limit(api_client, mailoutbox, rate_limits):
    payload = {"name": "Spam", "email": "s@example.fr", "phone": "0612345678", "date": "2030-01-10", "time": "15:00"}
    statuses = [api_client.post("/api/rental-requests", payload, format="json").status_code for _ in range(15)]
    limit = int(rate_limits.DEFAULT_PUBLIC_FORM_RATES["rental"].split("/")[0])
    assert statuses.count(201) == limit and statuses.count(429) == 15 - limit


def test_item8_eight_registrations_are_cut_at_the_limit(api_client, mailoutbox, rate_limits):
    statuses = [
        api_client.post("/api/users/register", {**VALID_REGISTRATION, "email": f"r{n}@example.fr"}, format="json")
        for n in range(8)
    ]
    limit = int(rate_limits.DEFAULT_PUBLIC_FORM_RATES["register"].split("/")[0])
    assert [r.status_code for r in statuses] == [201] * limit + [429] * (8 - limit)
    assert statuses[-1].json()["error"] == MSG_RATE_LIMITED


def test_item8_ten_reset_requests_for_one_address_send_at_most_the_hourly_cap(
    api_client, mailoutbox, rate_limits, django_capture_on_commit_callbacks
):
    UserFactory(email="victime@example.fr")
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(10):  # from ten different addresses: the per-address limit alone would not stop them
            response = api_client.post(
                "/api/users/forgot-password",
                {"email": "victime@example.fr"},
                format="json",
                REMOTE_ADDR=f"198.51.100.{n}",
            )
            assert response.status_code == 200 and response.json()["message"] == MSG_FORGOT_SENT
    assert len(mailoutbox) == rate_limits.DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR


def test_item8_forgot_password_and_resend_are_limited_per_client_address(api_client, rate_limits):
    for path, form in (("/api/users/forgot-password", "forgot_password"), ("/api/users/resend-confirmation", "resend")):
        limit = int(rate_limits.DEFAULT_PUBLIC_FORM_RATES[form].split("/")[0])
        statuses = [
            api_client.post(path, {"email": f"x{n}@example.fr"}, format="json").status_code for n in range(limit + 2)
        ]
        assert statuses == [200] * limit + [429, 429], path


@pytest.mark.parametrize(
    ("path", "form", "data"),
    [
        ("/contact", "contact", {"name": "Spam", "email": "s@example.fr", "message": "Bonjour"}),
        (
            "/rental-form",
            "rental",
            {"name": "S", "email": "s@example.fr", "phone": "0612345678", "date": "2030-01-10", "time": "15:00"},
        ),
        ("/register", "register", {**VALID_REGISTRATION, "acceptCGU": "on"}),
        ("/forgot-password", "forgot_password", {"email": "s@example.fr"}),
        ("/confirm-email/resend", "resend", {"email": "s@example.fr"}),
    ],
)
def test_item8_the_no_js_page_forms_share_the_limit_and_answer_429_in_french(client, rate_limits, path, form, data):
    limit = int(rate_limits.DEFAULT_PUBLIC_FORM_RATES[form].split("/")[0])
    for n in range(limit):
        body = {**data, "email": f"p{n}@example.fr"}
        assert client.post(path, body).status_code != 429
    refused = client.post(path, data)
    assert refused.status_code == 429
    assert MSG_RATE_LIMITED.replace("'", "&#x27;") in refused.content.decode()


def test_item8_the_api_and_the_page_count_against_one_limit(api_client, client, rate_limits):
    limit = int(rate_limits.DEFAULT_PUBLIC_FORM_RATES["contact"].split("/")[0])
    for n in range(limit):
        assert contact(api_client, n).status_code == 201
    assert client.post("/contact", {"name": "S", "email": "s@example.fr", "message": "B"}).status_code == 429


def test_item8_the_client_address_behind_trusted_proxies(rate_limits, settings, rf):
    request = rf.post("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    settings.TRUSTED_PROXY_COUNT = 0
    assert rate_limits.client_ip(request) == "10.0.0.2"  # no proxy: the header is the client's word, ignored
    settings.TRUSTED_PROXY_COUNT = 1
    assert rate_limits.client_ip(request) == "203.0.113.7"  # the address our proxy saw, not the spoofed one
    settings.TRUSTED_PROXY_COUNT = 2
    assert rate_limits.client_ip(request) == "6.6.6.6"
    settings.TRUSTED_PROXY_COUNT = 3  # fewer entries than proxies: never trust a client-written entry
    assert rate_limits.client_ip(request) == "6.6.6.6"
    bad = rf.post("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="pas-une-ip")
    settings.TRUSTED_PROXY_COUNT = 1
    assert rate_limits.client_ip(bad) == "10.0.0.2"


def test_item8_a_spoofed_forwarded_for_does_not_dodge_the_limit(api_client, rate_limits, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    limit = int(rate_limits.DEFAULT_PUBLIC_FORM_RATES["contact"].split("/")[0])
    statuses = [
        contact(api_client, n, HTTP_X_FORWARDED_FOR=f"10.9.9.{n}, 203.0.113.7").status_code for n in range(limit + 1)
    ]
    assert statuses[-1] == 429


def _production_env(**extra):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "REDIS_", "DATABASE_URL"))}
    env.update(
        DJANGO_SETTINGS_MODULE="studio.settings.production",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="studio.example",
        **extra,
    )
    return env


def test_item8_production_refuses_to_start_without_a_shared_cache():
    code = "import django; django.setup()"
    cwd = settings.BASE_DIR
    refused = subprocess.run(
        [sys.executable, "-c", code], env=_production_env(), cwd=cwd, capture_output=True, text=True
    )
    assert refused.returncode != 0
    assert "REDIS_URL" in refused.stderr and "rate limit" in refused.stderr.lower()
    started = subprocess.run(
        [sys.executable, "-c", code],
        env=_production_env(REDIS_URL="redis://127.0.0.1:6379/0"),
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    assert started.returncode == 0, started.stderr


def test_item8_test_settings_keep_limits_off_for_the_rest_of_the_suite():
    assert settings.RATELIMIT_ENABLE is False and settings.EMAILS_PER_RECIPIENT_PER_HOUR is None


def test_item8_contact_page_message_constant_is_french():
    assert messaging_services.MSG_CONTACT_SENT and "Trop de demandes" in MSG_RATE_LIMITED


def test_item8_staff_notifications_of_public_forms_are_capped_per_hour_and_posts_still_stored(
    api_client, mailoutbox, rate_limits, settings, django_capture_on_commit_callbacks
):
    """Thirty contact posts from thirty addresses: each stored, the studio's mailbox told at most the cap."""
    from messaging.models import ContactMessage

    settings.STAFF_NOTIFICATIONS_PER_HOUR = 10
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(30):
            assert contact(api_client, n, REMOTE_ADDR=f"198.51.100.{n}").status_code == 201
    assert ContactMessage.objects.count() == 30
    assert len(mailoutbox) == 10

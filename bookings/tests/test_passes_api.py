"""Staff pass API at the boundary: typed input refused in French, statuses from the error codes."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.apis.pages import MSG_PAGE_SIZE_INVALID
from bookings.models import Pass
from bookings.services.pass_admin import (
    MSG_CREDITS_BELOW_ZERO,
    MSG_CREDITS_INVALID,
    MSG_DATE_INVALID,
    MSG_END_BEFORE_START,
    MSG_GRANT_CREDITS_MIN,
    MSG_KIND_INVALID,
    MSG_MEMBER_NOT_FOUND,
    MSG_NOTHING_TO_CHANGE,
    MSG_REASON_REQUIRED,
    MSG_TARIFF_NOT_FOUND,
    PassAdminError,
)
from bookings.services.passes import MSG_PASS_NOT_FOUND
from bookings.tests.factories import PassFactory

PASSES = "/api/passes"


@pytest.fixture
def staff_client(api_client, staff):
    api_client.force_authenticate(staff)
    return api_client


def test_adjust_refusals_carry_their_status(staff_client, member):
    card = PassFactory(member=member, credits_total=10, credits_left=2)
    url = f"{PASSES}/{card.pk}"
    below = staff_client.put(url, {"credits_delta": -3, "reason": "erreur"}, format="json")
    assert below.status_code == 409 and below.json()["code"] == "credits_below_zero"
    assert below.json()["error"] == MSG_CREDITS_BELOW_ZERO.format(credits=2)
    nothing = staff_client.put(url, {"reason": "rien", "expires_on": card.expires_on.isoformat()}, format="json")
    assert nothing.status_code == 409 and nothing.json()["error"] == MSG_NOTHING_TO_CHANGE
    before = (card.starts_on - timedelta(days=1)).isoformat()
    early = staff_client.put(url, {"expires_on": before, "reason": "x"}, format="json")
    assert early.status_code == 409 and early.json()["error"].startswith(MSG_END_BEFORE_START[:20])
    missing = staff_client.put(f"{PASSES}/999999", {"credits_delta": 1, "reason": "x"}, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "pass_not_found"
    assert staff_client.get(f"{PASSES}/999999").json()["error"] == MSG_PASS_NOT_FOUND


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"credits_delta": 1001, "reason": "x"}, MSG_CREDITS_INVALID),
        ({"credits_delta": 1.5, "reason": "x"}, MSG_CREDITS_INVALID),
        ({"credits_delta": 1, "reason": "   "}, MSG_REASON_REQUIRED),
        ({"credits_delta": 1, "reason": None}, MSG_REASON_REQUIRED),
        ({"expires_on": "2030-02-30", "reason": "x"}, MSG_DATE_INVALID),
        ({"expires_on": 20300101, "reason": "x"}, MSG_DATE_INVALID),
    ],
)
def test_adjust_rubbish_is_refused_in_french(staff_client, member, payload, message):
    card = PassFactory(member=member, credits_total=10, credits_left=2)
    response = staff_client.put(f"{PASSES}/{card.pk}", payload, format="json")
    assert response.status_code == 400 and response.json()["error"] == message
    card.refresh_from_db()
    assert card.credits_left == 2


def test_grant_as_the_dashboard_sends_it_blank_dates_and_null_credits(staff_client, member):
    far = (timezone.localdate() + timedelta(days=30)).isoformat()
    body = {"member_email": member.email, "tariff_id": None, "kind": "card", "credits": 4, "starts_on": ""}
    created = staff_client.post(PASSES, {**body, "expires_on": far, "reason": "Offert"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["starts_on"] == timezone.localdate().isoformat()
    no_end = staff_client.post(PASSES, {**body, "expires_on": "", "reason": "Offert"}, format="json")
    assert no_end.status_code == 400 and no_end.json()["error"] == MSG_DATE_INVALID
    assert Pass.objects.count() == 1


@pytest.mark.parametrize(
    ("payload", "message", "status"),
    [
        ({"kind": "carnet"}, MSG_KIND_INVALID, 400),
        ({"kind": "card", "credits": 0}, MSG_GRANT_CREDITS_MIN, 400),
        ({"kind": "card", "credits": "trois"}, MSG_CREDITS_INVALID, 400),
        ({"tariff_id": "abc"}, MSG_TARIFF_NOT_FOUND, 400),
        ({"tariff_id": 2**31 - 1}, MSG_TARIFF_NOT_FOUND, 404),
        ({"member_email": "personne@example.fr"}, MSG_MEMBER_NOT_FOUND, 404),
    ],
)
def test_grant_refusals(staff_client, member, payload, message, status):
    far = (timezone.localdate() + timedelta(days=30)).isoformat()
    body = {"member_email": member.email, "kind": "card", "credits": 2, "expires_on": far, "reason": "x", **payload}
    response = staff_client.post(PASSES, body, format="json")
    assert (response.status_code, response.json()["error"]) == (status, message)
    assert not Pass.objects.exists()


def test_list_refuses_a_page_size_out_of_range(staff_client):
    PassFactory()
    response = staff_client.get(PASSES, {"page_size": 0})
    assert response.status_code == 400 and response.json()["error"] == MSG_PAGE_SIZE_INVALID.format(max=100)
    assert staff_client.get(PASSES, {"page_size": 100}).json()["count"] == 1


def test_pass_admin_error_table():
    error = PassAdminError.of("credits_below_zero", credits=3)
    assert (error.status, error.message) == (409, MSG_CREDITS_BELOW_ZERO.format(credits=3))
    assert PassAdminError.of("member_not_found").status == 404

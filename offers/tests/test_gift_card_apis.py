"""The gift cards seen by their holder (their own, bought or received), by anyone with a code (the balance, rate
limited), and by staff (list, adjustment with a reason, CSV export without formulas); others are refused."""

import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone
from freezegun import freeze_time

from offers.apis.gift_cards import MSG_ADJUST_AMOUNT, MSG_CARD_NOT_FOUND
from offers.errors import MSG_GIFT_CARD_NOT_FOUND
from offers.models import GiftCard, GiftCardMovementKind, GiftCardStatus
from offers.services.gift_cards import MSG_ADJUST_REASON, MSG_NOT_ACTIVE
from studio import ratelimit
from studio.parsers import MSG_RATE_LIMITED

pytestmark = pytest.mark.django_db

MINE = "/api/gift-cards"
CHECK = "/api/gift-cards/check"
STAFF = "/api/gift-cards/staff"
CSV = "/api/gift-cards/export.csv"


def card(code="CADEAU-ABCD-EFGH", *, amount="50.00", status=GiftCardStatus.ACTIVE, expires_on=date(2027, 12, 1), **kw):
    return GiftCard.objects.create(
        code=code,
        initial_amount=Decimal(amount),
        balance=Decimal(amount) if status == GiftCardStatus.ACTIVE else Decimal(0),
        status=status,
        expires_on=expires_on,
        purchased_at=timezone.now(),
        **kw,
    )


def test_a_member_sees_the_cards_bought_and_the_cards_sent_to_their_address(api_client, member, other_member):
    bought = card("CADEAU-AAAA-AAAA", buyer=member, buyer_email=member.email, recipient_email="lea@example.fr")
    received = card("CADEAU-BBBB-BBBB", buyer=other_member, recipient_email=member.email.upper())
    card("CADEAU-CCCC-CCCC", buyer=other_member, recipient_email="someone@example.fr")
    card("CADEAU-DDDD-DDDD", buyer=member, status=GiftCardStatus.PENDING)  # not paid
    api_client.force_authenticate(member)
    answer = api_client.get(MINE)
    assert answer.status_code == 200
    rows = {row["code"]: row for row in answer.json()}
    assert set(rows) == {bought.code, received.code}
    assert rows[bought.code]["bought_by_me"] is True and rows[received.code]["bought_by_me"] is False
    assert rows[received.code]["balance"] == "50.00" and rows[received.code]["expires_on"] == "2027-12-01"


def test_the_balance_is_checked_by_code_in_any_form_and_an_unknown_code_is_refused_in_french(api_client):
    card()
    card("CADEAU-PPPP-PPPP", status=GiftCardStatus.PENDING)
    answer = api_client.post(CHECK, {"code": " cadeau abcd efgh "}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {
        "code": "CADEAU-ABCD-EFGH",
        "balance": "50.00",
        "status": "active",
        "expires_on": "2027-12-01",
        "expired": False,
    }
    for code in ("CADEAU-ZZZZ-ZZZZ", "CADEAU-PPPP-PPPP", ""):
        refused = api_client.post(CHECK, {"code": code}, format="json")
        assert refused.status_code in (400, 404) and refused.json()["error"] == MSG_GIFT_CARD_NOT_FOUND


def test_an_expired_card_says_so(api_client):
    card(expires_on=date(2026, 1, 1))
    with freeze_time("2026-01-02 12:00:00"):
        assert api_client.post(CHECK, {"code": "CADEAU-ABCD-EFGH"}, format="json").json()["expired"] is True


def test_checking_codes_is_rate_limited_per_address(api_client, settings):
    settings.RATELIMIT_ENABLE = True
    settings.PUBLIC_FORM_RATES = dict(ratelimit.DEFAULT_PUBLIC_FORM_RATES)
    limit = int(ratelimit.DEFAULT_PUBLIC_FORM_RATES["gift_card_check"].split("/")[0])
    statuses = [api_client.post(CHECK, {"code": f"CADEAU-AAAA-{n:04d}"}, format="json").status_code for n in range(15)]
    assert statuses == [404] * limit + [429] * (15 - limit)
    refused = api_client.post(CHECK, {"code": "CADEAU-ABCD-EFGH"}, format="json")
    assert refused.json()["error"] == MSG_RATE_LIMITED
    other = api_client.post(CHECK, {"code": "CADEAU-AAAA-AAAA"}, format="json", REMOTE_ADDR="203.0.113.9")
    assert other.status_code == 404


def test_staff_list_adjust_with_a_reason_and_the_movement_is_recorded(api_client, staff, django_assert_num_queries):
    target = card(buyer_name="Emma Petit")
    card("CADEAU-BBBB-BBBB")
    api_client.force_authenticate(staff)
    with django_assert_num_queries(2):  # the cards with their tariff, then every card's movements
        listed = api_client.get(STAFF)
    assert [row["code"] for row in listed.json()] == ["CADEAU-BBBB-BBBB", target.code]
    assert api_client.get(STAFF, {"q": "emma"}).json()[0]["code"] == target.code
    adjust = f"/api/gift-cards/{target.pk}/adjust"
    answer = api_client.post(adjust, {"amount": "-12.50", "reason": "Geste commercial corrigé"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["balance"] == "37.50"
    movement = target.movements.get()
    assert (movement.kind, movement.amount, movement.reason, movement.staff_id) == (
        GiftCardMovementKind.ADJUST,
        Decimal("-12.50"),
        "Geste commercial corrigé",
        staff.pk,
    )


def test_bad_adjustments_are_refused_in_french_and_change_nothing(api_client, staff):
    target = card()
    cancelled = card("CADEAU-FMRT-7K2P", status=GiftCardStatus.CANCELLED)
    api_client.force_authenticate(staff)
    adjust = f"/api/gift-cards/{target.pk}/adjust"
    cases = [
        (adjust, {"amount": "10.00", "reason": "  "}, 400, MSG_ADJUST_REASON),
        (adjust, {"amount": "0", "reason": "x"}, 400, MSG_ADJUST_AMOUNT),
        (adjust, {"amount": "abc", "reason": "x"}, 400, MSG_ADJUST_AMOUNT),
        (f"/api/gift-cards/{cancelled.pk}/adjust", {"amount": "5", "reason": "x"}, 409, MSG_NOT_ACTIVE),
        ("/api/gift-cards/999999/adjust", {"amount": "5", "reason": "x"}, 404, MSG_CARD_NOT_FOUND),
    ]
    for url, body, status, message in cases:
        answer = api_client.post(url, body, format="json")
        assert answer.status_code == status and answer.json()["error"] == message, (body, answer.json())
    too_much = api_client.post(adjust, {"amount": "-60.00", "reason": "x"}, format="json")
    assert too_much.status_code == 409
    target.refresh_from_db()
    assert target.balance == Decimal("50.00") and not target.movements.exists()


def test_the_csv_export_neutralises_formulas(api_client, staff):
    card(buyer_name='=HYPERLINK("http://evil")', recipient_name="Léa")
    api_client.force_authenticate(staff)
    answer = api_client.get(CSV)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:5] == ["Code", "Type", "Tarif", "Montant initial", "Solde"]
    assert rows[1][0] == "CADEAU-ABCD-EFGH" and rows[1][4] == "50,00"
    assert rows[1][8] == '\'=HYPERLINK("http://evil")'


@pytest.mark.parametrize("who", ["member", "anonymous"])
def test_members_and_visitors_cannot_use_the_staff_endpoints(api_client, member, who):
    target = card()
    if who == "member":
        api_client.force_authenticate(member)
    for answer in (
        api_client.get(STAFF),
        api_client.get(CSV),
        api_client.post(f"/api/gift-cards/{target.pk}/adjust", {"amount": "100", "reason": "x"}, format="json"),
    ):
        assert answer.status_code in (401, 403)
    assert api_client.get(MINE).status_code == (200 if who == "member" else 401)
    target.refresh_from_db()
    assert target.balance == Decimal("50.00")


def test_a_supervisor_is_staff_here(api_client, supervisor):
    card()
    api_client.force_authenticate(supervisor)
    assert api_client.get(STAFF).status_code == 200

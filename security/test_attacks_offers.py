"""The adversarial suite for promo codes and gift cards: guessing codes, a member on the staff routes, values out of
range, a code on a tariff it does not cover, a per-member limit worked around with a second tab, another member's
card, a member adjusting a balance. Each attack fails safely: refused in French, nothing changed, never a 500.

A gift card's code is a bearer code (docs/decisions.md 61): whoever holds it may check and spend its balance, as
with a paper voucher; what keeps a stranger out is that nobody can guess one (about 40 bits, and every way of
checking a code counts against the same per-address limit)."""

from decimal import Decimal

import pytest

from courses.tests.factories import TariffFactory
from offers.errors import MSG_GIFT_CARD_NOT_FOUND
from offers.models import GiftCard, GiftCardMovement, PromoCode
from offers.services.promo import MSG_PROMO_MEMBER_USED, MSG_PROMO_NOT_FOUND, MSG_PROMO_NOT_THIS
from payments.models import PaymentOrder
from payments.tests.conftest import tariff_payload
from payments.tests.test_order_offers import make_code, make_gift_card
from studio.parsers import MSG_RATE_LIMITED

pytestmark = [pytest.mark.django_db, pytest.mark.database]

CHECK = "/api/promo-codes/check"
GIFT_CHECK = "/api/gift-cards/check"
CREATE = "/api/paypal/create-order"


@pytest.fixture
def card_tariff(db):
    return TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")


def _preview(api_client, tariff, code="", gift_card_code=""):
    return api_client.post(
        CHECK, {"code": code, "gift_card_code": gift_card_code, "tariff_id": tariff.pk}, format="json"
    )


# --- Guessing codes -------------------------------------------------------------------------------------------


def test_guessing_promo_codes_in_the_preview_is_rate_limited(api_client, member, card_tariff, rate_limits):
    make_code("BIENVENUE15")
    api_client.force_authenticate(member)
    answers = [_preview(api_client, card_tariff, f"ESSAI{n}").status_code for n in range(40)]
    assert answers[0] == 404 and 429 in answers
    refused = _preview(api_client, card_tariff, "BIENVENUE15")  # even the right one, once over the limit
    assert refused.status_code == 429 and refused.json()["error"] == MSG_RATE_LIMITED


def test_the_preview_is_no_way_around_the_gift_card_checks_limit(api_client, member, card_tariff, rate_limits):
    """Checking a card's code through the order's preview counts against the balance check's limit: one quota of
    guesses per address, whichever route guesses."""
    make_gift_card("80.00", code="CADEAU-ABCD-EFGH")
    api_client.force_authenticate(member)
    for n in range(10):
        assert api_client.post(GIFT_CHECK, {"code": f"CADEAU-AAAA-AA{n:02d}"}, format="json").status_code == 404
    through_preview = _preview(api_client, card_tariff, gift_card_code="CADEAU-ABCD-EFGH")
    assert through_preview.status_code == 429
    assert through_preview.json()["error"] == MSG_RATE_LIMITED
    assert "80.00" not in through_preview.text


def test_an_unknown_and_a_wrong_code_answer_alike(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    assert _preview(api_client, card_tariff, "NEXISTEPAS").json()["error"] == MSG_PROMO_NOT_FOUND
    gift = _preview(api_client, card_tariff, gift_card_code="CADEAU-ZZZZ-ZZZZ")
    assert (gift.status_code, gift.json()["error"]) == (404, MSG_GIFT_CARD_NOT_FOUND)


# --- A member on the staff routes -----------------------------------------------------------------------------


def test_a_member_reaches_none_of_the_staff_routes(api_client, member, other_member):
    promo = make_code("BIENVENUE15")
    card = make_gift_card("50.00", code="CADEAU-ABCD-EFGH", buyer=other_member)
    api_client.force_authenticate(member)
    body = {"code": "PIRATE", "kind": "percent", "value": "100"}
    answers = [
        api_client.get("/api/promo-codes"),
        api_client.post("/api/promo-codes", body, format="json"),
        api_client.put(f"/api/promo-codes/{promo.pk}", {**body, "code": "BIENVENUE15"}, format="json"),
        api_client.delete(f"/api/promo-codes/{promo.pk}"),
        api_client.get("/api/gift-cards/staff"),
        api_client.get("/api/gift-cards/export.csv"),
        api_client.post(f"/api/gift-cards/{card.pk}/adjust", {"amount": "400.00", "reason": "cadeau"}, format="json"),
    ]
    assert [answer.status_code for answer in answers] == [403] * len(answers)
    promo.refresh_from_db()
    card.refresh_from_db()
    assert (promo.value, promo.code, PromoCode.objects.count()) == (Decimal("15"), "BIENVENUE15", 1)
    assert card.balance == Decimal("50.00") and card.movements.count() == 1


def test_another_members_card_is_not_listed_as_ones_own(api_client, member, other_member):
    make_gift_card("50.00", code="CADEAU-ABCD-EFGH", buyer=other_member, recipient_email="amie@example.fr")
    api_client.force_authenticate(member)
    assert api_client.get("/api/gift-cards").json() == []


# --- Values out of range --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, kind",
    [
        ("-10", "amount"),
        ("0", "percent"),
        ("150", "percent"),
        ("1e9", "amount"),
        ("99999999", "amount"),
        ("NaN", "amount"),
    ],
)
def test_staff_cannot_make_a_negative_or_huge_code(api_client, staff, value, kind):
    api_client.force_authenticate(staff)
    answer = api_client.post("/api/promo-codes", {"code": "BIZARRE", "kind": kind, "value": value}, format="json")
    assert answer.status_code == 400 and answer.json()["error"]
    assert not PromoCode.objects.exists()


@pytest.mark.parametrize("quantity", [0, -1, 51, 10**12, "1e3", None])
def test_the_preview_takes_no_negative_or_huge_quantity(api_client, member, card_tariff, quantity):
    make_code("BIENVENUE15")
    api_client.force_authenticate(member)
    body = {"code": "BIENVENUE15", "tariff_id": card_tariff.pk, "quantity": quantity}
    answer = api_client.post(CHECK, body, format="json")
    assert answer.status_code == 400 and answer.json()["error"]


def test_a_huge_amount_code_costs_nothing_below_zero_in_the_preview(api_client, member, card_tariff):
    make_code("GROS", kind="amount", value="99999.99")
    api_client.force_authenticate(member)
    body = _preview(api_client, card_tariff, "GROS").json()
    assert (body["price"], body["discount"], body["total"], body["to_pay"]) == ("190.00", "190.00", "0.00", "0.00")


# --- A code on a tariff it does not cover ---------------------------------------------------------------------


def test_a_code_for_one_tariff_buys_nothing_else(api_client, member, card_tariff):
    make_code("UNCOURS", tariffs=[TariffFactory(title="Cours d'essai", price=Decimal("15.00"))])
    api_client.force_authenticate(member)
    preview = _preview(api_client, card_tariff, "UNCOURS")
    assert (preview.status_code, preview.json()["error"]) == (400, MSG_PROMO_NOT_THIS)
    order = api_client.post(CREATE, tariff_payload(card_tariff, member, promo_code="UNCOURS"), format="json")
    assert (order.status_code, order.json()["error"]) == (400, MSG_PROMO_NOT_THIS)
    assert not PaymentOrder.objects.exists()


# --- The per-member limit and a second tab --------------------------------------------------------------------


def test_a_second_tab_cannot_use_a_once_per_member_code_while_the_first_order_is_open(api_client, member, card_tariff):
    """The first tab's order holds the member's use (docs/decisions.md 60): the second tab is refused before any
    payment, not after."""
    make_code("UNEFOIS", max_uses_per_member=1)
    api_client.force_authenticate(member)
    first = api_client.post(CREATE, tariff_payload(card_tariff, member, promo_code="UNEFOIS"), format="json")
    assert first.status_code == 201, first.json()
    second = api_client.post(CREATE, tariff_payload(card_tariff, member, promo_code="UNEFOIS"), format="json")
    assert (second.status_code, second.json()["error"]) == (409, MSG_PROMO_MEMBER_USED)
    assert PaymentOrder.objects.filter(promo_code__code="UNEFOIS").count() == 1


# --- Someone else's gift card ---------------------------------------------------------------------------------


def test_spending_someone_elses_card_by_its_code_is_allowed_as_a_bearer_code(
    api_client, member, other_member, card_tariff
):
    card = make_gift_card("50.00", code="CADEAU-ABCD-EFGH", buyer=other_member)
    api_client.force_authenticate(member)
    payload = tariff_payload(card_tariff, member, gift_card_code="cadeau-abcd-efgh")
    order = api_client.post(CREATE, payload, format="json")
    assert order.status_code == 201, order.json()
    card.refresh_from_db()
    assert card.balance == Decimal("0.00")
    assert PaymentOrder.objects.get(order_id=order.json()["id"]).gift_card_amount == Decimal("50.00")


def test_a_member_cannot_name_a_card_by_its_id_instead_of_its_code(api_client, member, other_member, card_tariff):
    card = make_gift_card("50.00", code="CADEAU-ABCD-EFGH", buyer=other_member)
    api_client.force_authenticate(member)
    for guess in (str(card.pk), "%", "CADEAU-%", "*"):
        answer = api_client.post(CREATE, tariff_payload(card_tariff, member, gift_card_code=guess), format="json")
        assert answer.status_code in (400, 404), (guess, answer.content)
    card.refresh_from_db()
    assert card.balance == Decimal("50.00")
    assert GiftCardMovement.objects.filter(card=card).count() == 1
    assert GiftCard.objects.count() == 1


def test_guessing_gift_card_codes_through_orders_counts_against_the_same_limit(
    api_client, member, card_tariff, rate_limits
):
    """An order naming a card spends it at once: guessing codes there would be the real attack, so orders that name
    a card count against the balance check's limit as well."""
    card = make_gift_card("80.00", code="CADEAU-ABCD-EFGH")
    api_client.force_authenticate(member)
    for n in range(10):
        payload = tariff_payload(card_tariff, member, gift_card_code=f"CADEAU-AAAA-AA{n:02d}")
        assert api_client.post(CREATE, payload, format="json").status_code == 404
    payload = tariff_payload(card_tariff, member, gift_card_code="CADEAU-ABCD-EFGH")
    refused = api_client.post(CREATE, payload, format="json")
    assert (refused.status_code, refused.json()["error"]) == (429, MSG_RATE_LIMITED)
    card.refresh_from_db()
    assert card.balance == Decimal("80.00") and not PaymentOrder.objects.exists()
    assert api_client.post(CREATE, tariff_payload(card_tariff, member), format="json").status_code == 201

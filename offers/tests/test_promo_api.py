"""The staff's promo codes (`/api/promo-codes`) and the member's preview (`/api/promo-codes/check`),
docs/decisions.md 49, 56: staff only for the list and edits, French refusals, nothing changed by a refusal."""

from decimal import Decimal

import pytest

from courses.tests.factories import TariffFactory
from offers.apis.promo import MSG_ACTIVE, MSG_CODE, MSG_PURCHASE_NOT_FOUND, MSG_VALUE, MSG_WHAT
from offers.models import PromoCode
from offers.services.promo import MSG_PROMO_CODE_TAKEN, MSG_PROMO_DATES, MSG_PROMO_IN_USE, MSG_PROMO_PERCENT
from payments.tests.test_order_offers import make_code, make_gift_card

pytestmark = pytest.mark.django_db

LIST = "/api/promo-codes"
CHECK = "/api/promo-codes/check"


def _code(**overrides):
    return {"code": "ete25", "kind": "percent", "value": "25", "max_uses": 10, **overrides}


def test_staff_create_list_change_and_delete_a_code(api_client, staff):
    tariff = TariffFactory()
    api_client.force_authenticate(staff)
    created = api_client.post(LIST, _code(tariffs=[tariff.pk]), format="json")
    assert created.status_code == 201
    assert created.json()["code"] == "ETE25" and created.json()["tariffs"] == [tariff.pk]
    promo_id = created.json()["id"]
    assert [c["code"] for c in api_client.get(LIST).json()] == ["ETE25"]
    changed = api_client.put(f"{LIST}/{promo_id}", _code(value="30", active=False), format="json")
    assert changed.status_code == 200
    assert (changed.json()["value"], changed.json()["active"], changed.json()["tariffs"]) == ("30.00", False, [])
    assert api_client.delete(f"{LIST}/{promo_id}").status_code == 204
    assert not PromoCode.objects.exists()


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (_code(code="é"), MSG_CODE),
        (_code(active=0), MSG_ACTIVE),
        (_code(value="0"), MSG_VALUE),
        (_code(value="120"), MSG_PROMO_PERCENT),
        (_code(starts_on="2026-06-10", ends_on="2026-06-01"), MSG_PROMO_DATES),
    ],
)
def test_a_bad_code_is_refused_in_french(api_client, staff, payload, message):
    api_client.force_authenticate(staff)
    answer = api_client.post(LIST, payload, format="json")
    assert answer.status_code == 400 and message in str(answer.json())
    assert not PromoCode.objects.exists()


def test_a_code_name_is_unique(api_client, staff):
    make_code("ETE25")
    api_client.force_authenticate(staff)
    answer = api_client.post(LIST, _code(), format="json")
    assert (answer.status_code, answer.json()["error"]) == (409, MSG_PROMO_CODE_TAKEN)


def test_a_code_that_served_is_kept(api_client, staff, member):
    from payments.models import PaymentOrder

    promo = make_code("ETE25")
    PaymentOrder.objects.create(order_id="X1", email="a@example.fr", title="t", amount=1, date="d", promo_code=promo)
    api_client.force_authenticate(staff)
    answer = api_client.delete(f"{LIST}/{promo.pk}")
    assert (answer.status_code, answer.json()["error"]) == (409, MSG_PROMO_IN_USE)


def test_members_neither_see_nor_edit_codes(api_client, member):
    promo = make_code("ETE25")
    api_client.force_authenticate(member)
    assert api_client.get(LIST).status_code == 403
    assert api_client.post(LIST, _code(code="AUTRE"), format="json").status_code == 403
    assert api_client.put(f"{LIST}/{promo.pk}", _code(), format="json").status_code == 403
    assert api_client.delete(f"{LIST}/{promo.pk}").status_code == 403
    assert PromoCode.objects.count() == 1


def test_the_member_previews_a_code_and_a_gift_card(api_client, member):
    tariff = TariffFactory(price=Decimal("190.00"))
    make_code(tariffs=[tariff])
    make_gift_card("100.00")
    api_client.force_authenticate(member)
    answer = api_client.post(
        CHECK, {"code": "printemps15", "gift_card_code": "CADEAU-2026", "tariff_id": tariff.pk}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json() == {
        "price": "190.00",
        "discount": "28.50",
        "discount_label": "Code promo PRINTEMPS15",
        "total": "161.50",
        "gift_card_amount": "100.00",
        "gift_card_balance": "100.00",
        "to_pay": "61.50",
    }


def test_the_preview_needs_a_purchase_of_ones_own(api_client, member):
    api_client.force_authenticate(member)
    assert api_client.post(CHECK, {"code": "X"}, format="json").json()["error"] == MSG_WHAT
    assert (
        api_client.post(CHECK, {"code": "", "tariff_id": 1, "reservation_id": 2}, format="json").json()["error"]
        == MSG_WHAT
    )
    answer = api_client.post(CHECK, {"code": "X", "reservation_id": 999}, format="json")
    assert (answer.status_code, answer.json()["error"]) == (404, MSG_PURCHASE_NOT_FOUND)
    api_client.logout()
    assert api_client.post(CHECK, {"code": "X", "tariff_id": 1}, format="json").status_code in (401, 403)


def test_the_dashboard_has_a_promo_codes_section(client, staff):
    client.force_login(staff)
    assert client.get("/admin/promo-codes").status_code == 200

"""The "offre découverte" is sold once per person: account, e-mail and phone (docs/decisions.md 49, 56)."""

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from courses.tests.factories import TariffFactory
from payments.models import PaymentOrder, PaymentStatus
from payments.services.discovery import MSG_DISCOVERY_PHONE, MSG_DISCOVERY_TAKEN

from .conftest import tariff_payload

pytestmark = pytest.mark.django_db

CREATE = "/api/paypal/create-order"
APPROVE = "/api/paypal/simulator/approve"
CAPTURE = "/api/paypal/capture-payment"
CANCEL = "/api/paypal/cancel-order"


@pytest.fixture
def discovery(db):
    return TariffFactory(title="Offre découverte", price=Decimal("15.00"), discovery_offer=True)


def _buy(api_client, user, tariff, pay=True):
    api_client.force_authenticate(user)
    answer = api_client.post(CREATE, tariff_payload(tariff, user), format="json")
    if pay and answer.status_code == 201:
        api_client.post(APPROVE, {"orderId": answer.json()["id"]}, format="json")
        assert api_client.post(CAPTURE, {"orderId": answer.json()["id"]}, format="json").status_code == 200
    return answer


def test_the_same_account_buys_it_once(api_client, member, discovery):
    assert _buy(api_client, member, discovery).status_code == 201
    again = _buy(api_client, member, discovery)
    assert (again.status_code, again.json()["error"]) == (409, MSG_DISCOVERY_TAKEN)
    assert PaymentOrder.objects.count() == 1


def test_another_account_with_the_same_email_on_the_order_is_refused(api_client, member, discovery):
    _buy(api_client, member, discovery)
    other = UserFactory()
    api_client.force_authenticate(other)
    answer = api_client.post(CREATE, tariff_payload(discovery, member), format="json")  # the first one's e-mail
    assert (answer.status_code, answer.json()["error"]) == (409, MSG_DISCOVERY_TAKEN)


def test_a_second_account_with_the_same_phone_is_refused_in_french(api_client, discovery):
    first = UserFactory(phone="0612345678")
    second = UserFactory(phone="0612345678")
    _buy(api_client, first, discovery)
    answer = _buy(api_client, second, discovery)
    assert (answer.status_code, answer.json()["error"]) == (409, MSG_DISCOVERY_PHONE)


def test_an_order_given_up_frees_the_offer_and_one_open_holds_it(api_client, member, discovery):
    open_order = _buy(api_client, member, discovery, pay=False)
    held = _buy(api_client, member, discovery, pay=False)
    assert (held.status_code, held.json()["error"]) == (409, MSG_DISCOVERY_TAKEN)
    api_client.post(CANCEL, {"orderId": open_order.json()["id"]}, format="json")
    assert _buy(api_client, member, discovery).status_code == 201
    assert PaymentOrder.objects.filter(status=PaymentStatus.COMPLETED).count() == 1


def test_other_tariffs_are_not_limited(api_client, member):
    card = TariffFactory(price=Decimal("25.00"))
    assert _buy(api_client, member, card).status_code == 201
    assert _buy(api_client, member, card).status_code == 201

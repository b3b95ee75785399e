"""Buying a class card, a subscription or a deposit accepts the terms of sale (docs/decisions.md 47): the order
records their version, when, and whether the buyer asked the service to start within the withdrawal period."""

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payments.apis.purchase_fields import MSG_TERMS_REQUIRED
from payments.models import PaymentOrder
from payments.tests.conftest import reservation_payload, tariff_payload
from quotes.models import PartyReservation
from quotes.services import parties

pytestmark = pytest.mark.django_db

CREATE = "/api/paypal/create-order"
DEPOSIT = "/api/paypal/deposit-order"


def test_the_message_is_french():
    assert MSG_TERMS_REQUIRED == "Veuillez accepter les conditions générales de vente."


@pytest.mark.parametrize("accept", [None, False])
def test_a_card_without_the_terms_accepted_is_refused_and_nothing_is_opened(api_client, member, card_tariff, accept):
    api_client.force_authenticate(member)
    payload = tariff_payload(card_tariff, member)
    payload.pop("accept_terms")
    if accept is not None:
        payload["accept_terms"] = accept
    response = api_client.post(CREATE, payload, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_TERMS_REQUIRED
    assert not PaymentOrder.objects.exists()


def test_a_card_records_the_terms_version_and_the_immediate_start(api_client, member, card_tariff, settings):
    settings.TERMS_OF_SALE = {**settings.TERMS_OF_SALE, "version": "2027-03"}
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, tariff_payload(card_tariff, member, immediate_start=True), format="json")
    assert response.status_code == 201, response.json()
    order = PaymentOrder.objects.get()
    assert order.terms_version == "2027-03"
    assert order.terms_accepted_at is not None
    assert order.immediate_start is True


def test_without_immediate_start_the_order_says_so(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    assert api_client.post(CREATE, tariff_payload(card_tariff, member), format="json").status_code == 201
    assert PaymentOrder.objects.get().immediate_start is False


def test_a_dated_class_needs_no_acceptance(api_client, member, make_reservation):
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, reservation_payload(make_reservation(member)), format="json")
    assert response.status_code == 201, response.json()
    order = PaymentOrder.objects.get()
    assert (order.terms_version, order.immediate_start) == ("", False)


@pytest.fixture
def quoted_party(member, staff):
    party = PartyReservation.objects.create(
        user=member,
        date=timezone.localdate() + timedelta(days=20),
        time=time(16, 0),
        participants=8,
        email=member.email,
    )
    return parties.party_quote(party_id=party.pk, staff=staff, participants=8, spectators=2, deposit=Decimal("50.00"))


def test_a_deposit_requires_the_terms(api_client, member, quoted_party):
    api_client.force_authenticate(member)
    body = {"kind": "party", "request_id": quoted_party.pk, "amount": "50.00"}
    refused = api_client.post(DEPOSIT, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"] == MSG_TERMS_REQUIRED
    assert not PaymentOrder.objects.exists()
    accepted = api_client.post(DEPOSIT, {**body, "accept_terms": True}, format="json")
    assert accepted.status_code == 201, accepted.json()
    order = PaymentOrder.objects.get()
    assert order.terms_version and order.terms_accepted_at is not None and order.immediate_start is False

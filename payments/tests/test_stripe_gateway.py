"""The Stripe gateway against the fake Stripe: one-off payments, 3-D Secure, declines in French, saved cards and
SEPA mandates charged off-session, refunds, and amounts sent in exact cents."""

from datetime import datetime
from decimal import Decimal

import pytest

from payments.provider_types import (
    CAPTURE_ACTION_REQUIRED,
    CAPTURE_CANCELLED,
    CAPTURE_COMPLETED,
    CAPTURE_DECLINED,
    CAPTURE_PENDING,
    ProviderError,
)
from payments.stripe_answers import to_cents
from payments.stripe_gateway import StripeGateway, get_stripe_gateway
from payments.stripe_messages import AUTHENTICATION_FAILED, AUTHENTICATION_REQUIRED, UNAVAILABLE

from . import fake_stripe as fs

SEPA_OK = "FR1420041010050500013M02606"
SEPA_FAILS = "FR8420041010050500013M02607"


@pytest.fixture
def fake():
    server = fs.FakeStripe().start()
    yield server
    server.stop()


@pytest.fixture
def gateway(fake):
    # No retries: a test that fails must fail at once, not after the library's back-off.
    return StripeGateway(
        secret_key=fs.SECRET_KEY, api_base=fake.url, webhook_secret=fs.WEBHOOK_SECRET, max_network_retries=0
    )


def paid(gateway, fake, *, amount=Decimal("55.00"), order_ref="order-1", payment_method="pm_card_visa"):
    start = gateway.start_payment(amount=amount, order_ref=order_ref, description="Cours de pole")
    fake.pay(start.id, payment_method=payment_method)
    return start


def saved(gateway, fake, *, kind="card", payment_method="pm_card_visa", iban=""):
    customer = gateway.create_customer(member_ref="7", email="lea@example.fr", name="Léa Martin")
    start = gateway.start_saving(customer_id=customer.id, kind=kind, setup_ref=f"{kind}-{payment_method or iban}")
    fake.save(start.id, payment_method=payment_method, iban=iban)
    return customer, gateway.get_saving(setup_intent_id=start.id)


# --- amounts ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("amount", "cents"), [("55.00", 5500), ("0.50", 50), ("19.99", 1999), ("190", 19000)])
def test_amounts_are_sent_in_exact_cents(amount, cents):
    assert to_cents(Decimal(amount)) == cents


@pytest.mark.parametrize("amount", [Decimal("0.005"), Decimal("55.001"), 55.0, Decimal("0"), Decimal("-5.00")])
def test_an_amount_that_is_not_a_positive_number_of_cents_is_refused_before_any_call(gateway, fake, amount):
    with pytest.raises(ValueError):
        gateway.start_payment(amount=amount, order_ref="order-1")
    assert fake.requests == []


def test_a_payment_is_opened_for_the_amount_in_cents_with_its_order(gateway, fake):
    start = gateway.start_payment(amount=Decimal("55.00"), order_ref="order-42", metadata={"member": "7"})

    intent = fake.objects.intents[start.id]
    assert (intent["amount"], intent["currency"], intent["payment_method_types"]) == (5500, "eur", ["card"])
    assert intent["metadata"] == {"member": "7", "order": "order-42"}
    assert start.status == "requires_payment_method" and start.client_secret.startswith(f"{start.id}_secret_")
    request = fake.calls("POST", "/v1/payment_intents")[0]
    assert request["headers"]["authorization"] == f"Bearer {fs.SECRET_KEY}"
    assert request["headers"]["idempotency-key"] == "payment-order-42"


def test_starting_the_same_order_twice_opens_one_intent(gateway, fake):
    first = gateway.start_payment(amount=Decimal("55.00"), order_ref="order-42")
    again = gateway.start_payment(amount=Decimal("55.00"), order_ref="order-42")

    assert again == first
    assert len(fake.objects.intents) == 1
    assert len(fake.calls("POST", "/v1/payment_intents")) == 2


def test_the_same_order_with_another_amount_is_refused_not_opened_twice(gateway, fake):
    gateway.start_payment(amount=Decimal("55.00"), order_ref="order-42")
    with pytest.raises(ProviderError) as refused:
        gateway.start_payment(amount=Decimal("60.00"), order_ref="order-42")

    assert refused.value.issue == "idempotency_error"
    assert len(fake.objects.intents) == 1


# --- one-off payments ------------------------------------------------------------------------------------------------


def test_a_card_payment_is_completed(gateway, fake):
    start = paid(gateway, fake)

    state = gateway.get_payment(intent_id=start.id)
    assert (state.status, state.provider_status, state.amount, state.currency) == (
        CAPTURE_COMPLETED,
        "succeeded",
        Decimal("55.00"),
        "EUR",
    )
    assert state.charge_id.startswith("ch_") and state.metadata == {"order": "order-1"}
    assert (state.decline_code, state.message) == ("", "")


def test_3d_secure_asks_for_action_then_completes(gateway, fake):
    start = paid(gateway, fake, payment_method="pm_card_authenticationRequired")

    waiting = gateway.get_payment(intent_id=start.id)
    assert (waiting.status, waiting.next_action) == (CAPTURE_ACTION_REQUIRED, "use_stripe_sdk")

    fake.complete_3ds(start.id)
    assert gateway.get_payment(intent_id=start.id).status == CAPTURE_COMPLETED


def test_a_failed_3d_secure_is_a_decline_said_in_french(gateway, fake):
    start = paid(gateway, fake, payment_method="pm_card_authenticationRequired")
    fake.complete_3ds(start.id, succeed=False)

    state = gateway.get_payment(intent_id=start.id)
    assert (state.status, state.decline_code, state.message) == (
        CAPTURE_DECLINED,
        "payment_intent_authentication_failure",
        AUTHENTICATION_FAILED,
    )


def test_a_server_side_confirmation_with_a_return_url_redirects_to_the_bank(gateway, fake):
    start = gateway.start_payment(amount=Decimal("55.00"), order_ref="order-1")
    state = gateway.confirm_payment(
        intent_id=start.id, payment_method_id="pm_card_threeDSecure2Required", return_url="https://studio.fr/retour"
    )
    assert (state.status, state.next_action) == (CAPTURE_ACTION_REQUIRED, "redirect_to_url")


@pytest.mark.parametrize(
    ("payment_method", "decline_code", "message"),
    [
        ("pm_card_chargeDeclined", "generic_decline", "Votre banque a refusé le paiement."),
        ("pm_card_visa_chargeDeclinedInsufficientFunds", "insufficient_funds", "Fonds insuffisants."),
        ("pm_card_chargeDeclinedExpiredCard", "expired_card", "Cette carte a expiré."),
        ("pm_card_chargeDeclinedIncorrectCvc", "incorrect_cvc", "Le cryptogramme visuel (CVC) est incorrect."),
        # a lost card is not told apart from any refusal: the person paying may not be its holder
        ("pm_card_visa_chargeDeclinedLostCard", "lost_card", "Votre banque a refusé le paiement."),
    ],
)
def test_a_declined_card_is_an_outcome_with_the_bank_code_and_a_french_message(
    gateway, fake, payment_method, decline_code, message
):
    start = gateway.start_payment(amount=Decimal("55.00"), order_ref="order-1")

    state = gateway.confirm_payment(intent_id=start.id, payment_method_id=payment_method)

    assert (state.status, state.provider_status) == (CAPTURE_DECLINED, "requires_payment_method")
    assert (state.decline_code, state.message) == (decline_code, message)
    assert gateway.get_payment(intent_id=start.id).message == message


def test_an_abandoned_payment_is_cancelled(gateway, fake):
    start = gateway.start_payment(amount=Decimal("55.00"), order_ref="order-1")
    assert gateway.cancel_payment(intent_id=start.id).status == CAPTURE_CANCELLED


def test_an_unknown_payment_is_a_provider_error_in_french(gateway):
    with pytest.raises(ProviderError) as missing:
        gateway.get_payment(intent_id="pi_unknown")
    assert (missing.value.issue, missing.value.status_code) == ("resource_missing", 404)
    assert "No such" not in missing.value.message and missing.value.message.startswith("Le paiement")


def test_a_wrong_secret_key_says_payments_are_unavailable(fake):
    gateway = StripeGateway(secret_key="sk_test_wrong", api_base=fake.url, max_network_retries=0)
    with pytest.raises(ProviderError) as refused:
        gateway.start_payment(amount=Decimal("55.00"), order_ref="order-1")
    assert (refused.value.status_code, refused.value.message) == (401, UNAVAILABLE)


def test_stripe_out_of_reach_says_payments_are_unavailable():
    gateway = StripeGateway(secret_key=fs.SECRET_KEY, api_base="http://127.0.0.1:9", max_network_retries=0)
    with pytest.raises(ProviderError) as unreachable:
        gateway.get_payment(intent_id="pi_1")
    assert unreachable.value.message == UNAVAILABLE


def test_the_gateway_is_built_from_the_settings(settings, fake):
    settings.STRIPE_SECRET_KEY = fs.SECRET_KEY
    settings.STRIPE_API_BASE = fake.url
    settings.STRIPE_WEBHOOK_SECRET = fs.WEBHOOK_SECRET

    start = get_stripe_gateway().start_payment(amount=Decimal("55.00"), order_ref="order-1")

    assert start.id in fake.objects.intents


# --- customers, saved cards and SEPA mandates ------------------------------------------------------------------------


def test_a_member_is_one_customer_however_often_created(gateway, fake):
    first = gateway.create_customer(member_ref="7", email="lea@example.fr", name="Léa Martin")
    again = gateway.create_customer(member_ref="7", email="lea@example.fr", name="Léa Martin")

    assert again == first and len(fake.objects.customers) == 1
    assert gateway.get_customer(customer_id=first.id) == first


def test_a_saved_co_badged_card_is_described_with_cb_preferred(gateway, fake):
    customer, setup = saved(gateway, fake, payment_method="pm_card_visa_cartesBancaires")
    assert (setup.status, setup.customer_id) == (CAPTURE_COMPLETED, customer.id)
    assert fake.objects.setups[setup.id]["usage"] == "off_session"

    method = gateway.describe_method(payment_method_id=setup.payment_method_id)

    assert (method.kind, method.brand, method.last4, method.exp_month) == ("card", "visa", "1001", 12)
    assert method.cb_preferred
    assert method.label == f"Carte CB •••• 1001 (exp. 12/{method.exp_year})"
    plain = gateway.describe_method(payment_method_id=saved(gateway, fake)[1].payment_method_id)
    assert not plain.cb_preferred and plain.label.startswith("Carte Visa •••• 4242")


def test_a_card_needing_authentication_on_setup_is_saved_after_3d_secure(gateway, fake):
    _customer, setup = saved(gateway, fake, payment_method="pm_card_authenticationRequiredOnSetup")
    assert setup.status == CAPTURE_ACTION_REQUIRED

    fake.complete_3ds(setup.id)
    assert gateway.get_saving(setup_intent_id=setup.id).status == CAPTURE_COMPLETED


def test_a_saved_sepa_account_is_described_with_its_mandate(gateway, fake):
    _customer, setup = saved(gateway, fake, kind="sepa_debit", payment_method="", iban=SEPA_OK)
    mandate = fake.objects.mandates[setup.mandate_id]

    method = gateway.describe_method(payment_method_id=setup.payment_method_id, mandate_id=setup.mandate_id)

    assert (method.kind, method.last4, method.country, method.bank_code) == ("sepa_debit", "2606", "FR", "20041")
    assert method.mandate_reference == mandate["payment_method_details"]["sepa_debit"]["reference"]
    assert (method.mandate_id, method.mandate_status) == (setup.mandate_id, "active")
    assert isinstance(method.mandate_accepted_at, datetime) and method.mandate_accepted_at.tzinfo is not None
    assert method.label == "Prélèvement SEPA •••• 2606"


def test_a_saved_card_is_charged_off_session_once_per_charge(gateway, fake):
    customer, setup = saved(gateway, fake)
    charge = {"customer_id": customer.id, "payment_method_id": setup.payment_method_id, "charge_ref": "sub-3-2030-01"}

    state = gateway.charge_saved_method(amount=Decimal("49.00"), **charge)
    again = gateway.charge_saved_method(amount=Decimal("49.00"), **charge)

    assert (state.status, state.amount) == (CAPTURE_COMPLETED, Decimal("49.00"))
    assert again.id == state.id and len(fake.objects.intents) == 1
    request = fake.calls("POST", "/v1/payment_intents")[0]
    assert "off_session=true" in request["body"] and "confirm=true" in request["body"]
    assert request["headers"]["idempotency-key"] == "charge-sub-3-2030-01"


def test_an_off_session_charge_the_bank_wants_authenticated_is_an_outcome_not_an_exception(gateway, fake):
    customer, setup = saved(gateway, fake, payment_method="pm_card_authenticationRequired")
    fake.complete_3ds(setup.id)

    state = gateway.charge_saved_method(
        amount=Decimal("49.00"), charge_ref="c1", customer_id=customer.id, payment_method_id=setup.payment_method_id
    )

    assert (state.status, state.decline_code, state.message) == (
        CAPTURE_ACTION_REQUIRED,
        "authentication_required",
        AUTHENTICATION_REQUIRED,
    )
    assert state.client_secret.startswith(state.id)  # the member finishes it on the site


def test_an_off_session_decline_of_a_saved_card_keeps_the_bank_code(gateway, fake):
    customer, setup = saved(gateway, fake, payment_method="pm_card_chargeCustomerFail")
    assert setup.status == CAPTURE_COMPLETED  # this test card is saved without trouble, then refused

    state = gateway.charge_saved_method(
        amount=Decimal("49.00"), charge_ref="c1", customer_id=customer.id, payment_method_id=setup.payment_method_id
    )

    assert (state.status, state.decline_code, state.message) == (
        CAPTURE_DECLINED,
        "generic_decline",
        "Votre banque a refusé le paiement.",
    )


@pytest.mark.parametrize(
    ("iban", "status", "message"),
    [
        (SEPA_OK, CAPTURE_COMPLETED, ""),
        (SEPA_FAILS, CAPTURE_DECLINED, "Le prélèvement a été refusé par votre banque."),
        ("FR9720041010050000002222227", CAPTURE_DECLINED, "Fonds insuffisants."),
    ],
)
def test_a_sepa_debit_is_pending_until_the_bank_answers(gateway, fake, iban, status, message):
    customer, setup = saved(gateway, fake, kind="sepa_debit", payment_method="", iban=iban)

    state = gateway.charge_saved_method(
        amount=Decimal("49.00"),
        charge_ref="c1",
        customer_id=customer.id,
        payment_method_id=setup.payment_method_id,
        kind="sepa_debit",
        mandate_id=setup.mandate_id,
    )
    assert (state.status, state.provider_status) == (CAPTURE_PENDING, "processing")

    fake.settle_sepa(state.id)
    settled = gateway.get_payment(intent_id=state.id)
    assert (settled.status, settled.message) == (status, message)


# --- refunds ---------------------------------------------------------------------------------------------------------


def test_a_whole_refund_is_made_once_however_often_asked(gateway, fake):
    start = paid(gateway, fake)

    refund = gateway.refund(intent_id=start.id, refund_ref="9")
    again = gateway.refund(intent_id=start.id, refund_ref="9")

    assert (refund.status, refund.id) == ("COMPLETED", again.id)
    assert [r["amount"] for r in fake.objects.refunds.values()] == [5500]
    assert fake.calls("POST", "/v1/refunds")[0]["headers"]["idempotency-key"] == "refund-9"


def test_partial_refunds_add_up_to_the_payment_and_no_further(gateway, fake):
    start = paid(gateway, fake)

    assert gateway.refund(intent_id=start.id, refund_ref="1", amount=Decimal("20.00")).status == "COMPLETED"
    assert gateway.refund(intent_id=start.id, refund_ref="2", amount=Decimal("35.00")).status == "COMPLETED"
    with pytest.raises(ProviderError) as refused:
        gateway.refund(intent_id=start.id, refund_ref="3")

    assert [r["amount"] for r in fake.objects.refunds.values()] == [2000, 3500]
    assert (refused.value.issue, refused.value.message) == (
        "charge_already_refunded",
        "Ce paiement a déjà été remboursé.",
    )


@pytest.mark.parametrize(("succeed", "status"), [(True, "COMPLETED"), (False, "FAILED")])
def test_a_sepa_refund_is_pending_until_the_bank_answers(gateway, fake, succeed, status):
    customer, setup = saved(gateway, fake, kind="sepa_debit", payment_method="", iban=SEPA_OK)
    state = gateway.charge_saved_method(
        amount=Decimal("49.00"),
        charge_ref="c1",
        customer_id=customer.id,
        payment_method_id=setup.payment_method_id,
        kind="sepa_debit",
    )
    fake.settle_sepa(state.id)

    refund = gateway.refund(intent_id=state.id, refund_ref="1")
    assert refund.status == "PENDING"

    fake.settle_refund(refund.id, succeed=succeed)
    assert gateway.get_refund(refund_id=refund.id).status == status

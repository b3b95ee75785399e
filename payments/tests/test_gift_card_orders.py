"""Buying a gift card online: an order priced by the server (20–500 € or a tariff's price), paid through the
simulator, activates the card once (code, full balance, 12 months); the buyer gets a receipt and no invoice; the
voucher leaves on its send date (the scheduler's job) with a PDF that pdftotext reads back."""

import base64
import shutil
import subprocess
from datetime import date, timedelta
from decimal import Decimal

import pytest
from freezegun import freeze_time

from courses.models import TariffType
from courses.tests.factories import TariffFactory
from invoices.models import Invoice
from invoices.services import invoices_issue_missing
from offers.models import GiftCard, GiftCardMovementKind, GiftCardStatus
from offers.services.gift_cards import MSG_AMOUNT_RANGE, MSG_SEND_DATE_PAST, MSG_TARIFF_NOT_GIFTABLE
from offers.tasks import VOUCHER_EMAIL_TOPIC, gift_card_vouchers_send_due
from payments.apis.gift_card_orders import MSG_AMOUNT_OR_TARIFF
from payments.models import PaymentOrder, PaymentStatus
from payments.services.common import MSG_AMOUNT_MISMATCH
from payments.services.receipts import RECEIPT_EMAIL_TOPIC
from payments.services.refunds import payment_order_refund
from studio.models import OutgoingEmail

from .conftest import after_commit

GIFT_CARDS = "/api/gift-cards"
CAPTURE = "/api/paypal/capture-payment"
APPROVE = "/api/paypal/simulator/approve"

pytestmark = pytest.mark.django_db


def order_body(**overrides):
    body = {
        "amount": "50.00",
        "recipient_name": "Léa Martin",
        "recipient_email": "lea@example.fr",
        "message": "Joyeux anniversaire !",
        "send": "today",
        "accept_terms": True,
    }
    body.update(overrides)
    return {key: value for key, value in body.items() if value is not None}


def buy(api_client, **overrides):
    created = api_client.post(GIFT_CARDS, order_body(**overrides), format="json")
    assert created.status_code == 201, created.json()
    order_id = created.json()["id"]
    assert api_client.post(APPROVE, {"orderId": order_id}, format="json").status_code == 200
    with after_commit():
        captured = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert captured.status_code == 200, captured.json()
    return PaymentOrder.objects.select_related("purchased_gift_card").get(order_id=order_id)


def voucher_emails():
    return OutgoingEmail.objects.filter(topic=VOUCHER_EMAIL_TOPIC).order_by("id")


def pdf_text(content: bytes, tmp_path) -> str:
    path = tmp_path / "voucher.pdf"
    path.write_bytes(content)
    return subprocess.run(
        [shutil.which("pdftotext"), "-enc", "UTF-8", "-layout", str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def test_a_paid_gift_card_is_active_for_12_months_with_its_balance_and_the_buyer_gets_a_receipt_not_an_invoice(
    api_client, member
):
    api_client.force_authenticate(member)
    with freeze_time("2026-12-01 10:00:00"):
        order = buy(api_client)
    card = order.purchased_gift_card
    assert (order.status, order.amount, order.type) == (PaymentStatus.COMPLETED, Decimal("50.00"), "CARTE_CADEAU")
    assert order.title == "Carte cadeau 50,00\u00a0€"
    assert card.status == GiftCardStatus.ACTIVE and card.balance == Decimal("50.00")
    assert card.code.startswith("CADEAU-") and len(card.code) == 16
    assert card.expires_on == date(2027, 12, 1)
    assert list(card.movements.values_list("kind", "amount", "order_reference")) == [
        (GiftCardMovementKind.ISSUE, Decimal("50.00"), order.order_id)
    ]
    # A multi-purpose voucher is invoiced when spent: the sale has a receipt, no invoice.
    assert not Invoice.objects.filter(payment_order=order).exists()
    assert invoices_issue_missing()["invoices"] == 0  # nor later, by the job that catches missed invoices
    assert not Invoice.objects.filter(payment_order=order).exists()
    receipt = OutgoingEmail.objects.get(topic=RECEIPT_EMAIL_TOPIC, topic_id=str(order.pk))
    assert receipt.to == [member.email]
    assert card.code in receipt.body_text
    assert "bon d'achat à usages multiples : la facture est émise lors de son utilisation" in receipt.body_text
    # Due today: the voucher left with the payment.
    assert voucher_emails().count() == 1
    # Capturing again changes nothing.
    again = api_client.post(CAPTURE, {"orderId": order.order_id}, format="json")
    assert again.status_code == 200
    card.refresh_from_db()
    assert card.balance == Decimal("50.00") and card.movements.count() == 1


def test_bought_for_in_3_days_the_voucher_reaches_the_recipient_3_days_later_through_the_job(
    api_client, member, tmp_path
):
    api_client.force_authenticate(member)
    with freeze_time("2026-12-01 10:00:00"):
        order = buy(api_client, send="in_3_days", amount="75.00")
        gift_card_vouchers_send_due.call()
    card = order.purchased_gift_card
    assert card.send_on == date(2026, 12, 4)
    assert not voucher_emails().exists()
    for day in ("2026-12-02 09:00:00", "2026-12-03 22:59:00"):  # 22:59 UTC: still the 3rd in Paris
        with freeze_time(day):
            gift_card_vouchers_send_due.call()
    assert not voucher_emails().exists()
    with freeze_time("2026-12-04 07:00:00"):
        gift_card_vouchers_send_due.call()
        gift_card_vouchers_send_due.call()  # a second scheduler: nothing twice
    email = voucher_emails().get()
    assert email.to == ["lea@example.fr"]
    assert card.code in email.body_text and "Joyeux anniversaire !" in email.body_text
    (attachment,) = email.attachments
    assert attachment["name"] == f"carte-cadeau-{card.code}.pdf" and attachment["mimetype"] == "application/pdf"
    text = pdf_text(base64.b64decode(attachment["base64"]), tmp_path)
    assert card.code in text
    assert "75,00 €" in text
    assert "Valable jusqu'au 01/12/2027" in text
    assert "Pour Léa Martin" in text and "Joyeux anniversaire !" in text
    card.refresh_from_db()
    assert card.sent_at is not None


def test_without_a_recipient_the_voucher_goes_to_the_buyer(api_client, member):
    api_client.force_authenticate(member)
    order = buy(api_client, recipient_email=None, recipient_name=None)
    assert voucher_emails().get().to == [member.email]
    assert order.purchased_gift_card.recipient_email == ""


def test_a_tariff_is_offered_at_its_price_and_a_browser_amount_that_differs_is_refused(api_client, member):
    api_client.force_authenticate(member)
    tariff = TariffFactory(title="Carte 10 cours", price=Decimal("180.00"))
    refused = api_client.post(GIFT_CARDS, order_body(amount="150.00", tariff_id=tariff.pk), format="json")
    assert refused.status_code == 409 and refused.json()["error"] == MSG_AMOUNT_MISMATCH
    order = buy(api_client, amount="180.00", tariff_id=tariff.pk)
    card = order.purchased_gift_card
    assert (card.kind, card.tariff_id, card.balance) == ("tariff", tariff.pk, Decimal("180.00"))
    assert order.title == "Carte cadeau – Carte 10 cours"


@pytest.mark.parametrize("amount", ["19.99", "500.01", "0.00"])
def test_an_amount_outside_20_to_500_euros_is_refused_in_french_and_creates_nothing(api_client, member, amount):
    api_client.force_authenticate(member)
    refused = api_client.post(GIFT_CARDS, order_body(amount=amount), format="json")
    assert refused.status_code == 400 and refused.json()["error"] == MSG_AMOUNT_RANGE
    assert not GiftCard.objects.exists() and not PaymentOrder.objects.exists()


def test_bad_choices_are_refused_in_french(api_client, member):
    api_client.force_authenticate(member)
    party = TariffFactory(type=TariffType.EVENT, price=Decimal("40.00"))
    cases = [
        (order_body(amount=None), MSG_AMOUNT_OR_TARIFF),
        (order_body(amount=None, tariff_id=party.pk), MSG_TARIFF_NOT_GIFTABLE),
        (order_body(send="date", send_on="2000-01-01"), MSG_SEND_DATE_PAST),
    ]
    for body, message in cases:
        refused = api_client.post(GIFT_CARDS, body, format="json")
        assert refused.status_code == 400 and refused.json()["error"] == message, refused.json()
    assert not GiftCard.objects.exists() and not PaymentOrder.objects.exists()


def test_buying_needs_an_account(api_client):
    assert api_client.post(GIFT_CARDS, order_body(), format="json").status_code in (401, 403)


def test_a_refunded_purchase_cancels_the_card(api_client, member):
    api_client.force_authenticate(member)
    order = buy(api_client, send="date", send_on=(date.today() + timedelta(days=30)).isoformat())
    PaymentOrder.objects.filter(pk=order.pk).update(status=PaymentStatus.REFUND_PENDING)
    with after_commit():
        payment_order_refund(order_id=order.order_id)
    card = GiftCard.objects.get(pk=order.purchased_gift_card_id)
    assert card.status == GiftCardStatus.CANCELLED and card.balance == 0
    gift_card_vouchers_send_due.call()
    assert not voucher_emails().exists()

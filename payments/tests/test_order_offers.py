"""An order priced with a promo code and paid partly or wholly with a gift card (docs/decisions.md 49, 56): the
discount comes off the price, the card pays what its balance covers, the provider the rest; the code's use and the
card's spending count once; the invoice shows the price, the discount and both means; a refund gives the card's part
back to the card."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from invoices.models import Invoice, InvoiceKind
from offers.errors import MSG_GIFT_CARD_EXPIRED, MSG_GIFT_CARD_NOT_FOUND
from offers.models import GiftCard, GiftCardMovement, GiftCardStatus, PromoCode
from offers.services.balance import gift_card_move
from offers.services.promo import (
    MSG_PROMO_ENDED,
    MSG_PROMO_MEMBER_USED,
    MSG_PROMO_NOT_FOUND,
    MSG_PROMO_NOT_THIS,
    MSG_PROMO_USED_UP,
)
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.services.capture import payment_order_fulfil
from payments.services.refunds import payment_order_refund
from payments.simulator import SimulatorProvider

from .conftest import reservation_payload, tariff_payload

pytestmark = pytest.mark.django_db

CREATE = "/api/paypal/create-order"
CAPTURE = "/api/paypal/capture-payment"
APPROVE = "/api/paypal/simulator/approve"
CANCEL = "/api/paypal/cancel-order"


def make_gift_card(amount="100.00", *, code="CADEAU-2026", **fields) -> GiftCard:
    """An active card with its issuing movement, as the gift card's own purchase leaves it."""
    card = GiftCard.objects.create(
        code=code,
        initial_amount=Decimal(amount),
        status=fields.pop("status", GiftCardStatus.ACTIVE),
        expires_on=fields.pop("expires_on", timezone.localdate() + timedelta(days=365)),
        **fields,
    )
    gift_card_move(card_id=card.pk, kind="issue", amount=Decimal(amount))
    card.refresh_from_db()
    return card


def make_code(code="PRINTEMPS15", *, kind="percent", value="15", **fields) -> PromoCode:
    tariffs = fields.pop("tariffs", [])
    promo = PromoCode.objects.create(code=code, kind=kind, value=Decimal(value), **fields)
    promo.tariffs.set(tariffs)
    return promo


def _create(api_client, member, tariff, **extra):
    api_client.force_authenticate(member)
    return api_client.post(CREATE, tariff_payload(tariff, member, **extra), format="json")


def _pay(api_client, order_id):
    assert api_client.post(APPROVE, {"orderId": order_id}, format="json").status_code == 200
    return api_client.post(CAPTURE, {"orderId": order_id}, format="json")


def test_a_card_with_a_15_percent_code_paid_partly_by_gift_card_partly_by_card(api_client, member, card_tariff):
    promo = make_code(tariffs=[card_tariff])
    card = make_gift_card("100.00")
    answer = _create(api_client, member, card_tariff, promo_code=" printemps15 ", gift_card_code="cadeau-2026")
    assert answer.status_code == 201, answer.json()
    order = PaymentOrder.objects.get(order_id=answer.json()["id"])
    # 190 € less 15 % = 161,50 €, of which the card pays 100 € and the bank card 61,50 €.
    assert (order.amount, order.discount_amount, order.gift_card_amount) == (
        Decimal("161.50"),
        Decimal("28.50"),
        Decimal("100.00"),
    )
    assert SimulatedProviderOrder.objects.get(order_id=order.order_id).amount == Decimal("61.50")
    card.refresh_from_db()
    assert card.balance == Decimal("0.00")  # spent when the order is recorded
    promo.refresh_from_db()
    assert promo.uses_count == 0  # counted when paid

    assert _pay(api_client, order.order_id).status_code == 200
    order.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED
    promo.refresh_from_db()
    assert promo.uses_count == 1
    # Paying again (a second capture, a webhook) counts nothing more.
    payment_order_fulfil(order_id=order.order_id)
    assert api_client.post(CAPTURE, {"orderId": order.order_id}, format="json").status_code == 200
    promo.refresh_from_db()
    assert promo.uses_count == 1
    assert GiftCardMovement.objects.filter(card=card, kind="spend").count() == 1

    invoice = Invoice.objects.get(payment_order=order, kind=InvoiceKind.INVOICE)
    assert invoice.unit_amount * invoice.quantity == Decimal("190.00")
    assert (invoice.discount_amount, invoice.discount_label) == (Decimal("28.50"), "Code promo PRINTEMPS15")
    assert invoice.total_amount == Decimal("161.50")
    assert invoice.payment_lines[0] == ["Carte cadeau CADEAU-2026", "100.00"]
    assert invoice.payment_lines[1][0].startswith("Carte •••• 4242 (CB)") and invoice.payment_lines[1][1] == "61.50"


def test_a_gift_card_covering_it_all_pays_at_once_without_a_provider(api_client, member, card_tariff):
    card = make_gift_card("250.00")
    answer = _create(api_client, member, card_tariff, gift_card_code="CADEAU-2026")
    assert answer.status_code == 201
    assert answer.json()["status"] == PaymentStatus.COMPLETED
    order = PaymentOrder.objects.get(order_id=answer.json()["id"])
    assert order.provider == "gift_card" and order.status == PaymentStatus.COMPLETED
    assert not SimulatedProviderOrder.objects.filter(order_id=order.order_id).exists()
    card.refresh_from_db()
    assert card.balance == Decimal("60.00")
    invoice = Invoice.objects.get(payment_order=order, kind=InvoiceKind.INVOICE)
    assert invoice.payment_lines == [["Carte cadeau CADEAU-2026", "190.00"]]


def test_a_class_reservation_is_paid_with_a_gift_card(api_client, member, make_reservation):
    card = make_gift_card("30.00")
    reservation = make_reservation(member, participants=2, price=Decimal("25.00"))
    api_client.force_authenticate(member)
    answer = api_client.post(CREATE, reservation_payload(reservation, gift_card_code="CADEAU-2026"), format="json")
    assert answer.status_code == 201, answer.json()
    assert _pay(api_client, answer.json()["id"]).status_code == 200
    reservation.refresh_from_db()
    card.refresh_from_db()
    assert reservation.status == "confirmed" and card.balance == Decimal("0.00")
    order = PaymentOrder.objects.get(order_id=answer.json()["id"])
    assert (order.amount, order.gift_card_amount) == (Decimal("50.00"), Decimal("30.00"))


def test_a_refund_gives_the_card_its_part_back(api_client, member, card_tariff, monkeypatch):
    asked = []
    refund_capture = SimulatorProvider.refund_capture

    def spy(self, **kwargs):
        asked.append(kwargs.get("amount"))
        return refund_capture(self, **kwargs)

    monkeypatch.setattr(SimulatorProvider, "refund_capture", spy)
    card = make_gift_card("100.00")
    order_id = _create(api_client, member, card_tariff, gift_card_code="CADEAU-2026").json()["id"]
    assert _pay(api_client, order_id).status_code == 200
    PaymentOrder.objects.filter(order_id=order_id).update(status=PaymentStatus.REFUND_PENDING)
    assert payment_order_refund(order_id=order_id).status == PaymentStatus.REFUNDED
    card.refresh_from_db()
    assert card.balance == Decimal("100.00")
    assert asked == [None]  # the provider gives back all it took (90 €), the card its 100 €
    payment_order_refund(order_id=order_id)  # again: nothing more
    card.refresh_from_db()
    assert card.balance == Decimal("100.00")
    assert list(GiftCardMovement.objects.filter(card=card).values_list("kind", flat=True)) == [
        "issue",
        "spend",
        "refund",
    ]


def test_an_order_given_up_gives_the_card_its_part_back(api_client, member, card_tariff):
    card = make_gift_card("50.00")
    order_id = _create(api_client, member, card_tariff, gift_card_code="CADEAU-2026").json()["id"]
    assert api_client.post(CANCEL, {"orderId": order_id}, format="json").status_code == 200
    card.refresh_from_db()
    assert card.balance == Decimal("50.00")


@pytest.mark.parametrize(
    ("setup", "payload", "status", "message"),
    [
        (lambda t: None, {"promo_code": "INCONNU"}, 404, MSG_PROMO_NOT_FOUND),
        (lambda t: make_code(tariffs=[]) and None, {"promo_code": "NOPE"}, 404, MSG_PROMO_NOT_FOUND),
        (
            lambda t: make_code(ends_on=timezone.localdate() - timedelta(days=1)),
            {"promo_code": "PRINTEMPS15"},
            400,
            MSG_PROMO_ENDED.format(day=(timezone.localdate() - timedelta(days=1)).strftime("%d/%m/%Y")),
        ),
        (lambda t: make_code(max_uses=3, uses_count=3), {"promo_code": "PRINTEMPS15"}, 409, MSG_PROMO_USED_UP),
        (lambda t: make_gift_card("20.00") and None, {"gift_card_code": "AUTRE"}, 404, MSG_GIFT_CARD_NOT_FOUND),
        (
            lambda t: make_gift_card("20.00", expires_on=timezone.localdate() - timedelta(days=1)),
            {"gift_card_code": "CADEAU-2026"},
            400,
            MSG_GIFT_CARD_EXPIRED,
        ),
    ],
)
def test_a_code_or_card_that_cannot_apply_is_refused_in_french(
    api_client, member, card_tariff, setup, payload, status, message
):
    setup(card_tariff)
    answer = _create(api_client, member, card_tariff, **payload)
    assert (answer.status_code, answer.json()["error"]) == (status, message)
    assert not PaymentOrder.objects.exists()


def test_a_code_for_other_tariffs_is_refused(api_client, member, card_tariff):
    from courses.tests.factories import TariffFactory

    make_code(tariffs=[TariffFactory()])
    answer = _create(api_client, member, card_tariff, promo_code="PRINTEMPS15")
    assert (answer.status_code, answer.json()["error"]) == (400, MSG_PROMO_NOT_THIS)


def test_a_member_uses_a_code_at_most_as_often_as_allowed(api_client, member, card_tariff):
    make_code(max_uses_per_member=1)
    first = _create(api_client, member, card_tariff, promo_code="PRINTEMPS15")
    assert _pay(api_client, first.json()["id"]).status_code == 200
    again = _create(api_client, member, card_tariff, promo_code="PRINTEMPS15")
    assert (again.status_code, again.json()["error"]) == (409, MSG_PROMO_MEMBER_USED)


def test_an_amount_code_never_makes_the_price_negative(api_client, member, card_tariff):
    make_code("GROS", kind="amount", value="500")
    answer = _create(api_client, member, card_tariff, promo_code="GROS")
    order = PaymentOrder.objects.get(order_id=answer.json()["id"])
    assert (order.amount, order.discount_amount, order.status) == (
        Decimal("0.00"),
        Decimal("190.00"),
        PaymentStatus.COMPLETED,
    )


def test_the_invoice_pdf_shows_the_price_the_discount_and_both_means(api_client, member, card_tariff, tmp_path):
    from invoices.pdf import invoice_pdf_render
    from invoices.tests.test_invoice_pdf import poppler

    make_code(tariffs=[card_tariff])
    make_gift_card("100.00")
    order_id = _create(api_client, member, card_tariff, promo_code="PRINTEMPS15", gift_card_code="CADEAU-2026")
    assert _pay(api_client, order_id.json()["id"]).status_code == 200
    invoice = Invoice.objects.get(payment_order__order_id=order_id.json()["id"], kind=InvoiceKind.INVOICE)
    text = " ".join(poppler("pdftotext", invoice_pdf_render(invoice), tmp_path, "-enc", "UTF-8").split())
    for shown in ("190,00", "Code promo PRINTEMPS15", "-28,50", "161,50", "Carte cadeau CADEAU-2026 100,00", "61,50"):
        assert shown in text, (shown, text)


def test_an_order_abandoned_gives_the_card_its_part_back_after_two_hours(api_client, member, card_tariff):
    from datetime import datetime

    from freezegun import freeze_time

    from payments.tasks import gift_card_parts_release

    card = make_gift_card("50.00")
    with freeze_time(datetime(2026, 3, 2, 10, 0, tzinfo=timezone.get_current_timezone())):
        order_id = _create(api_client, member, card_tariff, gift_card_code="CADEAU-2026").json()["id"]
    with freeze_time(datetime(2026, 3, 2, 11, 59, tzinfo=timezone.get_current_timezone())):
        assert gift_card_parts_release.call() == 0
    with freeze_time(datetime(2026, 3, 2, 12, 1, tzinfo=timezone.get_current_timezone())):
        assert gift_card_parts_release.call() == 1
        assert gift_card_parts_release.call() == 0
    card.refresh_from_db()
    assert card.balance == Decimal("50.00")
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.VOIDED

"""Money and seats (docs/decisions.md 14): the attacks made from outside, replayed at the API, and what an attacker
would try next on every money write endpoint (create-order, capture, cancel, the simulator's approval, holds and pass
bookings).

The promise under test: what is confirmed equals what was paid. No seat without money, no money kept without a
seat (it is refunded, and the member told so in French), one live order per reservation, card or pass, never both.
"""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from bookings.models import Pass, PassKind, Reservation, ReservationStatus
from bookings.services.cancellation import MSG_CANCEL_NOT_CONFIRMED
from bookings.services.common import (
    MSG_CARD_PAYMENT_IN_PROGRESS,
    MSG_HOLD_LOST,
    MSG_PARTICIPANTS_LOCKED_BY_PAYMENT,
    MSG_PAYMENT_DOES_NOT_MATCH,
    MSG_RESERVATION_ALREADY_PAID,
)
from bookings.services.passes import MSG_PASS_NOT_ENOUGH_CREDITS, add_months
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseSessionFactory, TariffFactory
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.providers import get_provider
from payments.services.common import (
    MSG_AMOUNT_MISMATCH,
    MSG_HOLD_EXPIRED,
    MSG_INCOMPLETE,
    MSG_ORDER_CLOSED,
    MSG_ORDER_LIVE_TAKEN,
    MSG_PAID_NOT_DELETED,
    MSG_REFUND_PENDING,
    MSG_REFUNDED,
    MSG_RESERVATION_NOT_FOUND,
    MSG_RESERVATION_PAID,
    MSG_TARIFF_NOT_ORDERABLE,
)
from payments.services.receipts import RECEIPT_SUBJECT
from payments.services.refunds import REFUND_SUBJECT, payment_refunds_retry

from . import fake_paypal as fp
from .conftest import after_commit, reservation_payload, tariff_payload
from .test_providers import WEBHOOK_HEADERS

pytestmark = pytest.mark.django_db

RESERVE = "/api/reservations-courses"
CREATE = "/api/paypal/create-order"
CAPTURE = "/api/paypal/capture-payment"
APPROVE = "/api/paypal/simulator/approve"
CANCEL = "/api/paypal/cancel-order"
WEBHOOK = "/api/paypal/webhook"


def hold(api_client, member, session, participants=1, **extra):
    api_client.force_authenticate(member)
    payload = {
        "session_id": session.pk,
        "participants": participants,
        "first_name": member.first_name,
        "last_name": member.last_name,
        "email": member.email,
        **extra,
    }
    return api_client.post(RESERVE, payload, format="json")


def book_with_pass(api_client, member, session, pass_obj, participants=1):
    return hold(api_client, member, session, participants, pass_id=pass_obj.pk)


def open_order(api_client, member, reservation, **overrides):
    api_client.force_authenticate(member)
    return api_client.post(CREATE, reservation_payload(reservation, **overrides), format="json")


def approve(api_client, order_id, outcome="approve"):
    response = api_client.post(APPROVE, {"orderId": order_id, "outcome": outcome}, format="json")
    assert response.status_code == 200, response.json()


def capture(api_client, order_id):
    return api_client.post(CAPTURE, {"orderId": order_id}, format="json")


def euros(amount) -> str:
    return f"{Decimal(amount):.2f}".replace(".", ",")


def completed_payments(reservation):
    return PaymentOrder.objects.filter(reservation=reservation, status=PaymentStatus.COMPLETED)


def refund_mails(mailoutbox):
    return [m for m in mailoutbox if REFUND_SUBJECT in m.subject]


@pytest.fixture
def session(db):
    return CourseSessionFactory(max_attendees=10, price_per_participant=Decimal("25.00"))


# --- 1. Pay for one seat, get eight ------------------------------------------------------------------------------


@pytest.mark.parametrize("more", [5, 8])
def test_item1_growing_a_hold_after_its_order_exists_is_refused(api_client, member, session, more):
    response = hold(api_client, member, session, 1)
    assert response.status_code == 201, response.json()
    reservation = Reservation.objects.get(pk=response.json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)

    again = hold(api_client, member, session, more)
    assert again.status_code == 409
    assert again.json()["error"] == MSG_PARTICIPANTS_LOCKED_BY_PAYMENT.format(participants=1)
    reservation.refresh_from_db()
    assert reservation.participants == 1 and reservation.total_amount == Decimal("25.00")

    assert capture(api_client, order_id).status_code == 200
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED and reservation.participants == 1
    cancelled = api_client.post(f"{RESERVE}/{reservation.pk}/cancel")
    assert cancelled.status_code == 200
    assert cancelled.json()["credit_pass"]["credits_left"] == 1


def test_item1_reposting_the_same_hold_while_paying_keeps_its_price(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 2).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    session.price_per_participant = Decimal("40.00")  # staff change the price meanwhile
    session.save()
    again = hold(api_client, member, session, 2)
    assert again.status_code == 201 and again.json()["id"] == reservation.pk
    assert again.json()["total_amount"] == "50.00"
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200


def test_item1_a_capture_that_no_longer_matches_its_reservation_confirms_nothing_and_refunds(
    api_client, member, session, mailoutbox, django_capture_on_commit_callbacks
):
    """Even if the participants changed by some other path, the capture compares and refunds."""
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    Reservation.objects.filter(pk=reservation.pk).update(participants=5)

    with django_capture_on_commit_callbacks(execute=True):
        response = capture(api_client, order_id)
    assert response.status_code == 409
    reason = MSG_PAYMENT_DOES_NOT_MATCH
    assert response.json()["error"] == MSG_REFUNDED.format(reason=reason, amount=euros(25))
    assert response.json()["status"] == PaymentStatus.REFUNDED
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.REFUNDED and order.refund_id and order.refunded_at
    assert SimulatedProviderOrder.objects.get(order_id=order_id).refund_id == order.refund_id
    (mail,) = refund_mails(mailoutbox)
    assert mail.to == [member.email] and "25,00" in mail.body


# --- 2. One seat charged twice -----------------------------------------------------------------------------------


def test_item2_a_second_order_on_the_same_hold_is_the_same_order(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    first = open_order(api_client, member, reservation)
    second = open_order(api_client, member, reservation)
    assert first.status_code == 201 and second.status_code == 201
    assert first.json()["id"] == second.json()["id"]
    assert PaymentOrder.objects.filter(reservation=reservation).count() == 1
    approve(api_client, first.json()["id"])
    assert capture(api_client, first.json()["id"]).status_code == 200
    assert capture(api_client, second.json()["id"]).status_code == 200
    assert completed_payments(reservation).count() == 1


@pytest.mark.database
def test_item2_the_database_holds_one_live_order_per_reservation(member, make_reservation):
    reservation = make_reservation(member, participants=1)
    base = {"email": member.email, "title": "Cours", "amount": Decimal("25.00"), "reservation": reservation}
    PaymentOrder.objects.create(order_id="A", status=PaymentStatus.APPROVED, **base)
    for status in (PaymentStatus.CREATED, PaymentStatus.APPROVED, PaymentStatus.DECLINED, PaymentStatus.COMPLETED):
        with pytest.raises(IntegrityError), transaction.atomic():
            PaymentOrder.objects.create(order_id=f"B-{status}", status=status, **base)
    PaymentOrder.objects.create(order_id="C", status=PaymentStatus.VOIDED, **base)  # closed orders are history


def test_item2_a_cancelled_order_captured_anyway_is_refunded_and_the_new_one_pays(
    api_client, member, session, paypal_settings, fake_paypal, mailoutbox, django_capture_on_commit_callbacks
):
    """The buyer cancels order A, opens B, yet A gets approved at PayPal and PayPal reports its capture."""
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_a = open_order(api_client, member, reservation).json()["id"]
    assert api_client.post(CANCEL, {"orderId": order_a}, format="json").json()["status"] == "VOIDED"
    order_b = open_order(api_client, member, reservation).json()["id"]
    assert order_b != order_a
    fake_paypal.approve(order_a)
    fake_paypal.approve(order_b)

    approved_a = {"id": "WH-A-APPROVED", "event_type": "CHECKOUT.ORDER.APPROVED", "resource": {"id": order_a}}
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post(WEBHOOK, approved_a, format="json", headers=WEBHOOK_HEADERS)
        assert capture(api_client, order_b).status_code == 200
    assert fake_paypal.calls(f"/v2/checkout/orders/{order_a}/capture") == []  # a closed order is not captured

    # And if the money for A arrives all the same (captured from PayPal's side), it goes back.
    captured = get_provider().capture_order(order_id=order_a, request_id="paypal-side-capture")
    event = {
        "id": "WH-A-CAPTURED",
        "event_type": "PAYMENT.CAPTURE.COMPLETED",
        "resource": {
            "id": captured.capture_id,
            "status": "COMPLETED",
            "amount": {"currency_code": "EUR", "value": "25.00"},
            "supplementary_data": {"related_ids": {"order_id": order_a}},
        },
    }
    with django_capture_on_commit_callbacks(execute=True):
        api_client.post(WEBHOOK, event, format="json", headers=WEBHOOK_HEADERS)
    order = PaymentOrder.objects.get(order_id=order_a)
    assert order.status == PaymentStatus.REFUNDED and order.refund_id
    assert len(fake_paypal.calls(f"/v2/payments/captures/{captured.capture_id}/refund")) == 1
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert completed_payments(reservation).get().order_id == order_b
    assert len(refund_mails(mailoutbox)) == 1

    # PayPal's refund notification for A takes nothing from the reservation B paid for.
    refunded = {
        "id": "WH-A-REFUNDED",
        "event_type": "PAYMENT.CAPTURE.REFUNDED",
        "resource": {"id": order.refund_id, "supplementary_data": {"related_ids": {"order_id": order_a}}},
    }
    with after_commit():
        assert api_client.post(WEBHOOK, refunded, format="json", headers=WEBHOOK_HEADERS).status_code in (200, 202)
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED


def test_item2_booking_with_a_pass_while_a_card_order_is_open_is_refused(api_client, member, session):
    card = PassFactory(member=member, credits_total=10)
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)

    response = book_with_pass(api_client, member, session, card)
    assert response.status_code == 409
    assert response.json()["error"] == MSG_CARD_PAYMENT_IN_PROGRESS
    card.refresh_from_db()
    assert card.credits_left == 10

    assert capture(api_client, order_id).status_code == 200
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED and reservation.paid_with_pass is None


def test_item2_after_cancelling_the_card_payment_the_pass_may_pay(api_client, member, session):
    card = PassFactory(member=member, credits_total=10)
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    api_client.post(CANCEL, {"orderId": order_id}, format="json")
    assert book_with_pass(api_client, member, session, card).status_code == 201
    card.refresh_from_db()
    assert card.credits_left == 9
    approve_response = api_client.post(APPROVE, {"orderId": order_id}, format="json")
    assert approve_response.status_code == 409  # the cancelled order cannot be paid any more (a state conflict)


def test_item2_a_card_capture_on_a_reservation_already_paid_by_pass_is_refunded(
    api_client, member, session, django_capture_on_commit_callbacks
):
    """Defence in depth: should a pass have paid first by any path, the card's money goes back."""
    card = PassFactory(member=member, credits_total=10)
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    Reservation.objects.filter(pk=reservation.pk).update(
        status=ReservationStatus.CONFIRMED, paid_with_pass=card, credits_spent=1, hold_expires_at=None
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = capture(api_client, order_id)
    assert response.status_code == 409
    assert response.json()["error"] == MSG_REFUNDED.format(reason=MSG_RESERVATION_ALREADY_PAID, amount=euros(25))
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED
    assert completed_payments(reservation).count() == 0


# --- 3. A monthly plan sells a year for one month's price ----------------------------------------------------


def _buy(api_client, member, tariff, quantity=1):
    api_client.force_authenticate(member)
    order_id = api_client.post(CREATE, tariff_payload(tariff, member, quantity), format="json").json()["id"]
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200
    return Pass.objects.get(source_order__order_id=order_id)


@pytest.mark.parametrize(
    ("title", "price", "frequency", "validity", "months_granted"),
    [
        ("Abonnement annuel illimité", "55.00", "par mois", 12, 1),
        ("Abonnement 6 mois illimité", "85.00", "par mois", 6, 1),
        ("Abonnement trimestriel", "120.00", "par trimestre", 3, 3),
        ("Abonnement annuel payé d'avance", "600.00", "", 12, 12),
    ],
)
def test_item3_a_per_period_tariff_grants_the_period_paid(
    api_client, member, title, price, frequency, validity, months_granted
):
    tariff = TariffFactory(
        title=title,
        type="abonnement",
        price=Decimal(price),
        frequency=frequency,
        validity=f"{validity} mois",
        pass_unlimited=True,
        pass_validity_months=validity,
    )
    granted = _buy(api_client, member, tariff)
    today = timezone.localdate()
    assert granted.kind == PassKind.SUBSCRIPTION and granted.starts_on == today
    assert granted.expires_on == add_months(today, months_granted) - timedelta(days=1)


def test_item3_two_months_paid_give_two_months(api_client, member):
    tariff = TariffFactory(
        type="abonnement", price=Decimal("55.00"), frequency="par mois", pass_unlimited=True, pass_validity_months=12
    )
    granted = _buy(api_client, member, tariff, quantity=2)
    assert granted.expires_on == add_months(timezone.localdate(), 2) - timedelta(days=1)


def test_item3_a_per_week_pass_is_not_sold_online(api_client, member):
    tariff = TariffFactory(
        price=Decimal("15.00"), frequency="par semaine", pass_unlimited=True, pass_validity_months=12
    )
    api_client.force_authenticate(member)
    response = api_client.post(CREATE, tariff_payload(tariff, member), format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_TARIFF_NOT_ORDERABLE
    assert not PaymentOrder.objects.exists()


# --- 7. Paid, no seat, no way out ------------------------------------------------------------------------------


def _lapse_and_lose_the_seats(reservation, other_member, make_reservation):
    reservation.hold_expires_at = timezone.now() - timedelta(minutes=1)
    reservation.save(update_fields=["hold_expires_at"])
    make_reservation(
        other_member,
        participants=reservation.session.max_attendees,
        session=reservation.session,
        status=ReservationStatus.CONFIRMED,
    )


def test_item7_a_capture_after_the_seats_went_elsewhere_is_refunded_and_said_in_french(
    api_client, member, other_member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    session = CourseSessionFactory(max_attendees=2)
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 2).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    _lapse_and_lose_the_seats(reservation, other_member, make_reservation)

    with django_capture_on_commit_callbacks(execute=True):
        response = capture(api_client, order_id)
    expected = MSG_REFUNDED.format(reason=MSG_HOLD_LOST, amount=euros(50))
    assert response.status_code == 409 and response.json()["error"] == expected
    assert response.json()["status"] == PaymentStatus.REFUNDED and response.json()["refunded"] is True
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.REFUNDED and order.refund_id and order.capture_id
    assert order.completed_at is None and order.provider_note == MSG_HOLD_LOST
    simulated = SimulatedProviderOrder.objects.get(order_id=order_id)
    assert simulated.capture_status == "REFUNDED" and simulated.refund_id == order.refund_id
    reservation.refresh_from_db()
    assert reservation.status != ReservationStatus.CONFIRMED
    assert not [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]
    (mail,) = refund_mails(mailoutbox)
    assert expected in mail.body and mail.to == [member.email]

    # Replayed: the same answer, still one refund, one e-mail.
    with django_capture_on_commit_callbacks(execute=True):
        again = capture(api_client, order_id)
    assert again.status_code == 409 and again.json()["error"] == expected
    assert PaymentOrder.objects.get(order_id=order_id).refund_id == order.refund_id
    assert len(refund_mails(mailoutbox)) == 1


def test_item7_with_paypal_the_refund_goes_through_paypal_once(
    api_client, member, other_member, make_reservation, paypal_settings, fake_paypal, django_capture_on_commit_callbacks
):
    session = CourseSessionFactory(max_attendees=1)
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    fake_paypal.approve(order_id)
    _lapse_and_lose_the_seats(reservation, other_member, make_reservation)
    with django_capture_on_commit_callbacks(execute=True):
        assert capture(api_client, order_id).status_code == 409
        assert capture(api_client, order_id).status_code == 409
    order = PaymentOrder.objects.get(order_id=order_id)
    refunds = fake_paypal.calls(f"/v2/payments/captures/{order.capture_id}/refund")
    assert len({r["headers"]["paypal-request-id"] for r in refunds}) == 1
    assert order.status == PaymentStatus.REFUNDED and order.refund_id == fake_paypal.refunds[order.capture_id]["id"]

    # PayPal then notifies the refund: nothing changes twice.
    event = {
        "id": "WH-REFUNDED-1",
        "event_type": "PAYMENT.CAPTURE.REFUNDED",
        "resource": {
            "id": order.refund_id,
            "status": "COMPLETED",
            "supplementary_data": {"related_ids": {"order_id": order_id}},
        },
    }
    with after_commit():
        assert api_client.post(WEBHOOK, event, format="json", headers=WEBHOOK_HEADERS).status_code in (200, 202)
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED


def test_item7_when_the_provider_is_down_the_refund_is_owed_said_and_retried(
    api_client,
    member,
    other_member,
    make_reservation,
    paypal_settings,
    fake_paypal,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    session = CourseSessionFactory(max_attendees=1)
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    fake_paypal.approve(order_id)
    _lapse_and_lose_the_seats(reservation, other_member, make_reservation)
    real_refund = fake_paypal._refund
    monkeypatch.setattr(fake_paypal, "_refund", lambda capture_id: (503, {"name": "SERVICE_UNAVAILABLE"}))
    with django_capture_on_commit_callbacks(execute=True):
        response = capture(api_client, order_id)
    expected = MSG_REFUND_PENDING.format(reason=MSG_HOLD_LOST, amount=euros(25))
    assert response.status_code == 409 and response.json()["error"] == expected
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUND_PENDING

    monkeypatch.setattr(fake_paypal, "_refund", real_refund)
    assert payment_refunds_retry() == 1
    assert payment_refunds_retry() == 0
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED


# --- what an attacker tries next on the money endpoints --------------------------------------------------------


@pytest.mark.parametrize(
    "amount",
    [
        "-25.00",
        "0",
        "0.00",
        "24.99",
        "25.01",
        "250.00",
        "1e10",
        "99999999999999999999",
        "abc",
        "",
        None,
        "NaN",
        "Infinity",
        "-Infinity",
        "sNaN",
        "1e400",
        [],
        {},
        True,
    ],
)
def test_create_order_refuses_any_amount_but_the_servers(api_client, member, make_reservation, amount):
    reservation = make_reservation(member, participants=1)
    response = open_order(api_client, member, reservation, amount=amount)
    # An amount that is not one is a 400; a well-formed amount other than the server's price, a 409.
    assert response.status_code in (400, 409)
    if amount is None or isinstance(amount, str):
        assert response.json()["error"] in (MSG_INCOMPLETE, MSG_AMOUNT_MISMATCH)
    if response.status_code == 409:
        assert response.json()["error"] == MSG_AMOUNT_MISMATCH
    assert not PaymentOrder.objects.exists() and not SimulatedProviderOrder.objects.exists()


@pytest.mark.parametrize("quantity", [0, -1, 51, 10**20, "2.5", "abc", "1e3", [], {}])
def test_create_order_refuses_silly_quantities(api_client, member, card_tariff, quantity):
    api_client.force_authenticate(member)
    payload = tariff_payload(card_tariff, member, amount="190.00")
    payload["quantity"] = quantity
    response = api_client.post(CREATE, payload, format="json")
    assert response.status_code in (400, 404)
    assert not PaymentOrder.objects.exists()


def test_a_free_tariff_or_a_party_offer_opens_no_order(api_client, member):
    api_client.force_authenticate(member)
    for tariff in (TariffFactory(price=Decimal("0.00")), TariffFactory(type="evenement")):
        response = api_client.post(CREATE, tariff_payload(tariff, member, amount=f"{tariff.price:.2f}"), format="json")
        assert response.status_code == 409 and response.json()["error"] == MSG_TARIFF_NOT_ORDERABLE
    assert not PaymentOrder.objects.exists()


def test_others_reservations_and_orders_are_out_of_reach(api_client, member, other_member, make_reservation):
    theirs = make_reservation(other_member, participants=1)
    response = open_order(api_client, member, theirs)
    assert response.status_code == 404 and response.json()["error"] == MSG_RESERVATION_NOT_FOUND
    their_order = open_order(api_client, other_member, theirs).json()["id"]
    approve(api_client, their_order)
    api_client.force_authenticate(member)
    for path in (CAPTURE, CANCEL, APPROVE):
        assert api_client.post(path, {"orderId": their_order}, format="json").status_code == 404
    assert api_client.post(f"{RESERVE}/{theirs.pk}/cancel").status_code == 404
    assert PaymentOrder.objects.get(order_id=their_order).status == PaymentStatus.APPROVED
    their_card = PassFactory(member=other_member)
    assert book_with_pass(api_client, member, theirs.session, their_card).status_code == 404


@pytest.mark.parametrize("reservation_id", [0, -1, 2**31, 2**63, "1 OR 1=1", "abc", 1.5])
def test_unknown_reservation_ids_are_not_found(api_client, member, reservation_id):
    api_client.force_authenticate(member)
    payload = {
        "amount": "25.00",
        "title": "Cours",
        "type": "cours",
        "email": member.email,
        "first_name": "Emma",
        "last_name": "Petit",
        "reservation_id": reservation_id,
    }
    response = api_client.post(CREATE, payload, format="json")
    assert response.status_code in (400, 404)


@pytest.mark.parametrize("order_id", ["", "x" * 65, "x" * 5000, "../../etc/passwd", None, 12, [], {}])
def test_unknown_or_silly_order_ids_are_not_found(api_client, member, order_id):
    api_client.force_authenticate(member)
    for path in (CAPTURE, CANCEL, APPROVE):
        response = api_client.post(path, {"orderId": order_id}, format="json")
        assert response.status_code in (400, 404)


def test_a_paid_reservation_opens_no_second_order(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200
    again = open_order(api_client, member, reservation)
    assert again.status_code == 409 and again.json()["error"] == MSG_RESERVATION_PAID


def test_replayed_captures_pay_once_and_send_one_receipt(
    api_client, member, session, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    with django_capture_on_commit_callbacks(execute=True):
        answers = [capture(api_client, order_id) for _ in range(5)]
    assert {a.status_code for a in answers} == {200}
    assert completed_payments(reservation).count() == 1
    assert len([m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]) == 1


def test_approving_a_paid_order_again_moves_no_money(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    capture(api_client, order_id)
    response = api_client.post(APPROVE, {"orderId": order_id}, format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_ORDER_CLOSED
    assert capture(api_client, order_id).status_code == 200
    assert completed_payments(reservation).count() == 1


@pytest.mark.parametrize("participants", [0, -3, 10**9, 1e300, "1e400", 32768, "999999999999999999999"])
def test_hold_participant_counts_never_exceed_the_seats(api_client, member, session, participants):
    response = hold(api_client, member, session, participants)
    assert response.status_code in (201, 400, 409)
    if response.status_code == 201:
        assert response.json()["participants"] <= session.max_attendees
    assert sum(r.participants for r in Reservation.objects.all()) <= session.max_attendees


def test_a_json_infinite_participant_count_is_refused_not_a_500(api_client, member, session):
    api_client.force_authenticate(member)
    body = (
        f'{{"session_id": {session.pk}, "participants": 1e400, "first_name": "Emma", "last_name": "Petit", '
        '"email": "emma@example.fr"}'
    )
    response = api_client.post(RESERVE, body, content_type="application/json")
    assert response.status_code in (201, 400, 409)
    assert not Reservation.objects.filter(participants__gt=session.max_attendees).exists()


def test_a_pass_with_too_few_credits_cannot_pay_for_more_participants(api_client, member, session):
    card = PassFactory(member=member, credits_total=1)
    response = book_with_pass(api_client, member, session, card, participants=5)
    assert response.status_code in (400, 409)
    assert response.json()["error"] == MSG_PASS_NOT_ENOUGH_CREDITS.format(credits=1)
    card.refresh_from_db()
    assert card.credits_left == 1 and not Reservation.objects.exists()


def test_a_member_cannot_record_or_edit_payments_by_hand(api_client, member):
    api_client.force_authenticate(member)
    payload = {
        "order_id": "FREE",
        "email": member.email,
        "amount": "0",
        "title": "x",
        "date": "d",
        "time": "t",
        "status": "COMPLETED",
    }
    assert api_client.post("/api/paypal/orders", payload, format="json").status_code == 403
    assert api_client.put("/api/paypal/orders/FREE", payload, format="json").status_code == 403
    assert not PaymentOrder.objects.exists()


def test_a_forged_webhook_moves_nothing(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    event = {
        "id": "WH-FORGED",
        "event_type": "PAYMENT.CAPTURE.COMPLETED",
        "resource": {
            "id": "X",
            "amount": {"currency_code": "EUR", "value": "25.00"},
            "supplementary_data": {"related_ids": {"order_id": order_id}},
        },
    }
    api_client.force_authenticate(None)
    headers = {**WEBHOOK_HEADERS, "PAYPAL-TRANSMISSION-SIG": "forged"}
    # A notification PayPal did not sign is refused as unauthenticated (403), not as malformed (400).
    assert api_client.post(WEBHOOK, event, format="json", headers=headers).status_code == 403
    assert api_client.post(WEBHOOK, event, format="json").status_code == 403
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.CREATED


def test_staff_cannot_make_a_second_live_order_on_a_reservation(api_client, staff, member, make_reservation):
    reservation = make_reservation(member, participants=1)
    base = {"email": member.email, "title": "Cours", "amount": Decimal("25.00"), "reservation": reservation}
    PaymentOrder.objects.create(order_id="LIVE", status=PaymentStatus.APPROVED, **base)
    PaymentOrder.objects.create(order_id="OLD", status=PaymentStatus.VOIDED, **base)
    api_client.force_authenticate(staff)
    payload = {
        "order_id": "OLD",
        "email": member.email,
        "amount": "25.00",
        "title": "Cours",
        "date": "2030-01-01",
        "time": "18:30",
        "status": "COMPLETED",
    }
    response = api_client.put("/api/paypal/orders/OLD", payload, format="json")
    assert response.status_code == 409 and response.json()["error"] == MSG_ORDER_LIVE_TAKEN
    assert PaymentOrder.objects.get(order_id="OLD").status == PaymentStatus.VOIDED


def test_fake_paypal_signature_is_what_the_tests_send():
    assert WEBHOOK_HEADERS["PAYPAL-TRANSMISSION-SIG"] == fp.VALID_SIGNATURE


def test_a_payment_that_moved_money_is_never_deleted(api_client, staff, member, session):
    """docs/decisions.md 33: staff void a completed payment with a reason; deleting it would erase what was paid."""
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200
    api_client.force_authenticate(staff)
    response = api_client.delete(f"/api/paypal/orders/{order_id}")
    assert response.status_code == 409 and response.json()["error"] == MSG_PAID_NOT_DELETED
    assert PaymentOrder.objects.filter(order_id=order_id, status=PaymentStatus.COMPLETED).exists()


def test_cancelling_twice_returns_the_credit_once(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 2).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    assert capture(api_client, order_id).status_code == 200
    first = api_client.post(f"{RESERVE}/{reservation.pk}/cancel")
    second = api_client.post(f"{RESERVE}/{reservation.pk}/cancel")
    assert first.status_code == 200 and first.json()["credit_pass"]["credits_left"] == 2
    assert second.status_code == 409 and second.json()["error"] == MSG_CANCEL_NOT_CONFIRMED
    assert Pass.objects.filter(member=member).count() == 1
    # and the cancelled, paid reservation cannot be paid again
    again = open_order(api_client, member, reservation)
    assert again.status_code == 409 and again.json()["error"] == MSG_HOLD_EXPIRED

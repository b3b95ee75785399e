from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import ReservationStatus
from bookings.services.common import MSG_HOLD_LOST
from courses.tests.factories import TariffFactory
from payments.apis.webhooks import MSG_WEBHOOK_REFUSED
from payments.models import PaymentOrder, PaymentStatus, PaymentWebhookEvent, SimulatedProviderOrder
from payments.selectors import payment_client_config
from payments.services.common import (
    MSG_AMOUNT_CAPTURED_MISMATCH,
    MSG_AMOUNT_MISMATCH,
    MSG_DECLINED,
    MSG_EMAIL_INVALID,
    MSG_HOLD_EXPIRED,
    MSG_INCOMPLETE,
    MSG_NOT_APPROVED,
    MSG_ORDER_CLOSED,
    MSG_ORDER_ID_TAKEN,
    MSG_ORDER_NOT_CANCELLABLE,
    MSG_PAID_NOT_DELETED,
    MSG_PENDING,
    MSG_PROVIDER_DOWN,
    MSG_QUANTITY,
    MSG_REFUNDED,
    MSG_REQUIRED_FIELDS,
    MSG_RESERVATION_NOT_FOUND,
    MSG_RESERVATION_PAID,
    MSG_TARIFF_NOT_ORDERABLE,
)
from payments.services.orders import MAX_QUANTITY
from payments.services.receipts import RECEIPT_SUBJECT
from payments.services.refunds import REFUND_SUBJECT

from . import fake_paypal as fp
from .conftest import after_commit, reservation_payload, tariff_payload
from .test_providers import WEBHOOK_HEADERS

pytestmark = pytest.mark.django_db

CREATE = "/api/paypal/create-order"
CAPTURE = "/api/paypal/capture-payment"
APPROVE = "/api/paypal/simulator/approve"
CANCEL = "/api/paypal/cancel-order"
WEBHOOK = "/api/paypal/webhook"


def receipts(mailoutbox):
    return [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]


def _create(api_client, payload):
    return api_client.post(CREATE, payload, format="json")


def _simulate_buyer(api_client, order_id, outcome="approve"):
    response = api_client.post(APPROVE, {"orderId": order_id, "outcome": outcome}, format="json")
    assert response.status_code == 200, response.json()


# --- configuration ---------------------------------------------------------------------------------------------


def test_client_config_is_the_simulator_without_credentials(settings):
    settings.PAYPAL_CLIENT_ID = ""
    settings.PAYPAL_CLIENT_SECRET = ""
    assert payment_client_config() == {
        "provider": "simulator",
        "clientId": "",
        "currency": "EUR",
        "providers": ["simulator"],
        "stripePublishableKey": "",
    }


def test_client_config_gives_paypal_client_id_but_never_the_secret(settings):
    settings.PAYPAL_CLIENT_ID = "public-id"
    settings.PAYPAL_CLIENT_SECRET = "top-secret"
    config = payment_client_config()
    assert config == {
        "provider": "paypal",
        "clientId": "public-id",
        "currency": "EUR",
        "providers": ["paypal"],
        "stripePublishableKey": "",
    }
    assert "top-secret" not in str(config)


# --- create-order ----------------------------------------------------------------------------------------------


def test_visitor_cannot_create_an_order(api_client, member, make_reservation):
    reservation = make_reservation(member)
    response = _create(api_client, reservation_payload(reservation))
    assert response.status_code in (401, 403)
    assert not PaymentOrder.objects.exists()


def test_create_order_for_a_reservation_is_priced_from_the_database(api_client, member, make_reservation):
    reservation = make_reservation(member, participants=3)
    api_client.force_authenticate(member)
    response = _create(api_client, reservation_payload(reservation))
    assert response.status_code == 201, response.json()
    order = PaymentOrder.objects.get(order_id=response.json()["id"])
    assert order.amount == Decimal("75.00") and order.currency == "EUR"
    assert order.reservation == reservation and order.quantity == 3
    assert order.status == PaymentStatus.CREATED and order.provider == "simulator"
    assert order.title == reservation.session.course.title and order.type == "COURS"
    assert SimulatedProviderOrder.objects.get(order_id=order.order_id).amount == Decimal("75.00")


def test_tampered_amount_is_refused_and_changes_nothing(api_client, member, make_reservation, card_tariff):
    reservation = make_reservation(member, participants=2)
    api_client.force_authenticate(member)
    for payload in (
        reservation_payload(reservation, amount="1.00"),
        tariff_payload(card_tariff, member, quantity=2, amount="190.00"),
        tariff_payload(card_tariff, member, amount="0.01"),
    ):
        response = _create(api_client, payload)
        assert response.status_code == 409  # a conflict with the server's price
        assert response.json()["error"] == MSG_AMOUNT_MISMATCH
    assert not PaymentOrder.objects.exists()
    assert not SimulatedProviderOrder.objects.exists()
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD and reservation.total_amount == Decimal("50.00")


@pytest.mark.parametrize("missing", ["amount", "email", "first_name", "last_name", "title", "type"])
def test_incomplete_payment_data(api_client, member, make_reservation, missing):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    response = _create(api_client, reservation_payload(reservation, **{missing: ""}))
    assert response.status_code == 400
    assert (
        response.json()["error"]
        == MSG_INCOMPLETE
        == ("❌ Données de paiement incomplètes. Vérifiez le titre et le type.")
    )


def test_an_order_must_pay_for_a_reservation_or_a_tariff(api_client, member, make_reservation, card_tariff):
    api_client.force_authenticate(member)
    payload = tariff_payload(card_tariff, member)
    payload.pop("tariff_id")
    assert _create(api_client, payload).json()["error"] == MSG_INCOMPLETE
    both = {**payload, "tariff_id": card_tariff.pk, "reservation_id": make_reservation(member).pk}
    assert _create(api_client, both).json()["error"] == MSG_INCOMPLETE


def test_bad_input_gets_a_french_message_never_a_500(api_client, member, make_reservation, card_tariff):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    bad = _create(api_client, reservation_payload(reservation, email="pas-un-email"))
    assert bad.status_code == 400 and bad.json()["error"] == MSG_EMAIL_INVALID
    for payload in (
        reservation_payload(reservation, reservation_id="99999999999999999999"),
        reservation_payload(reservation, amount="1e999999"),
        reservation_payload(reservation, amount="NaN"),
        tariff_payload(card_tariff, member, tariff_id="abc"),
        tariff_payload(card_tariff, member, quantity="1e9", amount="190.00"),
        [1, 2, 3],
    ):
        response = api_client.post(CREATE, payload, format="json")
        assert 400 <= response.status_code < 500, (payload, response.json())
        assert response.json()["error"]
    long_name = _create(api_client, reservation_payload(reservation, first_name="É" * 400))
    assert long_name.status_code == 201
    assert len(PaymentOrder.objects.get().first_name) == 150


def test_someone_elses_reservation_is_not_found(api_client, member, other_member, make_reservation):
    reservation = make_reservation(other_member)
    api_client.force_authenticate(member)
    response = _create(api_client, reservation_payload(reservation))
    assert response.status_code == 404
    assert response.json()["error"] == MSG_RESERVATION_NOT_FOUND


def test_an_expired_hold_cannot_be_paid(api_client, member, make_reservation):
    reservation = make_reservation(member, expires_in=timedelta(minutes=-1))
    api_client.force_authenticate(member)
    response = _create(api_client, reservation_payload(reservation))
    assert response.status_code == 409 and response.json()["error"] == MSG_HOLD_EXPIRED
    assert not PaymentOrder.objects.exists()


def test_a_confirmed_reservation_is_not_paid_twice(api_client, member, make_reservation):
    reservation = make_reservation(member, status=ReservationStatus.CONFIRMED)
    api_client.force_authenticate(member)
    assert _create(api_client, reservation_payload(reservation)).json()["error"] == MSG_RESERVATION_PAID


def test_tariff_order_is_price_times_quantity(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    response = _create(api_client, tariff_payload(card_tariff, member, quantity=2))
    assert response.status_code == 201
    order = PaymentOrder.objects.get()
    assert order.amount == Decimal("380.00") and order.quantity == 2 and order.tariff == card_tariff


@pytest.mark.parametrize("quantity", [0, -1, "abc", 51])
def test_tariff_quantity_bounds(api_client, member, card_tariff, quantity):
    api_client.force_authenticate(member)
    response = _create(api_client, tariff_payload(card_tariff, member, amount="190.00", quantity=quantity))
    assert response.status_code == 400
    assert response.json()["error"] == MSG_QUANTITY.format(max=MAX_QUANTITY)


def test_the_party_tariff_is_not_ordered_online(api_client, member):
    party = TariffFactory(title="EVJF / EVG", type="evenement", price=Decimal("25.00"))
    api_client.force_authenticate(member)
    assert _create(api_client, tariff_payload(party, member)).json()["error"] == MSG_TARIFF_NOT_ORDERABLE


# --- capture (simulator) ---------------------------------------------------------------------------------------


def test_simulated_payment_confirms_the_reservation_and_sends_one_receipt(
    api_client, member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member, participants=2)
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    _simulate_buyer(api_client, order_id)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "COMPLETED"
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.COMPLETED and order.capture_id.startswith("SIMCAP-")

    with django_capture_on_commit_callbacks(execute=True):
        again = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert again.status_code == 200 and again.json()["status"] == "COMPLETED"
    assert len(receipts(mailoutbox)) == 1
    (receipt,) = receipts(mailoutbox)
    assert receipt.to == [member.email]
    assert "50,00 EUR" in receipt.body and order_id in receipt.body
    assert reservation.session.course.title in receipt.body
    assert "démonstration" in receipt.body
    html = receipt.alternatives[0].content
    assert order_id in html and "50,00" in html


def test_declined_payment_leaves_the_reservation_held_and_says_so(
    api_client, member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    _simulate_buyer(api_client, order_id, outcome="decline")
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert response.status_code == 402
    until = timezone.localtime(reservation.hold_expires_at).strftime("%H:%M")
    assert response.json()["error"] == MSG_DECLINED.format(until=until)
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.DECLINED
    assert receipts(mailoutbox) == []

    # The member tries again with a new order, and pays.
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    _simulate_buyer(api_client, order_id)
    assert api_client.post(CAPTURE, {"orderId": order_id}, format="json").status_code == 200
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED


def test_paid_after_the_hold_lapsed_and_the_seats_went_elsewhere(
    api_client, member, other_member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member, participants=2)
    session = reservation.session
    session.max_attendees = 2
    session.save()
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    _simulate_buyer(api_client, order_id)
    # The member took too long: the hold lapsed and someone else took the seats.
    reservation.hold_expires_at = timezone.now() - timedelta(minutes=1)
    reservation.save()
    make_reservation(other_member, participants=2, session=session, status=ReservationStatus.CONFIRMED)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    # Money with nothing in return goes back at once, and the member is told so (docs/decisions.md 14).
    expected = MSG_REFUNDED.format(reason=MSG_HOLD_LOST, amount="50,00")
    assert response.status_code == 409 and response.json()["error"] == expected
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.REFUNDED and order.refund_id
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD
    assert receipts(mailoutbox) == []
    (notice,) = [m for m in mailoutbox if REFUND_SUBJECT in m.subject]
    assert expected in notice.body


def test_capture_before_approval_is_refused(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    order_id = _create(api_client, tariff_payload(card_tariff, member)).json()["id"]
    response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert response.status_code == 402 and response.json()["error"] == MSG_NOT_APPROVED
    assert PaymentOrder.objects.get().status == PaymentStatus.CREATED


def test_cancel_voids_the_order_and_keeps_the_hold(api_client, member, make_reservation):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    response = api_client.post(CANCEL, {"orderId": order_id}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "VOIDED"
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD
    assert api_client.post(CAPTURE, {"orderId": order_id}, format="json").json()["error"] == MSG_ORDER_CLOSED


def test_cancelling_a_paid_order_is_refused_and_changes_nothing(api_client, member, make_reservation):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    _simulate_buyer(api_client, order_id)
    assert api_client.post(CAPTURE, {"orderId": order_id}, format="json").status_code == 200
    response = api_client.post(CANCEL, {"orderId": order_id}, format="json")
    assert response.status_code == 409
    assert response.json()["error"] == MSG_ORDER_NOT_CANCELLABLE
    assert PaymentOrder.objects.get().status == PaymentStatus.COMPLETED
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED


def test_a_member_cannot_capture_someone_elses_order(api_client, member, other_member, card_tariff):
    api_client.force_authenticate(member)
    order_id = _create(api_client, tariff_payload(card_tariff, member)).json()["id"]
    _simulate_buyer(api_client, order_id)
    api_client.force_authenticate(other_member)
    for path in (CAPTURE, APPROVE, CANCEL):
        response = api_client.post(path, {"orderId": order_id}, format="json")
        assert response.status_code == 404
    assert PaymentOrder.objects.get().status == PaymentStatus.APPROVED


def test_tariff_purchase_sends_a_receipt(
    api_client, member, card_tariff, mailoutbox, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(member)
    order_id = _create(api_client, tariff_payload(card_tariff, member, quantity=1)).json()["id"]
    _simulate_buyer(api_client, order_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post(CAPTURE, {"orderId": order_id}, format="json").status_code == 200
    assert len(receipts(mailoutbox)) == 1
    assert "Carte 10 cours" in mailoutbox[0].body and "190,00 EUR" in mailoutbox[0].body


# --- PayPal through the fake server ----------------------------------------------------------------------------


def test_paypal_create_and_capture_end_to_end(
    api_client, member, make_reservation, paypal_settings, fake_paypal, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    assert order_id in fake_paypal.orders
    assert PaymentOrder.objects.get().provider == "paypal"
    assert api_client.post(APPROVE, {"orderId": order_id}, format="json").status_code == 404  # no simulator here
    fake_paypal.approve(order_id)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "COMPLETED"
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert len(receipts(mailoutbox)) == 1


def test_paypal_declined_capture_keeps_the_hold(api_client, member, make_reservation, paypal_settings, fake_paypal):
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    fake_paypal.approve(order_id)
    fake_paypal.decline_next_capture(order_id, how="DECLINED")
    response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert response.status_code == 402
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD


def test_paypal_pending_capture_waits_for_the_webhook(api_client, member, card_tariff, paypal_settings, fake_paypal):
    api_client.force_authenticate(member)
    order_id = _create(api_client, tariff_payload(card_tariff, member)).json()["id"]
    fake_paypal.approve(order_id)
    fake_paypal.pend_next_capture(order_id)
    response = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert response.status_code == 402 and response.json()["error"] == MSG_PENDING
    assert PaymentOrder.objects.get().status == PaymentStatus.APPROVED


def test_paypal_down_gives_a_clear_message(api_client, member, card_tariff, paypal_settings, fake_paypal):
    fake_paypal.stop()
    api_client.force_authenticate(member)
    response = _create(api_client, tariff_payload(card_tariff, member))
    assert response.status_code == 502 and response.json()["error"] == MSG_PROVIDER_DOWN
    assert not PaymentOrder.objects.exists()


def _capture_event(order, event_id="WH-CAP-1", event_type="PAYMENT.CAPTURE.COMPLETED", value=None):
    return {
        "id": event_id,
        "event_version": "1.0",
        "create_time": "2025-01-01T10:05:00Z",
        "resource_type": "capture",
        "event_type": event_type,
        "resource": {
            "id": "CAPTURE123",
            "status": "COMPLETED" if event_type.endswith("COMPLETED") else "DECLINED",
            "amount": {"currency_code": "EUR", "value": value or f"{order.amount:.2f}"},
            "supplementary_data": {"related_ids": {"order_id": order.order_id}},
        },
    }


def _post_webhook(api_client, event, signature=fp.VALID_SIGNATURE):
    """POST a delivery. The view acknowledges it (202) and a task applies it (at once under the test settings'
    immediate backend): `response.task_result` is what the task did."""
    headers = {f"HTTP_{k.replace('-', '_')}": v for k, v in WEBHOOK_HEADERS.items()}
    headers["HTTP_PAYPAL_TRANSMISSION_SIG"] = signature
    with webhook_task_results() as results:
        response = api_client.post(WEBHOOK, event, format="json", **headers)
    if response.status_code == 202:
        assert response.json() == {"result": "queued"}
    response.task_result = results[0] if results else None
    return response


@contextmanager
def webhook_task_results():
    """The return values of the webhook tasks that finished meanwhile."""
    from django.tasks.signals import task_finished

    results = []

    def finished(sender, task_result, **kwargs):
        if task_result.task.name == "paypal_webhook_process":
            results.append(task_result.return_value)

    task_finished.connect(finished)
    try:
        with after_commit():  # the view queues the event after the commit
            yield results
    finally:
        task_finished.disconnect(finished)


def _paypal_order(api_client, member, reservation):
    api_client.force_authenticate(member)
    order_id = _create(api_client, reservation_payload(reservation)).json()["id"]
    api_client.force_authenticate(None)
    return PaymentOrder.objects.get(order_id=order_id)


def test_webhook_capture_completed_fulfils_once(
    api_client, member, make_reservation, paypal_settings, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member)
    order = _paypal_order(api_client, member, reservation)
    with django_capture_on_commit_callbacks(execute=True):
        first = _post_webhook(api_client, _capture_event(order))
        second = _post_webhook(api_client, _capture_event(order))  # PayPal redelivers
        third = _post_webhook(api_client, _capture_event(order, event_id="WH-CAP-2"))  # another event, same capture
    assert first.task_result == "completed"
    assert second.task_result == "duplicate"
    assert third.task_result == "completed"
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert order.status == PaymentStatus.COMPLETED and order.capture_id == "CAPTURE123"
    assert reservation.status == ReservationStatus.CONFIRMED
    assert len(receipts(mailoutbox)) == 1
    assert PaymentWebhookEvent.objects.count() == 2


def test_webhook_with_a_forged_signature_changes_nothing(api_client, member, make_reservation, paypal_settings):
    reservation = make_reservation(member)
    order = _paypal_order(api_client, member, reservation)
    response = _post_webhook(api_client, _capture_event(order), signature="forged")
    # Unsigned is unauthenticated (403); 400 is for a body that is not a JSON object.
    assert response.status_code == 403 and response.json()["error"] == MSG_WEBHOOK_REFUSED
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED
    assert not PaymentWebhookEvent.objects.exists()


def test_webhook_is_refused_in_simulator_mode(api_client):
    response = api_client.post(WEBHOOK, {"id": "x", "event_type": "PAYMENT.CAPTURE.COMPLETED"}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "webhook_signature_invalid"


def test_webhook_with_a_different_amount_does_not_fulfil(api_client, member, make_reservation, paypal_settings):
    reservation = make_reservation(member)
    order = _paypal_order(api_client, member, reservation)
    response = _post_webhook(api_client, _capture_event(order, value="1.00"))
    assert response.task_result == "mismatch"
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED and order.provider_note == MSG_AMOUNT_CAPTURED_MISMATCH


def test_webhook_order_approved_captures_it(
    api_client, member, make_reservation, paypal_settings, fake_paypal, mailoutbox, django_capture_on_commit_callbacks
):
    reservation = make_reservation(member)
    order = _paypal_order(api_client, member, reservation)
    fake_paypal.approve(order.order_id)
    event = {
        "id": "WH-APP-1",
        "event_type": "CHECKOUT.ORDER.APPROVED",
        "resource": {"id": order.order_id, "status": "APPROVED", "intent": "CAPTURE"},
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert _post_webhook(api_client, event).task_result == "completed"
        # the browser's capture comes afterwards: same answer, nothing new
        api_client.force_authenticate(member)
        assert api_client.post(CAPTURE, {"orderId": order.order_id}, format="json").json()["status"] == "COMPLETED"
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert len(receipts(mailoutbox)) == 1


def test_webhook_denied_and_refunded(api_client, member, make_reservation, paypal_settings):
    reservation = make_reservation(member)
    order = _paypal_order(api_client, member, reservation)
    denied = _capture_event(order, event_id="WH-DEN-1", event_type="PAYMENT.CAPTURE.DENIED")
    assert _post_webhook(api_client, denied).task_result == "declined"
    order.refresh_from_db()
    assert order.status == PaymentStatus.DECLINED
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD

    assert _post_webhook(api_client, _capture_event(order, event_id="WH-CAP-9")).task_result == "completed"
    refund = {
        "id": "WH-REF-1",
        "event_type": "PAYMENT.CAPTURE.REFUNDED",
        "resource": {
            "id": "REFUND1",
            "status": "COMPLETED",
            "amount": {"currency_code": "EUR", "value": "50.00"},
            "links": [{"rel": "up", "href": "https://api.paypal.com/v2/payments/captures/CAPTURE123", "method": "GET"}],
        },
    }
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert _post_webhook(api_client, refund).task_result == "refunded"
    assert _post_webhook(api_client, refund).task_result == "duplicate"
    order.refresh_from_db()
    assert order.status == PaymentStatus.REFUNDED
    # What the payment paid for is taken back: the seats are free again.
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CANCELLED


# --- staff orders ----------------------------------------------------------------------------------------------

ORDERS = "/api/paypal/orders"


def _staff_payload(**overrides):
    payload = {
        "order_id": "MANUAL-1",
        "email": "client@example.fr",
        "first_name": "Zoé",
        "last_name": "Bernard",
        "title": "Carte 10 cours",
        "amount": "190.00",
        "date": "2025-01-10",
        "time": "18:30",
        "type": "FORFAIT",
        "status": "COMPLETED",
        "message": "Payé au studio",
    }
    payload.update(overrides)
    return payload


def test_orders_api_is_staff_only(api_client, member):
    assert api_client.get(ORDERS).status_code in (401, 403)
    api_client.force_authenticate(member)
    assert api_client.get(ORDERS).status_code == 403
    assert api_client.post(ORDERS, _staff_payload(), format="json").status_code == 403
    assert api_client.delete(f"{ORDERS}/X").status_code == 403


def test_staff_lists_orders_paginated_and_sorted_in_fixed_queries(
    api_client, staff, django_assert_num_queries, card_tariff
):
    for i in range(12):
        PaymentOrder.objects.create(
            order_id=f"O-{i}",
            email=f"c{i}@example.fr",
            title="Cours",
            amount=Decimal(10 + i),
            date=f"2025-01-{20 - i:02d}",
        )
    api_client.force_authenticate(staff)
    with django_assert_num_queries(2):  # the count, then the page
        response = api_client.get(ORDERS, {"ordering": "amount"})
    data = response.json()
    assert data["count"] == 12 and len(data["results"]) == 10
    assert data["results"][0]["amount"] == "10.00"
    assert api_client.get(ORDERS, {"ordering": "-amount", "page": 2}).json()["results"][-1]["amount"] == "10.00"
    assert api_client.get(ORDERS).json()["results"][0]["order_id"] == "O-11"  # newest first
    assert api_client.get(ORDERS, {"ordering": "-date"}).json()["results"][0]["order_id"] == "O-0"
    assert api_client.get(ORDERS, {"search": "c3@"}).json()["count"] == 1


@pytest.mark.parametrize("missing", ["email", "order_id", "amount", "title", "date", "time"])
def test_staff_create_requires_fields(api_client, staff, missing):
    api_client.force_authenticate(staff)
    response = api_client.post(ORDERS, _staff_payload(**{missing: ""}), format="json")
    assert response.status_code == 400
    assert response.json()["error"] == MSG_REQUIRED_FIELDS == "⚠️ Veuillez remplir tous les champs obligatoires !"
    assert not PaymentOrder.objects.exists()


def test_staff_creates_updates_and_deletes_an_order(api_client, supervisor):
    api_client.force_authenticate(supervisor)
    created = api_client.post(ORDERS, _staff_payload(), format="json")
    assert created.status_code == 201
    order = PaymentOrder.objects.get(order_id="MANUAL-1")
    assert order.amount == Decimal("190.00") and order.currency == "EUR" and order.provider == "manual"

    updated = api_client.put(f"{ORDERS}/MANUAL-1", _staff_payload(amount="95.50", status="REFUNDED"), format="json")
    assert updated.status_code == 200 and updated.json()["amount"] == "95.50"
    order.refresh_from_db()
    assert order.amount == Decimal("95.50") and order.status == PaymentStatus.REFUNDED

    bad = api_client.put(f"{ORDERS}/MANUAL-1", _staff_payload(title=""), format="json")
    assert bad.json()["error"] == MSG_REQUIRED_FIELDS
    assert api_client.put(f"{ORDERS}/MANUAL-1", _staff_payload(amount="abc"), format="json").status_code == 400
    assert api_client.put(f"{ORDERS}/MANUAL-1", _staff_payload(status="PAID"), format="json").status_code == 400
    assert api_client.put(f"{ORDERS}/MANUAL-1", _staff_payload(amount="1e12"), format="json").status_code == 400
    invalid_email = api_client.put(f"{ORDERS}/MANUAL-1", _staff_payload(email="x"), format="json")
    assert invalid_email.json()["error"] == MSG_EMAIL_INVALID
    assert api_client.post(ORDERS, _staff_payload(), format="json").json()["error"] == MSG_ORDER_ID_TAKEN

    # Recorded as paid, it was invoiced, then credited (docs/decisions.md 40): the accounting records stay, so does the
    # order.
    kept = api_client.delete(f"{ORDERS}/MANUAL-1")
    assert kept.status_code == 409 and kept.json()["error"] == MSG_PAID_NOT_DELETED
    # An order typed in by mistake, never paid, goes.
    typo = _staff_payload(order_id="MANUAL-2", status="CREATED")
    assert api_client.post(ORDERS, typo, format="json").status_code == 201
    assert api_client.delete(f"{ORDERS}/MANUAL-2").status_code == 204
    assert list(PaymentOrder.objects.values_list("order_id", flat=True)) == ["MANUAL-1"]
    assert api_client.delete(f"{ORDERS}/MANUAL-2").status_code == 404


def test_webhook_needs_no_csrf_token_or_session(member, make_reservation, paypal_settings, api_client):
    from django.test import Client

    reservation = make_reservation(member)
    order = _paypal_order(api_client, member, reservation)
    client = Client(enforce_csrf_checks=True)
    headers = {f"HTTP_{k.replace('-', '_')}": v for k, v in WEBHOOK_HEADERS.items()}
    with webhook_task_results() as results:
        response = client.post(WEBHOOK, _capture_event(order), content_type="application/json", **headers)
    assert response.status_code == 202 and results == ["completed"]


def test_member_pages_of_the_api_need_csrf(member, card_tariff):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    response = client.post(CREATE, tariff_payload(card_tariff, member), content_type="application/json")
    assert response.status_code == 403
    assert not PaymentOrder.objects.exists()

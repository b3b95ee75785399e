"""The simulator plays the ways a French member pays one-off: a card (CB), which the bank may challenge with 3-D
Secure or decline, and a wallet (Apple Pay, Google Pay), through the same create, approve and capture code and the
same records as PayPal (docs/decisions.md 15 and 42). Every refusal is a French message; nothing is booked that was
not paid, and a repeated step captures once."""

import pytest
from django.utils import timezone

from bookings.models import ReservationStatus
from payments.apis.simulator import (
    MSG_METHOD_INVALID,
    MSG_OUTCOME_INVALID,
    MSG_PASSED_INVALID,
    MSG_SCENARIO_INVALID,
    MSG_WALLET_INVALID,
    MSG_WALLET_SCENARIO,
)
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.services.common import (
    MSG_AUTHENTICATION_PENDING,
    MSG_AUTHENTICATION_REFUSED,
    MSG_BANK_DECLINED,
    MSG_BANK_DECLINED_HOLD,
    MSG_DECLINED,
    MSG_NO_CHALLENGE,
    MSG_ORDER_CLOSED,
    MSG_ORDER_NOT_FOUND,
)
from payments.services.receipts import RECEIPT_SUBJECT
from payments.simulator import CARD_LABEL

from .conftest import reservation_payload, tariff_payload
from .test_concurrency import ROUNDS, _race

pytestmark = pytest.mark.django_db

CREATE = "/api/paypal/create-order"
CAPTURE = "/api/paypal/capture-payment"
APPROVE = "/api/paypal/simulator/approve"
AUTHENTICATE = "/api/paypal/simulator/authenticate"
CANCEL = "/api/paypal/cancel-order"
ORDERS = "/api/paypal/orders"


def _post(api_client, path, payload):
    return api_client.post(path, payload, format="json")


def _receipts(mailoutbox, order_id):
    return [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject and order_id in m.body]


@pytest.fixture
def held(api_client, member, make_reservation):
    """A member's held reservation and the order opened to pay it."""
    reservation = make_reservation(member)
    api_client.force_authenticate(member)
    order_id = _post(api_client, CREATE, reservation_payload(reservation)).json()["id"]
    return reservation, order_id


@pytest.fixture
def tariff_order(api_client, member, card_tariff):
    api_client.force_authenticate(member)
    return _post(api_client, CREATE, tariff_payload(card_tariff, member)).json()["id"]


def _order(order_id) -> PaymentOrder:
    return PaymentOrder.objects.get(order_id=order_id)


def _simulated(order_id) -> SimulatedProviderOrder:
    return SimulatedProviderOrder.objects.get(order_id=order_id)


def _unchanged(order_id):
    """The two rows of an order, to compare before and after a refused call."""
    return (
        PaymentOrder.objects.filter(order_id=order_id).values().get(),
        SimulatedProviderOrder.objects.filter(order_id=order_id).values().get(),
    )


# --- bad input: a French 400, nothing changed --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"method": "cheque"}, "method", MSG_METHOD_INVALID),
        ({"method": ""}, "method", MSG_METHOD_INVALID),
        ({"method": None}, "method", MSG_METHOD_INVALID),
        ({"scenario": "peut-être"}, "scenario", MSG_SCENARIO_INVALID),
        ({"method": "card", "scenario": 3}, "scenario", MSG_SCENARIO_INVALID),
        ({"method": "wallet", "scenario": "challenge"}, "scenario", MSG_WALLET_SCENARIO),
        ({"method": "wallet", "wallet": "samsung_pay"}, "wallet", MSG_WALLET_INVALID),
        ({"method": "card", "wallet": "paylib"}, "wallet", MSG_WALLET_INVALID),
        ({"method": "card", "outcome": "bof"}, "outcome", MSG_OUTCOME_INVALID),
    ],
)
def test_an_unknown_method_scenario_or_wallet_is_refused_in_french(api_client, held, extra, field, message):
    _, order_id = held
    before = _unchanged(order_id)
    response = _post(api_client, APPROVE, {"orderId": order_id, **extra})
    assert response.status_code == 400
    assert response.json()["error"] == message
    assert response.json()["errors"][field] == [message]
    assert _unchanged(order_id) == before


@pytest.mark.parametrize("passed", [None, "true", 1, "oui"])
def test_authenticate_needs_a_yes_or_no(api_client, held, passed):
    _, order_id = held
    _post(api_client, APPROVE, {"orderId": order_id, "method": "card", "scenario": "challenge"})
    before = _unchanged(order_id)
    payload = {"orderId": order_id} if passed is None else {"orderId": order_id, "passed": passed}
    response = _post(api_client, AUTHENTICATE, payload)
    assert response.status_code == 400 and response.json()["error"] == MSG_PASSED_INVALID
    assert _unchanged(order_id) == before


def test_authenticate_needs_an_order_id(api_client, member):
    api_client.force_authenticate(member)
    for payload in ({"passed": True}, {"orderId": "", "passed": True}, {"orderId": "x" * 65, "passed": True}):
        response = _post(api_client, AUTHENTICATE, payload)
        assert response.status_code == 400 and response.json()["error"] == MSG_ORDER_NOT_FOUND


# --- card, paid at once ------------------------------------------------------------------------------------------


def test_a_card_approved_then_captured_books_and_records_the_card(api_client, held, mailoutbox):
    reservation, order_id = held
    approved = _post(api_client, APPROVE, {"orderId": order_id, "method": "card", "scenario": "success"})
    assert approved.status_code == 200 and approved.json() == {"id": order_id, "status": "APPROVED"}
    order = _order(order_id)
    assert order.status == PaymentStatus.APPROVED
    assert (order.payment_method, order.payment_method_label) == ("card", "Carte •••• 4242 (CB)")
    assert CARD_LABEL == "Carte •••• 4242 (CB)"

    captured = _post(api_client, CAPTURE, {"orderId": order_id})
    assert captured.status_code == 200 and captured.json()["status"] == "COMPLETED"
    order.refresh_from_db()
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert order.payment_method_label == "Carte •••• 4242 (CB)"
    # Amounts are the server's: the simulator captured what the order costs.
    assert _simulated(order_id).amount == order.amount == reservation.total_amount


def test_the_card_is_the_default_method_and_the_outcome_still_works(api_client, held):
    _, order_id = held
    assert _post(api_client, APPROVE, {"orderId": order_id}).json() == {"id": order_id, "status": "APPROVED"}
    assert _order(order_id).payment_method_label == CARD_LABEL
    # The older `outcome` keeps its meaning and its message: the simulated card is declined at the capture.
    _post(api_client, APPROVE, {"orderId": order_id, "outcome": "decline"})
    refused = _post(api_client, CAPTURE, {"orderId": order_id})
    assert refused.status_code == 402
    until = timezone.localtime(held[0].hold_expires_at).strftime("%H:%M")
    assert refused.json()["error"] == MSG_DECLINED.format(until=until)


# --- wallets -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wallet", "label"), [(None, "Apple Pay"), ("apple_pay", "Apple Pay"), ("google_pay", "Google Pay")]
)
def test_a_wallet_pays_and_is_named(api_client, tariff_order, member, wallet, label):
    payload = {"orderId": tariff_order, "method": "wallet"}
    if wallet:
        payload["wallet"] = wallet
    assert _post(api_client, APPROVE, payload).json() == {"id": tariff_order, "status": "APPROVED"}
    assert _post(api_client, CAPTURE, {"orderId": tariff_order}).status_code == 200
    order = _order(tariff_order)
    assert order.status == PaymentStatus.COMPLETED
    assert (order.payment_method, order.payment_method_label) == ("wallet", label)


# --- declined by the bank ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["card", "wallet"])
def test_a_declined_card_or_wallet_books_nothing_and_keeps_the_hold(
    api_client, held, mailoutbox, django_capture_on_commit_callbacks, method
):
    reservation, order_id = held
    hold = reservation.hold_expires_at
    approved = _post(api_client, APPROVE, {"orderId": order_id, "method": method, "scenario": "declined"})
    assert approved.status_code == 200 and approved.json() == {"id": order_id, "status": "APPROVED"}

    with django_capture_on_commit_callbacks(execute=True):
        refused = _post(api_client, CAPTURE, {"orderId": order_id})
    assert refused.status_code == 402
    until = timezone.localtime(hold).strftime("%H:%M")
    expected = MSG_BANK_DECLINED_HOLD.format(until=until)
    assert expected.startswith("Paiement refusé par votre banque. Aucun montant n'a été débité.")
    body = refused.json()
    assert body["error"] == body["message"] == expected
    assert body["code"] == "payment_not_completed" and body["status"] == "DECLINED"
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD and reservation.hold_expires_at == hold
    order = _order(order_id)
    assert order.status == PaymentStatus.DECLINED and not order.capture_id and not order.completed_at
    assert not _simulated(order_id).capture_id
    assert _receipts(mailoutbox, order_id) == []

    # The member tries again with a card the bank accepts, on the same order, and pays once.
    _post(api_client, APPROVE, {"orderId": order_id, "method": "card"})
    assert _post(api_client, CAPTURE, {"orderId": order_id}).status_code == 200
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert _order(order_id).payment_method_label == CARD_LABEL


def test_a_declined_purchase_without_a_hold_says_the_bank_refused(api_client, tariff_order):
    _post(
        api_client,
        APPROVE,
        {"orderId": tariff_order, "method": "wallet", "wallet": "google_pay", "scenario": "declined"},
    )
    refused = _post(api_client, CAPTURE, {"orderId": tariff_order})
    assert refused.status_code == 402
    assert refused.json()["error"] == MSG_BANK_DECLINED
    assert MSG_BANK_DECLINED == "Paiement refusé par votre banque. Aucun montant n'a été débité."
    order = _order(tariff_order)
    assert order.status == PaymentStatus.DECLINED and order.granted_pass is None
    # The staff see which method was tried.
    assert (order.payment_method, order.payment_method_label) == ("wallet", "Google Pay")


# --- 3-D Secure --------------------------------------------------------------------------------------------------


def _challenge(api_client, order_id):
    response = _post(api_client, APPROVE, {"orderId": order_id, "method": "card", "scenario": "challenge"})
    assert response.status_code == 200
    return response


def test_a_challenged_card_waits_for_its_authentication(api_client, held):
    reservation, order_id = held
    response = _challenge(api_client, order_id)
    assert response.json() == {"id": order_id, "status": "ACTION_REQUIRED", "challenge": True}
    order = _order(order_id)
    assert order.status == PaymentStatus.CREATED  # not approved while the bank waits
    assert order.payment_method_label == CARD_LABEL
    assert _simulated(order_id).challenge == "PENDING"

    before = _unchanged(order_id)
    early = _post(api_client, CAPTURE, {"orderId": order_id})
    assert early.status_code == 402 and early.json()["error"] == MSG_AUTHENTICATION_PENDING
    assert early.json()["code"] == "payment_not_completed"
    assert _unchanged(order_id) == before
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD


def test_a_passed_challenge_approves_once_and_captures_once(
    api_client, held, mailoutbox, django_capture_on_commit_callbacks
):
    reservation, order_id = held
    _challenge(api_client, order_id)
    passed = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True})
    assert passed.status_code == 200 and passed.json() == {"id": order_id, "status": "APPROVED"}
    assert _order(order_id).status == PaymentStatus.APPROVED
    assert _simulated(order_id).challenge == "PASSED"

    # A second call answers the same, whatever it says, and changes nothing.
    before = _unchanged(order_id)
    for again in (True, False):
        repeat = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": again})
        assert repeat.status_code == 200 and repeat.json() == {"id": order_id, "status": "APPROVED"}
    assert _unchanged(order_id) == before

    with django_capture_on_commit_callbacks(execute=True):
        first = _post(api_client, CAPTURE, {"orderId": order_id})
        second = _post(api_client, CAPTURE, {"orderId": order_id})
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert len(_receipts(mailoutbox, order_id)) == 1
    simulated = _simulated(order_id)
    assert simulated.capture_id and simulated.capture_id == _order(order_id).capture_id
    # Authenticated and paid: a late answer to the challenge still says the same.
    late = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True})
    assert late.status_code == 200 and late.json()["status"] == "APPROVED"


def test_a_refused_challenge_cannot_be_captured(api_client, held, mailoutbox, django_capture_on_commit_callbacks):
    reservation, order_id = held
    hold = reservation.hold_expires_at
    _challenge(api_client, order_id)
    refused = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": False})
    assert refused.status_code == 402
    body = refused.json()
    assert body["error"] == body["message"] == MSG_AUTHENTICATION_REFUSED
    assert MSG_AUTHENTICATION_REFUSED == "Authentification refusée par votre banque. Aucun montant n'a été débité."
    assert body["code"] == "payment_not_completed"
    order = _order(order_id)
    assert order.status == PaymentStatus.DECLINED
    assert _simulated(order_id).challenge == "FAILED"

    before = _unchanged(order_id)
    for again in (False, True):
        repeat = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": again})
        assert repeat.status_code == 402 and repeat.json()["error"] == MSG_AUTHENTICATION_REFUSED
    assert _unchanged(order_id) == before

    with django_capture_on_commit_callbacks(execute=True):
        capture = _post(api_client, CAPTURE, {"orderId": order_id})
    assert capture.status_code == 402 and capture.json()["error"] == MSG_AUTHENTICATION_REFUSED
    assert capture.json()["status"] == "DECLINED"
    assert _unchanged(order_id) == before
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.HELD and reservation.hold_expires_at == hold
    assert _receipts(mailoutbox, order_id) == []

    # Another try, which the bank accepts without a challenge.
    _post(api_client, APPROVE, {"orderId": order_id})
    assert _post(api_client, CAPTURE, {"orderId": order_id}).status_code == 200
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED


def test_a_new_challenge_after_an_approval_takes_the_approval_back(api_client, held):
    _, order_id = held
    _post(api_client, APPROVE, {"orderId": order_id})
    assert _order(order_id).status == PaymentStatus.APPROVED
    _challenge(api_client, order_id)
    assert _order(order_id).status == PaymentStatus.CREATED
    assert _post(api_client, CAPTURE, {"orderId": order_id}).json()["error"] == MSG_AUTHENTICATION_PENDING


# --- who may authenticate, and when ------------------------------------------------------------------------------


def test_only_the_owner_answers_the_challenge(api_client, held, other_member, staff):
    _, order_id = held
    _challenge(api_client, order_id)
    before = _unchanged(order_id)
    for someone in (other_member, staff):
        api_client.force_authenticate(someone)
        response = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True})
        assert response.status_code == 404 and response.json()["error"] == MSG_ORDER_NOT_FOUND
    api_client.force_authenticate(None)
    assert _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True}).status_code == 401
    assert _unchanged(order_id) == before


def test_an_unknown_order_is_not_found(api_client, member):
    api_client.force_authenticate(member)
    response = _post(api_client, AUTHENTICATE, {"orderId": "INCONNU", "passed": True})
    assert response.status_code == 404 and response.json()["code"] == "order_not_found"


@pytest.mark.parametrize("approve", [None, {"method": "card"}, {"method": "wallet"}])
def test_no_challenge_is_waiting_for_an_order_approved_without_one(api_client, held, approve):
    _, order_id = held
    if approve:
        _post(api_client, APPROVE, {"orderId": order_id, **approve})
    before = _unchanged(order_id)
    response = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True})
    assert response.status_code == 409
    assert response.json()["error"] == MSG_NO_CHALLENGE and response.json()["code"] == "no_challenge"
    assert _unchanged(order_id) == before


def test_a_cancelled_order_takes_no_authentication(api_client, held):
    _, order_id = held
    _challenge(api_client, order_id)
    assert _post(api_client, CANCEL, {"orderId": order_id}).status_code == 200
    before = _unchanged(order_id)
    response = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True})
    assert response.status_code == 409 and response.json()["error"] == MSG_ORDER_CLOSED
    assert _unchanged(order_id) == before
    assert _simulated(order_id).challenge == "PENDING"


def test_with_paypal_configured_there_is_no_simulated_challenge(api_client, member, card_tariff, paypal_settings):
    api_client.force_authenticate(member)
    order_id = _post(api_client, CREATE, tariff_payload(card_tariff, member)).json()["id"]
    response = _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True})
    assert response.status_code == 404 and response.json()["error"] == MSG_ORDER_NOT_FOUND


# --- what the records say ----------------------------------------------------------------------------------------


def test_a_paypal_capture_records_paypal(api_client, member, card_tariff, paypal_settings, fake_paypal):
    api_client.force_authenticate(member)
    order_id = _post(api_client, CREATE, tariff_payload(card_tariff, member)).json()["id"]
    assert _order(order_id).payment_method == ""
    fake_paypal.approve(order_id)
    assert _post(api_client, CAPTURE, {"orderId": order_id}).status_code == 200
    order = _order(order_id)
    assert (order.payment_method, order.payment_method_label) == ("paypal", "PayPal")


def test_the_staff_see_the_method_in_the_orders_list_and_detail(api_client, held, staff):
    _, order_id = held
    _post(api_client, APPROVE, {"orderId": order_id, "method": "wallet", "wallet": "google_pay"})
    _post(api_client, CAPTURE, {"orderId": order_id})
    api_client.force_authenticate(staff)
    (row,) = api_client.get(ORDERS).json()["results"]
    assert row["payment_method"] == "wallet" and row["payment_method_label"] == "Google Pay"
    order = _order(order_id)
    detail = api_client.put(
        f"{ORDERS}/{order_id}",
        {
            "order_id": order_id,
            "email": order.email,
            "title": order.title,
            "amount": f"{order.amount:.2f}",
            "date": order.date,
            "time": order.time,
            "message": "Payé en ligne.",
        },
        format="json",
    )
    assert detail.status_code == 200, detail.json()
    assert detail.json()["payment_method_label"] == "Google Pay"


def test_the_admin_lists_the_method(client, held, api_client, staff):
    _, order_id = held
    _post(api_client, APPROVE, {"orderId": order_id, "method": "card", "scenario": "challenge"})
    client.force_login(staff)
    page = client.get("/django-admin/payments/paymentorder/")
    assert page.status_code == 200
    assert CARD_LABEL in page.content.decode()
    simulated = client.get("/django-admin/payments/simulatedproviderorder/")
    assert simulated.status_code == 200 and "En attente" in simulated.content.decode()


def test_the_schema_says_what_the_simulator_takes_and_answers():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    approve = schema["components"]["schemas"]["SimulatorApproveInput"]
    assert {"method", "scenario", "wallet", "outcome"} <= set(approve["properties"])
    # A wallet is never challenged: a body the schema accepts is one the server takes.
    assert approve["not"]["properties"]["method"]["enum"] == ["wallet"]
    assert approve["not"]["properties"]["scenario"]["enum"] == ["challenge"]
    authenticate = schema["paths"]["/api/paypal/simulator/authenticate"]["post"]
    assert {"200", "402", "404", "409"} <= set(authenticate["responses"])
    body = authenticate["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert schema["components"]["schemas"][body]["properties"]["passed"]["type"] == "boolean"


# --- races on PostgreSQL -----------------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_captures_of_a_passed_challenge_at_once_pay_and_book_once(api_client, held, mailoutbox, round_):
    reservation, order_id = held
    member = reservation.user
    _challenge(api_client, order_id)
    assert _post(api_client, AUTHENTICATE, {"orderId": order_id, "passed": True}).status_code == 200

    from payments.services.capture import payment_order_capture

    outcomes = _race(
        lambda: payment_order_capture(order_id=order_id, user=member),
        lambda: payment_order_capture(order_id=order_id, user=member),
    )
    assert all(o.completed for o in outcomes)
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    assert PaymentOrder.objects.filter(reservation=reservation, status=PaymentStatus.COMPLETED).count() == 1
    simulated = _simulated(order_id)
    assert simulated.capture_status == "COMPLETED" and simulated.capture_id == _order(order_id).capture_id
    assert len(_receipts(mailoutbox, order_id)) == 1
    assert _order(order_id).payment_method_label == CARD_LABEL


@pytest.mark.postgres
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_answers_to_one_challenge_at_once_settle_it_once(api_client, held, round_):
    reservation, order_id = held
    member = reservation.user
    _challenge(api_client, order_id)

    from payments.services.capture import simulator_order_authenticate
    from payments.services.common import PaymentError

    def answer(passed):
        try:
            simulator_order_authenticate(order_id=order_id, user=member, passed=passed)
            return "APPROVED"
        except PaymentError as exc:
            return exc.message

    results = _race(lambda: answer(True), lambda: answer(False))
    assert len(set(results)) == 1  # both callers are told the one result
    order = _order(order_id)
    if results[0] == "APPROVED":
        assert _simulated(order_id).challenge == "PASSED" and order.status == PaymentStatus.APPROVED
    else:
        assert results[0] == MSG_AUTHENTICATION_REFUSED
        assert _simulated(order_id).challenge == "FAILED" and order.status == PaymentStatus.DECLINED

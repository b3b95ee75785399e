"""Deposits of quoted requests: the member pays their own request's deposit with the simulator, once;
another member's request is a 404; a request cancelled or refused after its deposit was paid is refunded; a capture
that arrives after the request was cancelled refunds instead of recording."""

from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payments.apis.deposits import MSG_DEPOSIT_KIND
from payments.models import PaymentOrder, PaymentStatus
from payments.services.common import MSG_AMOUNT_MISMATCH
from quotes import workflow
from quotes.models import PartyRequestEvent, PartyReservation, RoomRentalRequest
from quotes.services import parties, rentals
from studio.models import OutgoingEmail

DEPOSIT = "/api/paypal/deposit-order"
CAPTURE = "/api/paypal/capture-payment"
APPROVE = "/api/paypal/simulator/approve"


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


def pay(api_client, *, kind="party", request_id, amount="50.00"):
    created = api_client.post(
        DEPOSIT, {"kind": kind, "request_id": request_id, "amount": amount, "accept_terms": True}, format="json"
    )
    assert created.status_code == 201, created.json()
    order_id = created.json()["id"]
    assert api_client.post(APPROVE, {"orderId": order_id}, format="json").status_code == 200
    return order_id, api_client.post(CAPTURE, {"orderId": order_id}, format="json")


def test_the_member_pays_the_deposit_once(api_client, member, quoted_party):
    api_client.force_authenticate(member)
    order_id, captured = pay(api_client, request_id=quoted_party.pk)
    assert captured.status_code == 200 and captured.json()["status"] == "COMPLETED"
    assert captured.json()["amount"] == "50.00"
    again = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert again.status_code == 200
    quoted_party.refresh_from_db()
    assert quoted_party.deposit_paid_at is not None and quoted_party.status == "quoted"
    order = PaymentOrder.objects.get(order_id=order_id)
    assert (order.party_id, order.amount, order.type, order.user_id) == (
        quoted_party.pk,
        Decimal("50.00"),
        "ACOMPTE_EVJF",
        member.pk,
    )
    assert PartyRequestEvent.objects.filter(party=quoted_party, kind="deposit_paid").count() == 1
    # No second deposit once it is paid.
    refused = api_client.post(
        DEPOSIT,
        {"kind": "party", "request_id": quoted_party.pk, "amount": "50.00", "accept_terms": True},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["error"] == workflow.MSG_DEPOSIT_NOT_DUE


def test_asking_twice_answers_the_same_open_order(api_client, member, quoted_party):
    api_client.force_authenticate(member)
    body = {"kind": "party", "request_id": quoted_party.pk, "amount": "50.00", "accept_terms": True}
    first, second = api_client.post(DEPOSIT, body, format="json"), api_client.post(DEPOSIT, body, format="json")
    assert first.json()["id"] == second.json()["id"]
    assert PaymentOrder.objects.filter(party=quoted_party).count() == 1


def test_another_member_cannot_pay_or_see_it(api_client, other_member, quoted_party):
    api_client.force_authenticate(other_member)
    response = api_client.post(
        DEPOSIT,
        {"kind": "party", "request_id": quoted_party.pk, "amount": "50.00", "accept_terms": True},
        format="json",
    )
    assert response.status_code == 404 and response.json()["error"] == workflow.MSG_REQUEST_NOT_FOUND
    assert not PaymentOrder.objects.exists()


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"amount": "49.00", "accept_terms": True}, 409, MSG_AMOUNT_MISMATCH),
        ({"kind": "mariage"}, 400, MSG_DEPOSIT_KIND),
        ({"request_id": 0}, 400, workflow.MSG_REQUEST_NOT_FOUND),
    ],
)
def test_bad_deposit_orders_are_refused_in_french(api_client, member, quoted_party, body, status, message):
    api_client.force_authenticate(member)
    payload = {"kind": "party", "request_id": quoted_party.pk, "amount": "50.00", **body}
    response = api_client.post(DEPOSIT, payload, format="json")
    assert response.status_code == status and response.json()["error"] == message
    assert not PaymentOrder.objects.exists()


def test_a_request_not_quoted_has_no_deposit_to_pay(api_client, member):
    party = PartyReservation.objects.create(
        user=member, date=timezone.localdate() + timedelta(days=5), time=time(10, 0), participants=6, email="a@b.fr"
    )
    api_client.force_authenticate(member)
    response = api_client.post(
        DEPOSIT, {"kind": "party", "request_id": party.pk, "amount": "1.00", "accept_terms": True}, format="json"
    )
    assert response.status_code == 409 and response.json()["error"] == workflow.MSG_DEPOSIT_NOT_DUE


def test_cancelled_after_the_deposit_the_member_is_refunded(
    api_client, member, quoted_party, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(member)
    order_id, _ = pay(api_client, request_id=quoted_party.pk)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(f"/api/evf-reservations/{quoted_party.pk}/cancel", format="json")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert response.json()["events"][-1]["note"] == "L'acompte sera remboursé."
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.REFUNDED and order.refund_id
    assert order.provider_note.startswith("Votre demande (EVJF du ") and "annulée" in order.provider_note
    assert OutgoingEmail.objects.filter(subject__contains="Votre remboursement").count() == 1


def test_refused_after_the_deposit_the_member_is_refunded(
    api_client, member, staff, quoted_party, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(member)
    order_id, _ = pay(api_client, request_id=quoted_party.pk)
    with django_capture_on_commit_callbacks(execute=True):
        parties.party_refuse(party_id=quoted_party.pk, staff=staff, reason="Salle indisponible")
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED


def test_a_capture_after_the_member_cancelled_is_refunded_not_recorded(
    api_client, member, quoted_party, django_capture_on_commit_callbacks
):
    api_client.force_authenticate(member)
    created = api_client.post(
        DEPOSIT,
        {"kind": "party", "request_id": quoted_party.pk, "amount": "50.00", "accept_terms": True},
        format="json",
    )
    order_id = created.json()["id"]
    api_client.post(APPROVE, {"orderId": order_id}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        parties.party_cancel(party_id=quoted_party.pk, member=member)
    with django_capture_on_commit_callbacks(execute=True):
        captured = api_client.post(CAPTURE, {"orderId": order_id}, format="json")
    assert captured.status_code == 409 and captured.json()["refunded"] is True
    assert workflow.MSG_DEPOSIT_NOT_DUE in captured.json()["error"]
    quoted_party.refresh_from_db()
    assert quoted_party.deposit_paid_at is None
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED


def test_a_members_room_rental_deposit(api_client, member, other_member, staff):
    rental = RoomRentalRequest.objects.create(
        user=member,
        name="Emma",
        email=member.email,
        phone="0601020304",
        date=timezone.localdate() + timedelta(days=9),
        time=time(19, 0),
    )
    rentals.rental_quote(rental_id=rental.pk, staff=staff, amount=Decimal("240.00"), deposit=Decimal("80"))
    api_client.force_authenticate(other_member)
    hidden = api_client.post(
        DEPOSIT, {"kind": "rental", "request_id": rental.pk, "amount": "80.00", "accept_terms": True}, format="json"
    )
    assert hidden.status_code == 404
    api_client.force_authenticate(member)
    order_id, captured = pay(api_client, kind="rental", request_id=rental.pk, amount="80.00")
    assert captured.status_code == 200
    rentals.rental_confirm(rental_id=rental.pk, staff=staff)
    rental.refresh_from_db()
    assert rental.status == "confirmed" and PaymentOrder.objects.get(order_id=order_id).rental_id == rental.pk


def test_the_refund_of_a_closed_request_is_idempotent(
    api_client, member, quoted_party, django_capture_on_commit_callbacks
):
    from payments.services import deposits
    from payments.services.refunds import payment_refunds_retry

    api_client.force_authenticate(member)
    order_id, _ = pay(api_client, request_id=quoted_party.pk)
    with django_capture_on_commit_callbacks(execute=True):
        parties.party_cancel(party_id=quoted_party.pk, member=member)
    # The signal delivered again, the periodic retry run: nothing more happens.
    with django_capture_on_commit_callbacks(execute=True):
        assert deposits.deposit_refund_for_closed_request(sender=PartyReservation, request_id=quoted_party.pk) == []
        assert payment_refunds_retry() == 0
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.REFUNDED
    assert OutgoingEmail.objects.filter(subject__contains="Votre remboursement").count() == 1


def test_visitors_see_no_request(api_client, quoted_party):
    assert api_client.get("/api/evf-reservations/mine").status_code in (401, 403)
    assert api_client.get(f"/api/evf-reservations/{quoted_party.pk}").status_code in (401, 403)
    assert api_client.get("/api/rental-requests/mine").status_code in (401, 403)
    body = {"kind": "party", "request_id": quoted_party.pk, "amount": "50.00", "accept_terms": True}
    assert api_client.post(DEPOSIT, body, format="json").status_code in (401, 403)

"""What the booking rush's requests leave to a worker, and what they still guarantee.

A capture queues one task after its commit, which renders the reservation's confirmation (templates and .ics) and
the receipt with the invoice's PDF; the answers of the four steps keep their exact JSON; an order's invoice
issued a second time is the same invoice and takes no number.
"""

from decimal import Decimal

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bookings.emails import SUBJECT_RESERVATION_CONFIRMED
from bookings.models import Reservation, ReservationStatus
from bookings.services.reservations import reservation_confirmation_send
from courses.tests.factories import CourseSessionFactory
from invoices.models import Invoice, InvoiceDocument, InvoiceKind
from invoices.receipts import payment_completed_emails_send
from invoices.services import invoice_issue_for_order
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.provider_types import ProviderError
from payments.services.common import MSG_ORDER_NOT_FOUND
from payments.services.receipts import RECEIPT_SUBJECT
from payments.simulator import SimulatorProvider
from studio.models import OutgoingEmail

from .conftest import reservation_payload
from .test_attacks_money import CREATE, approve, capture, hold, open_order

pytestmark = pytest.mark.django_db

RECORDING = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def session(db):
    return CourseSessionFactory(max_attendees=10, price_per_participant=Decimal("25.00"))


def confirmations():
    return OutgoingEmail.objects.filter(subject__contains=SUBJECT_RESERVATION_CONFIRMED)


def test_the_capture_queues_one_task_and_the_worker_renders_the_confirmation_and_the_receipt_once(
    api_client, member, session, django_capture_on_commit_callbacks
):
    from django.tasks import default_task_backend

    with override_settings(TASKS=RECORDING):
        reservation = Reservation.objects.get(pk=hold(api_client, member, session, 2).json()["id"])
        order_id = open_order(api_client, member, reservation).json()["id"]
        approve(api_client, order_id)
        with django_capture_on_commit_callbacks(execute=True):
            answers = [capture(api_client, order_id) for _ in range(3)]  # replays: one task
        queued = list(default_task_backend.results)
        assert [a.status_code for a in answers] == [200, 200, 200]
        assert not OutgoingEmail.objects.exists()  # nothing rendered in the request
        order = PaymentOrder.objects.get(order_id=order_id)
        assert [(r.task.func, r.kwargs) for r in queued] == [
            (payment_completed_emails_send.func, {"order_pk": order.pk})
        ]
        queued[0].task.call(**queued[0].kwargs)  # the worker
    reservation.refresh_from_db()
    assert reservation.status == ReservationStatus.CONFIRMED
    sent = confirmations().get()
    assert sent.to == [member.email]
    start = timezone.localtime(reservation.session.start)
    # The calendar file and the QR code shown at the door (docs/decisions.md 58).
    assert [a["name"] for a in sent.attachments] == [f"cours-{start:%Y-%m-%d}.ics", "code-qr-reservation.png"]
    receipt = OutgoingEmail.objects.get(subject__contains=RECEIPT_SUBJECT)
    invoice = Invoice.objects.get(payment_order=order, kind=InvoiceKind.INVOICE)
    assert [a["name"] for a in receipt.attachments] == [invoice.file_name]  # the PDF, rendered by that task
    assert InvoiceDocument.objects.filter(invoice=invoice).exists()
    assert OutgoingEmail.objects.count() == 2


def test_a_booking_paid_with_a_pass_still_queues_its_confirmation(
    api_client, member, session, django_capture_on_commit_callbacks
):
    from django.tasks import default_task_backend

    from bookings.tests.factories import PassFactory

    card = PassFactory(member=member)
    with override_settings(TASKS=RECORDING):
        with django_capture_on_commit_callbacks(execute=True):
            response = hold(api_client, member, session, 1, pass_id=card.pk)
        queued = [(r.task.func, r.kwargs) for r in default_task_backend.results]
    assert response.status_code == 201, response.json()
    assert queued == [(reservation_confirmation_send.func, {"reservation_id": response.json()["id"]})]


def test_the_four_answers_keep_their_json(api_client, member, session, django_capture_on_commit_callbacks):
    held = hold(api_client, member, session, 1)
    assert held.status_code == 201
    body = held.json()
    reservation = Reservation.objects.select_related("session__course").get(pk=body["id"])
    assert body["title"] == reservation.session.course.title
    assert (body["participants"], body["unit_price"], body["total_amount"], body["status"]) == (
        1,
        "25.00",
        "25.00",
        ReservationStatus.HELD,
    )
    assert body["paid_with_pass"] is None and body["credits_spent"] == 0 and body["can_cancel"] is False
    created = open_order(api_client, member, reservation)
    order = PaymentOrder.objects.get(reservation=reservation)
    assert created.status_code == 201
    assert created.json() == {
        "id": order.order_id,
        "status": "CREATED",
        "amount": "25.00",
        "currency": "EUR",
        "provider": "simulator",
    }
    response = api_client.post("/api/paypal/simulator/approve", {"orderId": order.order_id}, format="json")
    assert response.json() == {"id": order.order_id, "status": "APPROVED"}
    with django_capture_on_commit_callbacks(execute=True):
        captured = capture(api_client, order.order_id)
    assert captured.json() == {
        "id": order.order_id,
        "status": "COMPLETED",
        "amount": "25.00",
        "currency": "EUR",
        "title": reservation.session.course.title,
    }


def test_an_orders_invoice_issued_again_is_the_same_and_takes_no_number(
    api_client, member, session, django_capture_on_commit_callbacks
):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 1).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    approve(api_client, order_id)
    with django_capture_on_commit_callbacks(execute=True):
        capture(api_client, order_id)
    order = PaymentOrder.objects.get(order_id=order_id, status=PaymentStatus.COMPLETED)
    first = Invoice.objects.get(payment_order=order, kind=InvoiceKind.INVOICE)
    assert first.customer_name == "Emma Petit" and first.total_amount == Decimal("25.00")
    assert first.description.startswith(f"{order.title} – séance du ")
    assert invoice_issue_for_order(order_id=order.pk) == first
    other_session = CourseSessionFactory(max_attendees=10, price_per_participant=Decimal("25.00"))
    second = Reservation.objects.get(pk=hold(api_client, member, other_session, 1).json()["id"])
    second_order = open_order(api_client, member, second).json()["id"]
    approve(api_client, second_order)
    with django_capture_on_commit_callbacks(execute=True):
        capture(api_client, second_order)
    numbers = list(Invoice.objects.filter(kind=InvoiceKind.INVOICE).order_by("sequence").values_list("sequence"))
    assert numbers == [(first.sequence,), (first.sequence + 1,)]  # no gap: the second call gave its number back


# --- The simulator's side of each step, and the capture's transaction ------------------------------------------

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def _simulator_statements(captured) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if "payments_simulatedproviderorder" in q["sql"]]


def _book(api_client, member, session):
    """Hold → create order → approve → capture, each step's queries captured: (order id, capture's answer, the
    four contexts)."""
    contexts = [CaptureQueriesContext(connection) for _ in range(4)]
    with contexts[0]:
        held = hold(api_client, member, session, 2)
    reservation = Reservation.objects.get(pk=held.json()["id"])
    payload = reservation_payload(reservation)  # the test's own reads, outside the step's queries
    with contexts[1]:
        order_id = api_client.post(CREATE, payload, format="json").json()["id"]
    with contexts[2]:
        approve(api_client, order_id)
    with contexts[3]:
        answer = capture(api_client, order_id)
    return order_id, answer, contexts


def _simulated(order_id) -> tuple:
    row = SimulatedProviderOrder.objects.get(order_id=order_id)
    return row.status, row.card_declined, row.capture_status, row.amount


@pytest.mark.database
def test_the_simulators_order_follows_each_step_of_the_booking(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 2).json()["id"])
    order_id = open_order(api_client, member, reservation).json()["id"]
    assert _simulated(order_id) == ("CREATED", False, "", Decimal("50.00"))
    approve(api_client, order_id)
    assert _simulated(order_id) == ("APPROVED", False, "", Decimal("50.00"))
    assert PaymentOrder.objects.get(order_id=order_id).status == PaymentStatus.APPROVED
    answer = capture(api_client, order_id)
    assert answer.status_code == 200 and answer.json()["status"] == "COMPLETED"
    assert _simulated(order_id) == ("COMPLETED", False, "COMPLETED", Decimal("50.00"))
    simulated = SimulatedProviderOrder.objects.get(order_id=order_id)
    order = PaymentOrder.objects.get(order_id=order_id)
    assert order.status == PaymentStatus.COMPLETED and order.capture_id == simulated.capture_id != ""


@pytest.mark.database
def test_the_simulators_capture_answers_the_amount_as_a_decimal_from_the_database():
    simulator = SimulatorProvider()
    created = simulator.create_order(
        amount=Decimal("12.50"), currency="EUR", description="Cours", reference="r", request_id="q"
    )
    simulator.approve_order(order_id=created.id, card_declined=False)
    result = simulator.capture_order(order_id=created.id, request_id="c")
    assert (result.order_status, result.capture_status, result.currency) == ("COMPLETED", "COMPLETED", "EUR")
    assert isinstance(result.amount, Decimal) and str(result.amount) == "12.50"
    again = simulator.capture_order(order_id=created.id, request_id="c")  # a replay reads the order again
    assert (again.capture_id, again.amount) == (result.capture_id, result.amount)
    with pytest.raises(ProviderError) as refused:
        simulator.approve_order(order_id=created.id, card_declined=False)  # paid: never approved again
    assert refused.value.issue == "ORDER_ALREADY_CAPTURED"
    with pytest.raises(ProviderError):
        simulator.approve_order(order_id="SIM-UNKNOWN", card_declined=False)


@pytest.mark.postgres
def test_the_captures_task_row_is_queued_after_the_payment_commits(api_client, member, session):
    from django_tasks_db.models import DBTaskResult

    with override_settings(TASKS=DATABASE_QUEUE):
        order_id, answer, contexts = _book(api_client, member, session)
        assert answer.status_code == 200
        statements = [q["sql"] for q in contexts[3].captured_queries]
        task = next(i for i, sql in enumerate(statements) if "django_tasks_database_dbtaskresult" in sql)
        paid = max(i for i, sql in enumerate(statements[:task]) if sql.startswith('UPDATE "payments_paymentorder"'))
        assert "COMMIT" in statements[paid:task]  # one policy (studio.queue): the e-mails' task after the commit
        replays = [capture(api_client, order_id) for _ in range(2)]
        assert [r.status_code for r in replays] == [200, 200]
    order = PaymentOrder.objects.get(order_id=order_id)
    queued = DBTaskResult.objects.filter(task_path=payment_completed_emails_send.module_path)
    assert [row.args_kwargs["kwargs"] for row in queued] == [{"order_pk": order.pk}]


@pytest.mark.database
@pytest.mark.parametrize("typed", ["sim-abc", "SIM-AB", "SIM-AB%", "SIM-AB_", "SIM-ABC\\"])
def test_a_capture_finds_its_order_by_the_exact_provider_id_only(api_client, member, typed):
    order = PaymentOrder.objects.create(order_id="SIM-ABC", user=member, email=member.email, title="Cours", amount=5)
    api_client.force_authenticate(member)
    answer = capture(api_client, typed)
    assert answer.status_code == 404
    assert answer.json()["error"] == MSG_ORDER_NOT_FOUND
    order.refresh_from_db()
    assert order.status == PaymentStatus.CREATED


def _selects(context) -> list[str]:
    return [q["sql"] for q in context.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]


@pytest.mark.database
def test_the_hold_and_the_order_read_what_they_check_in_a_fixed_number_of_queries(api_client, member, session):
    _, answer, (held, created, _, _) = _book(api_client, member, session)
    assert answer.status_code == 200
    # The hold: the health declaration's documents and the member's declaration, whether the class is plainly full,
    # from its seat state (no lock: the session with its waiting line, its live reservations), then the session
    # locked, the member's bookings lock (a PostgreSQL advisory lock: no query elsewhere), the member's reservation
    # locked, then the seats taken and the waiting line.
    assert len(_selects(held)) == (8 if connection.vendor == "postgresql" else 7)
    assert not any("FOR UPDATE" in sql for sql in _selects(held)[:4])
    # The order: the reservation with its live order looked for, then the session and the reservation locked.
    assert len(_selects(created)) == 3


@pytest.mark.database
def test_a_second_order_for_the_same_hold_is_still_the_live_one(api_client, member, session):
    reservation = Reservation.objects.get(pk=hold(api_client, member, session, 2).json()["id"])
    first = open_order(api_client, member, reservation).json()["id"]
    with CaptureQueriesContext(connection) as again:
        second = open_order(api_client, member, reservation)
    assert second.status_code == 201 and second.json()["id"] == first
    assert not _simulator_statements(again)  # no provider order opened for nothing
    assert PaymentOrder.objects.filter(reservation=reservation).count() == 1


@pytest.mark.database
def test_the_simulators_approval_marks_only_an_open_order_approved(member):
    from payments.services.simulator_approval import _order_approved

    now = timezone.now()
    open_order_row = PaymentOrder.objects.create(order_id="O-1", user=member, email=member.email, title="C", amount=5)
    paid = PaymentOrder.objects.create(
        order_id="O-2", user=member, email=member.email, title="C", amount=5, status=PaymentStatus.COMPLETED
    )
    assert _order_approved(order_pk=open_order_row.pk, now=now) == 1
    assert _order_approved(order_pk=paid.pk, now=now) == 0  # paid meanwhile: never approved again
    open_order_row.refresh_from_db()
    paid.refresh_from_db()
    assert (open_order_row.status, open_order_row.updated_at) == (PaymentStatus.APPROVED, now)
    assert paid.status == PaymentStatus.COMPLETED and paid.updated_at != now
    assert _order_approved(order_pk=open_order_row.pk, now=now) == 1  # approved again: still open (DECLINED too)

"""The receipt e-mail writes dates and amounts as the rest of the site does (French, Europe/Paris)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from courses.tests.factories import CourseSessionFactory
from payments.models import PaymentOrder, SimulatedProviderOrder
from payments.services.receipts import RECEIPT_SUBJECT

from .conftest import reservation_payload

pytestmark = pytest.mark.django_db


def test_the_receipt_writes_the_class_date_the_french_way(
    api_client, member, make_reservation, mailoutbox, django_capture_on_commit_callbacks
):
    start = datetime(2031, 12, 1, 18, 30, tzinfo=ZoneInfo("Europe/Paris"))
    session = CourseSessionFactory(start=start)
    reservation = make_reservation(member, participants=1, session=session)
    api_client.force_authenticate(member)
    order_id = api_client.post("/api/paypal/create-order", reservation_payload(reservation), format="json").json()["id"]
    api_client.post("/api/paypal/simulator/approve", {"orderId": order_id, "outcome": "approve"}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        assert api_client.post("/api/paypal/capture-payment", {"orderId": order_id}, format="json").status_code == 200
    assert PaymentOrder.objects.get(order_id=order_id).date == "2031-12-01"  # the order's own record is unchanged
    (receipt,) = [m for m in mailoutbox if RECEIPT_SUBJECT in m.subject]
    assert "séance du 01/12/2031 à 18:30" in receipt.body
    assert "2031-12-01" not in receipt.body and "2031-12-01" not in receipt.alternatives[0].content
    assert "25,00" in receipt.body and "25.00" not in receipt.body
    # What the provider's own receipt shows the payer says it the same way.
    assert SimulatedProviderOrder.objects.get(order_id=order_id).description == (
        f"{session.course.title} – séance du 01/12/2031 à 18:30 – 1 participant(s)"
    )

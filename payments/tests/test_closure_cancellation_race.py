"""Two staff members run "Annuler les cours de la fermeture" at once, on PostgreSQL (real row locks): each class is
cancelled once, each card payment refunded once, each class-card credit returned once, each member e-mailed once,
and the two answers add up to the classes there were."""

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import PassAdjustment, PassAdjustmentAction
from bookings.tests.factories import PassFactory
from courses.models import ClosurePeriod, CourseSession, SessionStatus
from courses.tests.factories import CourseSessionFactory
from payments.models import PaymentOrder, PaymentStatus, SimulatedProviderOrder
from payments.services.class_refunds import payment_orders_refund_cancelled_class
from payments.services.closure_cancellation import closure_sessions_cancel
from studio.models import OutgoingEmail

from .test_class_cancellation import book_with_card_pass, pay_by_card
from .test_class_cancellation_race import _race

pytestmark = pytest.mark.postgres

ROUNDS = 3
CLASSES = 3


def _at(day: date, hour: int):
    return timezone.make_aware(datetime(day.year, day.month, day.day, hour, 0))


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_staff_cancelling_a_closure_at_once_cancel_and_refund_each_once(make_reservation, round_):
    first_day = timezone.localdate() + timedelta(days=10)
    closure = ClosurePeriod.objects.create(
        label="Vacances de Noël", starts_on=first_day, ends_on=first_day + timedelta(days=CLASSES)
    )
    orders, cards = [], []
    for n in range(CLASSES):
        session = CourseSessionFactory(
            start=_at(first_day + timedelta(days=n), 18), price_per_participant=Decimal("25")
        )
        payer, card_holder = UserFactory(), UserFactory()
        orders.append(pay_by_card(payer, make_reservation(payer, participants=1, session=session)))
        card = PassFactory(member=card_holder, credits_total=10)
        book_with_card_pass(card_holder, session, card)
        cards.append(card)

    results = _race(
        lambda: closure_sessions_cancel(closure_id=closure.pk, reason="Fermeture de Noël"),
        lambda: closure_sessions_cancel(closure_id=closure.pk, reason="Fermeture de Noël"),
    )
    assert not any(isinstance(r, Exception) for r in results), results
    assert sum(r.sessions_cancelled for r in results) == CLASSES
    assert sum(r.bookings_cancelled for r in results) == 2 * CLASSES
    assert sum(r.refunds_queued for r in results) == CLASSES
    payment_orders_refund_cancelled_class()  # what the periodic job does (the queued tasks ran it already)

    assert CourseSession.objects.filter(status=SessionStatus.CANCELLED).count() == CLASSES
    for order in orders:
        order.refresh_from_db()
        assert order.status == PaymentStatus.REFUNDED and order.refund_id
        assert SimulatedProviderOrder.objects.get(order_id=order.order_id).refund_id == order.refund_id
    assert not PaymentOrder.objects.filter(status=PaymentStatus.COMPLETED).exists()
    for card in cards:
        card.refresh_from_db()
        assert card.credits_left == 10
        assert PassAdjustment.objects.filter(pass_ref=card, action=PassAdjustmentAction.RETURN).count() == 1
    mails = OutgoingEmail.objects.filter(template="bookings_class_cancelled")
    assert mails.count() == 2 * CLASSES
    assert len({tuple(m.to) for m in mails}) == 2 * CLASSES

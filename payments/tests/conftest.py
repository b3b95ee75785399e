from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from bookings.models import Reservation, ReservationStatus
from courses.tests.factories import CourseSessionFactory, TariffFactory
from payments.services.orders import payment_order_create

from . import fake_paypal as fp
from . import fake_stripe as fs


@contextmanager
def after_commit():
    """A request queues its background work after the commit (studio.queue); the test's transaction never commits, so
    the work queued inside this block runs when the block ends, as it would once the request's writes committed. Each
    callback runs once: an enclosing `django_capture_on_commit_callbacks` does not run it again."""
    callbacks = connection.run_on_commit
    start = len(callbacks)
    yield
    while len(callbacks) > start:
        callbacks.pop(start)[1]()


@pytest.fixture
def fake_paypal():
    server = fp.FakePayPal().start()
    yield server
    server.stop()


@pytest.fixture
def paypal_settings(settings, fake_paypal):
    """Point the app at the fake PayPal with credentials set: the PayPal provider is in use."""
    settings.PAYPAL_CLIENT_ID = fp.CLIENT_ID
    settings.PAYPAL_CLIENT_SECRET = fp.CLIENT_SECRET
    settings.PAYPAL_WEBHOOK_ID = fp.WEBHOOK_ID
    settings.PAYPAL_API_BASE = fake_paypal.url
    return settings


@pytest.fixture
def make_reservation(db):
    def _make(user, *, participants=2, price=Decimal("25.00"), expires_in=timedelta(minutes=15), **kwargs):
        session = kwargs.pop("session", None) or CourseSessionFactory(price_per_participant=price)
        return Reservation.objects.create(
            session=session,
            user=user,
            participants=participants,
            unit_price=session.price_per_participant,
            first_name=user.first_name,
            last_name=user.last_name,
            email=user.email,
            status=kwargs.pop("status", ReservationStatus.HELD),
            hold_expires_at=timezone.now() + expires_in,
            **kwargs,
        )

    return _make


@pytest.fixture
def annual(db):
    """A 12-month unlimited subscription at 55 € a month."""
    return TariffFactory(
        title="Abonnement annuel illimité",
        type="abonnement",
        price=Decimal("55.00"),
        frequency="par mois",
        validity="12 mois",
        pass_unlimited=True,
        pass_validity_months=12,
    )


@pytest.fixture
def card_tariff(db):
    return TariffFactory(title="Carte 10 cours", price=Decimal("190.00"), type="forfait")


def reservation_payload(reservation, **overrides):
    payload = {
        "amount": f"{reservation.total_amount:.2f}",
        "title": reservation.session.course.title,
        "type": "cours",
        "email": reservation.email,
        "first_name": reservation.first_name,
        "last_name": reservation.last_name,
        "date": "2030-01-01",
        "time": "18:30",
        "message": "",
        "reservation_id": reservation.pk,
    }
    payload.update(overrides)
    return payload


def open_reservation_order(member, reservation, **options):
    """The order the payment widget opens for a held reservation, through the service (`provider="stripe"` and the
    like pass through)."""
    data = reservation_payload(reservation)
    return payment_order_create(
        user=member,
        amount=Decimal(data["amount"]),
        email=data["email"],
        first_name=data["first_name"],
        last_name=data["last_name"],
        title=data["title"],
        type=data["type"],
        reservation_id=reservation.pk,
        **options,
    )


def tariff_payload(tariff, user, quantity=1, **overrides):
    payload = {
        "amount": overrides.pop("amount", None) or f"{tariff.price * quantity:.2f}",
        "title": tariff.title,
        "type": tariff.type,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "tariff_id": tariff.pk,
        "quantity": quantity,
        "accept_terms": True,
    }
    payload.update(overrides)
    return payload


# --- Stripe (payments/tests/fake_stripe.py) --------------------------------------------------------------------------


@pytest.fixture
def fake_stripe():
    server = fs.FakeStripe().start()
    yield server
    server.stop()


@pytest.fixture
def stripe_settings(settings, fake_stripe):
    """Stripe configured (both keys and the webhook secret), its API being the fake: Stripe is offered first."""
    settings.STRIPE_SECRET_KEY = fs.SECRET_KEY
    settings.STRIPE_PUBLISHABLE_KEY = fs.PUBLISHABLE_KEY
    settings.STRIPE_WEBHOOK_SECRET = fs.WEBHOOK_SECRET
    settings.STRIPE_API_BASE = fake_stripe.url
    return settings

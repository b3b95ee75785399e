"""Demo payment orders (idempotent): what the demo member paid, so the dashboard's orders section has rows."""

import os

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from bookings.models import Reservation, ReservationStatus
from courses.models import Tariff

from .choices import PaymentProviderName
from .models import LIVE_STATUSES, PaymentOrder, PaymentStatus

DEMO_MEMBER_EMAIL = os.environ.get("DEMO_MEMBER_EMAIL", "membre@studio-pole-danse.fr").lower()


@transaction.atomic
def run(*, stdout=None):
    member = User.objects.filter(email=DEMO_MEMBER_EMAIL).first()
    if member is None:
        return
    now = timezone.now()
    base = {
        "provider": PaymentProviderName.SIMULATOR,
        "user": member,
        "email": member.email,
        "first_name": member.first_name,
        "last_name": member.last_name,
        "status": PaymentStatus.COMPLETED,
        "completed_at": now,
        "receipt_sent_at": now,
    }
    # A booking the member paid for on the running site already has its own order: it keeps it, and seeding again
    # must not add a second live one (the database allows one per reservation).
    reservations = (
        Reservation.objects.filter(user=member, status=ReservationStatus.CONFIRMED)
        .exclude(payment_orders__status__in=LIVE_STATUSES)
        .select_related("session__course")
    )
    for reservation in reservations:
        start = timezone.localtime(reservation.session.start)
        PaymentOrder.objects.get_or_create(
            order_id=f"DEMO-RES-{reservation.pk}",
            defaults={
                **base,
                "reservation": reservation,
                "title": reservation.session.course.title,
                "amount": reservation.total_amount,
                "quantity": reservation.participants,
                "date": start.date().isoformat(),
                "time": start.strftime("%H:%M"),
                "type": "COURS",
            },
        )
    card = Tariff.objects.filter(title__icontains="10 cours").first()
    if card is not None:
        PaymentOrder.objects.get_or_create(
            order_id="DEMO-TARIF-1",
            defaults={
                **base,
                "tariff": card,
                "title": card.title,
                "amount": card.price,
                "date": timezone.localdate().isoformat(),
                "type": card.type.upper(),
            },
        )
    if stdout:
        stdout.write("Commandes de paiement de démonstration prêtes.")

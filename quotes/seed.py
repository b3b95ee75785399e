"""Demo requests answered with a quote (idempotent): the demo member's EVJF request and a visitor's room-rental
request."""

import datetime
import os

from django.db import transaction
from django.utils import timezone

from accounts.models import User

from .models import PartyEventType, PartyReservation, RentalEventType, RoomRentalRequest

DEMO_MEMBER_EMAIL = os.environ.get("DEMO_MEMBER_EMAIL", "membre@studio-pole-danse.fr").lower()


@transaction.atomic
def run(*, stdout=None):
    member = User.objects.filter(email=DEMO_MEMBER_EMAIL).first()
    created = 0
    if member is not None and not PartyReservation.objects.filter(user=member).exists():
        PartyReservation.objects.create(
            user=member,
            event_type=PartyEventType.EVJF,
            date=timezone.localdate() + datetime.timedelta(days=30),
            time="15:00",
            participants=8,
            email=member.email,
            first_name=member.first_name,
            last_name=member.last_name,
            message="EVJF de ma sœur, 8 personnes dont 2 spectatrices.",
        )
        created += 1
    _, new = RoomRentalRequest.objects.get_or_create(
        email="sophie.leroy@example.fr",
        event_type=RentalEventType.BIRTHDAY,
        defaults={
            "name": "Sophie Leroy",
            "phone": "0677889900",
            "date": timezone.localdate() + datetime.timedelta(days=21),
            "time": datetime.time(15, 0),
            "message": "Anniversaire de mes 30 ans, une douzaine de personnes, avec initiation si possible.",
        },
    )
    created += new
    if stdout:
        stdout.write(f"Demandes sur devis : {created} demande(s) de démonstration ajoutée(s).")

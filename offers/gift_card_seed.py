"""A demo gift card (idempotent): bought by the demo member for a friend and partly spent, so that the member's page
and the dashboard's gift cards section show one."""

import os
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from accounts.models import User

from .models import GiftCard, GiftCardMovementKind, GiftCardStatus
from .services.balance import gift_card_move
from .services.gift_cards import VALIDITY

DEMO_MEMBER_EMAIL = os.environ.get("DEMO_MEMBER_EMAIL", "membre@studio-pole-danse.fr").lower()
DEMO_CODE = "CADEAU-DEMO-2026"


@transaction.atomic
def gift_cards_seed(*, stdout=None) -> None:
    if GiftCard.objects.filter(code=DEMO_CODE).exists():
        return
    member = User.objects.filter(email=DEMO_MEMBER_EMAIL).first()
    now = timezone.now()
    card = GiftCard.objects.create(
        code=DEMO_CODE,
        initial_amount=Decimal("50.00"),
        status=GiftCardStatus.ACTIVE,
        buyer=member,
        buyer_name=f"{member.first_name} {member.last_name}".strip() if member else "Client du studio",
        buyer_email=member.email if member else "",
        recipient_name="Julie Bernard",
        recipient_email="julie.bernard@example.fr",
        message="Pour ta première barre !",
        send_on=timezone.localdate(now),
        sent_at=now,
        purchased_at=now,
        expires_on=timezone.localdate(now) + VALIDITY,
    )
    gift_card_move(card_id=card.pk, kind=GiftCardMovementKind.ISSUE, amount=card.initial_amount, reason="Démonstration")
    gift_card_move(card_id=card.pk, kind=GiftCardMovementKind.SPEND, amount=Decimal("-25.00"), reason="Démonstration")

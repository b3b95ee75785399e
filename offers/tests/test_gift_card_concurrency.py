"""Gift cards under concurrency (PostgreSQL, real row locks, threads): two schedulers sending the vouchers due send
each once; two staff adjustments that together would take a balance below zero leave it at zero or above, one
refused in French."""

from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import StaffFactory
from offers.errors import GiftCardError
from offers.models import GiftCard, GiftCardMovementKind, GiftCardStatus
from offers.services.balance import gift_card_move
from offers.services.gift_cards import gift_card_adjust
from offers.tasks import VOUCHER_EMAIL_TOPIC, gift_card_vouchers_send_due
from studio.models import OutgoingEmail
from studio.tests.races import race


def _card(code, balance="50.00"):
    card = GiftCard.objects.create(
        code=code,
        initial_amount=Decimal(balance),
        status=GiftCardStatus.ACTIVE,
        recipient_email=f"{code.lower()}@example.fr",
        send_on=date(2020, 1, 1),
        purchased_at=timezone.now(),
        expires_on=date(2099, 1, 1),
    )
    gift_card_move(card_id=card.pk, kind=GiftCardMovementKind.ISSUE, amount=card.initial_amount)
    return card


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_schedulers_send_each_voucher_once():
    cards = [_card(f"CADEAU-RACE-{n:04d}") for n in range(5)]
    results, refusals, crashes = race(gift_card_vouchers_send_due.call, gift_card_vouchers_send_due.call)
    assert (refusals, crashes) == ([], [])
    assert sum(results) == 5
    assert OutgoingEmail.objects.filter(topic=VOUCHER_EMAIL_TOPIC).count() == 5
    assert all(card.sent_at for card in GiftCard.objects.filter(pk__in=[c.pk for c in cards]))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_adjustments_never_take_the_balance_below_zero():
    card = _card("CADEAU-RACE-ADJU", balance="30.00")
    staff = StaffFactory()

    def take(amount):
        return lambda: gift_card_adjust(card_id=card.pk, amount=Decimal(amount), reason="Correction", staff=staff)

    results, refusals, crashes = race(take("-20.00"), take("-20.00"))
    assert crashes == []
    assert len(results) == 1 and len(refusals) == 1 and isinstance(refusals[0], GiftCardError)
    card.refresh_from_db()
    assert card.balance == Decimal("10.00")
    assert card.movements.filter(kind=GiftCardMovementKind.ADJUST).count() == 1

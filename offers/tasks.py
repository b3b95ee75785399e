"""The gift cards' background work (docs/decisions.md 41 and 56): each voucher e-mailed once on its send date, by the
scheduler's job or, for a card due today, by the task its activation queues. Safe when two schedulers run the job:
a guarded UPDATE claims each card before its e-mail is recorded, in the same transaction."""

from crontask import cron
from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from studio.emails import send_templated_email
from studio.templatetags.formatting import euros

from .models import GiftCard, GiftCardStatus
from .pdf import gift_card_voucher_file_name, gift_card_voucher_pdf
from .services.gift_cards import gift_card_voucher_email, gift_cards_due, paris_today

VOUCHER_SUBJECT = "Vous avez reçu une carte cadeau de {studio}"
VOUCHER_EMAIL_TOPIC = "offers.gift_card_voucher"


def gift_card_voucher_send(*, card_id: int) -> bool:
    """E-mail the voucher of an active card whose send date has come, once: True when this call sent it."""
    with transaction.atomic():
        claimed = GiftCard.objects.filter(
            pk=card_id, status=GiftCardStatus.ACTIVE, sent_at__isnull=True, send_on__lte=paris_today()
        ).update(sent_at=timezone.now())
        if not claimed:
            return False
        card = GiftCard.objects.select_related("tariff").get(pk=card_id)
        send_templated_email(
            to=gift_card_voucher_email(card),
            subject=VOUCHER_SUBJECT.format(studio=settings.STUDIO["name"]),
            template="offers_gift_card_voucher",
            context={"card": card, "amount": euros(card.initial_amount)},
            attachments=[(gift_card_voucher_file_name(card), gift_card_voucher_pdf(card), "application/pdf")],
            topic=VOUCHER_EMAIL_TOPIC,
            topic_id=card.pk,
        )
    return True


@task
def gift_card_voucher_send_if_due(card_id: int) -> bool:
    """Queued when a card is paid: its voucher leaves now if its send date is today (later ones wait for the job)."""
    return gift_card_voucher_send(card_id=card_id)


@cron("*/15 * * * *")
@task
def gift_card_vouchers_send_due() -> int:
    """Every 15 minutes: the vouchers whose send date has come, each sent once."""
    return sum(gift_card_voucher_send(card_id=card_id) for card_id in gift_cards_due())

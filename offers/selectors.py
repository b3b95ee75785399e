"""Reads of the offers that the APIs and the exports share, with their related rows fetched up front."""

from django.db.models import Prefetch, Q, QuerySet

from courses.models import Tariff, TariffType

from .models import GiftCard, GiftCardMovement, GiftCardStatus


def giftable_tariffs() -> QuerySet[Tariff]:
    """The tariffs a gift card may offer (services.gift_cards.tariff_giftable says the same of one)."""
    return (
        Tariff.objects.filter(price__gt=0, pass_unlimited=False)
        .exclude(type=TariffType.EVENT)
        .order_by("position", "price", "id")
    )


def gift_cards_for_staff(*, query: str = "") -> QuerySet[GiftCard]:
    """The paid cards (active or cancelled), newest first, with their tariff and movements in two more queries;
    `query` matches the code, or the buyer's or recipient's name or e-mail."""
    cards = (
        GiftCard.objects.exclude(status=GiftCardStatus.PENDING)
        .select_related("tariff")
        .prefetch_related(Prefetch("movements", queryset=GiftCardMovement.objects.order_by("created_at", "id")))
        .order_by("-purchased_at", "-id")
    )
    query = (query or "").strip()[:100]
    if query:
        cards = cards.filter(
            Q(code__icontains=query)
            | Q(buyer_name__icontains=query)
            | Q(buyer_email__icontains=query)
            | Q(recipient_name__icontains=query)
            | Q(recipient_email__icontains=query)
        )
    return cards

"""The gift cards' page (/cartes-cadeaux): buy one (payments' widget, its provider and public key) and check a card's
balance by its code; a member also sees their own cards. In the top layer, which sees offers, courses and payments."""

from django.shortcuts import render
from django.utils import timezone

from bookings.views.common import member_props
from offers.selectors import giftable_tariffs
from offers.services.gift_cards import MAX_AMOUNT, MAX_SEND_AHEAD, MIN_AMOUNT
from payments.selectors import payment_client_config

LOGIN_URL = "/login?next=/cartes-cadeaux"


def gift_cards_page(request):
    today = timezone.localdate()
    props = {
        "user": member_props(request),
        "paymentConfig": payment_client_config(),
        "loginUrl": LOGIN_URL,
        "minAmount": f"{MIN_AMOUNT:.2f}",
        "maxAmount": f"{MAX_AMOUNT:.2f}",
        "tariffs": [{"id": t.pk, "title": t.title, "price": f"{t.price:.2f}"} for t in giftable_tariffs()],
        "today": today.isoformat(),
        "lastSendDay": (today + MAX_SEND_AHEAD).isoformat(),
    }
    return render(
        request,
        "offers/gift_cards.html",
        {
            "page_title": "Cartes cadeaux",
            "page_description": "Offrez un cours de pole dance : une carte cadeau de 20 à 500 € ou un tarif.",
            "props": props,
        },
    )

"""The route of a gift card's order (docs/decisions.md 55): `/api/gift-cards`, GET the member's cards, POST buy one."""

from django.urls import path

from .apis.gift_card_orders import GiftCardsApi

api_urlpatterns = [
    path("gift-cards", GiftCardsApi.as_view(), name="api-gift-cards"),
]

"""The offers' API routes, one list per kind of offer: promo codes, and the gift cards' own life (their order,
`/api/gift-cards` GET and POST, is payments': payments/gift_card_urls.py)."""

from django.urls import path

from .apis import gift_cards, promo

promo_urlpatterns = [
    path("promo-codes", promo.PromoListApi.as_view(), name="promo-codes"),
    path("promo-codes/check", promo.PromoCheckApi.as_view(), name="promo-code-check"),
    path("promo-codes/<int:promo_id>", promo.PromoDetailApi.as_view(), name="promo-code"),
]

gift_urlpatterns = [
    path("gift-cards/check", gift_cards.GiftCardCheckApi.as_view(), name="api-gift-card-check"),
    path("gift-cards/staff", gift_cards.StaffGiftCardsApi.as_view(), name="api-gift-cards-staff"),
    path("gift-cards/export.csv", gift_cards.GiftCardsCsvApi.as_view(), name="api-gift-cards-csv"),
    path("gift-cards/<int:card_id>/adjust", gift_cards.GiftCardAdjustApi.as_view(), name="api-gift-card-adjust"),
]

api_urlpatterns = [*promo_urlpatterns, *gift_urlpatterns]

"""The offers' API routes: promo codes (promo_urlpatterns) and gift cards (gift_urlpatterns), kept apart."""

from django.urls import path

from .apis import promo

promo_urlpatterns = [
    path("promo-codes", promo.PromoListApi.as_view(), name="promo-codes"),
    path("promo-codes/check", promo.PromoCheckApi.as_view(), name="promo-code-check"),
    path("promo-codes/<int:promo_id>", promo.PromoDetailApi.as_view(), name="promo-code"),
]

gift_urlpatterns = []

api_urlpatterns = [*promo_urlpatterns, *gift_urlpatterns]

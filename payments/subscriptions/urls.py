"""Routes of subscriptions, under /api/ (included by project/urls.py)."""

from django.urls import path

from .apis.actions import SubscriptionCancelApi, SubscriptionEndReducedApi, SubscriptionRetryApi
from .apis.methods import (
    SavedMethodApi,
    SimulatedCardApi,
    SimulatedMandateApi,
    StripeSetupApi,
    StripeSetupCompleteApi,
)
from .apis.purchase import (
    PayPalSubscriptionApprovedApi,
    PayPalSubscriptionCreateApi,
    ReducedProofApi,
    SubscriptionOfferApi,
)
from .apis.subscriptions import (
    MySubscriptionsApi,
    SubscriptionFreezeApi,
    SubscriptionPauseApi,
    SubscriptionPayNowApi,
    SubscriptionsApi,
    SubscriptionTerminateApi,
)
from .apis.tariff_rules import TariffRulesDetailApi, TariffRulesListApi

api_urlpatterns = [
    path("tariff-rules", TariffRulesListApi.as_view(), name="api-tariff-rules"),
    path("tariff-rules/<int:tariff_id>", TariffRulesDetailApi.as_view(), name="api-tariff-rule"),
    path("subscriptions", SubscriptionsApi.as_view(), name="api-subscriptions"),
    path("subscriptions/mine", MySubscriptionsApi.as_view(), name="api-subscriptions-mine"),
    path("subscriptions/<int:subscription_id>/pay", SubscriptionPayNowApi.as_view(), name="api-subscription-pay"),
    path("subscriptions/<int:subscription_id>/freeze", SubscriptionFreezeApi.as_view(), name="api-subscription-freeze"),
    path(
        "subscriptions/<int:subscription_id>/terminate",
        SubscriptionTerminateApi.as_view(),
        name="api-subscription-terminate",
    ),
    path("subscriptions/<int:subscription_id>/pause", SubscriptionPauseApi.as_view(), name="api-subscription-pause"),
    path("subscriptions/<int:subscription_id>/retry", SubscriptionRetryApi.as_view(), name="api-subscription-retry"),
    path("subscriptions/<int:subscription_id>/cancel", SubscriptionCancelApi.as_view(), name="api-subscription-cancel"),
    path(
        "subscriptions/<int:subscription_id>/end-reduced",
        SubscriptionEndReducedApi.as_view(),
        name="api-subscription-end-reduced",
    ),
    path("subscriptions/paypal", PayPalSubscriptionCreateApi.as_view(), name="api-subscription-paypal"),
    path(
        "subscriptions/paypal/approved",
        PayPalSubscriptionApprovedApi.as_view(),
        name="api-subscription-paypal-approved",
    ),
    path("subscriptions/offers/<int:tariff_id>", SubscriptionOfferApi.as_view(), name="api-subscription-offer"),
    path("subscriptions/method", SavedMethodApi.as_view(), name="api-subscription-method"),
    path("subscriptions/method/simulator/card", SimulatedCardApi.as_view(), name="api-subscription-method-card"),
    path("subscriptions/method/simulator/sepa", SimulatedMandateApi.as_view(), name="api-subscription-method-sepa"),
    path("subscriptions/method/stripe/setup", StripeSetupApi.as_view(), name="api-subscription-method-setup"),
    path(
        "subscriptions/method/stripe/complete",
        StripeSetupCompleteApi.as_view(),
        name="api-subscription-method-complete",
    ),
    path("subscriptions/reduced-proofs", ReducedProofApi.as_view(), name="api-subscription-reduced-proofs"),
]

"""Routes of subscriptions (issue 19), under /api/ (included by project/urls.py)."""

from django.urls import path

from .apis.subscriptions import MySubscriptionsApi, SubscriptionFreezeApi, SubscriptionPayNowApi, SubscriptionsApi

api_urlpatterns = [
    path("subscriptions", SubscriptionsApi.as_view(), name="api-subscriptions"),
    path("subscriptions/mine", MySubscriptionsApi.as_view(), name="api-subscriptions-mine"),
    path("subscriptions/<int:subscription_id>/pay", SubscriptionPayNowApi.as_view(), name="api-subscription-pay"),
    path("subscriptions/<int:subscription_id>/freeze", SubscriptionFreezeApi.as_view(), name="api-subscription-freeze"),
]

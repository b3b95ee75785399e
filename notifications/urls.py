from django.urls import path

from . import apis

api_urlpatterns = [
    path("push/preferences", apis.PreferencesApi.as_view(), name="push-preferences"),
    path("push/subscriptions", apis.SubscriptionsApi.as_view(), name="push-subscriptions"),
    path("push/subscriptions/delete", apis.SubscriptionDeleteApi.as_view(), name="push-subscription-delete"),
]

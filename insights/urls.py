"""Routes of the owner's view, under /api/ (included by project/urls.py)."""

from django.urls import path

from .apis import DashboardStatsApi

api_urlpatterns = [
    path("dashboard/stats", DashboardStatsApi.as_view(), name="api-dashboard-stats"),
]

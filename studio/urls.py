"""The core's own routes: the API schema, the e-mail outbox APIs, the plain pages and the back office shell.

The root URLconf (project/urls.py) gathers these with every app's; the core imports no app."""

from django.urls import path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from . import apis, dashboard, views

DASHBOARD_SECTIONS = "|".join(key for key, _label in dashboard.SECTIONS)

api_urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("emails/undelivered", apis.UndeliveredEmailsApi.as_view(), name="api-emails-undelivered"),
    path("emails/<int:email_id>/resend", apis.EmailResendApi.as_view(), name="api-email-resend"),
]

urlpatterns = [
    path("mentions-legales", views.legal_notice, name="legal-notice"),
    path("cgv", views.terms_of_sale, name="terms-of-sale"),
    path("accessibilite", views.accessibility, name="accessibility"),
    path("politique-confidentialite", views.privacy_policy, name="privacy-policy"),
    path("privacy-policy", RedirectView.as_view(url="/politique-confidentialite", permanent=True)),
    path("blog-facebook", views.social, name="social"),
    path("choisir-nous", views.why_us, name="why-us"),
    path("robots.txt", views.robots, name="robots"),
    path("admin/dashboard", dashboard.dashboard, name="dashboard"),
    re_path(rf"^admin/(?P<section>{DASHBOARD_SECTIONS})$", dashboard.dashboard, name="dashboard-section"),
]

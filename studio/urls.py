from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from accounts import urls as accounts_urls
from bookings import urls as bookings_urls
from courses import urls as courses_urls
from media_library import urls as media_urls
from media_library.views import serve_upload
from messaging import urls as messaging_urls
from payments import urls as payments_urls

from . import apis, dashboard, views

DASHBOARD_SECTIONS = (
    "users|courses|testimonials|instructors|contact-messages|sessions|slider|tarifs|media|slideshow|orders"
    "|reservations|rentals|parties|passes|emails"
)

api_urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("emails/undelivered", apis.UndeliveredEmailsApi.as_view(), name="api-emails-undelivered"),
    path("emails/<int:email_id>/resend", apis.EmailResendApi.as_view(), name="api-email-resend"),
    *accounts_urls.api_urlpatterns,
    *courses_urls.api_urlpatterns,
    *bookings_urls.api_urlpatterns,
    *payments_urls.api_urlpatterns,
    *media_urls.api_urlpatterns,
    *messaging_urls.api_urlpatterns,
]

urlpatterns = [
    path("django-admin/", admin.site.urls),
    path("api/", include(api_urlpatterns)),
    path("mentions-legales", views.legal_notice, name="legal-notice"),
    path("politique-confidentialite", views.privacy_policy, name="privacy-policy"),
    path("privacy-policy", RedirectView.as_view(url="/politique-confidentialite", permanent=True)),
    path("blog-facebook", views.social, name="social"),
    path("choisir-nous", views.why_us, name="why-us"),
    path("sitemap.xml", views.sitemap, name="sitemap"),
    path("robots.txt", views.robots, name="robots"),
    path("admin/dashboard", dashboard.dashboard, name="dashboard"),
    re_path(rf"^admin/(?P<section>{DASHBOARD_SECTIONS})$", dashboard.dashboard, name="dashboard-section"),
    # /courses/calendar is matched before /courses/<id> (DECISIONS.md 5).
    *bookings_urls.urlpatterns,
    *accounts_urls.urlpatterns,
    *courses_urls.urlpatterns,
    *media_urls.urlpatterns,
    *messaging_urls.urlpatterns,
    *payments_urls.urlpatterns,
]

if not getattr(settings, "AWS_STORAGE_BUCKET_NAME", ""):
    # Uploads on local disk are served by Django; behind a proxy, let the proxy serve MEDIA_ROOT instead.
    urlpatterns.append(re_path(r"^uploads/(?P<path>.*)$", serve_upload))

handler404 = "studio.views.page_not_found"
handler500 = "studio.views.server_error"

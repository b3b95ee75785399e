"""The root URLconf (ROOT_URLCONF): the core's routes and every app's, in the order they must be matched."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from accounts import urls as accounts_urls
from bookings import urls as bookings_urls
from courses import urls as courses_urls
from insights import urls as insights_urls
from invoices import urls as invoices_urls
from media_library import urls as media_urls
from media_library.views import serve_upload
from messaging import urls as messaging_urls
from notifications import urls as notifications_urls
from offers import urls as offers_urls
from operations import urls as operations_urls
from payments import gift_card_urls as payments_gift_card_urls
from payments import urls as payments_urls
from payments.subscriptions import urls as payments_subscription_urls
from privacy import urls as privacy_urls
from quotes import urls as quotes_urls
from studio import pwa
from studio import urls as studio_urls
from waivers import urls as waivers_urls

from . import views
from .pages import booking as booking_pages
from .pages import gift_cards as gift_card_pages
from .pages import profile as profile_pages
from .pages import requests as request_pages
from .pages import subscriptions as subscription_pages

# The pages that gather several apps (docs/architecture.md, "Apps and layers").
page_urlpatterns = [
    path("courses/calendar", booking_pages.calendar_page, name="calendar"),
    path("my-courses", booking_pages.my_courses_page, name="my-courses"),
    path("user/profile", profile_pages.profile_page, name="profile"),
    path("user/profile/<int:user_id>", profile_pages.profile_page, name="profile-of"),
    path(
        "user/subscriptions/<int:subscription_id>/terminate",
        subscription_pages.subscription_terminate_page,
        name="subscription-terminate",
    ),
    path(
        "user/subscriptions/<int:subscription_id>/pause",
        subscription_pages.subscription_pause_page,
        name="subscription-pause",
    ),
    path("user/requests", request_pages.my_requests_page, name="my-requests"),
    path("user/requests/<str:kind>/<int:request_id>", request_pages.my_request_page, name="my-request"),
    path("user/requests/<str:kind>/<int:request_id>/cancel", request_pages.my_request_cancel, name="my-request-cancel"),
    path("cartes-cadeaux", gift_card_pages.gift_cards_page, name="gift-cards"),
]

api_urlpatterns = [
    *studio_urls.api_urlpatterns,
    *privacy_urls.api_urlpatterns,
    *accounts_urls.api_urlpatterns,
    *courses_urls.api_urlpatterns,
    *bookings_urls.api_urlpatterns,
    *payments_urls.api_urlpatterns,
    *offers_urls.api_urlpatterns,
    *payments_subscription_urls.api_urlpatterns,
    *media_urls.api_urlpatterns,
    *messaging_urls.api_urlpatterns,
    *quotes_urls.api_urlpatterns,
    *invoices_urls.api_urlpatterns,
    *insights_urls.api_urlpatterns,
    *waivers_urls.api_urlpatterns,
    *payments_gift_card_urls.api_urlpatterns,
    *notifications_urls.api_urlpatterns,
]

urlpatterns = [
    path("django-admin/", admin.site.urls),
    path("api/", include(api_urlpatterns)),
    path("sitemap.xml", views.sitemap, name="sitemap"),
    *studio_urls.urlpatterns,
    *operations_urls.urlpatterns,
    # /courses/calendar is matched before /courses/<id> (docs/decisions.md 5).
    *page_urlpatterns,
    *bookings_urls.urlpatterns,
    *privacy_urls.urlpatterns,
    *accounts_urls.urlpatterns,
    *courses_urls.urlpatterns,
    *media_urls.urlpatterns,
    *messaging_urls.urlpatterns,
    *quotes_urls.urlpatterns,
    *payments_urls.urlpatterns,
    # The installable site (docs/decisions.md 53): the worker at the root for a site-wide scope.
    path("manifest.webmanifest", pwa.manifest, name="web-manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline", pwa.offline, name="offline"),
]

if not getattr(settings, "AWS_STORAGE_BUCKET_NAME", ""):
    # Uploads on local disk are served by Django; behind a proxy, let the proxy serve MEDIA_ROOT instead.
    urlpatterns.append(re_path(r"^uploads/(?P<path>.*)$", serve_upload))

handler404 = "studio.views.page_not_found"
handler500 = "studio.views.server_error"

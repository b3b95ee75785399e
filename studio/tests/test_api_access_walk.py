"""Every API, not only the staff ones: each /api/ route and method that its permission classes reserve
to logged-in users refuses a visitor with 401, and one that needs staff refuses a member with 403. Public routes
(AllowAny) are listed so that a route becoming public by mistake shows up here."""

import pytest
from django.urls import get_resolver
from rest_framework.permissions import AllowAny
from rest_framework.test import APIClient, APIRequestFactory

from studio.permissions import IsStudioStaff
from studio.tests.test_permission_walk import METHODS, _concrete, _walk

# Routes a visitor may call by design: the public catalogue, the calendar feed, sign-up and sign-in, password
# reset, the contact and rental forms, the payment widget's config and PayPal's and Stripe's webhooks (verified by
# signature).
EXPECTED_PUBLIC_PREFIXES = (
    "/api/schema/",
    "/api/courses",
    "/api/course-sessions",
    "/api/tarifs",
    "/api/closures/calendar",  # the closures' labels and days the public calendar shows (docs/decisions.md 51)
    "/api/testimonials",
    "/api/instructors",
    "/api/media",
    "/api/slider",
    "/api/slideshow-images",
    "/api/users/login",
    "/api/users/register",
    "/api/users/validate-email/",
    "/api/users/resend-confirmation",
    "/api/users/forgot-password",
    "/api/users/reset-password/",
    "/api/users/token/refresh",
    "/api/users/logout",
    "/api/contact-messages",
    "/api/rental-requests",
    "/api/paypal/config",
    "/api/paypal/webhook",
    "/api/stripe/webhook",
    "/api/evf-reservations/estimate",  # the EVJF/EVG price of the offer's page, as the page's own prices
    "/api/gift-cards/check",  # a gift card's balance by its code, like a paper voucher's (docs/decisions.md 56, 61)
    "/api/waitlist/offers/accept",  # the pushed offer's signed token is the member's word (docs/decisions.md 59)
)


def classify():
    factory = APIRequestFactory()
    public, members, staff = [], [], []
    for route, callback in _walk(get_resolver().url_patterns):
        view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
        if not route.startswith("api/") or view_class is None or not hasattr(view_class, "get_permissions"):
            continue
        path = _concrete(route)
        for method in METHODS:
            if not hasattr(view_class, method):
                continue
            view = view_class()
            view.args, view.kwargs, view.format_kwarg = (), {}, None
            view.request = view.initialize_request(getattr(factory, method)(path))
            view.headers = {}
            permissions = view.get_permissions()
            if any(isinstance(p, IsStudioStaff) for p in permissions):
                staff.append((method.upper(), path))
            elif not permissions or all(isinstance(p, AllowAny) for p in permissions):
                public.append((method.upper(), path))
            else:
                members.append((method.upper(), path))
    return public, members, staff


PUBLIC, MEMBERS, STAFF = classify()


def test_the_walk_sees_every_kind_of_api():
    assert len(PUBLIC) > 5 and len(MEMBERS) > 5 and len(STAFF) > 10


@pytest.mark.django_db
def test_routes_open_to_visitors_are_the_expected_ones():
    """A route whose permission classes let anyone in either is public by design or checks the login itself
    (the reservation endpoints answer their own French message with 401)."""
    client = APIClient()
    unexpected = []
    for method, path in PUBLIC:
        if path.startswith(EXPECTED_PUBLIC_PREFIXES):
            continue
        if client.generic(method, path, "{}", content_type="application/json").status_code != 401:
            unexpected.append((method, path))
    assert unexpected == []


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), MEMBERS + STAFF, ids=[f"{m} {p}" for m, p in MEMBERS + STAFF])
def test_every_api_that_needs_a_login_refuses_a_visitor_with_401(method, path):
    assert APIClient().generic(method, path, "{}", content_type="application/json").status_code == 401

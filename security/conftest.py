"""Fixtures of the adversarial suite: clients that behave like a browser (CSRF enforced) and rate limits switched on
for the test that asks for them (the rest of the suite runs with them off, studio/settings/test.py)."""

import pytest
from django.test import Client


@pytest.fixture
def browser():
    """A browser: Django's CSRF check is enforced, as it is for real visitors."""
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def rate_limits(settings):
    """Switch the public-form rate limits and the per-recipient e-mail cap on, with the production defaults."""
    from studio import ratelimit

    settings.RATELIMIT_ENABLE = True
    settings.PUBLIC_FORM_RATES = dict(ratelimit.DEFAULT_PUBLIC_FORM_RATES)
    settings.EMAILS_PER_RECIPIENT_PER_HOUR = ratelimit.DEFAULT_EMAILS_PER_RECIPIENT_PER_HOUR
    return ratelimit

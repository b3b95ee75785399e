"""GET /api/subscriptions (staff) is kept in the cache per filter until a row it shows changes: the same list again
costs no query beyond the request's user, and the list after a charge, a freeze, an action, a reduced-rate
declaration, a pass or a member's name changes is the one a fresh read gives."""

from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from payments.subscriptions.models import (
    ChargeStatus,
    ReducedRateDeclaration,
    Subscription,
    SubscriptionAction,
    SubscriptionActionKind,
    SubscriptionCharge,
    SubscriptionFreeze,
)

from .test_subscriptions import buy, run_due_jobs

pytestmark = pytest.mark.django_db

STAFF_LIST = "/api/subscriptions"
NOW = "2030-03-12 10:00:00"


@pytest.fixture
def studio(api_client, staff, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        for _ in range(3):
            buy(api_client, UserFactory(), annual)
    with freeze_time(NOW):
        for day in ("2030-02-10", "2030-03-10"):
            run_due_jobs(day)
    api_client.force_authenticate(staff)
    return api_client


def _list(api_client, query=""):
    response = api_client.get(f"{STAFF_LIST}{query}")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize("query", ["", "?filter=active", "?filter=ending"])
def test_the_same_list_again_makes_no_query(studio, query):
    with freeze_time(NOW):
        first = _list(studio, query)
        with CaptureQueriesContext(connection) as context:
            again = _list(studio, query)
    assert again == first
    assert context.captured_queries == []


def _charge_paid(staff):
    charge = SubscriptionCharge.objects.exclude(status=ChargeStatus.PAID).order_by("id").first()
    if charge is None:
        charge = SubscriptionCharge.objects.order_by("id").first()
        charge.status = ChargeStatus.FAILED
    else:
        charge.status = ChargeStatus.PAID
    charge.save()


def _freeze(staff):
    subscription = Subscription.objects.order_by("id").first()
    SubscriptionFreeze.objects.create(
        subscription=subscription, starts_on=date(2030, 3, 20), weeks=2, reason="Cheville", by=staff
    )


def _action(staff):
    subscription = Subscription.objects.order_by("id").first()
    SubscriptionAction.objects.create(
        subscription=subscription, kind=SubscriptionActionKind.values[0], reason="Appel", by=staff
    )


def _reduced(staff):
    subscription = Subscription.objects.order_by("id").first()
    ReducedRateDeclaration.objects.create(order=subscription.source_order, status="student")


def _pass_extended(staff):
    granted = Subscription.objects.order_by("id").first().granted_pass
    granted.expires_on += timedelta(days=30)
    granted.save()


def _renamed(staff):
    member = Subscription.objects.order_by("id").first().member
    member.last_name = "Nouveau-Nom"
    member.save()


def _method_saved(staff):
    from payments.subscriptions.services.saved_methods import simulated_card_save

    simulated_card_save(user=Subscription.objects.order_by("id").first().member)


@pytest.mark.parametrize("change", [_charge_paid, _freeze, _action, _reduced, _pass_extended, _renamed, _method_saved])
def test_a_change_shows_on_the_next_list(studio, staff, change):
    with freeze_time(NOW):
        before = _list(studio)
        change(staff)
        after = _list(studio)
        assert after != before
        cache.clear()
        assert after == _list(studio)


def test_the_daily_status_update_shows_on_the_next_list(studio, staff):
    """The daily job sets statuses with update(), which sends no signal."""
    from payments.subscriptions.services.lifecycle import subscriptions_freeze_status

    with freeze_time(NOW):
        _freeze(staff)
        before = _list(studio, "?filter=frozen")
        assert before == []
    with freeze_time("2030-03-21 10:00:00"):
        assert _list(studio, "?filter=frozen") == []
        assert subscriptions_freeze_status(as_of=date(2030, 3, 21)) == 1
        assert len(_list(studio, "?filter=frozen")) == 1


def test_a_list_read_before_the_change_commits_is_set_aside_at_the_commit(
    studio, staff, django_capture_on_commit_callbacks
):
    """Another worker may read the list between the change and its commit, still without the change: the version is
    bumped again at the commit, so that list is not kept."""
    with freeze_time(NOW):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            _renamed(staff)
            _list(studio)  # cached under the version bumped by the change, as a concurrent reader would
        with CaptureQueriesContext(connection) as context:
            _list(studio)
        assert context.captured_queries == []
        for callback in callbacks:
            callback()
        with CaptureQueriesContext(connection) as context:
            _list(studio)
        assert context.captured_queries != []

"""The member's own profile page, kept in the shared cache under the member's version: a warm page runs no
query and is what a cold one would be, with the request's own CSRF token; every change the page shows makes the next
request show it (the passes, subscriptions and their charges and freezes, invoices, reminder switches, the member's
own fields, the day), including changes written with `QuerySet.update()`, which send no signal."""

import re
from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from accounts.services import user_update
from accounts.tests.test_profile_sections import charge, invoice, subscription_of
from bookings.models import Pass
from bookings.services.pass_admin import pass_adjust, pass_grant
from bookings.services.passes import reservation_book_with_pass
from bookings.services.reminders import booking_preferences_update
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseSessionFactory, TariffFactory
from invoices.models import Invoice
from messaging.tests.test_unread_cache import CacheReads
from payments.models import ChargeStatus, Subscription, SubscriptionCharge, SubscriptionFreeze, SubscriptionStatus
from payments.services.subscription_lifecycle import subscriptions_end_finished, subscriptions_freeze_status
from payments.services.subscription_staff import subscription_cancel
from studio import auth_cache

pytestmark = pytest.mark.django_db

AS_IN_PRODUCTION = {"MEMBER_CACHE_SECONDS": 300, "SESSION_ENGINE": "django.contrib.sessions.backends.cached_db"}
TODAY = "2030-03-15 10:00:00"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(autouse=True)
def shared_cache():
    with override_settings(**AS_IN_PRODUCTION):
        cache.clear()
        auth_cache.forget_local()
        yield
        cache.clear()
        auth_cache.forget_local()


@pytest.fixture
def frozen():
    with freeze_time(TODAY) as clock:
        yield clock


@pytest.fixture
def studio(member, frozen):
    """A member with a card, an active subscription paid per month, an invoice and reminder switches."""
    tariff = TariffFactory(title="Abonnement mensuel", pass_unlimited=True, pass_validity_months=12)
    card = PassFactory(member=member, title="Carte 10 cours", credits_left=3, expires_on=date(2030, 6, 30))
    subscription = subscription_of(
        member, tariff, "actif", status=SubscriptionStatus.ACTIVE, periods_paid=2, starts_on=date(2030, 1, 10)
    )
    charge(subscription, 1, ChargeStatus.PAID, provider_reference="SIM-1", paid_at=subscription.created_at)
    charge(subscription, 2, ChargeStatus.PAID, provider_reference="SIM-2", paid_at=subscription.created_at)
    charge(subscription, 3, ChargeStatus.DUE)
    invoice(member, "2030-000001")
    booking_preferences_update(user=member, remind_day_before=False)
    return {"card": card, "subscription": subscription, "tariff": tariff}


def main(response) -> str:
    assert response.status_code == 200
    html = response.content.decode()
    return TOKEN.sub('name="csrfmiddlewaretoken" value="TOKEN"', html[html.index("<main") : html.index("</main>")])


def cold_page(client) -> str:
    """The page as it is built from the database (the session stays: it is also in the database)."""
    cache.clear()
    return main(client.get("/user/profile"))


def warm(client) -> str:
    first = main(client.get("/user/profile"))
    assert main(client.get("/user/profile")) == first
    return first


def test_a_warm_profile_runs_no_query_and_is_the_cold_page(client, member, studio):
    client.force_login(member)
    cold = main(client.get("/user/profile"))
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/user/profile")
    assert len(queries) == 0, [q["sql"] for q in queries.captured_queries]
    assert main(response) == cold
    assert "Carte 10 cours" in cold and "2030-000001" in cold and "Abonnement actif" in cold


def test_a_warm_profile_is_two_cache_round_trips_in_a_process_that_kept_it(client, member, studio, monkeypatch):
    client.force_login(member)
    warm(client)
    reads = CacheReads(monkeypatch)
    response = client.get("/user/profile")
    # The session, then the member's row and version: the page is this process's copy.
    assert reads.count == 2
    assert main(response) == cold_page(client)


def test_a_change_made_through_another_worker_is_seen_despite_the_process_copy(client, member, studio):
    client.force_login(member)
    before = warm(client)
    # Another worker's change: the row written, the shared version bumped; nothing of this process is told.
    Pass.objects.filter(pk=studio["card"].pk).update(title="Carte 20 cours")
    cache.incr(auth_cache.VERSION_KEY.format(id=member.pk))
    after = main(client.get("/user/profile"))
    assert after != before and "Carte 20 cours" in after


def test_a_process_copy_lasts_no_longer_than_the_shared_entry(client, member, studio, frozen):
    client.force_login(member)
    warm(client)
    Pass.objects.filter(pk=studio["card"].pk).update(title="Carte 20 cours")  # no signal, no bump (raw writes)
    assert "Carte 20 cours" not in main(client.get("/user/profile"))
    frozen.tick(timedelta(seconds=AS_IN_PRODUCTION["MEMBER_CACHE_SECONDS"] + 1))
    cache.delete(auth_cache.ENTRY_KEY.format(id=member.pk, name="profile-body:2030-03-15:0"))  # as Redis expires it
    assert "Carte 20 cours" in main(client.get("/user/profile"))


def test_each_cached_page_carries_the_requests_own_token_which_the_studio_accepts(member, studio):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    client.get("/user/profile")
    html = client.get("/user/profile").content.decode()
    tokens = TOKEN.findall(html[html.index("<main") : html.index("</main>")])
    assert len(tokens) == 2 and tokens[0] == tokens[1]  # the profile form and the reminders' form
    again = TOKEN.findall(client.get("/user/profile").content.decode())
    assert again[0] != tokens[0]  # masked afresh for each request, as Django does
    response = client.post("/my-courses/preferences", {"csrfmiddlewaretoken": again[0], "remind_day_before": "on"})
    assert response.status_code == 302
    assert 'name="remind_day_before" checked' in client.get("/user/profile").content.decode()


def test_a_staff_members_view_of_a_member_is_not_the_members_own_page(client, member, staff, studio):
    client.force_login(member)
    own = warm(client)
    client.force_login(staff)
    other = main(client.get(f"/user/profile/{member.pk}"))
    assert other != own and "Profil de Emma Petit" in other and "Rappels et agenda" not in other


def test_a_member_whose_page_holds_a_payment_button_gets_it_with_its_script(client, member, studio):
    Subscription.objects.filter(pk=studio["subscription"].pk).update(status=SubscriptionStatus.UNPAID)
    client.force_login(member)
    for _ in range(2):
        html = client.get("/user/profile").content.decode()
        assert html.count('data-island="subscription-pay"') == 1
        assert len(re.findall(r'<script src="/static/dist/subscription-pay[.\w-]*\.js"', html)) == 1
    assert main(client.get("/user/profile")) == cold_page(client)


def _book_with_card(member, studio, staff, frozen):
    session = CourseSessionFactory()
    reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=studio["card"].pk,
        participants=1,
        first_name="Emma",
        last_name="Petit",
        email=member.email,
    )
    return "2 crédits restants"


def _freeze_recorded(member, studio, staff, frozen):
    subscription = studio["subscription"]
    SubscriptionFreeze.objects.create(subscription=subscription, starts_on=date(2030, 3, 20), weeks=2, reason="Voyage")
    frozen.move_to("2030-03-21 09:00:00")


def _frozen_by_the_daily_task(member, studio, staff, frozen):
    assert subscriptions_freeze_status(as_of=date(2030, 3, 21)) == 1
    return "Gelé"


def _commitment_over(member, studio, staff, frozen):
    Subscription.objects.filter(pk=studio["subscription"].pk).update(periods_committed=2, starts_on=date(2029, 12, 1))


def _ended_by_the_daily_task(member, studio, staff, frozen):
    assert subscriptions_end_finished(as_of=date(2030, 3, 15)) == 1
    return "Terminé"


# What the page was before (done before it is cached), then the change it must show at once.
PREPARED = {"frozen by the daily task": _freeze_recorded, "ended by the daily task": _commitment_over}
CHANGES = {
    "names": lambda member, studio, staff, frozen: (
        user_update(actor=member, user=member, data={"first_name": "Zoé"}) and "Zoé"
    ),
    "pass granted": lambda member, studio, staff, frozen: (
        pass_grant(actor=staff, member_email=member.email, reason="Cadeau", tariff_id=studio["tariff"].pk)
        and "Abonnement mensuel"
    ),
    "credits adjusted": lambda member, studio, staff, frozen: (
        pass_adjust(actor=staff, pass_id=studio["card"].pk, reason="Geste", credits_delta=4) and "7 crédits restants"
    ),
    "credit spent": _book_with_card,
    "frozen by staff": lambda member, studio, staff, frozen: (
        SubscriptionFreeze.objects.create(
            subscription=studio["subscription"], starts_on=date(2030, 4, 1), weeks=3, reason="Blessure"
        )
        and "engagement jusqu"
    ),
    "frozen by the daily task": _frozen_by_the_daily_task,
    "ended by the daily task": _ended_by_the_daily_task,
    "cancelled with a refund": lambda member, studio, staff, frozen: (
        subscription_cancel(subscription_id=studio["subscription"].pk, by=staff, reason="Départ", refund=True)
        and "Annulé"
    ),
    "invoice": lambda member, studio, staff, frozen: invoice(member, "2030-000002", total="55.50") and "2030-000002",
    "invoice deleted": lambda member, studio, staff, frozen: (
        Invoice.objects.filter(member=member).delete() and "Aucune facture pour l"
    ),
    "reminders": lambda member, studio, staff, frozen: (
        booking_preferences_update(user=member, remind_day_before=True) and 'name="remind_day_before" checked'
    ),
    "pass deleted": lambda member, studio, staff, frozen: Pass.objects.get(pk=studio["card"].pk).delete() and "",
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_what_changes_shows_at_the_next_request(client, member, staff, studio, frozen, change):
    if change in PREPARED:
        PREPARED[change](member, studio, staff, frozen)
    client.force_login(member)
    before = warm(client)
    shown = CHANGES[change](member, studio, staff, frozen)
    after = main(client.get("/user/profile"))
    assert after == cold_page(client)
    assert after != before
    assert shown in after


def test_a_page_cached_yesterday_is_not_shown_today(client, member, studio, frozen):
    PassFactory(member=member, title="Carte printemps", starts_on=date(2030, 3, 16), expires_on=date(2030, 5, 1))
    client.force_login(member)
    assert "À venir" in warm(client)
    frozen.move_to("2030-03-16 08:00:00")
    today = main(client.get("/user/profile"))
    assert today == cold_page(client)
    assert "À venir" not in today


def test_a_charge_saved_with_its_subscription_at_hand_reads_no_subscription_back(studio):
    subscription = studio["subscription"]
    charge_ = subscription.charges.select_related("subscription").get(period=3)
    charge_.status = ChargeStatus.FAILED
    with CaptureQueriesContext(connection) as queries:
        charge_.save(update_fields=["status"])
    assert not [q["sql"] for q in queries.captured_queries if 'FROM "payments_subscription"' in q["sql"]]


def test_a_charge_saved_on_its_own_still_changes_its_members_page(client, member, studio):
    client.force_login(member)
    before = warm(client)
    charge_ = SubscriptionCharge.objects.get(subscription=studio["subscription"], period=3)  # its subscription unread
    charge_.status = ChargeStatus.FAILED
    charge_.save(update_fields=["status"])
    after = main(client.get("/user/profile"))
    assert after != before and after == cold_page(client)


USER_ROW = 'FROM "accounts_user" WHERE "accounts_user"."id" = '
OTHER_TABLES = [change for change in CHANGES if change != "names"]


@pytest.mark.parametrize("change", OTHER_TABLES, ids=OTHER_TABLES)
def test_a_change_to_another_table_keeps_the_members_cached_user_row(client, member, staff, studio, frozen, change):
    """A payment, a pass, an invoice or a subscription's change rebuilds the member's page, not their user row: the
    next request reads no user row (it did after every payment)."""
    if change in PREPARED:
        PREPARED[change](member, studio, staff, frozen)
    client.force_login(member)
    warm(client)
    CHANGES[change](member, studio, staff, frozen)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/user/messages")
    assert response.status_code == 200
    assert [q["sql"] for q in queries.captured_queries if USER_ROW in q["sql"]] == []


def test_a_change_to_the_members_own_fields_reads_their_row_again(client, member, studio, frozen):
    client.force_login(member)
    warm(client)
    CHANGES["names"](member, studio, None, frozen)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/user/messages")
    assert response.status_code == 200 and "Zoé" in response.content.decode()
    assert len([q for q in queries.captured_queries if USER_ROW in q["sql"]]) == 1

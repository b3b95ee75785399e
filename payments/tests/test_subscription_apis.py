"""GET /api/subscriptions/mine, GET /api/subscriptions (staff, filters), POST /api/subscriptions/{id}/pay."""

from decimal import Decimal

import pytest
from freezegun import freeze_time

from payments.subscriptions.models import Subscription
from payments.subscriptions.services import common as subs

from .test_subscriptions import buy, run_due_jobs

pytestmark = pytest.mark.django_db

MINE = "/api/subscriptions/mine"
STAFF_LIST = "/api/subscriptions"


def pay(api_client, subscription, **body):
    return api_client.post(f"/api/subscriptions/{subscription.pk}/pay", body, format="json")


@freeze_time("2030-01-10 10:00:00")
def test_mine_lists_periods_paid_and_left_and_the_next_due_date(api_client, member, annual):  # noqa: F811
    buy(api_client, member, annual)
    response = api_client.get(MINE)
    assert response.status_code == 200
    [row] = response.json()
    assert row["title"] == "Abonnement annuel illimité" and row["status_label"] == "Active"
    assert (row["periods_committed"], row["periods_paid"], row["periods_left"]) == (12, 1, 11)
    assert (row["next_due_on"], row["next_due_amount"]) == ("2030-02-10", "55.00")
    assert (row["ends_on"], row["pass_expires_on"]) == ("2031-01-09", "2030-02-09")
    assert [c["status_label"] for c in row["charges"]] == ["Payée"]


def test_staff_see_unpaid_and_the_member_pays_now(api_client, member, staff, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=True)
    with freeze_time("2030-02-10 07:00:00"):
        run_due_jobs("2030-02-10")
        api_client.force_authenticate(staff)
        rows = api_client.get(STAFF_LIST, {"filter": "unpaid"}).json()
        assert [(r["id"], r["status_label"], r["member"]["email"]) for r in rows] == [
            (subscription.pk, "Impayé", member.email)
        ]
        assert api_client.get(STAFF_LIST, {"filter": "active"}).json() == []
        assert api_client.get(STAFF_LIST, {"filter": "ending"}).json() == []
        api_client.force_authenticate(member)
        refused = pay(api_client, subscription, card_declined=True)
        assert refused.status_code == 409 and refused.json()["error"] == subs.MSG_PAY_NOW_DECLINED
        paid = pay(api_client, subscription)
        assert paid.status_code == 200
        assert (paid.json()["status_label"], paid.json()["periods_paid"]) == ("Active", 2)
        again = pay(api_client, subscription)
        assert again.status_code == 409 and again.json()["error"] == "Aucune échéance n'est à payer sur cet abonnement."


def test_ending_within_30_days(api_client, member, staff, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        buy(api_client, member, annual)
    api_client.force_authenticate(staff)
    with freeze_time("2030-12-15 10:00:00"):
        assert len(api_client.get(STAFF_LIST, {"filter": "ending"}).json()) == 1
    with freeze_time("2030-12-01 10:00:00"):
        assert api_client.get(STAFF_LIST, {"filter": "ending"}).json() == []


def test_a_bad_filter_is_refused_in_french(api_client, staff):
    api_client.force_authenticate(staff)
    for bad in ("nope", ""):
        response = api_client.get(STAFF_LIST, {"filter": bad})
        assert response.status_code == 400
        assert "Filtre inconnu : « active », « unpaid », « frozen » ou « ending »." in str(response.json())


def test_someone_elses_subscription_is_not_found(api_client, member, annual):  # noqa: F811
    from accounts.tests.factories import UserFactory

    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    api_client.force_authenticate(UserFactory())
    response = pay(api_client, subscription)
    assert response.status_code == 404 and response.json()["error"] == "Cet abonnement est introuvable."
    assert api_client.get(MINE).json() == []


def test_the_lists_take_a_fixed_number_of_queries(
    api_client,
    member,
    staff,
    django_assert_max_num_queries,
    annual,  # noqa: F811
):
    from accounts.tests.factories import UserFactory
    from courses.tests.factories import TariffFactory

    with freeze_time("2030-01-10 10:00:00"):
        for _ in range(3):
            buy(api_client, UserFactory(), annual)
        buy(
            api_client,
            member,
            TariffFactory(
                type="abonnement",
                price=Decimal("85.00"),
                frequency="par mois",
                pass_unlimited=True,
                pass_validity_months=6,
            ),
        )
        run_due_jobs("2030-01-10")
    api_client.force_authenticate(staff)
    with django_assert_max_num_queries(6):
        assert len(api_client.get(STAFF_LIST).json()) == 4
    api_client.force_authenticate(member)
    with django_assert_max_num_queries(6):
        assert len(api_client.get(MINE).json()) == 1


def test_the_staff_list_reads_values_not_a_model_per_charge_member_or_pass(
    api_client,
    staff,
    annual,  # noqa: F811
):
    """A studio's year is hundreds of subscriptions and thousands of charges: as model instances (each subscription with
    its member, pass, order and charges) they cost several times the answer. At most one object per subscription (the
    arithmetic of its dates), none for its charges, member, pass or order."""
    from django.db.models.signals import pre_init

    from accounts.tests.factories import UserFactory

    with freeze_time("2030-01-10 10:00:00"):
        for _ in range(3):
            buy(api_client, UserFactory(), annual)
    with freeze_time("2030-04-12 10:00:00"):
        for day in ("2030-02-10", "2030-03-10", "2030-04-10"):
            run_due_jobs(day)
        api_client.force_authenticate(staff)
        built = []

        def count(sender, **kwargs):
            built.append(sender.__name__)

        pre_init.connect(count)
        try:
            rows = api_client.get(STAFF_LIST).json()
        finally:
            pre_init.disconnect(count)
    assert [len(row["charges"]) for row in rows] == [4, 4, 4]
    assert built == ["Subscription"] * 3


def test_the_profile_shows_the_subscription_and_pay_now_when_unpaid(client, api_client, member, annual):  # noqa: F811
    with freeze_time("2030-01-10 10:00:00"):
        subscription = buy(api_client, member, annual)
    with freeze_time("2030-01-11 10:00:00"):
        client.force_login(member)
        page = client.get("/user/profile").content.decode()
    assert "Mes abonnements payés par mois" in page and "Abonnement annuel illimité" in page
    assert "1 période payée sur 12 · 11 restantes" in page
    assert "Prochaine échéance : 55.00 € le 10/02/2030" in page or "Prochaine échéance : 55,00 € le 10/02/2030" in page
    assert 'data-island="subscription-pay"' not in page
    Subscription.objects.filter(pk=subscription.pk).update(simulated_card_declines=True)
    with freeze_time("2030-02-10 07:00:00"):
        run_due_jobs("2030-02-10")
        client.force_login(member)
        page = client.get("/user/profile").content.decode()
    assert "Impayé" in page and "nouvel essai le 13/02/2030" in page
    assert 'data-island="subscription-pay"' in page


def test_the_dashboard_has_a_subscriptions_section(client, staff):
    client.force_login(staff)
    assert client.get("/admin/subscriptions").status_code == 200

"""Every figure of /api/dashboard/stats on a smaller bench studio (project/bench_activity.py's year of activity),
checked against an independent count in plain Python over the rows (insights/tests/expected.py), for the
dashboard's periods and the previous period of each. Marked `database`: run on SQLite and PostgreSQL,
whose date functions (TruncWeek, ExtractIsoWeekDay in Europe/Paris) differ."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from freezegun import freeze_time

from . import expected
from .studio import NOW, build_studio

TODAY = NOW.date()
PERIODS = {
    "cette semaine (changement d'heure)": (date(2026, 3, 23), TODAY),
    "ce mois": (date(2026, 3, 1), TODAY),
    "30 derniers jours": (TODAY - timedelta(days=29), TODAY),
    "cette saison": (date(2025, 9, 1), TODAY),
    "une année": (TODAY - timedelta(days=364), TODAY),
    "avec des jours à venir": (date(2026, 3, 23), date(2026, 4, 12)),
}


def _money(value) -> Decimal:
    return Decimal(value)


def _check_money(answer: dict, rows, days: tuple[date, date], which: str) -> None:
    want = expected.money(rows, days)
    for key in (
        "money_in",
        "card_payments",
        "subscription_periods",
        "refunds",
        "cards_sold",
        "subscriptions_sold",
        "unpaid",
    ):
        amount, count = want[key]
        assert (_money(answer[key][which]), answer[key][f"{which}_count"]) == (amount, count), (key, which)
    assert answer["classes_held"][which] == want["classes_held"]
    got = answer["revenue_per_class"][which]
    assert (None if got is None else _money(got)) == want["revenue_per_class"]


def _check_classes(answer: dict, rows, days, which: str) -> None:
    want = expected.classes(rows, days)
    for key in (
        "held",
        "cancelled",
        "places",
        "seats_taken",
        "full",
        "waitlist_entries",
        "waitlist_members",
        "waitlist_sessions",
        "waitlist_booked",
        "present",
        "no_shows",
    ):
        assert answer[key][which] == want[key], (key, which)
    assert answer["fill_rate"][which] == want["fill_rate"]
    assert answer["attendance_rate"][which] == want["attendance_rate"]
    if which == "current":
        assert [b["sessions"] for b in answer["fill_bands"]] == want["fill_bands"]
        assert (
            sorted(
                (c["title"], c["course_id"], c["sessions"], c["places"], c["seats_taken"]) for c in answer["courses"]
            )
            == want["courses"]
        )
        assert [
            (s["weekday"], s["hour"], s["sessions"], s["places"], s["seats_taken"]) for s in answer["timetable"]
        ] == want["timetable"]


@pytest.mark.database
@pytest.mark.django_db
def test_every_figure_equals_an_independent_count_over_the_rows(client, supervisor):
    with freeze_time(NOW):
        studio = build_studio()
        client.force_login(supervisor)
        rows = expected.Rows(NOW)
        activity = studio["activity"]
        # The generator drew a believable year: sales, refunds, subscriptions, cancelled classes, waiting lists.
        assert activity["cards_sold"] and activity["refunds"] and activity["subscriptions"] and activity["cancelled"]
        assert activity["waiting"] and activity["attendance"]
        for label, (first, last) in PERIODS.items():
            response = client.get(f"/api/dashboard/stats?from={first}&to={last}")
            assert response.status_code == 200, label
            body = response.json()
            before = expected.previous_days(first, last)
            assert (body["period"]["from"], body["period"]["to"]) == (first.isoformat(), last.isoformat())
            assert (body["previous"]["from"], body["previous"]["to"]) == (before[0].isoformat(), before[1].isoformat())
            assert body["previous"]["days"] == body["period"]["days"] == (last - first).days + 1

            _check_money(body["money"], rows, (first, last), "current")
            _check_money(body["money"], rows, before, "previous")
            weekly = (last - first).days + 1 <= 92
            assert body["money"]["bucket"] == ("week" if weekly else "month")
            assert [
                (date.fromisoformat(b["start"]), _money(b["money_in"]), _money(b["refunds"]))
                for b in body["money"]["series"]
            ] == expected.money_series(rows, (first, last), weekly), label

            _check_classes(body["classes"], rows, (first, last), "current")
            _check_classes(body["classes"], rows, before, "previous")

            members = body["members"]
            for which, days in (("current", (first, last)), ("previous", before)):
                want = expected.members(rows, days)
                assert (members["active"][which], members["new"][which]) == (want["active"], want["new"]), label
            period_end = expected.paris_midnight(last + timedelta(days=1))
            assert members["stopped_coming"]["current"] == expected.stopped_coming(rows, min(period_end, NOW))
            assert members["stopped_coming"]["previous"] == expected.stopped_coming(
                rows, min(expected.paris_midnight(first), NOW)
            )
            assert (members["cards_running_out"], members["subscriptions_running_out"]) == expected.running_out(rows)

            upcoming = body["upcoming"]
            want = expected.upcoming(rows)
            assert [
                (c["id"], c["course"], c["places"], c["seats_taken"], c["waiting"]) for c in upcoming["classes"]
            ] == want["classes"]
            assert (upcoming["unpaid_count"], _money(upcoming["unpaid_amount"])) == (
                want["unpaid_count"],
                want["unpaid_amount"],
            )
            assert [(date.fromisoformat(c["due_on"])) for c in upcoming["unpaid"]] == [
                d for d, _ in want["unpaid_first"]
            ]


@pytest.mark.django_db
def test_the_edges_land_on_their_paris_day(client, supervisor):
    """Spot checks that do not depend on the generator: the rows placed on the edges by the fixture."""
    with freeze_time(NOW):
        studio = build_studio(sessions=30, members=12, reservations=40)
        client.force_login(supervisor)
        monday = TODAY - timedelta(days=TODAY.weekday())
        week = client.get(f"/api/dashboard/stats?from={monday}&to={TODAY}").json()
        day_before = client.get(
            f"/api/dashboard/stats?from={monday - timedelta(days=1)}&to={monday - timedelta(days=1)}"
        ).json()
    rows = expected.Rows(NOW)
    # Paid at 00:30 Paris on Monday is this week's; at 23:45 Paris on Sunday is the day before's.
    assert Decimal("25.00") <= Decimal(week["money"]["card_payments"]["current"])
    sunday_only = expected.money(rows, (monday - timedelta(days=1), monday - timedelta(days=1)))
    assert Decimal(day_before["money"]["card_payments"]["current"]) == sunday_only["card_payments"][0]
    assert Decimal("30.00") <= sunday_only["card_payments"][0]
    # The full class tomorrow: 2 seats confirmed + a live hold of 1 = 3 of 3; two in line (the one who left is not).
    full = next(c for c in week["upcoming"]["classes"] if c["id"] == studio["full_session"].pk)
    assert (full["seats_taken"], full["places"], full["waiting"]) == (3, 3, 2)
    # The one-off unlimited pass running out in 10 days counts; so does the card down to 1 credit.
    assert week["members"]["subscriptions_running_out"] >= 1
    assert week["members"]["cards_running_out"] >= 1
    # The unpaid period due today is to chase; the one due next week is not yet.
    due = [c["due_on"] for c in week["upcoming"]["unpaid"]]
    assert TODAY.isoformat() in due
    assert (TODAY + timedelta(days=7)).isoformat() not in due

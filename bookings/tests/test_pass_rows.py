"""The profile's pass rows (member_pass_rows, one query) list what member_passes lists, in its order, with
the same states, for passes in every state."""

from datetime import date

import pytest
from freezegun import freeze_time

from bookings.models import PassKind
from bookings.selectors.passes import member_pass_rows, member_passes
from bookings.tests.factories import PassFactory

pytestmark = pytest.mark.django_db


@freeze_time("2030-03-15 10:00:00")
def test_the_rows_are_member_passes(member, other_member):
    assert member_pass_rows(member_id=member.pk) == []
    for title, left, starts, ends in (
        ("active", 3, date(2030, 1, 1), date(2030, 6, 30)),
        ("used", 0, date(2030, 1, 1), date(2030, 7, 1)),
        ("expired", 2, date(2029, 1, 1), date(2030, 3, 14)),
        ("last day", 1, date(2030, 1, 1), date(2030, 3, 15)),
        ("upcoming", 10, date(2030, 4, 1), date(2030, 9, 30)),
        ("same end", 5, date(2030, 1, 1), date(2030, 6, 30)),
    ):
        PassFactory(member=member, title=title, credits_left=left, starts_on=starts, expires_on=ends)
    PassFactory(
        member=member, kind=PassKind.SUBSCRIPTION, subscription=True, title="illimité", expires_on=date(2030, 5, 1)
    )
    PassFactory(member=other_member, title="another's")
    expected = [
        {
            "pk": p.pk,
            "title": p.title,
            "state": p.state,
            "state_label": p.state_label,
            "is_card": p.is_card,
            "credits_total": p.credits_total,
            "credits_left": p.credits_left,
            "starts_on": p.starts_on,
            "expires_on": p.expires_on,
            "weekly_cap": getattr(getattr(p, "rule", None), "weekly_cap", 0),
        }
        for p in member_passes(user=member)
    ]
    assert member_pass_rows(member_id=member.pk) == expected
    assert [row["title"] for row in expected][:2] == ["last day", "illimité"]

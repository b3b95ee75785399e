"""A tariff's weekly cap travels with every pass it grants (docs/decisions.md 26): bought online or given by staff, the
pass refuses a class beyond the cap, and the member's profile says the cap instead of "Illimité"."""

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from freezegun import freeze_time

from bookings.pass_rules import PassRule
from bookings.services.pass_admin import pass_grant
from bookings.services.pass_rules import MSG_PASS_WEEKLY_CAP, PassRuleError, pass_rule_set
from bookings.services.passes import reservation_book_with_pass
from bookings.tests.factories import PassFactory
from courses.tests.factories import CourseSessionFactory, TariffFactory
from project.pages.profile_sections import UNLIMITED_TEXT, WEEKLY_CAP_TEXT

pytestmark = pytest.mark.django_db

QUARTERLY = {
    "title": "Abonnement trimestriel",
    "type": "abonnement",
    "price": Decimal("120.00"),
    "frequency": "par trimestre",
    "pass_unlimited": True,
    "pass_validity_months": 3,
}


def _class_on(day: date, hour: int):
    start = timezone.make_aware(datetime(day.year, day.month, day.day, hour, 0))
    return CourseSessionFactory(start=start, end=start + timedelta(hours=1))


def _book(member, session, pass_obj):
    return reservation_book_with_pass(
        user=member,
        session_id=session.pk,
        pass_id=pass_obj.pk,
        participants=1,
        first_name=member.first_name,
        last_name=member.last_name,
        email=member.email,
    )


@freeze_time("2030-01-07 10:00:00")  # a Monday
def test_a_pass_staff_grant_from_a_capped_tariff_keeps_its_cap(staff, member):
    tariff = TariffFactory(**QUARTERLY, pass_weekly_cap=1)
    pass_obj = pass_grant(actor=staff, member_email=member.email, reason="Réglé à l'accueil", tariff_id=tariff.pk)
    assert PassRule.objects.get(pass_ref=pass_obj).weekly_cap == 1
    _book(member, _class_on(date(2030, 1, 7), 19), pass_obj)  # Monday
    with pytest.raises(PassRuleError) as refused:
        _book(member, _class_on(date(2030, 1, 8), 19), pass_obj)  # Tuesday, the same week
    assert refused.value.message == MSG_PASS_WEEKLY_CAP.format(cap=1)
    _book(member, _class_on(date(2030, 1, 14), 19), pass_obj)  # the next Monday


def test_a_pass_from_an_uncapped_tariff_has_no_rule(staff, member):
    tariff = TariffFactory(**{**QUARTERLY, "title": "Abonnement mensuel illimité"})
    pass_obj = pass_grant(actor=staff, member_email=member.email, reason="Offert", tariff_id=tariff.pk)
    assert not PassRule.objects.filter(pass_ref=pass_obj).exists()


@freeze_time("2030-01-07 10:00:00")
def test_the_profile_says_the_cap_not_unlimited(client, member):
    capped = PassFactory(member=member, subscription=True, title="Abonnement trimestriel")
    pass_rule_set(pass_id=capped.pk, weekly_cap=1)
    PassFactory(member=member, subscription=True, title="Abonnement annuel illimité")
    client.force_login(member)
    html = client.get("/user/profile").content.decode()
    capped_line = html.split(f'data-pass-id="{capped.pk}"', 1)[1].split("</li>", 1)[0]
    assert WEEKLY_CAP_TEXT.format(cap=1) in capped_line and UNLIMITED_TEXT not in capped_line
    assert html.count(UNLIMITED_TEXT) == 1  # the uncapped subscription only


def test_the_texts_read_as_the_studio_writes_them():
    assert WEEKLY_CAP_TEXT.format(cap=1) == "1 cours par semaine"
    assert WEEKLY_CAP_TEXT.format(cap=2) == "2 cours par semaine"

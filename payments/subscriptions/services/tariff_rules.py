"""Every rule a tariff's passes apply, written at once from the dashboard's tariff form (docs/decisions.md 51).

Most rules are the tariff's own (courses: classes included, validity, weekly cap, future-bookings cap, commitment
periods, courses covered); the reduced rate and the pause allowance are its subscription plan's, which payments
holds above courses. This module sees both, so one save writes them in one transaction and a refusal of either leaves
both as they were."""

from django.db import transaction

from courses.models import Tariff
from courses.services import catalogue

from ..models import PAUSE_WEEKS_PER_YEAR_DEFAULT, SubscriptionPlan

# The plan's rules a save may carry; left out, they stay as they are.
PLAN_FIELDS = ("reduced_rate", "pause_weeks_per_year")


def tariff_plan_rules(tariff: Tariff) -> dict:
    """The plan's rules of a tariff (its plan selected with it, or none yet: the defaults)."""
    plan = getattr(tariff, "subscription_plan", None)
    if plan is None:
        return {"reduced_rate": None, "pause_weeks_per_year": PAUSE_WEEKS_PER_YEAR_DEFAULT}
    return {"reduced_rate": plan.reduced_rate, "pause_weeks_per_year": plan.pause_weeks_per_year}


@transaction.atomic
def tariff_rules_save(*, tariff: Tariff | None, fields: dict) -> Tariff:
    """Create (`tariff=None`) or change a tariff with its plan's rules. The tariff's own fields go through courses'
    services (their checks and French refusals); the plan is created on the first rule set for it."""
    plan_rules = {name: fields.pop(name) for name in PLAN_FIELDS if name in fields}
    if tariff is None:
        tariff = catalogue.tariff_create(**fields)
    else:
        tariff = catalogue.tariff_update(tariff=tariff, **fields)
    if plan_rules:
        plan, _ = SubscriptionPlan.objects.select_for_update().get_or_create(tariff=tariff)
        for name, value in plan_rules.items():
            setattr(plan, name, value)
        plan.save(update_fields=list(plan_rules))
        tariff.subscription_plan = plan
    return tariff


def tariff_rules_list():
    return Tariff.objects.select_related("course", "subscription_plan").prefetch_related("covered_courses")

"""`{% load bookings_passes %}{% member_passes user %}`: a member's class cards and subscriptions.

Used on the profile page: one query, whatever the number of passes.
"""

from django import template

from bookings.selectors.passes import member_pass_rows

register = template.Library()

# A pass's usage: the credits left of a card, the weekly cap of a rule, or unlimited.
CREDITS_LEFT_TEXT = "{left} crédit{s} restant{s} sur {total}"
UNLIMITED_TEXT = "Illimité"
WEEKLY_CAP_TEXT = "{cap} cours par semaine"


def _usage_text(row: dict) -> str:
    cap = WEEKLY_CAP_TEXT.format(cap=row["weekly_cap"]) if row["weekly_cap"] else ""
    if not row["is_card"]:
        return cap or UNLIMITED_TEXT
    left = row["credits_left"]
    usage = CREDITS_LEFT_TEXT.format(left=left, s="" if left == 1 else "s", total=row["credits_total"])
    return f"{usage}, {cap}" if cap else usage


@register.inclusion_tag("bookings/_passes.html")
def member_passes(user):
    passes = member_pass_rows(member_id=user.pk) if user and user.is_authenticated else []
    for row in passes:
        row["usage_text"] = _usage_text(row)
    return {"passes": passes}

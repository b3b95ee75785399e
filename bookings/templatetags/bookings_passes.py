"""`{% load bookings_passes %}{% member_passes user %}`: a member's class cards and subscriptions.

Used on the profile page: one query, whatever the number of passes.
"""

from django import template

from bookings.selectors import member_pass_rows
from studio.day_text import day_text

register = template.Library()

# A pass's line, written here rather than by the template's number localisation, |pluralize and {% if %}
# (each costs the page a few microseconds per pass): the same text.
CREDITS_LEFT_TEXT = "{left} crédit{s} restant{s} sur {total}"
UNLIMITED_TEXT = "Illimité"
WEEKLY_CAP_TEXT = "{cap} cours par semaine"
VALID_FROM_TEXT = "du {day} "


@register.inclusion_tag("bookings/_passes.html")
def member_passes(user):
    passes = member_pass_rows(member_id=user.pk) if user and user.is_authenticated else []
    for row in passes:  # written here rather than by the template's date filter (studio.day_text): same text
        left = row["credits_left"]
        row["id_text"] = str(row["pk"])
        cap = WEEKLY_CAP_TEXT.format(cap=row["weekly_cap"]) if row["weekly_cap"] else ""
        if row["is_card"]:
            usage = CREDITS_LEFT_TEXT.format(left=left, s="" if left == 1 else "s", total=row["credits_total"])
            row["usage_text"] = f"{usage}, {cap}" if cap else usage
        else:
            row["usage_text"] = cap or UNLIMITED_TEXT
        row["from_text"] = VALID_FROM_TEXT.format(day=day_text(row["starts_on"])) if row["state"] == "upcoming" else ""
        row["until_text"] = day_text(row["expires_on"])
    return {"passes": passes}

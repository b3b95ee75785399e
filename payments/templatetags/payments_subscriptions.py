"""`{% load payments_subscriptions %}{% member_subscriptions target %}`: a member's subscriptions billed per period on
the profile: status, periods paid and left, next due date and amount, the charges with their references,
and "Payer maintenant" for an unpaid period (the member's own profile only). One query (two when a subscription was
ever frozen): `member_subscription_rows`."""

from django import template
from django.utils import formats, timezone

from studio.day_text import amount_text, day_text

from ..subscription_selectors import member_subscription_rows

register = template.Library()

# Lines written here rather than by the template's number localisation, |pluralize and {% if %} (each
# costs the page a few microseconds per subscription and per charge): the same text.
PERIODS_TEXT = "{paid} période{paid_s} payée{paid_s} sur {committed} · {left} restante{left_s}"
RETRY_TEXT = "{status} (nouvel essai le {day})"
RECEIPT_TEXT = "{reference} · payée le {day}"
NO_RECEIPT_TEXT = "—"


def _s(count) -> str:
    return "" if count == 1 else "s"  # as |pluralize writes it for a number


@register.inclusion_tag("payments/_subscriptions.html", takes_context=True)
def member_subscriptions(context, user):
    request = context.get("request")
    viewer = getattr(request, "user", None)
    if not user or not getattr(user, "is_authenticated", False):
        return {"subscriptions": [], "own": False}
    own = viewer is not None and viewer.pk == user.pk
    rows = member_subscription_rows(member_id=user.pk)
    tz, separator = timezone.get_current_timezone(), formats.get_format("DECIMAL_SEPARATOR")
    for row in rows:
        # Dates and amounts written here rather than by the template's filters (studio.day_text): same text.
        row["ends_text"], row["pass_until_text"] = day_text(row["ends_on"]), day_text(row["pass_expires_on"])
        row["id_text"] = str(row["pk"])
        paid, left = row["periods_paid"], row["periods_left"]
        row["periods_text"] = PERIODS_TEXT.format(
            paid=paid, paid_s=_s(paid), committed=row["periods_committed"], left=left, left_s=_s(left)
        )
        if row["next_due_on"]:
            row["next_due_text"] = day_text(row["next_due_on"])
            row["next_amount_text"] = amount_text(row["next_due_amount"], separator)
        for charge in row["charges"]:
            charge["period_text"] = str(charge["period"])  # a text: no number localisation per cell
            charge["due_text"] = day_text(charge["due_on"])
            charge["amount_text"] = amount_text(charge["amount"], separator)
            failed = charge["status"] == "failed" and charge["next_attempt_on"]
            charge["status_text"] = (
                RETRY_TEXT.format(status=charge["status_label"], day=day_text(charge["next_attempt_on"]))
                if failed
                else charge["status_label"]
            )
            charge["receipt_text"] = (
                RECEIPT_TEXT.format(reference=charge["provider_reference"], day=day_text(charge["paid_at"], tz))
                if charge["status"] == "paid"
                else NO_RECEIPT_TEXT
            )
        pay = own and row["status"] == "unpaid"
        row["pay_id"] = f"subscription-pay-{row['pk']}" if pay else ""
        row["pay_props"] = (
            {
                "subscriptionId": row["pk"],
                "title": row["title"],
                "simulated": row["provider"] == "simulator",  # the card choice is the simulator's
            }
            if pay
            else None
        )
    return {"rows": rows, "request": request}

"""`{% load payments_subscriptions %}{% member_subscriptions target %}`: a member's subscriptions billed per period on
the profile: status, periods paid and left, next due date and amount, the charges with their references,
and "Payer maintenant" for an unpaid period (the member's own profile only). One query (two when a subscription was
ever frozen): `member_subscription_rows`."""

from django import template

from ..subscriptions.selectors import member_subscription_rows

register = template.Library()


@register.inclusion_tag("payments/_subscriptions.html", takes_context=True)
def member_subscriptions(context, user):
    request = context.get("request")
    if not user or not getattr(user, "is_authenticated", False):
        return {"rows": []}
    viewer = getattr(request, "user", None)
    own = viewer is not None and viewer.pk == user.pk
    rows = member_subscription_rows(member_id=user.pk)
    for row in rows:
        if own and row["status"] == "unpaid":
            row["pay_id"] = f"subscription-pay-{row['pk']}"
            row["pay_props"] = {
                "subscriptionId": row["pk"],
                "title": row["title"],
                "simulated": row["provider"] == "simulator",  # the card choice is the simulator's
            }
    return {"rows": rows, "request": request}

"""`{% load payments_subscriptions %}{% member_subscriptions target %}`: a member's subscriptions billed per period on
the profile (issue 19): status, periods paid and left, next due date and amount, the charges with their references,
and "Payer maintenant" for an unpaid period (the member's own profile only). A fixed number of queries."""

from django import template

from ..subscription_selectors import subscriptions_of_member

register = template.Library()


@register.inclusion_tag("payments/_subscriptions.html", takes_context=True)
def member_subscriptions(context, user):
    request = context.get("request")
    viewer = getattr(request, "user", None)
    if not user or not getattr(user, "is_authenticated", False):
        return {"subscriptions": [], "own": False}
    own = viewer is not None and viewer.pk == user.pk
    rows = []
    for view in subscriptions_of_member(user=user):
        subscription = view.subscription
        pay = own and subscription.status == "unpaid"
        rows.append(
            {
                "view": view,
                "pay_id": f"subscription-pay-{subscription.pk}" if pay else "",
                "pay_props": {
                    "subscriptionId": subscription.pk,
                    "title": subscription.title,
                    "simulated": subscription.provider == "simulator",  # the card choice is the simulator's
                }
                if pay
                else None,
            }
        )
    return {"rows": rows, "request": request}

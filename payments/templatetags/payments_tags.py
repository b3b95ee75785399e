"""`{% tariff_order_island %}`: mounts the tariff order modal on /tarifs and /tarifs-page with its props."""

from django import template
from django.middleware.csrf import get_token

from studio.templatetags.islands import island

from ..selectors import payment_client_config

register = template.Library()


def tariff_order_props(user) -> dict:
    member = None
    if user is not None and user.is_authenticated:
        member = {"first_name": user.first_name, "last_name": user.last_name, "email": user.email}
    return {"user": member, "paymentConfig": payment_client_config(), "loginUrl": "/login"}


@register.simple_tag(takes_context=True)
def tariff_order_island(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        get_token(request)  # members pay through the API: make sure the CSRF cookie is there
    return island(context, "tariff-order", tariff_order_props(user))

"""`{% unread_badge %}`: the unread-messages count in the account menu (one query, only for logged-in users)."""

from django import template
from django.utils.html import format_html

from messaging.selectors import unread_count_for

register = template.Library()

CACHE_ATTR = "_messaging_unread_count"


def unread_count(request) -> int:
    if request is None:
        return 0
    if not hasattr(request, CACHE_ATTR):
        setattr(request, CACHE_ATTR, unread_count_for(user=getattr(request, "user", None)))
    return getattr(request, CACHE_ATTR)


@register.simple_tag(takes_context=True)
def unread_badge(context):
    count = unread_count(context.get("request"))
    if not count:
        return ""
    label = "message non lu" if count == 1 else "messages non lus"
    return format_html(
        '<span class="badge" data-unread-badge>{}<span class="visually-hidden"> {}</span></span>', count, label
    )

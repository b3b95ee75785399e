"""`{% load bookings_reminders %}{% member_booking_preferences user own %}`: the reminder switches and the calendar
link on the member's own profile. A plain form posted to /my-courses/preferences: works without
JavaScript. One query."""

from django import template
from django.middleware.csrf import get_token

from bookings.services.reminders import booking_preferences_flags

register = template.Library()


@register.inclusion_tag("bookings/_booking_preferences.html", takes_context=True)
def member_booking_preferences(context, user, own=True):
    request = context.get("request")
    if not own or user is None or not user.is_authenticated or request is None:
        return {"show": False}
    # The page's own token (computed once per request, which also sets the cookie); a token of our own otherwise.
    token = context.get("csrf_token") or get_token(request)
    return {"show": True, "prefs": booking_preferences_flags(user_id=user.pk), "csrf_token": token}

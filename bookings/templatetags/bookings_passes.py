"""`{% load bookings_passes %}{% member_passes user %}`: a member's class cards and subscriptions (issue 10).

Used on the profile page: one query, whatever the number of passes.
"""

from django import template

from bookings.selectors import member_passes as select_member_passes

register = template.Library()


@register.inclusion_tag("bookings/_passes.html")
def member_passes(user):
    return {"passes": select_member_passes(user=user) if user and user.is_authenticated else []}

"""`{% load privacy_tags %}{% member_personal_data target %}`: "Mes données" on the member's own profile:
download everything held about them, delete the account. No query."""

from django import template

register = template.Library()


@register.inclusion_tag("privacy/_personal_data.html", takes_context=True)
def member_personal_data(context, user):
    request = context.get("request")
    viewer = getattr(request, "user", None)
    own = viewer is not None and user is not None and viewer.pk == user.pk
    return {"shown": own, "staff_account": own and viewer.role != "user"}

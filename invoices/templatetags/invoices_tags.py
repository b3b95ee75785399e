"""`{% load invoices_tags %}{% member_invoices target %}`: the member's invoices and credit notes on the profile
(issue 23), each with its PDF link; shown to the member and to staff. One query."""

from django import template

from ..apis import invoice_pdf_url
from ..selectors import member_invoices as member_invoices_query

register = template.Library()


@register.inclusion_tag("invoices/_member_invoices.html", takes_context=True)
def member_invoices(context, user):
    request = context.get("request")
    viewer = getattr(request, "user", None)
    if not user or not getattr(user, "pk", None) or viewer is None:
        return {"shown": False}
    own = viewer.pk == user.pk
    if not own and not getattr(viewer, "is_studio_staff", False):
        return {"shown": False}
    rows = [
        {"invoice": invoice, "url": invoice_pdf_url(invoice)} for invoice in member_invoices_query(member_id=user.pk)
    ]
    return {"shown": True, "own": own, "rows": rows}

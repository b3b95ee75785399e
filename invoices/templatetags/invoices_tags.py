"""`{% load invoices_tags %}{% member_invoices target %}`: the member's invoices and credit notes on the profile,
each with its PDF link; shown to the member and to staff. One prepared query."""

from types import SimpleNamespace

from django import template
from django.template.defaultfilters import floatformat
from django.utils import timezone

from studio.day_text import day_text

from ..apis import invoice_pdf_url
from ..selectors import member_invoice_rows

register = template.Library()

# An invoice's amount and credit-note mention, written here rather than by |floatformat and {% if %} in the loop,
# which cost the page time per row: the same text (the amount through the filter's own function).
CREDIT_NOTE_TEXT = " (avoir sur la facture {number})"


@register.inclusion_tag("invoices/_member_invoices.html", takes_context=True)
def member_invoices(context, user):
    request = context.get("request")
    viewer = getattr(request, "user", None)
    if not user or not getattr(user, "pk", None) or viewer is None:
        return {"shown": False}
    own = viewer.pk == user.pk
    if not own and not getattr(viewer, "is_studio_staff", False):
        return {"shown": False}
    tz = timezone.get_current_timezone()
    rows = []
    for invoice in member_invoice_rows(member_id=user.pk):
        credited = invoice["credited_number"]
        rows.append(
            {
                "invoice": invoice,
                "url": invoice_pdf_url(SimpleNamespace(pk=invoice["pk"])),
                "issued_text": day_text(invoice["issued_at"], tz),  # as |date:"d/m/Y" writes it (studio.day_text)
                "amount_text": ("-" if credited else "") + floatformat(invoice["total_amount"], "2g"),
                "credit_text": CREDIT_NOTE_TEXT.format(number=credited) if credited else "",
            }
        )
    return {"shown": True, "own": own, "rows": rows}

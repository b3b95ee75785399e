"""French money and dates for templates and e-mails, in the shapes the islands' components/format.js uses,
so a page reads the same whether the server or an island wrote it.

`{{ price|euros }}` → "25,00 €" (no-break space before the sign, narrow no-break space between thousands);
`{{ when|paris_datetime }}` → "10/03/2031 18:30" in Europe/Paris.
"""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django import template
from django.utils import timezone

register = template.Library()

NBSP = "\u00a0"
THOUSANDS = "\u202f"


@register.filter
def euros(value) -> str:
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(str(value).replace(",", ".")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    except InvalidOperation:
        return str(value)
    sign = "-" if amount < 0 else ""
    units, cents = f"{abs(amount):.2f}".split(".")
    groups = []
    while len(units) > 3:
        groups.insert(0, units[-3:])
        units = units[:-3]
    groups.insert(0, units)
    return f"{sign}{THOUSANDS.join(groups)},{cents}{NBSP}€"


@register.filter
def paris_datetime(value) -> str:
    if not value:
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    return local.strftime("%d/%m/%Y %H:%M")

"""Euros, dates and times the French way on the server, as the islands' components/format.js writes them."""

from datetime import UTC, datetime
from decimal import Decimal

from django.template import Context, Template

from studio.templatetags.formatting import euros

NBSP = "\u00a0"


def test_euros_the_french_way():
    assert euros(Decimal("25")) == f"25,00{NBSP}€"
    assert euros("19.9") == f"19,90{NBSP}€"
    assert euros(1234.5) == f"1\u202f234,50{NBSP}€"
    assert euros(None) == ""
    assert euros("n/a") == "n/a"


def test_templates_use_the_filters():
    html = Template("{% load formatting %}{{ price|euros }} · {{ when|paris_datetime }}").render(
        Context({"price": Decimal("50.00"), "when": datetime(2031, 3, 10, 17, 30, tzinfo=UTC)})
    )
    assert html == f"50,00{NBSP}€ · 10/03/2031 18:30"

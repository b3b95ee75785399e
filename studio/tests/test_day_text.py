"""studio.day_text writes what the template filters it stands for write."""

from datetime import UTC, date, datetime
from decimal import Decimal

from django.template import Context, Template

from studio.day_text import amount_text, day_text

FILTERS = Template('{{ d|date:"d/m/Y" }}|{{ a|floatformat:"2" }}')


def test_the_same_text_as_the_filters():
    for d, a in (
        (date(2030, 3, 5), Decimal("55.00")),
        (date(1999, 12, 31), Decimal("1234.50")),
        (datetime(2030, 3, 31, 22, 30, tzinfo=UTC), Decimal("0.99")),  # 1 April in Paris
        (datetime(2030, 1, 1, 0, 30, tzinfo=UTC), Decimal("-12.00")),
    ):
        assert FILTERS.render(Context({"d": d, "a": a})) == f"{day_text(d)}|{amount_text(a)}"
    assert day_text(None) == ""

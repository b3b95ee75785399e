"""The staff's payment orders list, page by page, without a serializer per row.

PaymentOrderOutput stays the documented answer (`extend_schema`); each row here is the same dict it writes, built
from a `.values()` row (the tests compare them), and the count and page run as compiled queries
(studio.compiled_queries): the serializer and the ORM's compilation were most of the list's CPU time."""

from django.utils import timezone

from studio.compiled_queries import CompiledList
from studio.row_formats import drf_datetime, drf_decimal

from ..selectors import payment_orders_for_staff

COLUMNS = (
    "order_id",
    "provider",
    "email",
    "first_name",
    "last_name",
    "title",
    "amount",
    "currency",
    "date",
    "time",
    "type",
    "status",
    "message",
    "quantity",
    "reservation_id",
    "tariff_id",
    "capture_id",
    "provider_note",
    "created_at",
    "completed_at",
)


def orders_page_list(*, ordering: str, status: str, search: str) -> CompiledList:
    """The list Django's paginator pages (payment_orders_for_staff's orders, as `.values()` rows)."""

    def build():
        return payment_orders_for_staff(ordering=ordering, status=status, search=search)

    return CompiledList(
        ("payments.orders", ordering, status, search), lambda: build().values(*COLUMNS), count_build=build
    )


def order_rows(values: list[dict]) -> list[dict]:
    """PaymentOrderOutput's rows, from `orders_page_list`'s."""
    tz = timezone.get_current_timezone()
    return [
        {
            **row,
            "amount": drf_decimal(row["amount"]),
            "created_at": drf_datetime(row["created_at"], tz),
            "completed_at": drf_datetime(row["completed_at"], tz),
        }
        for row in values
    ]

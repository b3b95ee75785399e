"""Server-side pagination for staff lists: ?page=N&page_size=M, answering {count, next, previous, results}."""

from rest_framework.pagination import PageNumberPagination

# No list holds more rows than this: a page starting further is past the last, answered 404 by Django's paginator
# after it counts, never asked of the database (an OFFSET beyond its 64-bit integers is a DataError on PostgreSQL,
# an OverflowError on SQLite). The paginators that fetch the page with the count check it first.
LARGEST_OFFSET = 2**62


def offset_fits(offset: int, size: int) -> bool:
    """Whether rows [offset:offset + size] can be asked of the database."""
    return 0 <= offset and offset + size <= LARGEST_OFFSET


class StandardPagination(PageNumberPagination):
    page_size = 10
    page_size_query_param = "page_size"
    max_page_size = 100

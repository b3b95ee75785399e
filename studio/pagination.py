"""Server-side pagination for staff lists: ?page=N&page_size=M, answering {count, next, previous, results}."""

from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    page_size = 10
    page_size_query_param = "page_size"
    max_page_size = 100

    def page_body(self, results) -> dict:
        """{count, next, previous, results} of the page `paginate_queryset` took, for the list's Output serializer
        (which shapes `results`): what `get_paginated_response` answers, before it is serialized."""
        return {
            "count": self.page.paginator.count,
            "next": self.get_next_link(),
            "previous": self.get_previous_link(),
            "results": results,
        }

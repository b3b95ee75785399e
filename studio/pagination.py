"""Server-side pagination for staff lists: ?page=N&page_size=M, answering {count, next, previous, results}."""

from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    page_size = 10
    page_size_query_param = "page_size"
    max_page_size = 100

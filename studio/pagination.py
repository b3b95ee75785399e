"""Server-side pagination for staff lists: ?page=N&page_size=M, answering {count, next, previous, results}."""

import copy

from rest_framework import serializers
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


def page_output(
    name: str, item: type[serializers.Serializer], **extra: serializers.Field
) -> type[serializers.Serializer]:
    """The Output serializer of a page of `item`s, fed by `page_body`: {count, next, previous, results}, then the
    `extra` fields its paginator adds, in that order. `name` is the class's, hence its OpenAPI component's: one
    name per list, never built twice."""
    return type(
        name,
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(min_value=0),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
            # Copies, made after `results`: a serializer orders its fields by when they were made, and the
            # caller made `extra`'s before this call.
            **{key: copy.deepcopy(field) for key, field in extra.items()},
            "__doc__": f"A page of {item.__name__}.",
        },
    )

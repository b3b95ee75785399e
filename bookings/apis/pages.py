"""Paginated answers of the bookings APIs, as the OpenAPI schema states them: ?page= and ?page_size= (1 to 100),
refused in French when they are not whole numbers in range (the page serializers are studio.pagination.page_output)."""

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from studio.pagination import StandardPagination

# The largest id a path or body may name (the database's integer columns).
MAX_ID = 2**31 - 1
MSG_PAGE_SIZE_INVALID = "La taille de page doit être un nombre entier entre 1 et {max}."


class CheckedPagination(StandardPagination):
    """StandardPagination that refuses a page size out of 1..max_page_size instead of silently using another."""

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        text = raw.strip()
        if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= self.max_page_size:
            raise serializers.ValidationError(
                {self.page_size_query_param: [MSG_PAGE_SIZE_INVALID.format(max=self.max_page_size)]}
            )
        return int(text)


def page_parameters(max_page_size: int = StandardPagination.max_page_size) -> list[OpenApiParameter]:
    return [
        OpenApiParameter(
            "page",
            {"type": "integer", "minimum": 1},
            description="numéro de page (à partir de 1) ; une page au-delà de la dernière répond 404",
        ),
        OpenApiParameter(
            "page_size",
            {"type": "integer", "minimum": 1, "maximum": max_page_size},
            description=f"éléments par page, de 1 à {max_page_size}",
        ),
    ]


PAGE_PARAMETERS = page_parameters()

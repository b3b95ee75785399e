"""Staff: `GET /api/dashboard/stats?from=AAAA-MM-JJ&to=AAAA-MM-JJ` (docs/decisions.md 37) answers the figures
of the owner's view for those Paris days, each beside the previous period of the same length."""

from datetime import date

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from payments.staff_cache import STATS_VERSION, cached_for_staff
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from .errors import MSG_STATS_DATE, InsightsError
from .period import Period
from .selectors.classes import class_stats
from .selectors.members import member_stats
from .selectors.money import money_stats
from .selectors.promo import promo_code_stats
from .selectors.upcoming import upcoming_stats
from .serializers import StatsOutput

MAX_DAYS = 400
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2100, 12, 31)


def _date_field():
    return serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=dict.fromkeys(["required", "null", "invalid"], MSG_STATS_DATE)
    )


# `from` is a Python keyword: the serializer is built with its fields named as the query string names them.
StatsQuery = type("StatsQuery", (serializers.Serializer,), {"from": _date_field(), "to": _date_field()})


def period_from_query(params) -> Period:
    """The period the query names, or a French 400: both days given, in order, within 2000–2100, 400 days at most."""
    query = StatsQuery(data=params)
    query.is_valid(raise_exception=True)
    first, last = query.validated_data["from"], query.validated_data["to"]
    for day, field in ((first, "from"), (last, "to")):
        if not FIRST_DAY <= day <= LAST_DAY:
            raise InsightsError.of("stats_years", field=field)
    if last < first:
        raise InsightsError.of("stats_order", field="to")
    if (last - first).days + 1 > MAX_DAYS:
        raise InsightsError.of("stats_too_long", field="to")
    return Period(first_day=first, last_day=last)


class DashboardStatsApi(APIView):
    """The four blocks (money, classes, members, next 7 days), one selector each."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="dashboard_stats",
        parameters=[
            OpenApiParameter("from", OpenApiTypes.DATE, required=True, description="Premier jour (heure de Paris)."),
            OpenApiParameter("to", OpenApiTypes.DATE, required=True, description="Dernier jour inclus."),
        ],
        responses={200: StatsOutput, 400: ErrorOutput},
    )
    def get(self, request):
        period = period_from_query(request.query_params)
        # The figures of a period depend on the day too ("already due", who stopped coming, the next 7 days); what
        # moves within the day is bounded by the entry's short lifetime (payments/staff_cache.py).
        name = f"dashboard-stats:{period.first_day}:{period.last_day}:{timezone.localdate()}"
        return Response(cached_for_staff(name, STATS_VERSION, lambda: _stats(period)))


def _stats(period: Period) -> dict:
    previous = period.previous()
    body = {
        "period": {"from": period.first_day, "to": period.last_day, "days": period.days},
        "previous": {"from": previous.first_day, "to": previous.last_day, "days": previous.days},
        "money": money_stats(period=period),
        "classes": class_stats(period=period),
        "members": member_stats(period=period),
        "upcoming": upcoming_stats(),
        "promo_codes": promo_code_stats(period=period),
    }
    return StatsOutput(body).data

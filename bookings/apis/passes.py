"""Passes: the member's own, and the staff list, grant and adjustments."""

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import error_response
from studio.pagination import StandardPagination
from studio.permissions import IsStudioStaff

from .. import selectors, services
from .common import _iso, _text


def pass_data(pass_obj, *, today=None) -> dict:
    today = today or timezone.localdate()
    state = getattr(pass_obj, "state", None) or selectors.pass_state(pass_obj, today=today)
    member = pass_obj.member
    return {
        "id": pass_obj.pk,
        "kind": pass_obj.kind,
        "kind_label": pass_obj.get_kind_display(),
        "origin": pass_obj.origin,
        "origin_label": pass_obj.get_origin_display(),
        "title": pass_obj.title,
        "tariff_id": pass_obj.tariff_id,
        "credits_total": pass_obj.credits_total,
        "credits_left": pass_obj.credits_left,
        "starts_on": pass_obj.starts_on.isoformat(),
        "expires_on": pass_obj.expires_on.isoformat(),
        "state": state,
        "state_label": selectors.PASS_STATE_LABELS[state],
        "member_id": pass_obj.member_id,
        "member_name": member.get_full_name(),
        "member_email": member.email,
        "created_at": _iso(pass_obj.created_at),
    }


def adjustment_data(adjustment) -> dict:
    reservation = adjustment.reservation
    return {
        "id": adjustment.pk,
        "action": adjustment.action,
        "action_label": adjustment.get_action_display(),
        "credits_delta": adjustment.credits_delta,
        "expires_on_before": adjustment.expires_on_before.isoformat() if adjustment.expires_on_before else None,
        "expires_on_after": adjustment.expires_on_after.isoformat() if adjustment.expires_on_after else None,
        "reason": adjustment.reason,
        "by": adjustment.by.get_full_name() or adjustment.by.email if adjustment.by else "",
        "reservation": (
            {"id": reservation.pk, "title": reservation.session.course.title, "date": _iso(reservation.session.start)}
            if reservation
            else None
        ),
        "at": _iso(adjustment.at),
    }


class MyPassesApi(APIView):
    """GET /api/passes/mine: the member's class cards and subscriptions (usable first). One query."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        passes = selectors.member_passes(user=request.user)
        for p in passes:
            p.member = request.user
        return Response([pass_data(p) for p in passes])


class PassGrantSerializer(serializers.Serializer):
    member_email = _text()
    tariff_id = serializers.JSONField(required=False, allow_null=True)
    kind = _text()
    credits = serializers.JSONField(required=False, allow_null=True)
    starts_on = _text()
    expires_on = _text()
    reason = _text()


class PassAdjustSerializer(serializers.Serializer):
    credits_delta = serializers.JSONField(required=False, allow_null=True)
    expires_on = _text()
    reason = _text()


class PassListApi(APIView):
    """Staff: GET the passes (paginated, ?search= member or offer, ?ordering=), POST grant one to a member."""

    permission_classes = [IsStudioStaff]
    serializer_class = PassGrantSerializer

    @extend_schema(operation_id="passes_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        qs = selectors.passes_staff_list(
            search=request.query_params.get("search", ""),
            ordering=request.query_params.get("ordering", "-created_at"),
        )
        paginator = StandardPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        today = timezone.localdate()
        return paginator.get_paginated_response([pass_data(p, today=today) for p in page])

    def post(self, request):
        serializer = PassGrantSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            pass_obj = services.pass_grant(
                actor=request.user,
                member_email=data.get("member_email") or "",
                reason=data.get("reason") or "",
                tariff_id=data.get("tariff_id"),
                kind=data.get("kind") or "",
                credits=data.get("credits"),
                starts_on=data.get("starts_on"),
                expires_on=data.get("expires_on"),
            )
        except services.ReservationError as exc:
            return error_response(exc.message)
        return Response({**pass_data(pass_obj), "message": services.MSG_PASS_GRANTED}, status=status.HTTP_201_CREATED)


class PassDetailApi(APIView):
    """Staff: GET a pass with its ledger; PUT {credits_delta, expires_on, reason} adds credits or extends it."""

    permission_classes = [IsStudioStaff]
    serializer_class = PassAdjustSerializer

    def _detail(self, pass_id: int):
        pass_obj = selectors.passes_staff_list().filter(pk=pass_id).first() if pass_id < 2**31 else None
        if pass_obj is None:
            return None
        data = pass_data(pass_obj)
        data["adjustments"] = [adjustment_data(a) for a in selectors.pass_adjustments(pass_id=pass_id)]
        return data

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pass_id: int):
        data = self._detail(pass_id)
        if data is None:
            return error_response(services.MSG_PASS_NOT_FOUND, status.HTTP_404_NOT_FOUND)
        return Response(data)

    def put(self, request, pass_id: int):
        serializer = PassAdjustSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            services.pass_adjust(
                actor=request.user,
                pass_id=pass_id,
                reason=data.get("reason") or "",
                credits_delta=data.get("credits_delta"),
                expires_on=data.get("expires_on"),
            )
        except services.ReservationError as exc:
            code = status.HTTP_404_NOT_FOUND if exc.message == services.MSG_PASS_NOT_FOUND else 400
            return error_response(exc.message, code)
        return Response({**self._detail(pass_id), "message": services.MSG_PASS_UPDATED})

    patch = put

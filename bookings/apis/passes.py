"""Passes: the member's own, and the staff list, grant and adjustments. Typed input and output serializers; a refused
change propagates as a PassAdminError (its code and status) to studio.api's exception handler."""

from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.pagination import page_output
from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..models import PassKind
from ..selectors.passes import (
    PASS_ORDERINGS,
    PASS_STATE_LABELS,
    member_passes,
    pass_adjustments,
    pass_state,
    passes_staff_list,
)
from ..services.pass_admin import (
    MAX_STAFF_CREDITS,
    MSG_CREDITS_INVALID,
    MSG_DATE_INVALID,
    MSG_GRANT_CREDITS_MIN,
    MSG_KIND_INVALID,
    MSG_MEMBER_NOT_FOUND,
    MSG_PASS_GRANTED,
    MSG_PASS_UPDATED,
    MSG_REASON_REQUIRED,
    MSG_TARIFF_NOT_FOUND,
    PassAdminError,
    pass_adjust,
    pass_grant,
)
from .common import FILLED, NO_NUL, _iso, filled
from .pages import MAX_ID, PAGE_PARAMETERS, CheckedPagination

MAX_REASON = 2000
TEXT_PARAMETER = {"type": "string", "pattern": NO_NUL}  # a NUL in a query answers 400 (studio/request_limits.py)


def pass_data(pass_obj, *, today=None) -> dict:
    today = today or timezone.localdate()
    state = getattr(pass_obj, "state", None) or pass_state(pass_obj, today=today)
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
        "state_label": PASS_STATE_LABELS[state],
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


# --- Output ---------------------------------------------------------------------------------------------------


class PassOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=PassKind.choices)
    kind_label = serializers.CharField()
    origin = serializers.CharField()
    origin_label = serializers.CharField()
    title = serializers.CharField()
    tariff_id = serializers.IntegerField(allow_null=True)
    credits_total = serializers.IntegerField(allow_null=True, help_text="null pour un abonnement")
    credits_left = serializers.IntegerField(allow_null=True, help_text="null pour un abonnement")
    starts_on = serializers.DateField()
    expires_on = serializers.DateField()
    state = serializers.ChoiceField(choices=list(PASS_STATE_LABELS))
    state_label = serializers.CharField()
    member_id = serializers.IntegerField()
    member_name = serializers.CharField(allow_blank=True)
    member_email = serializers.CharField()
    created_at = serializers.DateTimeField(allow_null=True)


class PassWithMessageOutput(PassOutput):
    message = serializers.CharField()


class AdjustmentReservationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    date = serializers.DateTimeField(allow_null=True)


class AdjustmentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    action_label = serializers.CharField()
    credits_delta = serializers.IntegerField()
    expires_on_before = serializers.DateField(allow_null=True)
    expires_on_after = serializers.DateField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    by = serializers.CharField(allow_blank=True, help_text="vide : un mouvement automatique")
    reservation = AdjustmentReservationOutput(allow_null=True)
    at = serializers.DateTimeField(allow_null=True)


class PassDetailOutput(PassOutput):
    adjustments = AdjustmentOutput(many=True)


class PassDetailWithMessageOutput(PassDetailOutput):
    message = serializers.CharField()


PassPageOutput = page_output("PassPageOutput", PassOutput)


# --- Input ----------------------------------------------------------------------------------------------------


@extend_schema_field({"type": "string", "format": "date", "nullable": True})
class OptionalDateField(serializers.DateField):
    """An ISO date (AAAA-MM-JJ), or nothing: null, or the empty string a blank date input sends."""

    def __init__(self, **kwargs):
        super().__init__(
            required=False,
            allow_null=True,
            input_formats=["iso-8601"],
            error_messages={"invalid": MSG_DATE_INVALID, "datetime": MSG_DATE_INVALID},
            **kwargs,
        )

    def validate_empty_values(self, data):
        if data == "":
            return (True, None)
        return super().validate_empty_values(data)


def _reason():
    # A reason is required and must say something: at least one character that is not a space.
    return serializers.RegexField(
        FILLED,
        max_length=MAX_REASON,
        error_messages={
            "required": MSG_REASON_REQUIRED,
            "null": MSG_REASON_REQUIRED,
            "blank": MSG_REASON_REQUIRED,
            "invalid": MSG_REASON_REQUIRED,
            "max_length": MSG_TEXT_TOO_LONG,
        },
    )


def _credits(min_value: int):
    return serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=min_value,
        max_value=MAX_STAFF_CREDITS,
        error_messages={
            "invalid": MSG_CREDITS_INVALID,
            "min_value": MSG_GRANT_CREDITS_MIN if min_value > 0 else MSG_CREDITS_INVALID,
            "max_value": MSG_CREDITS_INVALID,
            "max_string_length": MSG_CREDITS_INVALID,
        },
    )


class PassGrantInput(serializers.Serializer):
    member_email = serializers.CharField(
        max_length=254,
        validators=[filled(MSG_MEMBER_NOT_FOUND)],
        error_messages={
            "required": MSG_MEMBER_NOT_FOUND,
            "null": MSG_MEMBER_NOT_FOUND,
            "blank": MSG_MEMBER_NOT_FOUND,
            "max_length": MSG_MEMBER_NOT_FOUND,
        },
    )
    tariff_id = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        error_messages={k: MSG_TARIFF_NOT_FOUND for k in ("invalid", "min_value", "max_value", "max_string_length")},
    )
    kind = serializers.ChoiceField(
        choices=[("", "Selon le tarif"), *PassKind.choices],
        required=False,
        allow_null=True,
        error_messages={"invalid_choice": MSG_KIND_INVALID},
        help_text="vide : le type que le tarif accorde",
    )
    credits = _credits(1)
    starts_on = OptionalDateField(help_text="vide : aujourd'hui")
    expires_on = OptionalDateField(help_text="vide avec un tarif : sa durée de validité s'applique")
    reason = _reason()


# What pass_grant needs besides the fields' own types: a tariff, or else a kind, an end date and (for a card) its
# credits. The schema states it as alternatives; the dates' order and the tariff's own offer are the studio's (409).
GRANT_ALTERNATIVES = [
    {"required": ["tariff_id"], "properties": {"tariff_id": {"type": "integer"}}},
    {
        "required": ["kind", "credits", "expires_on"],
        "properties": {
            "kind": {"type": "string", "pattern": "^card$"},
            "credits": {"type": "integer"},
            "expires_on": {"type": "string", "format": "date"},
        },
    },
    {
        "required": ["kind", "expires_on"],
        "properties": {
            "kind": {"type": "string", "pattern": "^subscription$"},
            "expires_on": {"type": "string", "format": "date"},
        },
    },
]


class PassGrantInputSchema(OpenApiSerializerExtension):
    """PassGrantInput's fields, and GRANT_ALTERNATIVES as the body's `anyOf`."""

    target_class = PassGrantInput

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "anyOf": GRANT_ALTERNATIVES}


class PassAdjustInput(serializers.Serializer):
    credits_delta = _credits(-MAX_STAFF_CREDITS)
    expires_on = OptionalDateField()
    reason = _reason()


class PassAdjustPatchInput(PassAdjustInput):
    """PATCH /api/passes/<id>: the same body as PUT; the reason is required (every change is logged with one)."""

    @property
    def partial(self):
        return False

    @partial.setter
    def partial(self, value):
        pass


# --- Views ----------------------------------------------------------------------------------------------------


class MyPassesApi(APIView):
    """GET /api/passes/mine: the member's class cards and subscriptions (usable first). One query."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PassOutput(many=True))
    def get(self, request):
        passes = member_passes(user=request.user)
        for p in passes:
            p.member = request.user
        return Response(PassOutput([pass_data(p) for p in passes], many=True).data)


class PassListApi(APIView):
    """Staff: GET the passes (paginated, ?search= member or offer, ?ordering=), POST grant one to a member."""

    permission_classes = [IsStudioStaff]
    serializer_class = PassGrantInput

    @extend_schema(
        operation_id="passes_list",
        parameters=[
            *PAGE_PARAMETERS,
            OpenApiParameter("search", TEXT_PARAMETER, description="membre (nom, e-mail) ou offre"),
            OpenApiParameter(
                "ordering",
                TEXT_PARAMETER,
                description=f"{', '.join(sorted(PASS_ORDERINGS))} ; une autre valeur : -created_at",
            ),
        ],
        responses={200: PassPageOutput, 404: ErrorOutput},
    )
    def get(self, request):
        passes = passes_staff_list(
            search=request.query_params.get("search", ""),
            ordering=request.query_params.get("ordering", "-created_at"),
        )
        paginator = CheckedPagination()
        page = paginator.paginate_queryset(passes, request, view=self)  # the count, then the page with its members
        today = timezone.localdate()
        return Response(PassPageOutput(paginator.page_body([pass_data(p, today=today) for p in page])).data)

    @extend_schema(request=PassGrantInput, responses={201: PassWithMessageOutput, 404: ErrorOutput})
    def post(self, request):
        serializer = PassGrantInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        pass_obj = pass_grant(
            actor=request.user,
            member_email=data["member_email"],
            reason=data["reason"],
            tariff_id=data.get("tariff_id"),
            kind=data.get("kind") or "",
            credits=data.get("credits"),
            starts_on=data.get("starts_on"),
            expires_on=data.get("expires_on"),
        )
        body = {**pass_data(pass_obj), "message": MSG_PASS_GRANTED}
        return Response(PassWithMessageOutput(body).data, status=status.HTTP_201_CREATED)


class PassDetailApi(APIView):
    """Staff: GET a pass with its ledger; PUT {credits_delta, expires_on, reason} adds credits or extends it."""

    permission_classes = [IsStudioStaff]
    serializer_class = PassAdjustInput

    def _detail(self, pass_id: int) -> dict:
        pass_obj = passes_staff_list().filter(pk=pass_id).first() if pass_id <= MAX_ID else None
        if pass_obj is None:
            raise PassAdminError.of("pass_not_found")
        data = pass_data(pass_obj)
        data["adjustments"] = [adjustment_data(a) for a in pass_adjustments(pass_id=pass_id)]
        return data

    @extend_schema(responses=PassDetailOutput)
    def get(self, request, pass_id: int):
        return Response(PassDetailOutput(self._detail(pass_id)).data)

    @extend_schema(request=PassAdjustInput, responses=PassDetailWithMessageOutput)
    def put(self, request, pass_id: int):
        serializer = PassAdjustInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        pass_adjust(
            actor=request.user,
            pass_id=pass_id,
            reason=data["reason"],
            credits_delta=data.get("credits_delta"),
            expires_on=data.get("expires_on"),
        )
        body = {**self._detail(pass_id), "message": MSG_PASS_UPDATED}
        return Response(PassDetailWithMessageOutput(body).data)

    @extend_schema(request=PassAdjustPatchInput, responses=PassDetailWithMessageOutput)
    def patch(self, request, pass_id: int):
        return self.put(request, pass_id)

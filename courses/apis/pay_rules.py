"""Staff: instructors' pay rules (docs/decisions.md 52). `GET`/`POST /api/instructors/{id}/pay-rules`,
`PUT`/`DELETE /api/instructor-pay-rules/{id}`."""

from decimal import Decimal

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import JSON_ONLY
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..models_pay import PayRuleKind
from ..serializers.fields import CentsField
from ..services import catalogue
from ..services.pay_rules import (
    pay_rule_create,
    pay_rule_delete,
    pay_rule_get_or_404,
    pay_rule_update,
    pay_rules_of,
)
from .common import valid_payload

MSG_PAY_RULE_DATE = "Indiquez la date d'effet de la règle au format AAAA-MM-JJ."
MSG_PAY_RULE_KIND = "Choisissez le mode de rémunération : par cours, par participant, ou forfait + par participant."
MSG_PAY_RULE_AMOUNT = (
    "Le montant est un nombre d'euros positif ou nul, à deux décimales au plus (999 999,99 € au plus)."
)
AMOUNT_ERRORS = dict.fromkeys(
    ["invalid", "required", "null", "min_value", "max_value", "max_digits", "max_decimal_places", "max_whole_digits"],
    MSG_PAY_RULE_AMOUNT,
)


class PayRuleInput(serializers.Serializer):
    starts_on = serializers.DateField(
        input_formats=["%Y-%m-%d"], error_messages=dict.fromkeys(["required", "null", "invalid"], MSG_PAY_RULE_DATE)
    )
    kind = serializers.ChoiceField(
        choices=PayRuleKind.choices,
        error_messages=dict.fromkeys(["required", "null", "invalid_choice"], MSG_PAY_RULE_KIND),
    )
    class_amount = CentsField(
        required=False,
        default=Decimal("0.00"),
        error_messages=AMOUNT_ERRORS,
        help_text="Par cours, ou le forfait de « Forfait + par participant ».",
    )
    attendee_amount = CentsField(
        required=False,
        default=Decimal("0.00"),
        error_messages=AMOUNT_ERRORS,
        help_text="Par participant présent.",
    )


class PayRuleOutput(serializers.Serializer):
    id = serializers.IntegerField()
    instructor_id = serializers.IntegerField()
    starts_on = serializers.DateField()
    kind = serializers.ChoiceField(choices=PayRuleKind.choices)
    kind_label = serializers.CharField(source="get_kind_display")
    class_amount = serializers.DecimalField(max_digits=8, decimal_places=2)
    attendee_amount = serializers.DecimalField(max_digits=8, decimal_places=2)


NOT_FOUND = {404: OpenApiResponse(ErrorOutput, description="Professeur ou règle introuvable.")}
DAY_TAKEN = {409: OpenApiResponse(ErrorOutput, description="Une règle commence déjà ce jour-là.")}


class InstructorPayRulesApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(operation_id="instructor_pay_rules", responses={200: PayRuleOutput(many=True), **NOT_FOUND})
    def get(self, request, instructor_id: int):
        instructor = catalogue.instructor_get_or_404(instructor_id=instructor_id)
        return Response(PayRuleOutput(pay_rules_of(instructor=instructor), many=True).data)

    @extend_schema(
        operation_id="instructor_pay_rule_create",
        request=PayRuleInput,
        responses={201: PayRuleOutput, 400: ErrorOutput, **NOT_FOUND, **DAY_TAKEN},
    )
    def post(self, request, instructor_id: int):
        instructor = catalogue.instructor_get_or_404(instructor_id=instructor_id)
        rule = pay_rule_create(instructor=instructor, **valid_payload(PayRuleInput, request))
        return Response(PayRuleOutput(rule).data, status=status.HTTP_201_CREATED)


class PayRuleDetailApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(
        operation_id="instructor_pay_rule_update",
        request=PayRuleInput,
        responses={200: PayRuleOutput, 400: ErrorOutput, **NOT_FOUND, **DAY_TAKEN},
    )
    def put(self, request, rule_id: int):
        rule = pay_rule_update(rule=pay_rule_get_or_404(rule_id=rule_id), **valid_payload(PayRuleInput, request))
        return Response(PayRuleOutput(rule).data)

    @extend_schema(operation_id="instructor_pay_rule_delete", request=None, responses={204: None, **NOT_FOUND})
    def delete(self, request, rule_id: int):
        pay_rule_delete(rule=pay_rule_get_or_404(rule_id=rule_id))
        return Response(status=status.HTTP_204_NO_CONTENT)

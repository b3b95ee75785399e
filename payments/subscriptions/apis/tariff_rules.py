"""The dashboard's tariff form (docs/decisions.md 51): every rule a tariff's passes apply, the plan's included, read
and written at once by staff. The public catalogue keeps `/api/tarifs` (courses), which knows no plan."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from courses.serializers.catalogue import TariffInputSerializer, TariffOutputSerializer, TariffUpdateInputSerializer
from courses.services import catalogue
from studio.fields import StrictBooleanField
from studio.parsers import JSON_ONLY
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..services.tariff_rules import tariff_plan_rules, tariff_rules_list, tariff_rules_save

MSG_PAUSE_WEEKS_INVALID = "Le nombre de semaines de suspension par an est un nombre entier de 0 (aucune) à 52."
MSG_REDUCED_RATE_INVALID = "Indiquez si le tarif est réduit : vrai, faux ou vide (déduit du titre)."

_KEYS = ("invalid", "null", "min_value", "max_value", "required")


class PlanRulesInput(serializers.Serializer):
    reduced_rate = StrictBooleanField(
        required=False,
        allow_null=True,
        error_messages={key: MSG_REDUCED_RATE_INVALID for key in ("invalid", "required")},
        help_text="Tarif réduit (étudiant, demandeur d’emploi) justifié à l’achat ; vide : déduit du titre.",
    )
    pause_weeks_per_year = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=52,
        error_messages={key: MSG_PAUSE_WEEKS_INVALID for key in _KEYS},
        help_text="Semaines par année d'abonnement que le membre peut suspendre lui-même, 0 = aucune.",
    )


class TariffRulesInput(TariffInputSerializer, PlanRulesInput):
    pass


class TariffRulesUpdateInput(TariffUpdateInputSerializer, PlanRulesInput):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


class TariffRulesOutput(TariffOutputSerializer):
    reduced_rate = serializers.SerializerMethodField()
    pause_weeks_per_year = serializers.SerializerMethodField()

    class Meta(TariffOutputSerializer.Meta):
        fields = [*TariffOutputSerializer.Meta.fields, "reduced_rate", "pause_weeks_per_year"]

    def get_reduced_rate(self, tariff) -> bool | None:
        return tariff_plan_rules(tariff)["reduced_rate"]

    def get_pause_weeks_per_year(self, tariff) -> int:
        return tariff_plan_rules(tariff)["pause_weeks_per_year"]


def _fields(serializer_class, request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return catalogue.tariff_fields_resolved(dict(data.validated_data))


REFUSED = {
    400: OpenApiResponse(ErrorOutput, description="Une règle est invalide (message en français)."),
    404: OpenApiResponse(ErrorOutput, description="Le tarif ou un cours désigné n'existe pas."),
    409: OpenApiResponse(ErrorOutput, description="Les règles se contredisent (carte et abonnement, validité)."),
}


class TariffRulesListApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(responses=TariffRulesOutput(many=True))
    def get(self, request):
        return Response(TariffRulesOutput(tariff_rules_list(), many=True).data)

    @extend_schema(request=TariffRulesInput, responses={201: TariffRulesOutput, **REFUSED})
    def post(self, request):
        tariff = tariff_rules_save(tariff=None, fields=_fields(TariffRulesInput, request))
        return Response(TariffRulesOutput(tariff).data, status=status.HTTP_201_CREATED)


class TariffRulesDetailApi(APIView):
    permission_classes = [IsStudioStaff]
    parser_classes = JSON_ONLY

    @extend_schema(request=TariffRulesUpdateInput, responses={200: TariffRulesOutput, **REFUSED})
    def put(self, request, tariff_id: int):
        tariff = catalogue.tariff_get_or_404(tariff_id=tariff_id)
        tariff = tariff_rules_save(tariff=tariff, fields=_fields(TariffRulesUpdateInput, request))
        return Response(TariffRulesOutput(tariff).data)

    @extend_schema(request=None, responses={204: None, **REFUSED})
    def delete(self, request, tariff_id: int):
        catalogue.tariff_delete(tariff=catalogue.tariff_get_or_404(tariff_id=tariff_id))
        return Response(status=status.HTTP_204_NO_CONTENT)

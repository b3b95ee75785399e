"""Subscriptions billed per period (docs/decisions.md 36): the member's own, the staff's list with filters,
and the member's "Payer maintenant"."""

from datetime import timedelta

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import StrictBooleanField
from studio.parsers import BoundedJSONParser
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ...apis.fields import Text, choice, messages
from ...staff_cache import SUBSCRIPTIONS_VERSION, cached_for_staff
from ...views import reduced_proof_url
from ..models import ChargeStatus, ReducedRateProof, ReducedStatus, SubscriptionActionKind, SubscriptionStatus
from ..selectors import FILTERS, staff_subscription_rows, subscription_for_staff, subscriptions_of_member
from ..services import common as services
from ..services.lifecycle import subscription_freeze
from ..services.member import subscription_pause, subscription_terminate
from ..services.pay_now import subscription_pay_now

MSG_FILTER_INVALID = "Filtre inconnu : « active », « unpaid », « frozen » ou « ending »."
MSG_CARD_INVALID = "Indiquez vrai ou faux pour la carte simulée refusée."
MSG_FREEZE_DATE_INVALID = "Indiquez la date de début du gel (AAAA-MM-JJ)."


class ChargeOutput(serializers.Serializer):
    period = serializers.IntegerField(min_value=1)
    due_on = serializers.DateField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    status = choice(ChargeStatus.choices, message="")
    status_label = serializers.CharField()
    attempts = serializers.IntegerField(min_value=0)
    next_attempt_on = serializers.DateField(allow_null=True)
    paid_at = serializers.DateTimeField(allow_null=True)
    reference = serializers.CharField(help_text="La référence du paiement (reçu).")
    refunded_at = serializers.DateTimeField(
        allow_null=True, help_text="Remboursée le (vide tant que le prestataire n'a pas remboursé)."
    )


class FreezeOutput(serializers.Serializer):
    starts_on = serializers.DateField()
    weeks = serializers.IntegerField(min_value=1)
    ends_on = serializers.DateField(help_text="Dernier jour du gel.")
    reason = serializers.CharField()
    by = serializers.CharField(help_text="Qui a gelé l'abonnement.")


class MemberRefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()


class SubscriptionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    status = choice(SubscriptionStatus.choices, message="")
    status_label = serializers.CharField(help_text="« Impayé » quand une échéance est refusée.")
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Montant par période.")
    currency = serializers.CharField()
    period_months = serializers.IntegerField(min_value=1)
    periods_committed = serializers.IntegerField(min_value=1)
    periods_paid = serializers.IntegerField(min_value=0)
    periods_left = serializers.IntegerField(min_value=0)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(help_text="Fin de l'engagement.")
    pass_expires_on = serializers.DateField(help_text="L'abonnement permet de réserver jusqu'à cette date.")
    next_due_on = serializers.DateField(allow_null=True)
    next_due_amount = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    charges = ChargeOutput(many=True)


class ReducedOutput(serializers.Serializer):
    status = choice(ReducedStatus.choices, message="")
    status_label = serializers.CharField()
    confirmed_at = serializers.DateTimeField()
    proof_url = serializers.CharField(
        help_text="Le justificatif envoyé (téléchargé par l'équipe ou le membre, connecté), ou vide."
    )
    ended_at = serializers.DateTimeField(allow_null=True, help_text="Tarif réduit terminé par l'équipe le.")


class ActionLogOutput(serializers.Serializer):
    kind = choice(SubscriptionActionKind.choices, message="")
    label = serializers.CharField()
    reason = serializers.CharField()
    outcome = serializers.CharField()
    by = serializers.CharField()
    created_at = serializers.DateTimeField()


class StaffSubscriptionOutput(SubscriptionOutput):
    member = MemberRefOutput()
    freezes = FreezeOutput(many=True)
    provider = serializers.CharField(help_text="simulator ou paypal.")
    reduced = ReducedOutput(allow_null=True, help_text="Tarif réduit : le statut confirmé par le membre à l'achat.")
    actions = ActionLogOutput(many=True, help_text="Les actions de l'équipe : qui, quand, pourquoi.")
    method_label = serializers.CharField(
        help_text="Le moyen enregistré qui paie les échéances (« Carte •••• 4242, expire 12/28 »), ou vide."
    )


def _who(user) -> str:
    return (user.get_full_name() or user.email) if user else ""


def _reduced(subscription) -> dict | None:
    declaration = getattr(subscription.source_order, "reduced_declaration", None)
    if declaration is None:
        return None
    return {
        "status": declaration.status,
        "status_label": declaration.get_status_display(),
        "confirmed_at": declaration.confirmed_at,
        "proof_url": reduced_proof_url(declaration.proof) if declaration.proof_id and declaration.proof else "",
        "ended_at": declaration.ended_at,
    }


def _body(view, *, with_member: bool = False) -> dict:
    s = view.subscription
    body = {
        "id": s.pk,
        "title": s.title,
        "status": s.status,
        "status_label": s.get_status_display(),
        "amount": s.amount,
        "currency": s.currency,
        "period_months": s.period_months,
        "periods_committed": s.periods_committed,
        "periods_paid": s.periods_paid,
        "periods_left": view.periods_left,
        "starts_on": s.starts_on,
        "ends_on": view.ends_on,
        "pass_expires_on": s.granted_pass.expires_on,
        "next_due_on": view.next_due_on,
        "next_due_amount": view.next_due_amount,
        "charges": [
            {
                "period": c.period,
                "due_on": c.due_on,
                "amount": c.amount,
                "status": c.status,
                "status_label": c.get_status_display(),
                "attempts": c.attempts,
                "next_attempt_on": c.next_attempt_on,
                "paid_at": c.paid_at,
                "reference": c.provider_reference,
                "refunded_at": c.refunded_at,
            }
            for c in view.charges
        ],
    }
    if with_member:
        body["freezes"] = [
            {
                "starts_on": f.starts_on,
                "weeks": f.weeks,
                "ends_on": f.starts_on + timedelta(weeks=f.weeks) - timedelta(days=1),
                "reason": f.reason,
                "by": f.by.get_full_name() or f.by.email if f.by else "",
            }
            for f in s.freezes.all()
        ]
        body["provider"] = s.provider
        body["method_label"] = s.saved_method.label if s.saved_method_id else ""
        body["reduced"] = _reduced(s)
        body["actions"] = [
            {
                "kind": a.kind,
                "label": a.get_kind_display(),
                "reason": a.reason,
                "outcome": a.outcome,
                "by": _who(a.by),
                "created_at": a.created_at,
            }
            for a in s.actions.all()
        ]
        m = s.member
        body["member"] = {"id": m.pk, "first_name": m.first_name, "last_name": m.last_name, "email": m.email}
    return body


def _staff_body(row: dict) -> dict:
    """A row of `staff_subscription_rows` as `_body(view, with_member=True)` answers it: the proof's address."""
    reduced = row["reduced"]
    if reduced is not None:
        proof_id = reduced.pop("proof_id")
        reduced["proof_url"] = reduced_proof_url(ReducedRateProof(pk=proof_id)) if proof_id else ""
    return row


class StaffSubscriptionsQuery(serializers.Serializer):
    filter = choice(list(FILTERS), message=MSG_FILTER_INVALID, required=False)

    def validate(self, attrs):
        # DRF skips a blank optional query parameter: "?filter=" is no filter of the enum, so refuse it.
        if "filter" in self.initial_data and not attrs.get("filter"):
            raise serializers.ValidationError({"filter": MSG_FILTER_INVALID})
        return attrs


class PayNowInput(serializers.Serializer):
    card_declined = StrictBooleanField(
        default=False,
        error_messages={"invalid": MSG_CARD_INVALID, "null": MSG_CARD_INVALID},
        help_text="Simulateur : payer avec une carte qui sera refusée.",
    )


class MySubscriptionsApi(APIView):
    """GET /api/subscriptions/mine: the member's subscriptions, periods paid and left, next due date and amount."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: SubscriptionOutput(many=True)})
    def get(self, request):
        views = subscriptions_of_member(user=request.user)
        return Response(SubscriptionOutput([_body(v) for v in views], many=True).data)


class SubscriptionsApi(APIView):
    """GET /api/subscriptions?filter=active|unpaid|frozen|ending (staff): every subscription with its charges."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "filter", str, enum=list(FILTERS), required=False, description="ending : se termine sous 30 jours."
            )
        ],
        responses={200: StaffSubscriptionOutput(many=True), 400: ErrorOutput},
    )
    def get(self, request):
        query = StaffSubscriptionsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        filter = query.validated_data.get("filter", "")
        # "ending" reads today's date; what bulk updates change without a signal lasts a minute at most.
        name = f"staff-subscriptions:{filter}:{timezone.localdate()}"
        return Response(cached_for_staff(name, SUBSCRIPTIONS_VERSION, lambda: _staff_list(filter)))


def _staff_list(filter: str) -> list:
    rows = staff_subscription_rows(filter=filter)
    return StaffSubscriptionOutput([_staff_body(row) for row in rows], many=True).data


class SubscriptionPayNowApi(APIView):
    """POST /api/subscriptions/{id}/pay: "Payer maintenant", every unpaid period of the member's subscription."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=PayNowInput,
        responses={
            200: SubscriptionOutput,
            400: ErrorOutput,
            404: OpenApiResponse(ErrorOutput, description="Abonnement introuvable."),
            409: OpenApiResponse(ErrorOutput, description="Rien à payer, ou paiement refusé."),
            502: OpenApiResponse(ErrorOutput, description="PayPal ne répond pas."),
        },
    )
    def post(self, request, subscription_id: int):
        values = PayNowInput(data=request.data)
        values.is_valid(raise_exception=True)
        subscription_pay_now(
            subscription_id=subscription_id, user=request.user, card_declined=values.validated_data["card_declined"]
        )
        view = next(v for v in subscriptions_of_member(user=request.user) if v.subscription.pk == subscription_id)
        return Response(SubscriptionOutput(_body(view)).data)


class FreezeInput(serializers.Serializer):
    starts_on = serializers.DateField(
        error_messages={
            "required": MSG_FREEZE_DATE_INVALID,
            "null": MSG_FREEZE_DATE_INVALID,
            "invalid": MSG_FREEZE_DATE_INVALID,
            "datetime": MSG_FREEZE_DATE_INVALID,
        }
    )
    weeks = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_FREEZE_WEEKS,
        error_messages=messages(
            services.MSG_FREEZE_WEEKS, "required", "null", "invalid", "min_value", "max_value", "max_string_length"
        ),
    )
    reason = Text(missing=services.MSG_FREEZE_REASON, max_length=2000)


class SubscriptionFreezeApi(APIView):
    """POST /api/subscriptions/{id}/freeze (staff) {starts_on, weeks, reason}: freeze from a day for N weeks."""

    permission_classes = [IsStudioStaff]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=FreezeInput,
        responses={
            200: StaffSubscriptionOutput,
            400: ErrorOutput,
            404: OpenApiResponse(ErrorOutput, description="Abonnement introuvable."),
            409: OpenApiResponse(ErrorOutput, description="Abonnement terminé ou annulé."),
        },
    )
    def post(self, request, subscription_id: int):
        values = FreezeInput(data=request.data)
        values.is_valid(raise_exception=True)
        data = values.validated_data
        subscription_freeze(
            subscription_id=subscription_id,
            starts_on=data["starts_on"],
            weeks=data["weeks"],
            reason=data["reason"],
            by=request.user,
        )
        view = subscription_for_staff(subscription_id=subscription_id)
        return Response(StaffSubscriptionOutput(_body(view, with_member=True)).data)


MSG_PAUSE_DATE_INVALID = "Indiquez la date de début de la suspension (AAAA-MM-JJ)."
MSG_PAUSE_WEEKS_INVALID = "Indiquez le nombre de semaines de suspension (un nombre entier, 1 au moins)."


class MemberActionOutput(serializers.Serializer):
    message = serializers.CharField(help_text="Le résultat, en français.")
    subscription = SubscriptionOutput()


class PauseInput(serializers.Serializer):
    starts_on = serializers.DateField(
        error_messages=messages(MSG_PAUSE_DATE_INVALID, "required", "null", "invalid", "datetime")
    )
    weeks = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_FREEZE_WEEKS,
        error_messages=messages(
            MSG_PAUSE_WEEKS_INVALID, "required", "null", "invalid", "min_value", "max_value", "max_string_length"
        ),
    )


MEMBER_ANSWERS = {
    200: MemberActionOutput,
    400: ErrorOutput,
    404: OpenApiResponse(ErrorOutput, description="Abonnement introuvable (ou d'un autre membre)."),
    409: OpenApiResponse(ErrorOutput, description="Abonnement terminé ou annulé, ou suspension hors des règles."),
}


def _member_answer(request, subscription_id: int, message: str) -> Response:
    view = next(v for v in subscriptions_of_member(user=request.user) if v.subscription.pk == subscription_id)
    return Response(MemberActionOutput({"message": message, "subscription": _body(view)}).data)


class SubscriptionTerminateApi(APIView):
    """POST /api/subscriptions/{id}/terminate (the member, their own): end it; nothing more is charged, the pass
    books through the last paid period. A second call answers the same."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(request=None, responses=MEMBER_ANSWERS)
    def post(self, request, subscription_id: int):
        message = subscription_terminate(subscription_id=subscription_id, user=request.user)
        return _member_answer(request, subscription_id, message)


class SubscriptionPauseApi(APIView):
    """POST /api/subscriptions/{id}/pause (the member, their own) {starts_on, weeks}: pause it from tomorrow at the
    earliest, within the weeks a year the formule allows."""

    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(request=PauseInput, responses=MEMBER_ANSWERS)
    def post(self, request, subscription_id: int):
        values = PauseInput(data=request.data)
        values.is_valid(raise_exception=True)
        message = subscription_pause(
            subscription_id=subscription_id,
            user=request.user,
            starts_on=values.validated_data["starts_on"],
            weeks=values.validated_data["weeks"],
        )
        return _member_answer(request, subscription_id, message)

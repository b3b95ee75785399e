"""A member's data and account over the API (docs/decisions.md 37): `GET /api/users/me/export`,
`DELETE /api/users/me` with `{password}`; staff, on the member's request: `GET /api/users/{id}/export` and
`POST /api/users/{id}/erase`. And a client's history for staff (docs/decisions.md 50): `GET /api/users/{id}/history`."""

from django.contrib.auth import logout
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.apis.outputs import MessageOutput
from accounts.models import User
from studio.fields import DateTimeOutputField
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from .export import member_data_export
from .history import client_history
from .services import (
    MSG_ACCOUNT_DELETED,
    MSG_ACCOUNT_ERASED_BY_STAFF,
    MSG_PASSWORD_REQUIRED,
    AccountDeletionError,
    account_delete_by_member,
    account_erase_by_staff,
)

PASSWORD_MAX = 128


class AccountDeleteInput(serializers.Serializer):
    password = serializers.CharField(
        max_length=PASSWORD_MAX,
        trim_whitespace=False,
        error_messages=dict.fromkeys(["required", "null", "blank", "invalid", "max_length"], MSG_PASSWORD_REQUIRED),
    )


EXPORT_RESPONSE = OpenApiResponse(
    OpenApiTypes.OBJECT,
    description="Tout ce que le studio garde du membre : profil, réservations, paiements, factures, cartes, "
    "abonnements, messages, avis, consentements (fichier JSON à télécharger).",
)


def export_response(user: User, *, with_health: bool = True) -> Response:
    response = Response(member_data_export(user=user, with_health=with_health))
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="donnees-personnelles-{user.pk}-{day}.json"'
    response["Cache-Control"] = "private, no-store"
    return response


class MyDataExportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="users_me_export", responses={200: EXPORT_RESPONSE})
    def get(self, request):
        return export_response(request.user)


class MyAccountApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="users_me_delete", request=AccountDeleteInput, responses={200: MessageOutput, 409: ErrorOutput}
    )
    def delete(self, request):
        data = AccountDeleteInput(data=request.data)
        data.is_valid(raise_exception=True)
        account_delete_by_member(user=request.user, password=data.validated_data["password"])
        if hasattr(request, "session"):
            logout(request._request)
        return Response(MessageOutput({"message": MSG_ACCOUNT_DELETED}).data)


def _member(user_id: int) -> User:
    user = User.objects.filter(pk=user_id).first() if 0 < user_id < 2**31 else None
    if user is None:
        raise AccountDeletionError.of("user_not_found")
    return user


class MemberDataExportApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(operation_id="users_export", responses={200: EXPORT_RESPONSE, 404: ErrorOutput})
    def get(self, request, user_id: int):
        # Health answers: the admins only (docs/decisions.md 48).
        return export_response(_member(user_id), with_health=bool(getattr(request.user, "is_admin", False)))


class MemberEraseApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(operation_id="users_erase", request=None, responses={200: MessageOutput, 404: ErrorOutput})
    def post(self, request, user_id: int):
        account_erase_by_staff(actor=request.user, user_id=user_id)
        return Response(MessageOutput({"message": MSG_ACCOUNT_ERASED_BY_STAFF}).data)


# --- A client's history for staff (docs/decisions.md 50) ---------------------------------------------------------


class HistoryProfileOutput(serializers.Serializer):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.EmailField()
    phone = serializers.CharField(allow_blank=True)
    city = serializers.CharField(allow_blank=True)
    role = serializers.CharField()
    role_label = serializers.CharField()
    date_joined = DateTimeOutputField()
    email_confirmed = serializers.BooleanField()
    password_set = serializers.BooleanField(
        help_text="Faux tant que le client créé à l'accueil n'a pas choisi le sien."
    )
    is_active = serializers.BooleanField()


class HistoryPassOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    title = serializers.CharField()
    state = serializers.CharField(help_text="active, upcoming, expired ou used.")
    state_label = serializers.CharField()
    is_card = serializers.BooleanField()
    credits_total = serializers.IntegerField(allow_null=True)
    credits_left = serializers.IntegerField(allow_null=True)
    starts_on = serializers.DateField()
    expires_on = serializers.DateField()
    weekly_cap = serializers.IntegerField(help_text="Cours par semaine (0 : sans limite).")


class HistoryBookingOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    course = serializers.CharField()
    start = DateTimeOutputField()
    participants = serializers.IntegerField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    pass_title = serializers.CharField(allow_null=True, help_text="La carte ou l'abonnement qui l'a payée.")
    credits_spent = serializers.IntegerField()
    attendance = serializers.CharField(allow_null=True)
    attendance_label = serializers.CharField(allow_blank=True)
    created_at = DateTimeOutputField()


class HistoryOrderOutput(serializers.Serializer):
    order_id = serializers.CharField()
    title = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    status = serializers.CharField()
    status_label = serializers.CharField()
    provider = serializers.CharField()
    provider_label = serializers.CharField()
    created_at = DateTimeOutputField()
    completed_at = DateTimeOutputField(allow_null=True)


class HistoryInvoiceOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    number = serializers.CharField()
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    issued_at = DateTimeOutputField()
    description = serializers.CharField(allow_blank=True)
    total_amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    credited_number = serializers.CharField(allow_null=True)
    pdf_url = serializers.CharField()


class HistorySubscriptionOutput(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    title = serializers.CharField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    period_months = serializers.IntegerField()
    periods_committed = serializers.IntegerField()
    periods_paid = serializers.IntegerField()
    periods_left = serializers.IntegerField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)
    next_due_on = serializers.DateField(allow_null=True)
    next_due_amount = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)


class HistoryStaffActionOutput(serializers.Serializer):
    action = serializers.CharField()
    summary = serializers.CharField()
    staff_name = serializers.CharField(help_text="Le membre de l'équipe, nommé comme il l'était ce jour-là.")
    created_at = DateTimeOutputField()


class ClientHistoryOutput(serializers.Serializer):
    profile = HistoryProfileOutput()
    passes = HistoryPassOutput(many=True)
    upcoming_bookings = HistoryBookingOutput(many=True)
    past_bookings = HistoryBookingOutput(many=True, help_text="Les 50 plus récentes.")
    orders = HistoryOrderOutput(many=True, help_text="Les 50 plus récentes.")
    invoices = HistoryInvoiceOutput(many=True)
    subscriptions = HistorySubscriptionOutput(many=True)
    staff_actions = HistoryStaffActionOutput(many=True, help_text="Les 50 plus récentes.")


class MemberHistoryApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="users_history",
        responses={200: ClientHistoryOutput, 403: ErrorOutput, 404: ErrorOutput},
        description="La fiche d'un client pour l'équipe : profil, cartes, réservations à venir et passées, "
        "commandes, factures, abonnements et ce que l'équipe a fait pour lui.",
    )
    def get(self, request, user_id: int):
        history = client_history(member_id=user_id)
        if history is None:
            raise AccountDeletionError.of("user_not_found")
        response = Response(ClientHistoryOutput(history).data)
        response["Cache-Control"] = "private, no-store"
        return response

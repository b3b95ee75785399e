"""A member's data and account over the API (docs/decisions.md 37): `GET /api/users/me/export`,
`DELETE /api/users/me` with `{password}`; staff, on the member's request: `GET /api/users/{id}/export` and
`POST /api/users/{id}/erase`."""

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
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from .export import member_data_export
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


def export_response(user: User) -> Response:
    response = Response(member_data_export(user=user))
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
        return export_response(_member(user_id))


class MemberEraseApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(operation_id="users_erase", request=None, responses={200: MessageOutput, 404: ErrorOutput})
    def post(self, request, user_id: int):
        account_erase_by_staff(actor=request.user, user_id=user_id)
        return Response(MessageOutput({"message": MSG_ACCOUNT_ERASED_BY_STAFF}).data)

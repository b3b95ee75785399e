"""`POST /api/users`: staff create a client's account at the desk (docs/decisions.md 50). The path's list (`GET`,
with each member's no-shows) is bookings' view, which takes this `post` from here (bookings/apis/users.py)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff
from studio.schema import ErrorOutput

from ..services.clients import MSG_CLIENT_CREATED, client_create
from ..services.errors import MSG_EMAIL_INVALID, MSG_NAMES_REQUIRED, MSG_PHONE_INVALID
from .fields import NOT_BLANK_PATTERN, PHONE_PATTERN, PatternText, StrictEmail
from .outputs import UserOutput
from .serializers import MAX_EMAIL, Input, required_messages


class ClientCreateInput(Input):
    first_name = PatternText(
        NOT_BLANK_PATTERN, MSG_NAMES_REQUIRED, max_length=150, messages=required_messages(MSG_NAMES_REQUIRED)
    )
    last_name = PatternText(
        NOT_BLANK_PATTERN, MSG_NAMES_REQUIRED, max_length=150, messages=required_messages(MSG_NAMES_REQUIRED)
    )
    email = StrictEmail(
        max_length=MAX_EMAIL,
        error_messages={
            **required_messages(MSG_EMAIL_INVALID),
            "invalid": MSG_EMAIL_INVALID,
            "max_length": MSG_TEXT_TOO_LONG,
        },
    )
    # A blank phone is taken before the pattern is checked (allow_blank), so the pattern says ten digits only and the
    # schema's `oneOf` [pattern, empty] has exactly one branch for each text.
    phone = PatternText(
        PHONE_PATTERN,
        MSG_PHONE_INVALID,
        required=False,
        allow_blank=True,
        default="",
        max_length=30,
        messages={"null": MSG_PHONE_INVALID},
        help_text="Facultatif : 10 chiffres, espaces, points ou tirets permis entre eux.",
    )


class ClientCreateOutput(UserOutput):
    message = serializers.SerializerMethodField(help_text="Ce qui est dit à l'équipe : l'e-mail envoyé au client.")

    class Meta(UserOutput.Meta):
        fields = [*UserOutput.Meta.fields, "message"]

    def get_message(self, user) -> str:
        return MSG_CLIENT_CREATED.format(email=user.email)


class ClientCreateApi(APIView):
    permission_classes = [IsStudioStaff]

    @extend_schema(
        operation_id="users_create",
        request=ClientCreateInput,
        responses={
            201: ClientCreateOutput,
            400: ErrorOutput,
            403: ErrorOutput,
            409: OpenApiResponse(ErrorOutput, description="Un compte existe déjà avec cet e-mail (il est nommé)."),
        },
        description="Crée le compte d'un client à l'accueil (équipe) : pas de mot de passe, un e-mail l'invite à "
        "choisir le sien (lien valable 7 jours).",
    )
    def post(self, request):
        data = ClientCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        client = client_create(staff=request.user, **data.validated_data)
        return Response(
            ClientCreateOutput(client, context={"actor": request.user}).data, status=status.HTTP_201_CREATED
        )

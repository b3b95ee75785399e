"""Web Push over the API (docs/decisions.md 53), each for the signed-in member only (their own rows):

- `GET/PUT /api/push/preferences`: whether the site offers push (and its VAPID public key, the browser's
  `applicationServerKey`), how many of the member's browsers are subscribed, and the switch of each kind;
- `POST /api/push/subscriptions`: record this browser's `PushSubscription` (its JSON as the browser gives it);
- `POST /api/push/subscriptions/delete`: forget it (`{endpoint}`).
"""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.fields import StrictBooleanField
from studio.parsers import BoundedJSONParser
from studio.schema import ErrorOutput

from . import services
from .models import PushKind, PushSubscription

_ENDPOINT_ERRORS = {
    key: services.MSG_ENDPOINT_INVALID for key in ("required", "null", "blank", "max_length", "invalid")
}
_KEY_ERRORS = {
    key: services.MSG_KEYS_INVALID for key in ("required", "null", "blank", "min_length", "max_length", "invalid")
}
MSG_SWITCH_INVALID = "Choisissez oui ou non pour chaque notification."


class PushKeysInput(serializers.Serializer):
    p256dh = serializers.CharField(min_length=1, max_length=200, error_messages=_KEY_ERRORS)
    auth = serializers.CharField(min_length=1, max_length=100, error_messages=_KEY_ERRORS)

    default_error_messages = {"invalid": services.MSG_KEYS_INVALID, "null": services.MSG_KEYS_INVALID}


class PushSubscriptionInput(serializers.Serializer):
    endpoint = serializers.CharField(min_length=1, max_length=1000, error_messages=_ENDPOINT_ERRORS)
    keys = PushKeysInput(error_messages={"required": services.MSG_KEYS_INVALID, "null": services.MSG_KEYS_INVALID})


class PushEndpointInput(serializers.Serializer):
    endpoint = serializers.CharField(min_length=1, max_length=1000, error_messages=_ENDPOINT_ERRORS)


def _switch() -> StrictBooleanField:
    return StrictBooleanField(
        required=False, error_messages={key: MSG_SWITCH_INVALID for key in ("invalid", "null", "required")}
    )


class PushPreferencesInput(serializers.Serializer):
    waitlist_offer = _switch()
    class_cancelled = _switch()
    reminder = _switch()


class PushPreferencesOutput(serializers.Serializer):
    enabled = serializers.BooleanField(help_text="false : le site n'envoie pas de notifications (clés VAPID absentes).")
    public_key = serializers.CharField(help_text="La clé publique VAPID du studio (applicationServerKey), base64url.")
    devices = serializers.IntegerField(help_text="Appareils du membre abonnés aux notifications.")
    waitlist_offer = serializers.BooleanField()
    class_cancelled = serializers.BooleanField()
    reminder = serializers.BooleanField()
    message = serializers.CharField(required=False)


class PushMessageOutput(serializers.Serializer):
    message = serializers.CharField()


def _valid(serializer_class, request):
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _preferences_body(user, message: str | None = None) -> dict:
    prefs = services.push_preferences_get(user=user)
    body = {
        "enabled": services.push_configured(),
        "public_key": settings.WEBPUSH_VAPID_PUBLIC_KEY,
        "devices": PushSubscription.objects.filter(user=user).count(),
        **{kind: getattr(prefs, kind) for kind in PushKind.values},
    }
    if message:
        body["message"] = message
    return body


class PreferencesApi(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(operation_id="push_preferences", responses=PushPreferencesOutput)
    def get(self, request):
        return Response(PushPreferencesOutput(_preferences_body(request.user)).data)

    @extend_schema(
        operation_id="push_preferences_update",
        request=PushPreferencesInput,
        responses={200: PushPreferencesOutput, 400: ErrorOutput},
    )
    def put(self, request):
        services.push_preferences_set(user=request.user, **_valid(PushPreferencesInput, request))
        return Response(PushPreferencesOutput(_preferences_body(request.user, services.MSG_PREFERENCES_SAVED)).data)


class SubscriptionsApi(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="push_subscribe",
        request=PushSubscriptionInput,
        responses={201: PushMessageOutput, 400: ErrorOutput, 409: ErrorOutput},
    )
    def post(self, request):
        data = _valid(PushSubscriptionInput, request)
        services.push_subscribe(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            user_agent=request.headers.get("User-Agent", ""),
        )
        return Response(PushMessageOutput({"message": services.MSG_SUBSCRIBED}).data, status=status.HTTP_201_CREATED)


class SubscriptionDeleteApi(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        operation_id="push_unsubscribe",
        request=PushEndpointInput,
        responses={200: PushMessageOutput, 400: ErrorOutput, 404: ErrorOutput},
    )
    def post(self, request):
        services.push_unsubscribe(user=request.user, endpoint=_valid(PushEndpointInput, request)["endpoint"])
        return Response(PushMessageOutput({"message": services.MSG_UNSUBSCRIBED}).data)

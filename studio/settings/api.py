"""The API's settings: Django REST framework (authentication, parsers, the French error contract, throttles), simple
JWT, drf-spectacular's OpenAPI schema and CORS."""

from datetime import timedelta

from .environment import env

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # JWT first so that an anonymous API call gets 401 with a WWW-Authenticate header.
        "rest_framework_simplejwt.authentication.JWTAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # Standard JSON only, bounded depth, French errors; views that take a file add multipart
    # (studio.parsers.JSON_OR_MULTIPART). No form-encoded bodies (studio/parsers.py says why).
    "DEFAULT_PARSER_CLASSES": ["studio.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "studio.schema.StudioAutoSchema",
    "EXCEPTION_HANDLER": "studio.api.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("API_ANON_RATE", default="120/min"),
        "user": env("API_USER_RATE", default="600/min"),
    },
}
SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=env.int("JWT_ACCESS_MINUTES", default=5)),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=7),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "USER_ID_FIELD": "id",
    "USER_ID_CLAIM": "user_id",
    # Tokens carry a hash of the password hash: a password change or reset ends them at once (docs/decisions.md 7).
    "CHECK_REVOKE_TOKEN": True,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "API du studio",
    "DESCRIPTION": "API du site et du système de réservation du studio.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "studio.schema.blank_is_text_hook",  # a free text that may be blank is anyOf, in bodies and queries
        "studio.schema.typed_enums_hook",  # after the enum components exist: each states its type
    ],
    # Enums that several components share under a field name other enums use too ("status").
    "ENUM_NAME_OVERRIDES": {
        "StudioDocumentKindEnum": "waivers.models.DocumentKind",
        "PaymentStatusEnum": "payments.models.PaymentStatus",
        "SubscriptionStatusEnum": "payments.subscriptions.models.SubscriptionStatus",
        "SubscriptionChargeStatusEnum": "payments.subscriptions.models.ChargeStatus",
        "ReducedStatusEnum": "payments.subscriptions.models.ReducedStatus",
        "SubscriptionActionKindEnum": "payments.subscriptions.models.SubscriptionActionKind",
        "InvoiceKindEnum": "invoices.models.InvoiceKind",
        "PassKindEnum": "bookings.models.PassKind",  # several models have a "kind" whose enums would collide
        "RequestStatusEnum": "quotes.models.RequestStatus",  # EVJF/EVG and room-rental requests
        "PayRuleKindEnum": "courses.models_pay.PayRuleKind",
        "PromoKindEnum": "offers.models.PromoKind",
        "SubstituteStatusEnum": "bookings.models_team.SubstituteStatus",
        "OnlineProviderEnum": "payments.choices.ONLINE_PROVIDERS",
        "DeskPaidWithEnum": "bookings.services.staff_bookings.PAID_WITH_CHOICES",  # staff booking on a member's behalf
        # A box that must be ticked: the CGU at registration, the terms of sale at a deposit.
        "TickedBoxEnum": [(True, True)],
        "GiftCardStatusEnum": "offers.models.GiftCardStatus",
    },
}
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])

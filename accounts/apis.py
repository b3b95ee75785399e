"""The `users/*` calls of SPEC.md 7 (under /api/, DECISIONS.md 1). Thin: parse, call a service, shape the answer."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.exceptions import InvalidToken
from rest_framework_simplejwt.serializers import TokenRefreshSerializer
from rest_framework_simplejwt.settings import api_settings as jwt_settings
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.utils import get_md5_hash_password
from rest_framework_simplejwt.views import TokenRefreshView

from studio.api import CsrfForBrowsers, error_response
from studio.pagination import StandardPagination
from studio.permissions import IsStudioStaff
from studio.ratelimit import PublicFormThrottle
from studio.ratelimit import client_ip as _client_ip

from . import selectors, services
from .models import User
from .services import AccountError


def account_error_response(error: AccountError) -> Response:
    extra = {}
    if error.field:
        extra["errors"] = {error.field: [error.message]}
    if error.code:
        extra["code"] = error.code
    if error.code == "email_not_confirmed":
        extra["resendUrl"] = "/api/users/resend-confirmation"
    return error_response(error.message, error.status, **extra)


def client_ip(request) -> str:
    # REMOTE_ADDR, or the address the trusted proxies saw (TRUSTED_PROXY_COUNT): never an entry the client wrote.
    return _client_ip(request)


class UserOutput(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)
    avatar = serializers.SerializerMethodField()
    email_confirmed = serializers.BooleanField(read_only=True)
    can_edit = serializers.SerializerMethodField(
        help_text="Le compte qui lit peut-il modifier celui-ci (DECISIONS.md 32)."
    )

    class Meta:
        model = User
        fields = [
            "id",
            "first_name",
            "last_name",
            "name",
            "email",
            "phone",
            "address",
            "postal_code",
            "city",
            "country",
            "avatar",
            "role",
            "email_confirmed",
            "pending_email",
            "date_joined",
            "can_edit",
        ]

    def get_avatar(self, user) -> str:
        return selectors.avatar_url(user)

    def get_can_edit(self, user) -> bool:
        actor = self.context.get("actor")
        return actor is not None and services.user_can_edit(actor=actor, target=user)


class MessageOutput(serializers.Serializer):
    message = serializers.CharField()


class LoginOutput(serializers.Serializer):
    userId = serializers.IntegerField()
    role = serializers.CharField()
    token = serializers.CharField(help_text="Jeton d'accès (Bearer), 5 minutes.")
    refresh = serializers.CharField(help_text="Jeton de rafraîchissement, à envoyer à /api/users/token/refresh.")


def _text(**kwargs):
    return serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, default="", **kwargs)


class RegisterInput(serializers.Serializer):
    last_name = _text()
    first_name = _text()
    phone = _text()
    email = _text()
    address = _text()
    postal_code = _text()
    city = _text()
    country = _text()
    role = _text(help_text="Ignoré : une inscription crée toujours un compte membre.")
    password = _text()
    confirmPassword = _text()
    acceptCGU = serializers.CharField(required=False, allow_blank=True, default="")

    def to_internal_value(self, data):
        # acceptCGU arrives as a JSON boolean or a form string; keep it as text for the service.
        if hasattr(data, "copy"):
            data = data.copy()
        if isinstance(data, dict) and isinstance(data.get("acceptCGU"), bool):
            data["acceptCGU"] = "true" if data["acceptCGU"] else ""
        return super().to_internal_value(data)


class RegisterApi(APIView):
    """The same answer whether or not the address already has an account (DECISIONS.md 30)."""

    authentication_classes = []
    permission_classes = [CsrfForBrowsers]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "register"

    @extend_schema(request=RegisterInput, responses={201: MessageOutput})
    def post(self, request):
        data = RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        try:
            services.user_register(
                last_name=d["last_name"] or str(request.data.get("name") or ""),  # `name` is SPEC.md 3's alias
                first_name=d["first_name"],
                email=d["email"],
                password=d["password"],
                confirm_password=d["confirmPassword"],
                accept_cgu=d["acceptCGU"],
                phone=d["phone"],
                address=d["address"],
                postal_code=d["postal_code"],
                city=d["city"],
                country=d["country"],
            )
        except AccountError as error:
            return account_error_response(error)
        return Response({"message": services.MSG_REGISTERED}, status=status.HTTP_201_CREATED)


class ValidateEmailApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(responses=MessageOutput)
    def get(self, request, token):
        try:
            services.email_confirm(token=token)
        except AccountError as error:
            return account_error_response(error)
        return Response({"message": services.MSG_EMAIL_CONFIRMED})


class EmailInput(serializers.Serializer):
    email = _text()


class ResendConfirmationApi(APIView):
    authentication_classes = []
    permission_classes = [CsrfForBrowsers]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "resend"

    @extend_schema(request=EmailInput, responses=MessageOutput)
    def post(self, request):
        data = EmailInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            services.email_confirmation_resend(email=data.validated_data["email"])
        except AccountError as error:
            return account_error_response(error)
        return Response({"message": services.MSG_CONFIRMATION_RESENT})


class LoginInput(serializers.Serializer):
    email = _text()
    password = _text()
    remember = serializers.BooleanField(required=False, default=False)


class LoginApi(APIView):
    """Answers {userId, role, token} (a bearer access token for API clients, plus `refresh`) and opens the
    browser session, which is what the site's pages and islands use (DECISIONS.md 6-7). A browser needs the CSRF
    token (no login from another site); an API client posting JSON without cookies does not."""

    authentication_classes = []
    permission_classes = [CsrfForBrowsers]

    @extend_schema(request=LoginInput, responses=LoginOutput)
    def post(self, request):
        data = LoginInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        try:
            user = services.user_authenticate(email=d["email"], password=d["password"], ip=client_ip(request))
        except AccountError as error:
            return account_error_response(error)
        services.session_login(request=request._request, user=user, remember=d["remember"])
        tokens = services.api_tokens_for(user=user)
        return Response({"userId": user.pk, "role": user.role, **tokens})


class RefreshInput(TokenRefreshSerializer):
    """simplejwt's refresh, refused (401) for an account that no longer exists or is inactive, and for a token
    issued before the password last changed (issue 16)."""

    def validate(self, attrs):
        token = RefreshToken(attrs["refresh"])  # TokenError (bad, expired, blacklisted) → 401 in the view
        user_id = token.payload.get(jwt_settings.USER_ID_CLAIM)
        try:
            user = User.objects.filter(pk=int(user_id)).first()
        except (TypeError, ValueError):
            user = None
        if user is None or not user.is_active:
            raise InvalidToken()
        if jwt_settings.CHECK_REVOKE_TOKEN and token.payload.get(
            jwt_settings.REVOKE_TOKEN_CLAIM
        ) != get_md5_hash_password(user.password):
            raise InvalidToken()
        return super().validate(attrs)


class TokenRefreshApi(TokenRefreshView):
    """{refresh} → {access, refresh}: refresh tokens rotate, the old one is blacklisted."""

    serializer_class = RefreshInput


class LogoutInput(serializers.Serializer):
    refresh = _text()


class LogoutApi(APIView):
    """Ends the session and every refresh token of the user. Needs the CSRF token like every session write, so
    that a page on another site cannot log a member out (issue 16, item 10)."""

    authentication_classes = []
    permission_classes = [CsrfForBrowsers]

    @extend_schema(request=LogoutInput, responses=MessageOutput)
    def post(self, request):
        data = LogoutInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.user_logout(request=request._request, refresh=data.validated_data["refresh"])
        return Response({"message": services.MSG_LOGGED_OUT})


class ForgotPasswordApi(APIView):
    authentication_classes = []
    permission_classes = [CsrfForBrowsers]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "forgot_password"

    @extend_schema(request=EmailInput, responses=MessageOutput)
    def post(self, request):
        data = EmailInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            services.password_reset_request(email=data.validated_data["email"])
        except AccountError as error:
            return account_error_response(error)
        return Response({"message": services.MSG_FORGOT_SENT})


class ResetPasswordInput(serializers.Serializer):
    newPassword = _text()
    confirmPassword = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)


class ResetPasswordApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(request=ResetPasswordInput, responses=MessageOutput)
    def post(self, request, token):
        data = ResetPasswordInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        try:
            services.password_reset_confirm(
                token=token, new_password=d["newPassword"], confirm_password=d.get("confirmPassword")
            )
        except AccountError as error:
            return account_error_response(error)
        return Response({"message": services.MSG_PASSWORD_RESET})


PROFILE_FIELDS = ("first_name", "last_name", "email", "phone", "address", "postal_code", "city", "country", "role")


class ProfileInput(serializers.Serializer):
    first_name = serializers.CharField(required=False, allow_blank=True)
    last_name = serializers.CharField(required=False, allow_blank=True)
    name = serializers.CharField(required=False, allow_blank=True, help_text="Synonyme de last_name (SPEC.md 3).")
    email = serializers.CharField(required=False, allow_blank=True, help_text="Modifiable par l'équipe seulement.")
    phone = serializers.CharField(required=False, allow_blank=True)
    address = serializers.CharField(required=False, allow_blank=True)
    postal_code = serializers.CharField(required=False, allow_blank=True)
    city = serializers.CharField(required=False, allow_blank=True)
    country = serializers.CharField(required=False, allow_blank=True)
    role = serializers.CharField(required=False, allow_blank=True, help_text="Modifiable par un administrateur.")
    avatar = serializers.FileField(required=False, allow_null=True)
    remove_avatar = serializers.BooleanField(required=False, default=False)


def _profile_update(request, user):
    raw = request.data
    if "avatar" in raw and "avatar" not in request.FILES:
        # The dashboard sends the user object back as it got it: its avatar is a URL, not a new file.
        raw = {key: raw.get(key) for key in raw.keys() if key != "avatar"}
    data = ProfileInput(data=raw)
    data.is_valid(raise_exception=True)
    d = data.validated_data
    changes = {field: d[field] for field in PROFILE_FIELDS if field in d}
    if "last_name" not in changes and "name" in d:
        changes["last_name"] = d["name"]
    try:
        updated = services.user_update(
            actor=request.user,
            user=user,
            data=changes,
            avatar=d.get("avatar"),
            remove_avatar=d.get("remove_avatar", False),
        )
    except AccountError as error:
        return account_error_response(error)
    message = services.MSG_PROFILE_UPDATED
    if "email" in changes and updated.pending_email and updated.pending_email != user.pending_email:
        message = services.MSG_EMAIL_CHANGE_PENDING
    output = UserOutput(updated, context={"actor": request.user}).data
    return Response({**output, "message": message})


class ProfileApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=UserOutput)
    def get(self, request):
        return Response(UserOutput(request.user).data)

    @extend_schema(request=ProfileInput, responses=UserOutput)
    def put(self, request):
        return _profile_update(request, request.user)

    patch = put


class UserListApi(APIView):
    """Staff list: ?search= (name or e-mail), ?ordering= (e.g. -date_joined,last_name), ?page=, ?page_size=."""

    permission_classes = [IsStudioStaff]

    @extend_schema(responses=UserOutput(many=True))
    def get(self, request):
        queryset = selectors.user_list(
            search=request.query_params.get("search", ""), ordering=request.query_params.get("ordering", "")
        )
        paginator = StandardPagination()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(UserOutput(page, many=True, context={"actor": request.user}).data)


class UserDetailApi(APIView):
    """A member reaches only their own id; staff reach everyone (DECISIONS.md 4 and 11)."""

    permission_classes = [IsAuthenticated]

    def _target(self, request, user_id):
        if request.user.pk == user_id:
            return request.user, None
        if not request.user.is_studio_staff:
            return None, error_response(services.MSG_PROFILE_FORBIDDEN, status.HTTP_403_FORBIDDEN)
        target = selectors.user_get(user_id=user_id)
        if target is None:
            return None, error_response("Utilisateur introuvable.", status.HTTP_404_NOT_FOUND)
        return target, None

    @extend_schema(responses=UserOutput)
    def get(self, request, user_id):
        target, refused = self._target(request, user_id)
        return refused or Response(UserOutput(target, context={"actor": request.user}).data)

    @extend_schema(request=ProfileInput, responses=UserOutput)
    def put(self, request, user_id):
        target, refused = self._target(request, user_id)
        return refused or _profile_update(request, target)

    patch = put

    @extend_schema(responses=MessageOutput)
    def delete(self, request, user_id):
        if not request.user.is_studio_staff:
            return error_response(services.MSG_PROFILE_FORBIDDEN, status.HTTP_403_FORBIDDEN)
        target, refused = self._target(request, user_id)
        if refused:
            return refused
        try:
            services.user_delete(actor=request.user, user=target)
        except AccountError as error:
            return account_error_response(error)
        return Response({"message": services.MSG_USER_DELETED})

"""The public account calls: register, confirm the e-mail, log in and out, refresh a token, reset a
forgotten password. Thin: validate, call a service, shape the answer; a refusal (`AccountError`) goes to the
shared exception handler."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.views import TokenRefreshView

from studio.api import CsrfForBrowsers
from studio.ratelimit import PublicFormThrottle, client_ip

from ..services.authentication import MSG_LOGGED_OUT, api_tokens_for, session_login, user_authenticate, user_logout
from ..services.passwords import MSG_FORGOT_SENT, MSG_PASSWORD_RESET, password_reset_confirm, password_reset_request
from ..services.registration import (
    MSG_CONFIRMATION_RESENT,
    MSG_EMAIL_CONFIRMED,
    MSG_REGISTERED,
    email_confirm,
    email_confirmation_resend,
    user_register,
)
from .outputs import (
    LoginOutput,
    MessageOutput,
    RefreshOutput,
)
from .serializers import (
    EmailInput,
    LoginInput,
    LogoutInput,
    RefreshInput,
    RefreshRequest,
    RegisterInput,
    ResetPasswordInput,
)


class RegisterApi(APIView):
    """The same answer whether or not the address already has an account (docs/decisions.md 30)."""

    authentication_classes = []
    permission_classes = [CsrfForBrowsers]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "register"

    @extend_schema(request=RegisterInput, responses={201: MessageOutput})
    def post(self, request):
        data = RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        user_register(
            last_name=d["last_name"],
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
        return Response(MessageOutput({"message": MSG_REGISTERED}).data, status=status.HTTP_201_CREATED)


class ValidateEmailApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(responses=MessageOutput)
    def get(self, request, token):
        email_confirm(token=token)
        return Response(MessageOutput({"message": MSG_EMAIL_CONFIRMED}).data)


class ResendConfirmationApi(APIView):
    authentication_classes = []
    permission_classes = [CsrfForBrowsers]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "resend"

    @extend_schema(request=EmailInput, responses=MessageOutput)
    def post(self, request):
        data = EmailInput(data=request.data)
        data.is_valid(raise_exception=True)
        email_confirmation_resend(email=data.validated_data["email"])
        return Response(MessageOutput({"message": MSG_CONFIRMATION_RESENT}).data)


class LoginApi(APIView):
    """Answers {userId, role, token} (a bearer access token for API clients, plus `refresh`) and opens the
    browser session, which is what the site's pages and islands use (docs/decisions.md 6-7). A browser needs the CSRF
    token (no login from another site); an API client posting JSON without cookies does not. An unconfirmed
    e-mail answers 403 with code `email_not_confirmed` and `resendUrl`."""

    authentication_classes = []
    permission_classes = [CsrfForBrowsers]

    @extend_schema(request=LoginInput, responses=LoginOutput)
    def post(self, request):
        data = LoginInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        user = user_authenticate(email=d["email"], password=d["password"], ip=client_ip(request))
        session_login(request=request._request, user=user, remember=d["remember"])
        tokens = api_tokens_for(user=user)
        return Response(LoginOutput({"userId": user.pk, "role": user.role, **tokens}).data)


class TokenRefreshApi(TokenRefreshView):
    """{refresh} → {access, refresh}: refresh tokens rotate, the old one is blacklisted."""

    serializer_class = RefreshInput

    @extend_schema(request=RefreshRequest, responses=RefreshOutput)
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class LogoutApi(APIView):
    """Ends the session and every refresh token of the user. Needs the CSRF token like every session write, so
    that a page on another site cannot log a member out."""

    authentication_classes = []
    permission_classes = [CsrfForBrowsers]

    @extend_schema(request=LogoutInput, responses=MessageOutput)
    def post(self, request):
        data = LogoutInput(data=request.data)
        data.is_valid(raise_exception=True)
        user_logout(request=request._request, refresh=data.validated_data["refresh"])
        return Response(MessageOutput({"message": MSG_LOGGED_OUT}).data)


class ForgotPasswordApi(APIView):
    authentication_classes = []
    permission_classes = [CsrfForBrowsers]
    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "forgot_password"

    @extend_schema(request=EmailInput, responses=MessageOutput)
    def post(self, request):
        data = EmailInput(data=request.data)
        data.is_valid(raise_exception=True)
        password_reset_request(email=data.validated_data["email"])
        return Response(MessageOutput({"message": MSG_FORGOT_SENT}).data)


class ResetPasswordApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(request=ResetPasswordInput, responses=MessageOutput)
    def post(self, request, token):
        data = ResetPasswordInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        password_reset_confirm(token=token, new_password=d["newPassword"], confirm_password=d.get("confirmPassword"))
        return Response(MessageOutput({"message": MSG_PASSWORD_RESET}).data)

"""The `users/*` calls (under /api/, docs/decisions.md 1), split by domain: `auth` (register, e-mail
confirmation, login, tokens, logout, password reset) and `users` (profile, staff list and detail); `serializers`
holds what they accept and answer. The old names stay importable from `accounts.apis`."""

from .auth import (
    ForgotPasswordApi,
    LoginApi,
    LogoutApi,
    RegisterApi,
    ResendConfirmationApi,
    ResetPasswordApi,
    TokenRefreshApi,
    ValidateEmailApi,
    client_ip,
)
from .outputs import (
    LoginOutput,
    MessageOutput,
    RefreshOutput,
    UserOutput,
    UserPageOutput,
    UserUpdateOutput,
)
from .serializers import (
    PROFILE_FIELDS,
    EmailInput,
    LoginInput,
    LogoutInput,
    ProfileInput,
    RefreshInput,
    RegisterInput,
    ResetPasswordInput,
    UserListQuery,
)
from .users import ProfileApi, UserDetailApi, UserListApi

__all__ = [
    "PROFILE_FIELDS",
    "EmailInput",
    "ForgotPasswordApi",
    "LoginApi",
    "LoginInput",
    "LoginOutput",
    "LogoutApi",
    "LogoutInput",
    "MessageOutput",
    "ProfileApi",
    "ProfileInput",
    "RefreshInput",
    "RefreshOutput",
    "RegisterApi",
    "RegisterInput",
    "ResendConfirmationApi",
    "ResetPasswordApi",
    "ResetPasswordInput",
    "TokenRefreshApi",
    "UserDetailApi",
    "UserListApi",
    "UserListQuery",
    "UserOutput",
    "UserPageOutput",
    "UserUpdateOutput",
    "ValidateEmailApi",
    "client_ip",
]

from django.urls import path

from .apis.auth import (
    ForgotPasswordApi,
    LoginApi,
    LogoutApi,
    RegisterApi,
    ResendConfirmationApi,
    ResetPasswordApi,
    TokenRefreshApi,
    ValidateEmailApi,
)
from .apis.users import ProfileApi, UserDetailApi
from .views import profile, sign_in

urlpatterns = [
    path("login", sign_in.login_page, name="login"),
    path("register", sign_in.register_page, name="register"),
    path("logout", sign_in.logout_view, name="logout"),
    path("confirm-email/resend", sign_in.resend_confirmation_page, name="resend-confirmation"),
    path("confirm-email/<str:token>", sign_in.confirm_email_page, name="confirm-email"),
    path("confirm-new-email/<str:token>", profile.confirm_new_email_page, name="confirm-new-email"),
    path("forgot-password", sign_in.forgot_password_page, name="forgot-password"),
    path("reset-password/<str:token>", sign_in.reset_password_page, name="reset-password"),
]

api_urlpatterns = [
    path("users/register", RegisterApi.as_view(), name="api-users-register"),
    path("users/validate-email/<str:token>", ValidateEmailApi.as_view(), name="api-users-validate-email"),
    path("users/resend-confirmation", ResendConfirmationApi.as_view(), name="api-users-resend-confirmation"),
    path("users/login", LoginApi.as_view(), name="api-users-login"),
    path("users/token/refresh", TokenRefreshApi.as_view(), name="api-users-token-refresh"),
    path("users/logout", LogoutApi.as_view(), name="api-users-logout"),
    path("users/forgot-password", ForgotPasswordApi.as_view(), name="api-users-forgot-password"),
    path("users/reset-password/<str:token>", ResetPasswordApi.as_view(), name="api-users-reset-password"),
    path("users/profile", ProfileApi.as_view(), name="api-users-profile"),
    path("users/<int:user_id>", UserDetailApi.as_view(), name="api-users-detail"),
]

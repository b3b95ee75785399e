from django.urls import path

from . import views
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
from .apis.users import ProfileApi, UserDetailApi, UserListApi

urlpatterns = [
    path("login", views.login_page, name="login"),
    path("register", views.register_page, name="register"),
    path("logout", views.logout_view, name="logout"),
    path("confirm-email/resend", views.resend_confirmation_page, name="resend-confirmation"),
    path("confirm-email/<str:token>", views.confirm_email_page, name="confirm-email"),
    path("confirm-new-email/<str:token>", views.confirm_new_email_page, name="confirm-new-email"),
    path("forgot-password", views.forgot_password_page, name="forgot-password"),
    path("reset-password/<str:token>", views.reset_password_page, name="reset-password"),
    path("user/profile", views.profile_page, name="profile"),
    path("user/profile/<int:user_id>", views.profile_page, name="profile-of"),
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
    path("users", UserListApi.as_view(), name="api-users"),
    path("users/<int:user_id>", UserDetailApi.as_view(), name="api-users-detail"),
]

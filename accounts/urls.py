from django.urls import path

from . import views

urlpatterns = [
    path("login", views.login_page, name="login"),
    path("register", views.register_page, name="register"),
    path("logout", views.logout_view, name="logout"),
    path("confirm-email/<str:token>", views.confirm_email_page, name="confirm-email"),
    path("forgot-password", views.forgot_password_page, name="forgot-password"),
    path("reset-password/<str:token>", views.reset_password_page, name="reset-password"),
    path("user/profile", views.profile_page, name="profile"),
    path("user/profile/<int:user_id>", views.profile_page, name="profile-of"),
]

api_urlpatterns = []

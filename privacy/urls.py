from django.urls import path

from . import apis, views

api_urlpatterns = [
    path("users/me/export", apis.MyDataExportApi.as_view(), name="api-users-me-export"),
    path("users/me", apis.MyAccountApi.as_view(), name="api-users-me"),
    path("users/<int:user_id>/export", apis.MemberDataExportApi.as_view(), name="api-users-export"),
    path("users/<int:user_id>/erase", apis.MemberEraseApi.as_view(), name="api-users-erase"),
    path("users/<int:user_id>/history", apis.MemberHistoryApi.as_view(), name="api-users-history"),
]

urlpatterns = [
    path("user/delete-account", views.delete_account_page, name="delete-account"),
]

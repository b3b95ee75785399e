from django.urls import path

from . import apis

api_urlpatterns = [
    path("health/current", apis.CurrentApi.as_view(), name="health-current"),
    path("health/declaration", apis.DeclarationApi.as_view(), name="health-declaration"),
    path("health/questionnaires", apis.QuestionnairesApi.as_view(), name="health-questionnaires"),
    path("health/documents", apis.DocumentsApi.as_view(), name="health-documents"),
    path("users/<int:user_id>/health-declaration", apis.MemberDeclarationApi.as_view(), name="health-of-member"),
]

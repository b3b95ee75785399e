from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("courses/<int:course_id>", views.course_detail, name="course-detail"),
    path("weekly", views.weekly, name="weekly"),
    path("tarifs", views.tariffs, name="tariffs"),
    path("tarifs-page", views.tariffs_page, name="tariffs-page"),
]

api_urlpatterns = []

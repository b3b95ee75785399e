from django.urls import path

from . import views

urlpatterns = [
    path("courses/calendar", views.calendar_page, name="calendar"),
    path("evjf-evg", views.party_page, name="evjf-evg"),
    path("my-courses", views.my_courses_page, name="my-courses"),
]

api_urlpatterns = []

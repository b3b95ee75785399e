from django.urls import path

from . import views
from .apis import catalogue, closures, instructors, pay_rules, series

urlpatterns = [
    path("", views.home, name="home"),
    path("courses/<int:course_id>", views.course_detail, name="course-detail"),
    path("weekly", views.weekly, name="weekly"),
    path("tarifs", views.tariffs, name="tariffs"),
    path("tarifs-page", views.tariffs_page, name="tariffs-page"),
    path("tarifs/commander", views.tariff_order_start, name="tariff-order-start"),
]

api_urlpatterns = [
    path("courses", catalogue.CourseListApi.as_view(), name="api-courses"),
    path("courses/<int:course_id>", catalogue.CourseDetailApi.as_view(), name="api-course"),
    path("tarifs", catalogue.TariffListApi.as_view(), name="api-tarifs"),
    path("tarifs/<int:tariff_id>", catalogue.TariffDetailApi.as_view(), name="api-tarif"),
    path("testimonials", catalogue.TestimonialListApi.as_view(), name="api-testimonials"),
    path("testimonials/<int:testimonial_id>", catalogue.TestimonialDetailApi.as_view(), name="api-testimonial"),
    path("instructors", instructors.InstructorListApi.as_view(), name="api-instructors"),
    path("instructors/<int:instructor_id>", instructors.InstructorDetailApi.as_view(), name="api-instructor"),
    path(
        "instructors/<int:instructor_id>/pay-rules",
        pay_rules.InstructorPayRulesApi.as_view(),
        name="api-instructor-pay-rules",
    ),
    path("instructor-pay-rules/<int:rule_id>", pay_rules.PayRuleDetailApi.as_view(), name="api-instructor-pay-rule"),
    path("closures", closures.ClosureListApi.as_view(), name="api-closures"),
    path("closures/calendar", closures.ClosureCalendarApi.as_view(), name="api-closures-calendar"),
    path("closures/<int:closure_id>", closures.ClosureDetailApi.as_view(), name="api-closure"),
    path("course-sessions/series", series.CourseSessionSeriesApi.as_view(), name="api-course-sessions-series"),
]

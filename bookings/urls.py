from django.urls import path

from .apis import calendar_feed as calendar_feed_apis
from .apis import substitutes as substitute_apis
from .apis import waitlist as waitlist_apis
from .apis.attendance import CourseSessionAttendanceApi, CourseSessionWalkInApi
from .apis.attendees import CourseSessionAttendeesApi
from .apis.checkin import CourseSessionCheckinApi, checkin_qr_png
from .apis.class_cancellation import CourseSessionCancelApi
from .apis.feedback import CourseFeedbackApi, CourseFeedbackUserApi
from .apis.instructor import InstructorSessionsApi
from .apis.passes import MyPassesApi, PassDetailApi, PassListApi
from .apis.reservations import ReservationCancelApi
from .apis.series_following import CourseSessionFollowingApi
from .apis.sessions import CourseSessionDetailApi, CourseSessionListApi
from .apis.statements import InstructorStatementApi
from .apis.users import UserListApi
from .apis.waitlist_accept import WaitlistOfferAcceptApi
from .views import instructor as instructor_views

urlpatterns = [
    path("calendar/<str:token>.ics", calendar_feed_apis.calendar_feed, name="calendar-feed"),
    path("my-courses/preferences", calendar_feed_apis.booking_preferences_form, name="my-booking-preferences"),
    path(
        "my-courses/reminders/unsubscribe/<str:token>",
        calendar_feed_apis.reminders_unsubscribe_page,
        name="reminders-unsubscribe",
    ),
    path("my-courses/qr/<str:code>.png", checkin_qr_png, name="my-course-checkin-qr"),
    path("my-courses/<int:reservation_id>.ics", calendar_feed_apis.reservation_ics_download, name="my-course-ics"),
    path("instructor/classes", instructor_views.instructor_classes_page, name="instructor-classes"),
    path("instructor/classes/<int:session_id>", instructor_views.instructor_class_page, name="instructor-class"),
    path("instructor/statement", instructor_views.instructor_statement_page, name="instructor-statement"),
    path(
        "instructor/statement/<int:instructor_id>",
        instructor_views.instructor_statement_page,
        name="instructor-statement-of",
    ),
]

api_urlpatterns = [
    path("course-sessions", CourseSessionListApi.as_view(), name="api-course-sessions"),
    path("course-sessions/<int:session_id>", CourseSessionDetailApi.as_view(), name="api-course-session"),
    path(
        "course-sessions/<int:session_id>/attendees",
        CourseSessionAttendeesApi.as_view(),
        name="api-course-session-attendees",
    ),
    path(
        "course-sessions/<int:session_id>/following",
        CourseSessionFollowingApi.as_view(),
        name="api-course-session-following",
    ),
    path(
        "course-sessions/<int:session_id>/attendance",
        CourseSessionAttendanceApi.as_view(),
        name="api-course-session-attendance",
    ),
    path(
        "course-sessions/<int:session_id>/check-in",
        CourseSessionCheckinApi.as_view(),
        name="api-course-session-check-in",
    ),
    path(
        "course-sessions/<int:session_id>/walk-ins",
        CourseSessionWalkInApi.as_view(),
        name="api-course-session-walk-ins",
    ),
    path(
        "course-sessions/<int:session_id>/cancel",
        CourseSessionCancelApi.as_view(),
        name="api-course-session-cancel",
    ),
    path(
        "course-sessions/<int:session_id>/waitlist",
        waitlist_apis.CourseSessionWaitlistApi.as_view(),
        name="api-course-session-waitlist",
    ),
    path("waitlist/mine", waitlist_apis.MyWaitlistApi.as_view(), name="api-waitlist-mine"),
    path("waitlist/offers/accept", WaitlistOfferAcceptApi.as_view(), name="api-waitlist-offer-accept"),
    path("instructor/sessions", InstructorSessionsApi.as_view(), name="api-instructor-sessions"),
    path("substitute-requests", substitute_apis.SubstituteRequestListApi.as_view(), name="api-substitute-requests"),
    path(
        "substitute-requests/<int:request_id>/accept",
        substitute_apis.SubstituteAcceptApi.as_view(),
        name="api-substitute-request-accept",
    ),
    path(
        "substitute-requests/<int:request_id>/withdraw",
        substitute_apis.SubstituteWithdrawApi.as_view(),
        name="api-substitute-request-withdraw",
    ),
    path(
        "course-sessions/<int:session_id>/substitute-requests",
        substitute_apis.SessionSubstituteRequestApi.as_view(),
        name="api-course-session-substitute-requests",
    ),
    path(
        "instructors/<int:instructor_id>/statements",
        InstructorStatementApi.as_view(),
        name="api-instructor-statements",
    ),
    path("booking-preferences", calendar_feed_apis.BookingPreferencesApi.as_view(), name="api-booking-preferences"),
    path(
        "booking-preferences/calendar-link",
        calendar_feed_apis.CalendarLinkApi.as_view(),
        name="api-booking-preferences-calendar-link",
    ),
    path(
        "reservations-courses/<int:reservation_id>/cancel",
        ReservationCancelApi.as_view(),
        name="api-reservation-cancel",
    ),
    path("passes", PassListApi.as_view(), name="api-passes"),
    path("passes/mine", MyPassesApi.as_view(), name="api-passes-mine"),
    path("passes/<int:pass_id>", PassDetailApi.as_view(), name="api-pass"),
    path("users", UserListApi.as_view(), name="api-users"),  # the staff's users list with each member's no-shows
    path("course-feedback", CourseFeedbackApi.as_view(), name="api-course-feedback"),
    path("course-feedback/user/<int:user_id>", CourseFeedbackUserApi.as_view(), name="api-course-feedback-user"),
]

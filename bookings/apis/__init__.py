"""Bookings API: the calls of the calendar, my courses, the tariffs and the party form, under /api/ (docs/decisions.md
1), with the amounts and seats the server decides (docs/decisions.md 12-14). Thin views: parse, call a service or
selector, shape the answer.

One module per domain (feed, sessions, reservations, passes, parties, feedback); this package re-exports every
name, so `from bookings import apis` keeps working.

Errors always answer `{"error": msg, "message": msg, "code"}` in French (studio/api.py), never a 500: views let the
services' ApplicationErrors propagate, each with its own status (404 unknown session or reservation, 409 seats,
duplicates, payments in progress).

Shapes, for the islands and the dashboard:

Session (public feed item, `GET /api/course-sessions?start=&end=`)::

    {"id", "course_id", "course_title", "title", "date", "end_date",       # date/end_date: ISO 8601, Paris offset
     "instructor", "level", "details", "seats_left", "max_attendees",
     "price_per_participant": "25.00", "is_full", "is_past",
     "my_reservation": null | {"id", "status", "participants"}}           # the caller's own seats, when logged in

Staff session (`GET /api/course-sessions?view=staff&page=1&page_size=10&ordering=date|-date[&start=&end=]`)::

    {"count", "next", "previous", "results": [session + {"seats_taken", "reservations_count",
                                                         "start_paris": "YYYY-MM-DD HH:MM:SS"}]}

Attendee (`GET /api/course-sessions/<id>/attendees`, staff)::

    {"session": staff session, "seats_taken", "seats_left",
     "results": [{"id", "user_id", "first_name", "last_name", "email", "participants", "status": "held|confirmed",
                  "status_label", "paid": bool, "total_amount": "50.00", "hold_expires_at", "created_at",
                  "confirmed_at", "message"}]}

Pass (`GET /api/passes/mine` for the member; `GET /api/passes?page=&search=&ordering=` and `GET|PUT
/api/passes/<id>` for staff)::

    {"id", "kind": "card|subscription", "kind_label", "origin", "origin_label", "title", "tariff_id",
     "credits_total", "credits_left",                                     # null for a subscription
     "starts_on", "expires_on": "YYYY-MM-DD", "state": "active|upcoming|expired|used", "state_label",
     "member_id", "member_name", "member_email", "created_at"}
    staff detail adds "adjustments": [{"id", "action", "action_label", "credits_delta", "expires_on_before",
     "expires_on_after", "reason", "by", "reservation": null | {"id", "title", "date"}, "at"}]

Booking with a pass: `POST /api/reservations-courses` with `pass_id` → 201, the reservation confirmed at once
(`status: "confirmed"`, `paid_with_pass: {id, title, kind}`, `credits_spent`, `pass`: the pass after the spend).
Cancelling: `POST /api/reservations-courses/<id>/cancel` → 200 {message, reservation_id, credit_pass: pass|null}.

Party reservation (`GET /api/evf-reservations?page=`, staff)::

    {"count", "next", "previous", "results": [{"id", "user_id", "eventType": "EVJF|EVG", "event_type_label",
      "date": "YYYY-MM-DD", "time": "HH:MM", "participants", "email", "first_name", "last_name", "title",
      "message", "created_at"}]}
"""

from .common import (
    MSG_AMOUNT_INVALID,
    MSG_FEEDBACK_FORBIDDEN,
    MSG_LOGIN_TO_RESERVE,
    MSG_RANGE_INVALID,
    MessageOutput,
    ReservationPayloadSerializer,
    _iso,
    _text,
)
from .feed import (
    DEFAULT_FEED_DAYS_AFTER,
    DEFAULT_FEED_DAYS_BEFORE,
    FEED_CACHE_SECONDS,
    MAX_FEED_DAYS,
    MY_RESERVATION_NULL,
    _parse_range_bound,
    member_feed_json,
    parse_feed_range,
    public_feed_encoded,
    session_data,
    staff_session_data,
)
from .feedback import (
    CourseFeedbackApi,
    CourseFeedbackUserApi,
    FeedbackHistoryPagination,
    FeedbackInput,
)
from .parties import (
    PartyReservationApi,
    ReservationEvjCreateApi,
    _create_party_from_payload,
    party_data,
)
from .passes import (
    MyPassesApi,
    PassAdjustInput,
    PassDetailApi,
    PassGrantInput,
    PassListApi,
    adjustment_data,
    pass_data,
)
from .reservations import (
    CancellationOutput,
    ReservationCancelApi,
    ReservationCourseCreateApi,
    ReservationOutput,
    reservation_data,
)
from .sessions import (
    AttendeesOutput,
    CourseSessionAttendeesApi,
    CourseSessionDetailApi,
    CourseSessionListApi,
    SessionOutput,
    SessionWriteSerializer,
    StaffSessionOutput,
    attendee_data,
)

# The former names of the pass and feedback payloads.
FeedbackSerializer = FeedbackInput
PassGrantSerializer = PassGrantInput
PassAdjustSerializer = PassAdjustInput

__all__ = [
    "MSG_RANGE_INVALID",
    "MSG_LOGIN_TO_RESERVE",
    "MSG_FEEDBACK_FORBIDDEN",
    "MSG_AMOUNT_INVALID",
    "_iso",
    "_text",
    "ReservationPayloadSerializer",
    "FeedbackInput",
    "MessageOutput",
    "SessionOutput",
    "StaffSessionOutput",
    "AttendeesOutput",
    "ReservationOutput",
    "CancellationOutput",
    "PassGrantInput",
    "PassAdjustInput",
    "DEFAULT_FEED_DAYS_BEFORE",
    "DEFAULT_FEED_DAYS_AFTER",
    "MAX_FEED_DAYS",
    "_parse_range_bound",
    "parse_feed_range",
    "session_data",
    "FEED_CACHE_SECONDS",
    "MY_RESERVATION_NULL",
    "public_feed_encoded",
    "member_feed_json",
    "staff_session_data",
    "attendee_data",
    "SessionWriteSerializer",
    "CourseSessionListApi",
    "CourseSessionDetailApi",
    "CourseSessionAttendeesApi",
    "reservation_data",
    "ReservationCourseCreateApi",
    "ReservationCancelApi",
    "pass_data",
    "adjustment_data",
    "MyPassesApi",
    "PassGrantSerializer",
    "PassAdjustSerializer",
    "PassListApi",
    "PassDetailApi",
    "party_data",
    "_create_party_from_payload",
    "ReservationEvjCreateApi",
    "PartyReservationApi",
    "FeedbackHistoryPagination",
    "CourseFeedbackUserApi",
    "FeedbackSerializer",
    "CourseFeedbackApi",
]

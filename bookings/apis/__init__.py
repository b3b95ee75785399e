"""Bookings API: the calls of the calendar, my courses, the tariffs, under /api/ (docs/decisions.md
1), with the amounts and seats the server decides (docs/decisions.md 12-14). Thin views: parse, call a service or
selector, shape the answer.

One module per domain (feed, sessions, reservations, passes, feedback, ...); callers import each view from
its module.

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
"""

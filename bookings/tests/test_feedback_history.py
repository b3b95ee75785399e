"""The member's history API (GET /api/course-feedback/user/<id>) answers every field of every row as computed from the
models, whichever way it reads them: the feedback on the course, the pass that paid, a live hold, a session's own level,
a session without instructor, and neither a lapsed hold nor a cancelled booking."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.tests.factories import UserFactory
from bookings.checkin_codes import checkin_code, checkin_svg_data_uri, reservation_checkin
from bookings.models import ReservationStatus
from bookings.tests.factories import CourseFeedbackFactory, PassFactory, ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory

pytestmark = [pytest.mark.django_db, pytest.mark.database]  # the order puts NULLs last: checked on both engines

NOW = datetime(2030, 3, 15, 9, 0, tzinfo=timezone.get_fixed_timezone(0))


@freeze_time(NOW)
def test_every_field_of_the_history_rows(api_client, member, other_member, staff):
    course = CourseFactory(title="Pole Débutant", description="Premiers pas.", level="Débutant")
    other_course = CourseFactory(title="Exotic", description="", level="Intermédiaire")
    card = PassFactory(member=member, title="Carte 10 cours", credits_left=7)
    past = CourseSessionFactory(course=course, start=NOW - timedelta(days=3), level="Intermédiaire")
    held_session = CourseSessionFactory(course=other_course, start=NOW + timedelta(hours=30), instructor=None)
    soon = CourseSessionFactory(course=course, start=NOW + timedelta(hours=5))
    lapsed = CourseSessionFactory(course=course, start=NOW + timedelta(days=4))
    cancelled = CourseSessionFactory(course=course, start=NOW + timedelta(days=5))
    paid = ReservationFactory(session=past, user=member, participants=2, paid_with_pass=card, credits_spent=2)
    held = ReservationFactory(session=held_session, user=member, held=True)
    confirmed = ReservationFactory(session=soon, user=member)
    ReservationFactory(
        session=lapsed, user=member, status=ReservationStatus.HELD, hold_expires_at=NOW - timedelta(minutes=1)
    )
    ReservationFactory(session=cancelled, user=member, status=ReservationStatus.CANCELLED)
    ReservationFactory(session=past, user=other_member)
    CourseFeedbackFactory(user=member, course=course, rating=4, comment="Très bien")
    CourseFeedbackFactory(user=other_member, course=other_course, rating=1, comment="Pas pour moi")

    api_client.force_authenticate(member)
    body = api_client.get(f"/api/course-feedback/user/{member.pk}").json()
    assert (body["count"], body["next"], body["previous"]) == (3, None, None)
    assert body["results"] == [
        {
            "id": course.pk,
            "course_id": course.pk,
            "session_id": soon.pk,
            "reservation_id": confirmed.pk,
            "title": "Pole Débutant",
            "description": "Premiers pas.",
            "level": "Débutant",
            "date": "2030-03-15T15:00:00+01:00",
            "end_date": "2030-03-15T16:15:00+01:00",
            "instructor": "Camille Laurent",
            "participants": 1,
            "status": "confirmed",
            "status_label": "Confirmée",
            "is_past": False,
            "can_give_feedback": False,
            "rating": 4,
            "comment": "Très bien",
            "paid_with_pass": None,
            "credits_spent": 0,
            "desk_payment": "",
            "cancel_deadline": "2030-03-14T15:00:00+01:00",
            "free_cancellation_text": "Annulation gratuite jusqu'au 14 mars 2030 à 15:00.",
            "can_cancel": True,  # late: inside the free-cancellation window
            "cancel_is_late": True,
            "total_amount": "25.00",
            "hold_expires_at": None,
            "can_pay": False,
            "checkin": reservation_checkin(confirmed, now=NOW),  # a confirmed booking of a class to come
        },
        {
            "id": other_course.pk,
            "course_id": other_course.pk,
            "session_id": held_session.pk,
            "reservation_id": held.pk,
            "title": "Exotic",
            "description": "",
            "level": "Intermédiaire",
            "date": "2030-03-16T16:00:00+01:00",
            "end_date": "2030-03-16T17:15:00+01:00",
            "instructor": "",
            "participants": 1,
            "status": "held",
            "status_label": held.get_status_display(),
            "is_past": False,
            "can_give_feedback": False,
            "rating": None,
            "comment": "",
            "paid_with_pass": None,
            "credits_spent": 0,
            "desk_payment": "",
            "cancel_deadline": "2030-03-15T16:00:00+01:00",
            "free_cancellation_text": "Annulation gratuite jusqu'au 15 mars 2030 à 16:00.",
            # An unpaid hold is paid or released from the history (failed before: neither was offered).
            "can_cancel": True,
            "cancel_is_late": False,
            "total_amount": "25.00",
            "hold_expires_at": "2030-03-15T10:15:00+01:00",
            "can_pay": True,
            "checkin": None,  # unpaid: nothing to show at the door
        },
        {
            "id": course.pk,
            "course_id": course.pk,
            "session_id": past.pk,
            "reservation_id": paid.pk,
            "title": "Pole Débutant",
            "description": "Premiers pas.",
            "level": "Intermédiaire",
            "date": "2030-03-12T10:00:00+01:00",
            "end_date": "2030-03-12T11:15:00+01:00",
            "instructor": "Camille Laurent",
            "participants": 2,
            "status": "confirmed",
            "status_label": "Confirmée",
            "is_past": True,
            "can_give_feedback": True,
            "rating": 4,
            "comment": "Très bien",
            "paid_with_pass": {"id": card.pk, "title": "Carte 10 cours", "kind": "card"},
            "credits_spent": 2,
            "desk_payment": "",
            "cancel_deadline": "2030-03-11T10:00:00+01:00",
            "free_cancellation_text": "Annulation gratuite jusqu'au 11 mars 2030 à 10:00.",
            "can_cancel": False,
            "cancel_is_late": False,
            "total_amount": "50.00",
            "hold_expires_at": None,
            "can_pay": False,
            "checkin": None,  # the class is over
        },
    ]
    api_client.force_authenticate(staff)
    assert api_client.get(f"/api/course-feedback/user/{member.pk}").json() == body
    second = api_client.get(f"/api/course-feedback/user/{member.pk}", {"page_size": 2, "page": 2}).json()
    assert second["results"] == body["results"][2:] and second["next"] is None
    assert second["previous"] == f"http://testserver/api/course-feedback/user/{member.pk}?page_size=2"


def test_an_empty_history_is_one_query(api_client, member, django_assert_num_queries):
    api_client.force_authenticate(member)
    with django_assert_num_queries(1):  # the count
        body = api_client.get(f"/api/course-feedback/user/{member.pk}").json()
    assert body == {"count": 0, "next": None, "previous": None, "results": []}


def _history(member, *days):
    """The member's confirmed reservations on sessions `days` away from now (negative: past), in that order."""
    now = timezone.now()
    return [ReservationFactory(session=CourseSessionFactory(start=now + timedelta(days=d)), user=member) for d in days]


def test_a_page_is_two_queries_whatever_the_history(api_client, member, django_assert_num_queries):
    """The count, then the page's rows with their session, course, instructor, pass and the member's feedback on
    their courses, whichever page is asked by its number; the same start twice is ordered by reservation."""
    now = timezone.now()
    course = CourseFactory(title="Pole Débutant")
    card = PassFactory(member=member, title="Carte 10 cours", credits_left=7)
    same_start = now + timedelta(days=2)
    twins = [
        ReservationFactory(session=CourseSessionFactory(course=course, start=same_start), user=member) for _ in range(2)
    ]
    past = ReservationFactory(
        session=CourseSessionFactory(course=course, start=now - timedelta(days=3)),
        user=member,
        paid_with_pass=card,
        credits_spent=1,
    )
    older = _history(member, -10)[0]
    ReservationFactory(session=twins[0].session)  # someone else's
    CourseFeedbackFactory(user=member, course=course, rating=5, comment="Super")
    api_client.force_authenticate(member)
    url = f"/api/course-feedback/user/{member.pk}"
    with django_assert_num_queries(2):
        first = api_client.get(url, {"page_size": 3}).json()
    with django_assert_num_queries(2):
        second = api_client.get(url, {"page_size": 3, "page": 2}).json()
    with django_assert_num_queries(2):  # 'last': counted first, then read
        last = api_client.get(url, {"page_size": 3, "page": "last"}).json()
    assert last == second
    assert (first["count"], second["count"], second["next"]) == (4, 4, None)
    rows = first["results"] + second["results"]
    assert [r["reservation_id"] for r in rows] == [twins[0].pk, twins[1].pk, past.pk, older.pk]
    assert [(r["rating"], r["comment"]) for r in rows] == [(5, "Super")] * 3 + [(None, "")]
    assert rows[2]["paid_with_pass"] == {"id": card.pk, "title": "Carte 10 cours", "kind": "card"}
    assert rows[2]["credits_spent"] == 1 and rows[3]["paid_with_pass"] is None


def _followed(member, count):
    """`count` classes followed, each of its own course with the member's feedback, each paid with its own card."""
    now = timezone.now()
    for n in range(count):
        session = CourseSessionFactory(course=CourseFactory(), start=now + timedelta(days=n % 40 - 20, hours=n))
        card = PassFactory(member=member, title=f"Carte {n}")
        ReservationFactory(session=session, user=member, paid_with_pass=card, credits_spent=1)
        CourseFeedbackFactory(user=member, course=session.course, rating=1 + n % 5, comment=f"Avis {n}")


def test_a_long_history_reads_in_as_many_queries_as_a_short_one(api_client, django_assert_num_queries):
    for size, page in ((3, 1), (60, 1), (60, 3)):
        member = UserFactory()
        _followed(member, size)
        api_client.force_authenticate(member)
        with django_assert_num_queries(2):
            body = api_client.get(f"/api/course-feedback/user/{member.pk}", {"page": page}).json()
        assert body["count"] == size and len(body["results"]) == min(size, 20), (size, page)
        assert all(row["rating"] and row["paid_with_pass"] for row in body["results"])


def test_odd_and_out_of_range_pages_answer_as_before(api_client, member):
    """Recorded from the history API before its page and count became one query: a page past the last, 0, -1, a
    number that is not whole answer 404 'Page non valide.'; 'last' and ' 2' are pages."""
    _history(member, 2, -3, 5)
    api_client.force_authenticate(member)
    url = f"/api/course-feedback/user/{member.pk}"
    for query in ({"page": 99}, {"page": 0}, {"page": "abc"}, {"page": "2.0", "page_size": 2}, {"page": "-1"},
                  {"page": 2, "page_size": 3}):  # fmt: skip
        response = api_client.get(url, query)
        assert response.status_code == 404, query
        assert response.json() == {"error": "Page non valide.", "message": "Page non valide."}
    for query in ({"page": "last", "page_size": 2}, {"page": " 2", "page_size": 2}):
        body = api_client.get(url, query).json()
        assert (body["count"], body["next"], len(body["results"])) == (3, None, 1), query
        assert body["previous"] == f"http://testserver{url}?page_size=2"
    empty = UserFactory()
    api_client.force_authenticate(empty)
    assert api_client.get(f"/api/course-feedback/user/{empty.pk}", {"page": 2}).status_code == 404
    body = api_client.get(f"/api/course-feedback/user/{empty.pk}", {"page": "last"}).json()
    assert body == {"count": 0, "next": None, "previous": None, "results": []}


def _expected_history(member, now) -> list[dict]:
    """The history of followed courses with their feedback, computed here from the models: the member's confirmed
    reservations and live holds, upcoming first (soonest first), then past (most recent first), same start by
    reservation."""
    from bookings.models import CourseFeedback, Reservation
    from bookings.services.cancellation import cancellation_deadline
    from courses.booking_windows import MSG_FREE_CANCELLATION_UNTIL, moment_text
    from studio.fields import rfc3339

    tz = timezone.get_current_timezone()
    feedback = {f.course_id: f for f in CourseFeedback.objects.filter(user=member)}
    active = [
        r
        for r in Reservation.objects.filter(user=member).select_related(
            "session__course", "session__instructor", "paid_with_pass"
        )
        if r.status == ReservationStatus.CONFIRMED
        or (r.status == ReservationStatus.HELD and r.hold_expires_at and r.hold_expires_at > now)
    ]
    upcoming = sorted((r for r in active if r.session.start > now), key=lambda r: (r.session.start, r.pk))
    past = sorted((r for r in active if r.session.start <= now), key=lambda r: (-r.session.start.timestamp(), r.pk))
    rows = []
    for r in upcoming + past:
        s, given = r.session, feedback.get(r.session.course_id)
        deadline = cancellation_deadline(s)
        confirmed = r.status == ReservationStatus.CONFIRMED
        held = r.status == ReservationStatus.HELD
        rows.append(
            {
                "id": s.course_id,
                "course_id": s.course_id,
                "session_id": s.pk,
                "reservation_id": r.pk,
                "title": s.course.title,
                "description": s.course.description,
                "level": s.level or s.course.level,
                "date": rfc3339(s.start, tz),
                "end_date": rfc3339(s.end, tz),
                "instructor": s.instructor.name if s.instructor else "",
                "participants": r.participants,
                "status": r.status,
                "status_label": r.get_status_display(),
                "is_past": s.start <= now,
                "can_give_feedback": s.start <= now and confirmed,
                "rating": given.rating if given else None,
                "comment": given.comment if given else "",
                "paid_with_pass": (
                    {"id": r.paid_with_pass.pk, "title": r.paid_with_pass.title, "kind": r.paid_with_pass.kind}
                    if r.paid_with_pass
                    else None
                ),
                "credits_spent": r.credits_spent,
                "desk_payment": r.desk_payment,
                "cancel_deadline": rfc3339(deadline, tz),
                "free_cancellation_text": MSG_FREE_CANCELLATION_UNTIL.format(when=moment_text(deadline)),
                # A confirmed booking is cancelled until the class starts (late after the deadline); a live hold
                # is paid or released from the history until the class starts.
                "can_cancel": (confirmed or held) and s.start > now,
                "cancel_is_late": confirmed and s.start > now and now > deadline,
                "total_amount": f"{r.total_amount:.2f}",
                "hold_expires_at": rfc3339(r.hold_expires_at, tz) if held else None,
                "can_pay": held and s.start > now,
                # The door's QR: a confirmed booking until its class ends.
                "checkin": (
                    {"code": code, "image": checkin_svg_data_uri(code)}
                    if confirmed and s.end > now and (code := checkin_code(reservation_id=r.pk, session_id=s.pk))
                    else None
                ),
            }
        )
    return rows


@freeze_time(NOW)
def test_every_page_answers_the_history_as_computed_from_the_models(api_client, member, other_member, staff):
    """Varied data, every page, as the member and as staff: past and upcoming, summer and winter time, a start with
    microseconds, twins at the same start, cancellable or not, held live or lapsed, cancelled, with or without
    feedback, paid by a pass or not, a session's own level, no instructor; someone else's rows and feedback stay out."""
    courses = [
        CourseFactory(title="Pole Débutant", description="Premiers pas.", level="Débutant"),
        CourseFactory(title="Exotic « talons »", description="", level="Intermédiaire"),
        CourseFactory(title="Souplesse", description="Étirements\net respiration.", level=""),
    ]
    card = PassFactory(member=member, title="Carte 10 cours", credits_left=7)
    CourseFeedbackFactory(user=member, course=courses[0], rating=4, comment="Très bien")
    CourseFeedbackFactory(user=member, course=courses[2], rating=2, comment="")
    CourseFeedbackFactory(user=other_member, course=courses[1], rating=1, comment="Pas pour moi")
    offsets = [
        timedelta(hours=5), timedelta(hours=23, minutes=59), timedelta(days=1, minutes=1), timedelta(days=20),
        timedelta(days=140), timedelta(days=230), timedelta(minutes=-1), timedelta(days=-3), timedelta(days=-40),
        timedelta(days=-200), timedelta(days=-400), timedelta(days=9, seconds=7, microseconds=250),
        timedelta(days=16, hours=1),  # summer time from the night before: its deadline is in winter time
    ]  # fmt: skip
    for n, offset in enumerate(offsets):
        session = CourseSessionFactory(
            course=courses[n % 3],
            start=NOW + offset,
            level="Avancé" if n % 4 == 1 else "",
            instructor=None if n % 5 == 2 else "Camille Laurent",
        )
        paid = {"paid_with_pass": card, "credits_spent": 1 + n % 2} if n % 3 == 1 else {}
        ReservationFactory(session=session, user=member, participants=1 + n % 3, **paid)
        ReservationFactory(session=session, user=other_member)
    twins_start = NOW + timedelta(days=6)
    for _ in range(2):
        ReservationFactory(session=CourseSessionFactory(course=courses[1], start=twins_start), user=member)
    ReservationFactory(session=CourseSessionFactory(start=NOW + timedelta(days=2)), user=member, held=True)
    ReservationFactory(
        session=CourseSessionFactory(start=NOW + timedelta(days=4)),
        user=member,
        status=ReservationStatus.HELD,
        hold_expires_at=NOW - timedelta(seconds=1),
    )
    ReservationFactory(
        session=CourseSessionFactory(start=NOW + timedelta(days=5)), user=member, status=ReservationStatus.CANCELLED
    )
    ReservationFactory(
        session=CourseSessionFactory(start=NOW - timedelta(days=5)), user=member, status=ReservationStatus.CANCELLED
    )

    expected = _expected_history(member, NOW)
    assert len(expected) == 16
    url = f"/api/course-feedback/user/{member.pk}"
    for who in (member, staff):
        api_client.force_authenticate(who)
        body = api_client.get(url).json()
        assert body == {"count": 16, "next": None, "previous": None, "results": expected}
        for page in (1, 2, 3):
            body = api_client.get(url, {"page": page, "page_size": 6}).json()
            assert body["count"] == 16
            assert body["results"] == expected[(page - 1) * 6 : page * 6], (who, page)
            assert body["next"] == (f"http://testserver{url}?page={page + 1}&page_size=6" if page < 3 else None)
        assert api_client.get(url, {"page": 4, "page_size": 6}).status_code == 404
    api_client.force_authenticate(other_member)
    assert api_client.get(url).status_code == 403
    body = api_client.get(f"/api/course-feedback/user/{other_member.pk}").json()
    assert body["results"] == _expected_history(other_member, NOW) and body["count"] == 13
    api_client.force_authenticate(staff)
    assert api_client.get(f"/api/course-feedback/user/{staff.pk}").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }

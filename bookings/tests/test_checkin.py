"""QR check-in (docs/decisions.md 58): a booking's signed code marks that member present on its own class's sheet,
and is refused, changing nothing, on another class, after the class, for a dead booking, or when forged; only staff
and the class's own instructor may scan."""

import base64
from datetime import timedelta

import pytest
from django.core import signing
from django.utils import timezone
from freezegun import freeze_time

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.checkin_codes import (
    CHECKIN_SALT,
    MSG_CHECKIN_ALREADY_PRESENT,
    MSG_CHECKIN_CLASS_OVER,
    MSG_CHECKIN_FORGED,
    MSG_CHECKIN_NOT_CONFIRMED,
    MSG_CHECKIN_OTHER_CLASS,
    MSG_CHECKIN_PRESENT,
    checkin_code,
)
from bookings.models import ReservationStatus
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.services.attendance import MSG_ATTENDANCE_NOT_OPEN
from bookings.tests.factories import ReservationFactory
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory
from studio.api import MSG_FORBIDDEN

CHECK_IN = "/api/course-sessions/{}/check-in"
NOW = "2026-03-10 17:00:00+00:00"


@pytest.fixture
def lea(db):
    return InstructorFactory(name="Léa Garnier", user=UserFactory(role=Role.INSTRUCTOR))


@pytest.fixture
def two_classes(db, lea):
    """Two classes starting within the hour (their sheets are open), Léa teaching the first."""
    with freeze_time(NOW):
        start = timezone.now() + timedelta(minutes=30)
        pole = CourseSessionFactory(
            course=CourseFactory(title="Pole Débutant"), instructor=lea, start=start, end=start + timedelta(hours=1)
        )
        hoop = CourseSessionFactory(course=CourseFactory(title="Cerceau"), start=start, end=start + timedelta(hours=1))
    return pole, hoop


@pytest.fixture
def emma(two_classes):
    return ReservationFactory(session=two_classes[0], first_name="Emma", last_name="Petit")


def code_of(reservation):
    return checkin_code(reservation_id=reservation.pk, session_id=reservation.session_id)


def scan(client, session, code):
    return client.post(CHECK_IN.format(session.pk), {"code": code}, format="json")


def mark_of(reservation):
    return Attendance.objects.filter(reservation=reservation).values_list("status", flat=True).first()


@freeze_time(NOW)
def test_a_bookings_code_marks_that_member_present_on_its_class_and_is_refused_on_another(
    api_client, staff, two_classes, emma
):
    pole, hoop = two_classes
    api_client.force_authenticate(staff)

    elsewhere = scan(api_client, hoop, code_of(emma))
    assert elsewhere.status_code == 409 and elsewhere.json()["error"] == MSG_CHECKIN_OTHER_CLASS
    assert mark_of(emma) is None

    response = scan(api_client, pole, code_of(emma))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["message"] == MSG_CHECKIN_PRESENT.format(name="Emma Petit")
    assert [(r["reservation_id"], r["attendance"]) for r in body["results"]] == [(emma.pk, "present")]
    attendance = Attendance.objects.get(reservation=emma)
    assert attendance.status == AttendanceStatus.PRESENT and attendance.marked_by == staff

    again = scan(api_client, pole, code_of(emma))
    assert again.status_code == 200 and again.json()["message"] == MSG_CHECKIN_ALREADY_PRESENT.format(name="Emma Petit")


@freeze_time(NOW)
def test_a_code_signed_for_another_class_cannot_be_edited_to_name_this_one(api_client, staff, two_classes, emma):
    pole, hoop = two_classes
    api_client.force_authenticate(staff)
    reservation_part, _, signature = code_of(emma).rpartition(".")
    tampered = f"{emma.pk}.{hoop.pk}.{signature}"
    response = scan(api_client, hoop, tampered)
    assert response.status_code == 400 and response.json()["error"] == MSG_CHECKIN_FORGED
    assert mark_of(emma) is None


@pytest.mark.parametrize(
    "code",
    [
        "n'importe quoi",
        "1.1.",
        "1.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        signing.Signer(salt="autre.chose", sep=".").sign("1.1"),  # our key, another use's salt
        signing.Signer(salt=CHECKIN_SALT, sep=".").sign("deux.trois"),
        "",
        "x" * 500,
    ],
)
@freeze_time(NOW)
def test_a_forged_or_malformed_code_is_refused_in_french(api_client, staff, two_classes, emma, code):
    api_client.force_authenticate(staff)
    response = scan(api_client, two_classes[0], code)
    assert response.status_code == 400 and response.json()["error"] == MSG_CHECKIN_FORGED
    assert mark_of(emma) is None


def test_a_code_is_useless_once_the_class_is_over(api_client, staff, two_classes, emma):
    api_client.force_authenticate(staff)
    with freeze_time(two_classes[0].end + timedelta(seconds=1)):
        response = scan(api_client, two_classes[0], code_of(emma))
    assert response.status_code == 409 and response.json()["error"] == MSG_CHECKIN_CLASS_OVER
    assert mark_of(emma) is None


@freeze_time(NOW)
def test_a_cancelled_bookings_code_is_refused(api_client, staff, two_classes, emma):
    emma.status = ReservationStatus.CANCELLED
    emma.save(update_fields=["status"])
    api_client.force_authenticate(staff)
    response = scan(api_client, two_classes[0], code_of(emma))
    assert response.status_code == 409 and response.json()["error"] == MSG_CHECKIN_NOT_CONFIRMED
    assert mark_of(emma) is None


def test_the_sheet_rules_hold_a_code_shown_too_early_is_refused(api_client, staff, two_classes, emma):
    api_client.force_authenticate(staff)
    with freeze_time(two_classes[0].start - timedelta(hours=3)):
        response = scan(api_client, two_classes[0], code_of(emma))
    assert response.status_code == 409 and response.json()["error"] == MSG_ATTENDANCE_NOT_OPEN
    assert mark_of(emma) is None


@freeze_time(NOW)
def test_the_classes_instructor_scans_another_instructor_cannot(api_client, lea, two_classes, emma):
    pole, hoop = two_classes
    other = InstructorFactory(user=UserFactory(role=Role.INSTRUCTOR))
    hoop.instructor = other
    hoop.save(update_fields=["instructor"])

    api_client.force_authenticate(other.user)
    refused = scan(api_client, pole, code_of(emma))
    assert refused.status_code == 404 and mark_of(emma) is None

    api_client.force_authenticate(lea.user)
    assert scan(api_client, pole, code_of(emma)).status_code == 200
    assert mark_of(emma) == AttendanceStatus.PRESENT


@freeze_time(NOW)
def test_a_member_cannot_check_themselves_in(api_client, two_classes, emma):
    api_client.force_authenticate(emma.user)
    response = scan(api_client, two_classes[0], code_of(emma))
    assert response.status_code == 403 and response.json()["error"] == MSG_FORBIDDEN
    assert mark_of(emma) is None


@freeze_time(NOW)
def test_the_qr_image_of_a_real_code_is_served_and_a_forged_one_is_not(client, emma):
    real = client.get(f"/my-courses/qr/{code_of(emma)}.png")
    assert real.status_code == 200 and real["Content-Type"] == "image/png"
    assert real.content.startswith(b"\x89PNG")
    assert client.get(f"/my-courses/qr/{emma.pk}.{emma.session_id}.faux.png").status_code == 404


@freeze_time(NOW)
def test_mes_cours_shows_the_code_of_a_confirmed_booking_and_its_qr(api_client, emma):
    api_client.force_authenticate(emma.user)
    row = api_client.get(f"/api/course-feedback/user/{emma.user_id}").json()["results"][0]
    assert row["checkin"]["code"] == code_of(emma)
    assert row["checkin"]["image"].startswith("data:image/svg+xml")


@freeze_time(NOW)
def test_the_confirmation_email_shows_the_qr_inline_and_attached(client, settings, emma):
    from bookings.emails import send_reservation_confirmation
    from studio.models import OutgoingEmail

    send_reservation_confirmation(reservation_id=emma.pk)
    mail = OutgoingEmail.objects.get(template="bookings_reservation_confirmed")
    url = f"{settings.SITE_URL}/my-courses/qr/{code_of(emma)}.png"
    assert f'<img src="{url}"' in mail.body_html
    assert "présentez le code QR de votre réservation" in mail.body_text
    png = next(a for a in mail.attachments if a["name"] == "code-qr-reservation.png")
    assert png["mimetype"] == "image/png"
    served = client.get(url.removeprefix(settings.SITE_URL))
    assert served.status_code == 200 and base64.b64decode(png["base64"]) == served.content


@freeze_time(NOW)
def test_a_confirmation_of_a_class_already_over_carries_no_qr(emma):
    from bookings.emails import send_reservation_confirmation
    from studio.models import OutgoingEmail

    with freeze_time(emma.session.end + timedelta(minutes=1)):
        send_reservation_confirmation(reservation_id=emma.pk)
    mail = OutgoingEmail.objects.get(template="bookings_reservation_confirmed")
    assert "/my-courses/qr/" not in mail.body_html
    assert [a["name"] for a in mail.attachments if a["mimetype"] == "image/png"] == []

"""QR check-in through a real camera stream (docs/decisions.md 58), on a 390 px phone: Chromium's fake camera plays a
video made of one booking's QR code; the instructor's attendance sheet reads it with qr-scanner and marks that member
present, and the same code held in front of another class's sheet is refused in French."""

import io
import re
from contextlib import contextmanager
from datetime import timedelta

import pytest
import segno
from django.conf import settings
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from accounts.models import Role
from accounts.tests.factories import UserFactory
from bookings.checkin_codes import MSG_CHECKIN_OTHER_CLASS, MSG_CHECKIN_PRESENT, checkin_code
from bookings.models_operations import Attendance, AttendanceStatus
from bookings.tests.factories import ReservationFactory
from conftest import CHROMIUM, CHROMIUM_ARGS
from courses.tests.factories import CourseFactory, CourseSessionFactory, InstructorFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT, FRAMES = 640, 480, 10
# Starting the fake camera and qr-scanner's worker on a busy machine: a wait, not a measured time.
SCAN_WAIT_MS = 45_000


def write_y4m(path, luma: bytes) -> None:
    """A Y4M video (what Chromium's fake camera plays in a loop) of one grey WIDTH x HEIGHT picture."""
    chroma = b"\x80" * (WIDTH * HEIGHT // 4)  # grey: no colour
    frame = b"FRAME\n" + luma + chroma + chroma
    with open(path, "wb") as video:
        video.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode())
        video.write(frame * FRAMES)


def qr_video(path, text: str) -> None:
    """A video of `text`'s QR code, black on white, as a member holds a phone up to the door's camera: close, so that
    the code and its margin fill four fifths of the picture's height, and not centred but towards the left."""
    matrix = [list(row) for row in segno.make_qr(text, error="m").matrix]
    border = 4
    size = len(matrix) + 2 * border
    scale = HEIGHT * 4 // 5 // size
    left, top = WIDTH // 10, (HEIGHT - size * scale) // 2
    luma = bytearray(b"\xeb" * (WIDTH * HEIGHT))  # white (video range)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = (top + (y + border) * scale + dy) * WIDTH + left + (x + border) * scale
                    luma[start : start + scale] = b"\x10" * scale
    write_y4m(path, bytes(luma))


def screenshot_video(path, png: bytes) -> None:
    """A video of a screenshot (the QR as the member's phone shows it), centred on white."""
    shot = Image.open(io.BytesIO(png)).convert("L")
    shot.thumbnail((HEIGHT * 9 // 10, HEIGHT * 9 // 10), Image.Resampling.NEAREST)
    canvas = Image.new("L", (WIDTH, HEIGHT), 255)
    canvas.paste(shot, ((WIDTH - shot.width) // 2, (HEIGHT - shot.height) // 2))
    write_y4m(path, bytes(16 + value * 219 // 255 for value in canvas.tobytes()))


@contextmanager
def camera_page(browser_type, live_server, video, user):
    """A 390 px phone whose camera films `video`, logged in as `user`."""
    browser = browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            *CHROMIUM_ARGS,
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    try:
        context = browser.new_context(
            locale="fr-FR", timezone_id="Europe/Paris", viewport={"width": 390, "height": 844}
        )
        context.grant_permissions(["camera"], origin=live_server.url)
        login(context, live_server, user)
        yield context.new_page()
    finally:
        browser.close()


def login(context, live_server, user):
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}])


def test_the_instructor_scans_a_members_qr_with_the_camera(browser_type, live_server, tmp_path):
    lea = InstructorFactory(name="Léa Garnier", user=UserFactory(role=Role.INSTRUCTOR))
    start = timezone.now() + timedelta(minutes=30)
    pole = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), instructor=lea, start=start)
    hoop = CourseSessionFactory(course=CourseFactory(title="Cerceau"), instructor=lea, start=start)
    emma = ReservationFactory(session=pole, user=UserFactory(first_name="Emma", last_name="Petit"))
    ReservationFactory(session=hoop, user=UserFactory(first_name="Zoé", last_name="Martin"))
    video = tmp_path / "qr.y4m"
    qr_video(video, checkin_code(reservation_id=emma.pk, session_id=pole.pk))

    with camera_page(browser_type, live_server, video, lea.user) as page:
        errors = []
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))

        # Another class's sheet: the camera reads Emma's code and the server refuses it; nothing is marked.
        page.goto(f"{live_server.url}/instructor/classes/{hoop.pk}")
        page.get_by_role("button", name="Scanner les codes QR").click()
        expect(page.get_by_role("alert")).to_have_text(MSG_CHECKIN_OTHER_CLASS, timeout=SCAN_WAIT_MS)
        assert not Attendance.objects.filter(reservation=emma).exists()

        # Her own class's sheet: the same code marks her present.
        page.goto(f"{live_server.url}/instructor/classes/{pole.pk}")
        page.get_by_role("button", name="Scanner les codes QR").click()
        expect(page.get_by_role("status")).to_have_text(
            MSG_CHECKIN_PRESENT.format(name="Emma Petit"), timeout=SCAN_WAIT_MS
        )
        group = page.get_by_role("group", name="Présence de Emma Petit")
        expect(group.get_by_role("button", name="Présent")).to_have_attribute("aria-pressed", "true")
        video_box = page.locator(".qr-checkin-video").bounding_box()
        assert video_box is not None and video_box["x"] + video_box["width"] <= 390
        page.screenshot(path="test-artifacts/qr-checkin-390.png", full_page=False)
        page.get_by_role("button", name="Fermer la caméra").click()
        expect(page.get_by_role("button", name="Scanner les codes QR")).to_be_visible()
        assert [e for e in errors if "Content Security Policy" in e] == []

    attendance = Attendance.objects.get(reservation=emma)
    assert attendance.status == AttendanceStatus.PRESENT and attendance.marked_by == lea.user


def test_the_qr_shown_in_mes_cours_checks_the_member_in_on_the_dashboard(
    page, login_as, live_server, browser_type, staff, tmp_path
):
    start = timezone.now() + timedelta(minutes=30)
    session = CourseSessionFactory(course=CourseFactory(title="Pole Flow"), start=start, max_attendees=5)
    emma = ReservationFactory(session=session, user=UserFactory(first_name="Emma", last_name="Petit"))

    # The member's phone: "Mes cours", the QR unfolded.
    page.set_viewport_size({"width": 390, "height": 844})
    login_as(emma.user)
    page.goto(live_server.url + "/my-courses")
    page.get_by_role("button", name="Refuser").click()  # the cookie banner would cover the code
    page.get_by_text("Mon code QR pour l'accueil").click()
    qr = page.get_by_role("img", name="Code QR de la réservation Pole Flow")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    video = tmp_path / "screen.y4m"
    screenshot_video(video, qr.screenshot())
    page.screenshot(path="test-artifacts/my-courses-qr-390.png", full_page=False)

    # The front desk's phone films that screen from the dashboard's attendance sheet.
    with camera_page(browser_type, live_server, video, staff) as desk:
        desk.goto(live_server.url + "/admin/sessions")
        desk.locator(".dash-table tbody tr").first.get_by_role("button", name=re.compile("^Actions")).click()
        desk.get_by_role("menuitem", name="Présences").click()
        dialog = desk.locator("dialog[open]")
        dialog.get_by_role("button", name="Scanner les codes QR").click()
        expect(dialog.get_by_role("status")).to_have_text(
            MSG_CHECKIN_PRESENT.format(name="Emma Petit"), timeout=SCAN_WAIT_MS
        )
        expect(dialog).to_contain_text("1 inscrit(s) · 1 présent(s) · 0 absent(s) · 0 à pointer")

    attendance = Attendance.objects.get(reservation=emma)
    assert attendance.status == AttendanceStatus.PRESENT and attendance.marked_by == staff

"""Browser journeys through the staff dashboard (its sections, forms and French messages; docs/decisions.md 11) in
Debian's Chromium."""

import re
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from courses.tests.factories import CourseFactory, CourseSessionFactory, instructor_named

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PARIS = ZoneInfo("Europe/Paris")
MSG_FIELD_REQUIRED = "Ce champ est obligatoire."  # frontend/src/islands/dashboard/messages.js


@pytest.fixture(autouse=True)
def _cookies_decided(context):
    """The cookie banner would cover the tables; its own tests live with the shell."""
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


def _rows(page):
    return page.locator(".dash-table tbody tr")


def _dialog(page):
    return page.locator("dialog[open]")


def _row_action(page, row, name):
    """A session row's actions are in its "Actions" menu."""
    row.get_by_role("button", name=re.compile("^Actions")).click()
    page.get_by_role("menu").get_by_role("menuitem", name=re.compile(f"^{re.escape(name)}")).click()


def test_sessions_add_edit_delete_with_pagination_and_sorting(page, live_server, login_as, supervisor):
    from bookings.models import Reservation, ReservationStatus
    from courses.models import CourseSession
    from courses.services.sessions import MSG_SESSION_ADDED, MSG_SESSION_DELETED, MSG_SESSION_UPDATED

    course = CourseFactory(title="Pole Initiation")
    CourseFactory(title="Cerceau aérien")
    base = timezone.localtime(timezone.now(), PARIS).replace(hour=18, minute=0, second=0, microsecond=0)
    sessions = [
        CourseSessionFactory(course=course, start=base + timedelta(days=n), instructor=f"Prof {n:02d}")
        for n in range(1, 24)
    ]
    for name in ("Nouvelle Prof", "Prof Modifiée"):  # a session's instructor is chosen from the list
        instructor_named(name)
    Reservation.objects.create(
        session=sessions[0],
        user=supervisor,
        participants=2,
        unit_price=Decimal("25.00"),
        first_name="Inès",
        last_name="Moreau",
        email="ines@example.fr",
        status=ReservationStatus.CONFIRMED,
        confirmed_at=timezone.now(),
    )
    login_as(supervisor)
    page.goto(live_server.url + "/admin/sessions")

    # Ascending by date, 10 a page, 3 pages.
    expect(_rows(page)).to_have_count(10)
    expect(_rows(page).first).to_contain_text("Prof 01")
    pagination = page.get_by_role("navigation", name="Pagination")
    expect(pagination.get_by_role("button", name=re.compile(r"^Page \d+$"))).to_have_count(3)
    pagination.get_by_role("button", name=re.compile("Dernière")).click()
    expect(_rows(page)).to_have_count(3)
    expect(_rows(page).last).to_contain_text("Prof 23")
    pagination.get_by_role("button", name="Page 2").click()
    expect(_rows(page).first).to_contain_text("Prof 11")
    pagination.get_by_role("button", name=re.compile("Première")).click()
    expect(_rows(page).first).to_contain_text("Prof 01")

    # Who is coming, paid or held.
    _row_action(page, _rows(page).first, "Participants")
    expect(_dialog(page)).to_contain_text("Inès Moreau")
    expect(_dialog(page)).to_contain_text("Payé")
    _dialog(page).get_by_role("button", name="Fermer").click()

    # Descending by clicking the date header.
    page.get_by_role("button", name=re.compile("^Date")).click()
    expect(page.get_by_role("columnheader", name=re.compile("^Date"))).to_have_attribute("aria-sort", "descending")
    expect(_rows(page).first).to_contain_text("Prof 23")

    # Add: the browser asks for the required fields; places default to 10.
    page.get_by_role("button", name="Ajouter une session").click()
    dialog = _dialog(page)
    expect(dialog.get_by_label("Places")).to_have_value("10")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog.locator(".field-error", has_text=MSG_FIELD_REQUIRED)).to_have_count(3)
    dialog.get_by_label("Cours").select_option(label="Pole Initiation")
    dialog.get_by_label("Date et heure").fill("2030-01-15T19:30")
    dialog.get_by_label("Professeur").select_option(label="Nouvelle Prof")
    dialog.get_by_role("button", name="Enregistrer").click()
    flash = page.get_by_role("status").filter(has_text=MSG_SESSION_ADDED)
    expect(flash).to_be_visible()
    created = CourseSession.objects.get(instructor__name="Nouvelle Prof")
    assert timezone.localtime(created.start, PARIS).replace(tzinfo=None) == datetime(2030, 1, 15, 19, 30)
    assert created.max_attendees == 10 and created.course == course
    page.wait_for_timeout(3500)
    expect(flash).to_be_visible()  # it stays until the next action, however slowly one reads

    # Edit it: it is first in descending order.
    expect(_rows(page).first).to_contain_text("Nouvelle Prof")
    _row_action(page, _rows(page).first, "Modifier")
    expect(flash).to_have_count(0)  # the next action replaces it
    dialog = _dialog(page)
    expect(dialog.get_by_label("Date et heure")).to_have_value("2030-01-15T19:30")
    dialog.get_by_label("Professeur").select_option(label="Prof Modifiée")
    dialog.get_by_label("Places").fill("12")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status").filter(has_text=MSG_SESSION_UPDATED)).to_be_visible()
    created.refresh_from_db()
    assert (created.instructor.name, created.max_attendees) == ("Prof Modifiée", 12)
    expect(_rows(page).first).to_contain_text("Prof Modifiée")

    # Delete after confirmation; cancelling first keeps it.
    _row_action(page, _rows(page).first, "Supprimer")
    _dialog(page).get_by_role("button", name="Annuler").click()
    assert CourseSession.objects.filter(pk=created.pk).exists()
    _row_action(page, _rows(page).first, "Supprimer")
    expect(_dialog(page)).to_contain_text("Voulez-vous vraiment supprimer")
    _dialog(page).get_by_role("button", name="Supprimer").click()
    expect(page.get_by_role("status").filter(has_text=MSG_SESSION_DELETED)).to_be_visible()
    assert not CourseSession.objects.filter(pk=created.pk).exists()
    expect(_rows(page).first).to_contain_text("Prof 23")


def test_edit_a_tarif(page, live_server, login_as, staff):
    from courses.models import Tariff
    from courses.tests.factories import TariffFactory

    tariff = TariffFactory(title="Carte 10 cours", type="forfait", price=Decimal("190.00"))
    login_as(staff)
    page.goto(live_server.url + "/admin/tarifs")
    row = _rows(page).filter(has_text="Carte 10 cours")
    expect(row).to_contain_text("190,00")
    row.get_by_role("button", name=re.compile("^Modifier")).click()
    dialog = _dialog(page)
    expect(dialog.get_by_label("Titre")).to_have_value("Carte 10 cours")
    dialog.get_by_label("Prix (€)").fill("")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog.locator(".field-error", has_text=MSG_FIELD_REQUIRED)).to_be_visible()
    assert Tariff.objects.get(pk=tariff.pk).price == Decimal("190.00")
    dialog.get_by_label("Prix (€)").fill("175.50")
    dialog.get_by_label("Validité").fill("6 mois")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status")).to_contain_text("Enregistré avec succès.")
    tariff.refresh_from_db()
    assert (tariff.price, tariff.validity, tariff.type) == (Decimal("175.50"), "6 mois", "forfait")
    expect(_rows(page).filter(has_text="Carte 10 cours")).to_contain_text("175,50")


def test_upload_a_course_picture_from_the_course_form(page, live_server, login_as, staff, tmp_path):
    """Staff add a course's picture in the dashboard; the server stores it with its renditions."""
    import io as _io

    from PIL import Image

    course = CourseFactory(title="Chair dance")
    picture = tmp_path / "chaise.png"
    buffer = _io.BytesIO()
    Image.new("RGB", (900, 600), (142, 44, 142)).save(buffer, "PNG")
    picture.write_bytes(buffer.getvalue())
    login_as(staff)
    page.goto(live_server.url + "/admin/courses")
    _rows(page).filter(has_text="Chair dance").get_by_role("button", name=re.compile("^Modifier")).click()
    dialog = _dialog(page)
    dialog.get_by_label("Photo du cours (JPEG, PNG, GIF ou WebP, facultatif)").set_input_files(str(picture))
    dialog.get_by_label("Texte alternatif de la photo").fill("Illustration : une chaise")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status")).to_contain_text("Enregistré avec succès.")
    course.refresh_from_db()
    assert course.image.name.startswith("courses/") and course.image_renditions["webp"]
    assert course.image_alt == "Illustration : une chaise"
    expect(_rows(page).filter(has_text="Chair dance").locator("img.dash-thumb")).to_have_attribute(
        "alt", "Illustration : une chaise"
    )


def test_admin_changes_a_members_role_supervisor_is_refused(page, live_server, login_as, staff, supervisor, member):
    from accounts.models import Role
    from accounts.services.errors import MSG_ROLE_CHANGE_FORBIDDEN

    # A supervisor sees the role read-only, and the server refuses a forged change.
    login_as(supervisor)
    page.goto(live_server.url + "/admin/users")
    page.get_by_label("Rechercher par nom ou e-mail").fill("emma@")
    expect(_rows(page)).to_have_count(1)
    _rows(page).first.get_by_role("button", name=re.compile("^Modifier")).click()
    dialog = _dialog(page)
    expect(dialog.get_by_label("Rôle")).to_be_disabled()
    expect(dialog).to_contain_text("Seul un administrateur peut changer le rôle.")
    dialog.get_by_role("button", name="Annuler").click()
    answer = page.evaluate(
        """async (id) => {
            const csrf = document.cookie.match(/csrftoken=([^;]+)/)?.[1] || "";
            const r = await fetch(`/api/users/${id}`, {method: "PUT", credentials: "same-origin",
                headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
                body: JSON.stringify({first_name: "Emma", last_name: "Petit", role: "admin"})});
            return {status: r.status, body: await r.json()};
        }""",
        member.pk,
    )
    assert answer["status"] == 403 and answer["body"]["error"] == MSG_ROLE_CHANGE_FORBIDDEN
    member.refresh_from_db()
    assert member.role == Role.USER

    # An admin changes it.
    page.context.clear_cookies()
    login_as(staff)
    page.goto(live_server.url + "/admin/users")
    page.get_by_label("Rechercher par nom ou e-mail").fill("Petit")
    expect(_rows(page)).to_have_count(1)
    _rows(page).first.get_by_role("button", name=re.compile("^Modifier")).click()
    dialog = _dialog(page)
    expect(dialog.get_by_label("Rôle")).to_be_enabled()
    dialog.get_by_label("Rôle").select_option("supervisor")
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status")).to_contain_text("Enregistré avec succès.")
    expect(_rows(page).first).to_contain_text("Superviseur")
    member.refresh_from_db()
    assert member.role == Role.SUPERVISOR


RECORD_UPLOAD = """() => {
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (body) {
        if (body instanceof FormData && body.get("image")) window.__upload = body.get("image");
        return send.call(this, body);
    };
}"""
DESCRIBE_UPLOAD = """async () => {
    const file = window.__upload;
    const bitmap = await createImageBitmap(file);
    const magic = Array.from(new Uint8Array(await file.slice(0, 3).arrayBuffer()));
    return {type: file.type, name: file.name, width: bitmap.width, height: bitmap.height, magic};
}"""


def test_upload_a_slideshow_image_through_the_crop(page, live_server, login_as, supervisor, tmp_path):
    from PIL import Image

    from media_library.models import SlideshowImage

    square = tmp_path / "studio.png"
    Image.effect_noise((1200, 1200), 80).convert("RGB").save(square)  # noise: a large enough upload to watch
    login_as(supervisor)
    page.goto(live_server.url + "/admin/slideshow")
    page.get_by_role("button", name="Ajouter une image").click()
    dialog = _dialog(page)
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog).to_contain_text("Veuillez sélectionner une image.")
    dialog.get_by_label("Image (JPEG, PNG, GIF ou WebP)").set_input_files(str(square))
    crop = dialog.get_by_test_id("crop-area")
    expect(crop).to_be_visible()
    expect(crop.locator(".reactEasyCrop_CropArea")).to_be_visible()
    box = crop.locator(".reactEasyCrop_CropArea").bounding_box()
    assert abs(box["width"] / box["height"] - 16 / 9) < 0.02  # the frame is fixed to 16:9
    dialog.get_by_label("Texte superposé (facultatif)").fill("Bienvenue au studio")

    cdp = page.context.new_cdp_session(page)  # a slow uplink, so the progress bar is seen moving
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": -1, "uploadThroughput": 256 * 1024},
    )
    page.evaluate(RECORD_UPLOAD)
    dialog.get_by_role("button", name="Enregistrer").click()
    expect(dialog.locator("progress")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Enregistré avec succès.")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )

    sent = page.evaluate(DESCRIBE_UPLOAD)  # what the browser sent: the cropped JPEG
    assert (sent["type"], sent["name"], sent["magic"]) == ("image/jpeg", "studio.jpg", [0xFF, 0xD8, 0xFF])
    assert abs(sent["width"] / sent["height"] - 16 / 9) < 0.01
    slide = SlideshowImage.objects.get()
    assert slide.text_overlay == "Bienvenue au studio"
    assert abs(slide.width / slide.height - 16 / 9) < 0.01
    expect(_rows(page)).to_have_count(1)
    expect(_rows(page).first).to_contain_text("Bienvenue au studio")


SECTIONS = {
    "users": "Utilisateurs",
    "courses": "Cours",
    "tarifs": "Tarifs",
    "testimonials": "Témoignages",
    "instructors": "Professeurs",
    "contact-messages": "Messages de contact",
    "sessions": "Sessions de cours",
    "slider": "Slider",
    "media": "Médias",
    "slideshow": "Diaporama de l'accueil",
    "orders": "Commandes de paiement",
    "reservations": "Réservations des prochaines sessions",
    "parties": "Demandes EVJF/EVG",
    "rentals": "Demandes de location de salle",
}


EMPTY_REQUEST_LISTS = {"parties", "rentals"}


def test_every_section_loads_from_the_sidebar_and_the_back_button_works(page, live_server, login_as, staff):
    from messaging.services import contact_message_create

    contact_message_create(name="Jeanne", email="jeanne@example.fr", text="Bonjour, des cours le soir ?")
    login_as(staff)
    page.goto(live_server.url + "/admin/dashboard")
    main = page.locator(".dash-main")
    expect(main.get_by_role("heading", level=2)).to_have_text("Vue d'ensemble")  # the owner's numbers by default
    sidebar = page.get_by_role("navigation", name="Rubriques du tableau de bord")
    expect(sidebar.get_by_role("link", name=re.compile("Messages de contact")).locator(".badge")).to_have_text("1")
    for key, title in SECTIONS.items():
        link = sidebar.locator(f'a[href="/admin/{key}"]')
        link.click()
        # A section may keep its filters in the address (the sessions list: ?when=upcoming).
        expect(page).to_have_url(re.compile(rf"^{re.escape(live_server.url)}/admin/{key}(\?.*)?$"))
        expect(main.get_by_role("heading", level=2)).to_have_text(title)
        expect(link).to_have_attribute("aria-current", "page")
        if key in EMPTY_REQUEST_LISTS:  # no request yet: the requests sections say so instead of an empty table
            expect(main.get_by_text("Aucune demande.")).to_be_visible()
        else:
            expect(main.get_by_role("table")).to_be_visible()
        expect(main.get_by_role("alert")).to_have_count(0)
    page.go_back()
    expect(page).to_have_url(f"{live_server.url}/admin/parties")
    expect(main.get_by_role("heading", level=2)).to_have_text("Demandes EVJF/EVG")
    page.go_back()
    expect(main.get_by_role("heading", level=2)).to_have_text("Réservations des prochaines sessions")
    page.reload()
    expect(main.get_by_role("heading", level=2)).to_have_text("Réservations des prochaines sessions")


def test_testimonials_add_edit_delete_and_instructors_add_edit(page, live_server, login_as, supervisor):
    from courses.models import Instructor, Testimonial
    from courses.tests.factories import TestimonialFactory

    TestimonialFactory(name="Nina", message="Super ambiance !")
    login_as(supervisor)
    page.goto(live_server.url + "/admin/testimonials")
    expect(_rows(page).filter(has_text="Nina")).to_have_count(1)
    page.get_by_role("button", name="Ajouter un témoignage").click()
    _dialog(page).get_by_label("Nom").fill("Léa")
    _dialog(page).get_by_label("Message").fill("Des profs géniales.")
    _dialog(page).get_by_role("button", name="Enregistrer").click()
    expect(_rows(page).filter(has_text="Léa")).to_have_count(1)
    _rows(page).filter(has_text="Léa").get_by_role("button", name=re.compile("^Modifier")).click()
    _dialog(page).get_by_label("Message").fill("Des profs vraiment géniales.")
    _dialog(page).get_by_role("button", name="Enregistrer").click()
    expect(_rows(page).filter(has_text="Léa")).to_contain_text("vraiment")
    _rows(page).filter(has_text="Nina").get_by_role("button", name=re.compile("^Supprimer")).click()
    _dialog(page).get_by_role("button", name="Supprimer").click()
    expect(_rows(page).filter(has_text="Nina")).to_have_count(0)
    assert list(Testimonial.objects.values_list("name", "message")) == [("Léa", "Des profs vraiment géniales.")]

    page.get_by_role("navigation", name="Rubriques du tableau de bord").get_by_role("link", name="Professeurs").click()
    page.get_by_role("button", name="Ajouter un professeur").click()
    _dialog(page).get_by_label("Nom").fill("Paul Durand")
    _dialog(page).get_by_label("Compte utilisateur").select_option(label=f"Paul Durand ({supervisor.email})")
    _dialog(page).get_by_label("Spécialités").fill("Pole, cerceau")
    _dialog(page).get_by_role("button", name="Enregistrer").click()
    row = _rows(page).filter(has_text="Paul Durand")
    expect(row).to_contain_text("Pole, cerceau")
    expect(row).to_contain_text(supervisor.email)
    row.get_by_role("button", name=re.compile("^Modifier")).click()
    _dialog(page).get_by_label("Biographie").fill("Championne de France.")
    _dialog(page).get_by_role("button", name="Enregistrer").click()
    expect(row).to_contain_text("Championne de France.")
    assert Instructor.objects.get(user=supervisor).bio == "Championne de France."


def test_closing_a_modal_gives_the_focus_back_to_the_button_that_opened_it(page, live_server, login_as, supervisor):
    from courses.tests.factories import TestimonialFactory

    TestimonialFactory(name="Nina", message="Super ambiance !")
    TestimonialFactory(name="Inès", message="Des cours au top.")
    login_as(supervisor)
    page.goto(live_server.url + "/admin/testimonials")
    edit = _rows(page).filter(has_text="Nina").get_by_role("button", name=re.compile("^Modifier"))
    edit.click()
    expect(_dialog(page)).to_be_visible()
    page.keyboard.press("Escape")
    expect(_dialog(page)).to_have_count(0)
    expect(edit).to_be_focused()

    add = page.get_by_role("button", name="Ajouter un témoignage")
    add.click()
    _dialog(page).get_by_role("button", name="Fermer").click()
    expect(add).to_be_focused()

    edit.click()
    _dialog(page).get_by_label("Message").fill("Super ambiance, vraiment !")
    _dialog(page).get_by_role("button", name="Enregistrer").click()
    expect(_rows(page).filter(has_text="Nina")).to_contain_text("vraiment")
    expect(edit).to_be_focused()

    # The deleted row's button is gone: the focus goes to the table, not to the page's body.
    _rows(page).filter(has_text="Inès").get_by_role("button", name=re.compile("^Supprimer")).click()
    _dialog(page).get_by_role("button", name="Supprimer").click()
    expect(_rows(page).filter(has_text="Inès")).to_have_count(0)
    expect(page.get_by_role("region", name=re.compile("^Tableau"))).to_be_focused()


def test_the_overview_served_with_the_page_is_what_the_island_then_shows_in_the_same_place(
    page, live_server, login_as, supervisor
):
    """The page arrives with the island's first frame (sidebar, period, the sentence); once the scripts run, the
    island shows the same words in the same place: nothing jumps on a 390 px phone."""
    page.set_viewport_size({"width": 390, "height": 844})
    login_as(supervisor)

    def frame():
        sentence = page.locator(".ov-range")
        return {
            "sentence": sentence.inner_text(),
            "box": sentence.bounding_box(),
            "sidebar": page.locator(".dash-sidebar").inner_text(),
            "sidebar_box": page.locator(".dash-sidebar").bounding_box(),
            "period": page.locator("#ov-period").input_value(),
        }

    page.route(re.compile(r".*/static/dist/.*\.js$"), lambda route: route.abort())
    page.goto(f"{live_server.url}/admin/dashboard?period=week")
    served = frame()
    assert page.locator('[data-island="dashboard"][data-mounted]').count() == 0  # no script ran
    page.unroute(re.compile(r".*/static/dist/.*\.js$"))
    page.goto(f"{live_server.url}/admin/dashboard?period=week")
    expect(page.locator('[data-island="dashboard"][data-mounted]')).to_have_count(1)
    expect(page.locator(".ov-blocks, .form-error")).not_to_have_count(0)  # the figures (or their failure) are in
    rendered = frame()
    assert served["sentence"].startswith("Du ") and served["period"] == "week"
    assert rendered == served


def test_the_session_filters_served_with_the_page_stay_in_place_once_the_island_runs(
    page, live_server, login_as, supervisor
):
    page.set_viewport_size({"width": 390, "height": 844})
    login_as(supervisor)
    scripts = re.compile(r".*/static/dist/.*\.js$")

    def filters():
        form = page.locator("form.dash-filters")
        return {
            "box": form.bounding_box(),
            "when": page.locator("#sessions-when").input_value(),
            "instructor": page.locator("#sessions-instructor").input_value(),
            "labels": form.locator("label").all_inner_texts(),
        }

    page.route(scripts, lambda route: route.abort())
    page.goto(f"{live_server.url}/admin/sessions?when=past&instructor=Lina")
    served = filters()
    page.unroute(scripts)
    page.goto(f"{live_server.url}/admin/sessions?when=past&instructor=Lina")
    expect(page.locator('[data-island="dashboard"][data-mounted]')).to_have_count(1)
    expect(page.locator(".dash-section h2, .dash-section-head")).not_to_have_count(0)
    assert served["when"] == "past" and served["instructor"] == "Lina"
    assert filters() == served

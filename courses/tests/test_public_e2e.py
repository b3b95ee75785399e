"""Browser tests of the public site: no third-party request without consent, the home link bar, the
flip cards, the scroll-to-top button, and ordering as a visitor."""

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from courses.management.commands.seed_demo import seed_catalogue
from courses.models import Course, Tariff
from courses.tests.factories import CourseFactory
from courses.views import MSG_LOGIN_TO_ORDER
from studio.public_pages import PUBLIC_PAGES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PAGES = [
    "/",
    "/?section=adresse",
    "/?section=cours",
    "/?section=pourquoi",
    "/?section=presentation",
    "/?section=avis",
    *PUBLIC_PAGES[1:],
    "/page-inexistante",
]


@pytest.fixture
def catalogue(db):
    seed_catalogue()
    return Course.objects.order_by("position").first()


def test_a_visitor_who_declined_cookies_sends_no_request_to_another_host(page, live_server, catalogue):
    youtube_course = CourseFactory(title="Démo vidéo", video_url="https://www.youtube.com/watch?v=abc123XYZ")
    pages = [*PAGES, f"/courses/{catalogue.pk}", f"/courses/{youtube_course.pk}"]
    own_host = urlparse(live_server.url).netloc
    foreign = []
    page.on(
        "request",
        lambda request: (
            foreign.append(request.url)
            if urlparse(request.url).scheme in ("http", "https", "ws", "wss")
            and urlparse(request.url).netloc != own_host
            else None
        ),
    )

    page.goto(live_server.url + "/")
    page.locator("#cookie-banner").get_by_role("button", name="Refuser").click()
    assert page.evaluate("localStorage.getItem('cookieConsent')") == "declined"
    placeholders = 0
    for path in pages:
        page.goto(live_server.url + path, wait_until="networkidle")
        expect(page.locator("#cookie-banner")).to_be_hidden()
        expect(page.locator("iframe")).to_have_count(0)
        placeholders += page.locator("[data-consent-embed] [data-consent-accept]").count()
    assert foreign == []
    assert placeholders >= 6  # map, reviews, three social widgets, the YouTube video at least


def test_accepting_loads_the_embed_in_place(page, live_server, catalogue):
    page.route(re.compile(r"^https://www\.openstreetmap\.org/.*"), lambda route: route.fulfill(body="<p>carte</p>"))
    page.goto(live_server.url + "/")
    section = page.locator("#section-adresse")
    expect(section.get_by_text("ne se charge qu'après votre accord")).to_be_visible()
    section.get_by_role("button", name="Accepter et afficher").click()
    expect(section.locator('iframe[title="Plan d\'accès au studio"]')).to_have_attribute(
        "src", re.compile(r"^https://www\.openstreetmap\.org/export/embed\.html")
    )
    expect(page.locator("#cookie-banner")).to_be_hidden()


def test_home_link_bar_switches_sections_in_place(page, live_server, catalogue):
    page.goto(live_server.url + "/")
    nav = page.get_by_role("navigation", name="Sections de l'accueil")
    expect(page.locator("#section-adresse")).to_be_visible()
    expect(page.get_by_text("OpenStreetMap", exact=False).first).to_be_visible()
    page.evaluate("window.__samePage = true")

    for name, key, text in [
        ("Nos Cours", "cours", "Pole Dance Débutant"),
        ("Pourquoi Nous Choisir", "pourquoi", "Des petits groupes"),
        ("Présentation", "presentation", "fondatrice du studio"),
        ("Avis", "avis", "Avis de nos élèves"),
        ("Adresse", "adresse", "Nous trouver"),
    ]:
        link = nav.get_by_role("link", name=name)
        link.click()
        expect(page.locator(f"#section-{key}")).to_be_visible()
        expect(page.locator(f"#section-{key}")).to_contain_text(text)
        expect(link).to_have_attribute("aria-current", "true")
        expect(page.locator("[data-section]:visible")).to_have_count(1)
        expect(page).to_have_url(re.compile(rf"\?section={key}$"))
    assert page.evaluate("window.__samePage") is True  # no reload: switched in place


def test_home_link_bar_works_without_javascript(browser, live_server, catalogue):
    context = browser.new_context(java_script_enabled=False, locale="fr-FR")
    page = context.new_page()
    page.goto(live_server.url + "/")
    expect(page.locator("#section-adresse")).to_be_visible()
    expect(page.locator("#section-cours")).to_be_hidden()
    page.get_by_role("navigation", name="Sections de l'accueil").get_by_role("link", name="Nos Cours").click()
    expect(page).to_have_url(re.compile(r"/\?section=cours#sections$"))
    expect(page.locator("#section-cours")).to_be_visible()
    expect(page.locator("#section-adresse")).to_be_hidden()
    context.close()


def test_course_card_leads_to_the_detail_and_back_home(page, live_server, catalogue):
    page.goto(live_server.url + "/?section=cours")
    card = page.locator(".course-card").filter(has_text=catalogue.title)
    expect(card).to_contain_text(re.compile(r"Prochaine session : \w+ \d+ \w+ à \d\dh\d\d"))
    card.get_by_role("link").click()
    expect(page).to_have_url(f"{live_server.url}/courses/{catalogue.pk}?from=home")
    expect(page.get_by_role("heading", level=1)).to_have_text(catalogue.title)
    expect(page.locator("video")).to_have_count(1)  # the default video: no third party
    page.get_by_role("link", name="Retour à l'accueil").click()
    expect(page.locator("#section-cours")).to_be_visible()
    page.goto(f"{live_server.url}/courses/{catalogue.pk}")
    expect(page.get_by_role("link", name="Retour à l'accueil")).to_have_count(0)
    page.get_by_role("link", name="Réserver", exact=True).click()
    expect(page).to_have_url(live_server.url + "/tarifs")


def test_flip_cards_turn_with_the_keyboard(page, live_server, catalogue):
    page.goto(live_server.url + "/?section=pourquoi")
    cards = page.locator("[data-flip-card]")
    expect(cards).to_have_count(3)
    first = cards.nth(0)
    back = first.locator(".flip-card-back")
    first.focus()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(back).to_have_attribute("aria-hidden", "false")
    page.wait_for_timeout(600)  # the turn animation
    box = first.bounding_box()
    assert page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.flip-card-face').classList.contains('flip-card-back')",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    page.keyboard.press("Space")
    expect(first).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Tab")
    expect(cards.nth(1)).to_be_focused()
    expect(page.locator("#section-pourquoi").get_by_role("link", name="Réserver mon premier cours")).to_have_attribute(
        "href", "/courses/calendar"
    )


def test_flip_cards_turn_on_touch(browser, live_server, catalogue):
    context = browser.new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server.url + "/?section=pourquoi")
    card = page.locator("[data-flip-card]").nth(2)
    card.tap()
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(card).to_have_class(re.compile("is-flipped"))
    card.tap()
    expect(card).to_have_attribute("aria-pressed", "false")
    context.close()


def test_scroll_to_top_appears_after_200px(page, live_server, catalogue):
    page.set_viewport_size({"width": 390, "height": 600})
    page.goto(live_server.url + "/?section=presentation")
    page.locator("#cookie-banner").get_by_role("button", name="Refuser").click()
    button = page.get_by_role("button", name="Revenir en haut")
    expect(button).to_be_hidden()
    page.evaluate("window.scrollTo(0, 150)")
    page.wait_for_timeout(250)
    expect(button).to_be_hidden()
    page.evaluate("window.scrollTo(0, 260)")
    expect(button).to_be_visible()
    button.click()
    for _ in range(40):
        if page.evaluate("window.scrollY") == 0:
            break
        page.wait_for_timeout(50)
    assert page.evaluate("window.scrollY") == 0


def test_ordering_a_tariff_as_a_visitor_says_to_log_in(page, live_server, catalogue):
    page.goto(live_server.url + "/tarifs")
    party = page.locator(".tariff-card").filter(has_text="EVJF / EVG")
    expect(party.get_by_role("button", name="Commander")).to_have_count(0)
    expect(party.get_by_role("link", name="Découvrir l'offre")).to_have_attribute("href", "/evjf-evg")
    single = Tariff.objects.get(title="Cours à l'unité")
    card = page.locator(f"#tarif-{single.pk}")
    expect(card.get_by_role("link", name=re.compile("Détails"))).to_have_attribute(
        "href", f"/courses/{single.course_id}"
    )
    card.get_by_role("button", name="Commander").click()
    # The payments island answers in place; without it the server sends the visitor to log in. Both say why.
    expect(page.locator(".Toastify__toast", has_text=MSG_LOGIN_TO_ORDER)).to_be_visible()


@pytest.mark.parametrize(("path", "row"), [("/tarifs", "Cours à l'unité"), ("/tarifs-page", "Carte 10 cours")])
def test_without_javascript_ordering_sends_a_visitor_to_login_with_the_message(
    browser, live_server, catalogue, path, row
):
    context = browser.new_context(java_script_enabled=False, locale="fr-FR")
    page = context.new_page()
    page.goto(live_server.url + path)
    if path == "/tarifs-page":
        expect(page.locator("table tbody tr")).to_have_count(8)
        page.locator("tr", has_text=row).get_by_role("button", name=re.compile("Acheter")).click()
    else:
        page.locator(".tariff-card", has_text=row).get_by_role("button", name="Commander").click()
    expect(page).to_have_url(re.compile(rf"/login\?next=%2F{path.strip('/')}$"))
    expect(page.locator(".django-messages li")).to_have_text(MSG_LOGIN_TO_ORDER)
    context.close()


def test_weekly_timetable_has_six_days_and_a_back_button(page, live_server, catalogue):
    page.goto(live_server.url + "/weekly")
    expect(page.locator(".weekly-day")).to_have_count(6)
    expect(page.locator(".weekly-day h2").first).to_contain_text("Lundi")
    expect(page.locator(".weekly-day h2").last).to_contain_text("Samedi")
    expect(page.get_by_text("Pole Dance Débutant").first).to_be_visible()
    page.get_by_role("link", name="← Retour au planning").click()
    expect(page).to_have_url(live_server.url + "/courses/calendar")


def test_the_privacy_policy_lets_a_visitor_withdraw_consent(page, live_server):
    page.goto(live_server.url + "/politique-confidentialite")
    page.locator("#cookie-banner").get_by_role("button", name="Accepter").click()
    settings_box = page.locator("[data-consent-settings]")
    expect(settings_box).to_contain_text("Contenus externes : acceptés.")
    settings_box.get_by_role("button", name="Refuser ou retirer mon accord").click()
    expect(settings_box).to_contain_text("Contenus externes : refusés.")
    assert page.evaluate("localStorage.getItem('cookieConsent')") == "declined"

"""Browser tests of the gallery (its video embeds wait for consent: docs/decisions.md 18) and the home slideshow."""

import re

import pytest
from django.core.files.storage import default_storage
from playwright.sync_api import expect

from media_library import services
from media_library.images import rendition_names
from media_library.views import MSG_IMAGE_NOT_FOUND, MSG_NO_PHOTOS, MSG_NO_VIDEOS

from . import files

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DECLINED = "window.localStorage.setItem('cookieConsent', 'declined');"


@pytest.fixture
def quiet_page(page):
    """A page whose visitor already answered the cookie banner (so it covers nothing)."""
    page.add_init_script(DECLINED)
    page.set_viewport_size({"width": 1280, "height": 900})
    return page


def test_empty_gallery_columns(quiet_page, live_server):
    quiet_page.goto(live_server.url + "/gallery")
    expect(quiet_page.get_by_text(MSG_NO_PHOTOS)).to_be_visible()
    expect(quiet_page.get_by_text(MSG_NO_VIDEOS)).to_be_visible()


def test_gallery_modal_opens_closes_and_returns_focus(quiet_page, live_server):
    services.media_create(title="Gala de juin", description="Le spectacle des élèves.", file=files.jpeg())
    services.media_create(title="Répétition", file=files.webm(), poster=files.jpeg())
    page = quiet_page
    page.goto(live_server.url + "/gallery")
    # A click before the script has attached follows the plain link (progressive enhancement): wait for it.
    expect(page.locator("[data-gallery-ready]")).to_have_count(1)
    dialog = page.locator("dialog.gallery-modal")
    photo = page.get_by_role("link", name=re.compile("Gala de juin"))

    photo.click()
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", name="Gala de juin")).to_be_visible()
    expect(dialog.get_by_text("Le spectacle des élèves.")).to_be_visible()
    expect(dialog.get_by_role("button", name="Fermer")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(photo).to_be_focused()

    video = page.get_by_role("link", name=re.compile("Répétition"))
    video.focus()
    page.keyboard.press("Enter")
    expect(dialog.locator("video.gallery-video")).to_be_visible()
    dialog.get_by_role("button", name="Fermer").click()
    expect(dialog).to_be_hidden()
    expect(video).to_be_focused()
    expect(dialog.locator("video")).to_have_count(0)  # playback stops with the modal


def test_broken_image_falls_back_to_the_default_thumbnail(quiet_page, live_server):
    media = services.media_create(title="Photo perdue", file=files.jpeg())
    for name in [media.file.name, *rendition_names(media.renditions)]:
        default_storage.delete(name)
    quiet_page.goto(live_server.url + "/gallery")
    thumb = quiet_page.locator(".gallery-thumb img")
    expect(thumb).to_have_attribute("alt", MSG_IMAGE_NOT_FOUND)
    expect(thumb).to_have_attribute("src", re.compile(r"image-non-trouvee\.svg$"))
    assert quiet_page.evaluate("document.querySelector('.gallery-thumb img').naturalWidth") > 0


def test_video_host_player_loads_only_after_consent(page, live_server):
    services.media_create(title="Clip YouTube", external_url="https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + "/gallery")
    expect(page.locator("[data-gallery-ready]")).to_have_count(1)
    page.get_by_role("link", name=re.compile("Clip YouTube")).click()
    dialog = page.locator("dialog.gallery-modal")
    expect(dialog.get_by_text("ne se charge qu'après votre accord")).to_be_visible()
    expect(page.locator("iframe")).to_have_count(0)
    dialog.get_by_role("button", name="Accepter et afficher").click()
    expect(dialog.locator("iframe")).to_have_attribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")
    # Consent is remembered: the next opening shows the player at once.
    page.keyboard.press("Escape")
    page.get_by_role("link", name=re.compile("Clip YouTube")).click()
    expect(dialog.locator("iframe")).to_have_count(1)


@pytest.fixture
def hero(db):
    for index, text in enumerate(["Un", "Deux", "Trois"]):
        services.slideshow_image_create(image=files.jpeg(size=(1600, 900)), text_overlay=text, order=index)
    services.media_create(title="Fond", file=files.webm(), poster=files.jpeg(), home_background=True)
    services.slider_image_create(image=files.jpeg(), alt_text="Élèves", description="Cours")


HERO_URL = "/__media-hero"


@pytest.mark.urls("media_library.tests.e2e_urls")
def test_slideshow_autoplays_and_pauses_on_hover(quiet_page, live_server, hero):
    page = quiet_page
    page.goto(live_server.url + HERO_URL)
    show = page.locator(".home-hero [data-slideshow]")
    expect(show).to_have_attribute("data-state", "playing")
    expect(show).to_have_attribute("data-index", "1", timeout=4500)  # 3000 ms autoplay
    show.hover()
    expect(show).to_have_attribute("data-state", "paused")
    index = show.get_attribute("data-index")
    page.wait_for_timeout(3600)
    expect(show).to_have_attribute("data-index", index)
    page.mouse.move(5, 5)
    expect(show).to_have_attribute("data-state", "playing")
    following = str((int(index) + 1) % 3)
    expect(show).to_have_attribute("data-index", following, timeout=4500)


@pytest.mark.urls("media_library.tests.e2e_urls")
def test_slideshow_is_keyboard_operable_and_loops(quiet_page, live_server, hero):
    page = quiet_page
    page.goto(live_server.url + HERO_URL)
    show = page.locator(".home-hero [data-slideshow]")
    show.get_by_role("button", name="Diapositive précédente").focus()
    expect(show).to_have_attribute("data-state", "paused")  # focus pauses
    page.keyboard.press("Enter")
    expect(show).to_have_attribute("data-index", "2")  # infinite: before the first comes the last
    expect(show.get_by_text("Trois")).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(show).to_have_attribute("data-index", "0")
    show.get_by_role("button", name="Diapositive 2", exact=True).click()
    expect(show).to_have_attribute("data-index", "1")
    expect(show.get_by_role("button", name="Diapositive 2", exact=True)).to_have_attribute("aria-current", "true")
    toggle = show.locator("[data-slideshow-toggle]")
    expect(toggle).to_have_text("Pause")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text("Lecture")


@pytest.mark.urls("media_library.tests.e2e_urls")
def test_background_video_plays_muted_and_stays_still_under_reduced_motion(quiet_page, live_server, hero):
    page = quiet_page
    page.goto(live_server.url + HERO_URL)
    video = page.locator("video.hero-video")
    expect(video).to_have_attribute("data-state", "playing")
    assert page.evaluate("document.querySelector('video.hero-video').muted") is True
    page.emulate_media(reduced_motion="reduce")
    page.reload()
    expect(video).to_have_attribute("data-state", "still")
    assert page.evaluate("document.querySelector('video.hero-video').paused") is True
    expect(page.locator(".home-hero [data-slideshow]")).to_have_attribute("data-state", "paused")

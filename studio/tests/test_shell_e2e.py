"""Browser tests of the app shell (header, footer, navigation, cookie banner, login state) in Debian's Chromium."""

import re

import pytest
from playwright.sync_api import expect

from accounts.services.authentication import MSG_LOGGED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG_PAGE = "/politique-confidentialite"


def test_header_becomes_sticky_after_100px(page, live_server):
    page.set_viewport_size({"width": 1280, "height": 400})
    page.goto(live_server.url + LONG_PAGE)
    header = page.locator("#site-header")
    expect(header).not_to_have_class(re.compile("is-sticky"))
    page.evaluate("window.scrollTo(0, 50)")
    page.wait_for_timeout(250)
    expect(header).not_to_have_class(re.compile("is-sticky"))
    page.evaluate("window.scrollTo(0, 150)")
    expect(header).to_have_class(re.compile("is-sticky"))


def test_footer_shows_near_the_bottom(page, live_server):
    page.set_viewport_size({"width": 1280, "height": 400})
    page.goto(live_server.url + LONG_PAGE)
    footer = page.locator("#site-footer")
    expect(footer).not_to_be_visible()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(footer).to_be_visible()
    expect(footer).to_contain_text(re.compile(r"© \d{4}"))


def test_mobile_menu_toggles_and_closes_on_navigation(page, live_server):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    toggle = page.locator("[data-menu-toggle]")
    nav = page.locator("#main-nav")
    expect(nav).not_to_be_visible()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(nav).to_be_visible()
    toggle.click()
    expect(nav).not_to_be_visible()
    toggle.click()
    nav.get_by_role("link", name="Mentions légales").count()  # not in the nav: footer only
    nav.get_by_role("link", name="Tarifs").click()
    expect(page).to_have_url(live_server.url + "/tarifs")
    expect(page.locator("#main-nav")).not_to_be_visible()


@pytest.mark.parametrize("choice", ["accepted", "declined"])
def test_cookie_banner_choice_is_remembered(page, live_server, choice):
    page.goto(live_server.url + "/")
    banner = page.locator("#cookie-banner")
    expect(banner).to_be_visible()
    expect(banner.get_by_role("link", name="En savoir plus")).to_have_attribute("href", "/privacy-policy")
    banner.get_by_role("button", name="Accepter" if choice == "accepted" else "Refuser").click()
    expect(banner).to_be_hidden()
    assert page.evaluate("localStorage.getItem('cookieConsent')") == choice
    page.reload()
    expect(page.locator("#cookie-banner")).to_be_hidden()


def test_toast_shows_django_message_and_closes_after_3_seconds(page, live_server, login_as, member):
    login_as(member)
    page.goto(live_server.url + "/")
    page.get_by_role("button", name=re.compile("Bonjour, Emma")).click()
    page.get_by_role("menuitem", name="Se déconnecter").click()
    expect(page).to_have_url(live_server.url + "/")
    toast = page.locator(".Toastify__toast", has_text=MSG_LOGGED_OUT)
    expect(toast).to_be_visible()
    box = toast.bounding_box()
    assert box["x"] > page.viewport_size["width"] / 2 and box["y"] < 200  # top right
    expect(toast).to_have_count(0, timeout=5000)


def test_account_menu_works_with_the_keyboard(page, live_server, login_as, member):
    page.set_viewport_size({"width": 1280, "height": 800})
    login_as(member)
    page.goto(live_server.url + "/")
    button = page.get_by_role("button", name=re.compile("Bonjour, Emma"))
    button.focus()
    page.keyboard.press("ArrowDown")
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("menuitem", name="Mon profil")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("menuitem", name="Mes cours")).to_be_focused()
    page.keyboard.press("Escape")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    page.get_by_role("menuitem", name="Mes messages").press("Enter")
    expect(page).to_have_url(live_server.url + "/user/messages")

"""Phone first, and finished: the main pages at a phone's, a tablet's and a laptop's size.

For each page and size: the page never scrolls sideways, no text is cut by its box, and at 1366 px the header holds
on one row. Every screenshot is kept in test-artifacts/screenshots/ (git-ignored) for a person to look at.
"""

import io
import os
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [(390, 844), (768, 1024), (1366, 900)]
SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots")
)

# Text cut by its box: an element that hides its overflow (or ends it with an ellipsis) while its own text is wider
# than the box. Visually hidden helpers and media are not text; scrolling regions show the rest on demand.
CUT_TEXT = """() => {
  const cut = [];
  for (const el of document.body.querySelectorAll('*')) {
    const skipped = '.visually-hidden, [hidden], [aria-hidden="true"], svg, video, iframe, .table-wrap, [role=region]';
    if (el.closest(skipped)) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const style = getComputedStyle(el);
    const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
    if (!clips) continue;
    const ownText = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText) continue;
    if (el.clientWidth <= 1 && el.clientHeight <= 1) continue; // the visually-hidden technique
    if (el.scrollWidth > el.clientWidth + 1) {
      cut.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 40)}`);
    }
  }
  return cut;
}"""

# Each nav link and account control on one line, all on the header's one row.
HEADER_ROWS = """() => {
  const selector = ['.nav-links > li', '.nav-auth > li', '.account-menu-button', '.brand', '.header-phone']
    .map((s) => `.site-header ${s}`).join(', ');
  const items = Array.from(document.querySelectorAll(selector)).filter((el) => el.getClientRects().length);
  const centre = (el) => el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2;
  const tops = new Set(items.map((el) => Math.round(centre(el))));
  const centres = Array.from(tops);
  const spread = Math.max(...centres) - Math.min(...centres);
  const wrapped = items.filter((el) => {
    const lines = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || node.parentElement.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 1) lines.add(r);
    }
    // Two pieces of text that do not overlap vertically sit on two lines.
    const rects = Array.from(lines);
    return rects.some((a) => rects.some((b) => b.top >= a.bottom - 2));
  }).map((el) => el.textContent.trim().replace(/\s+/g, ' '));
  return { spread, wrapped, height: document.querySelector('.site-header').getBoundingClientRect().height };
}"""


def _seed():
    call_command("seed_demo", stdout=io.StringIO())


@pytest.fixture
def demo(db):
    from accounts.models import User
    from payments.models import PaymentOrder

    _seed()
    staff = User.objects.filter(role="admin").first()
    member = User.objects.get(email__startswith="membre@")
    # A long order title, as real orders have, so the table's width is tested.
    order = PaymentOrder.objects.first()
    if order is not None:
        order.title = "Carte 10 cours Pole Dance Tous niveaux — réglée par carte bancaire"
        order.save(update_fields=["title"])
    return staff, member


def _login(context, live_server, user):
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}])


def _register_with_errors(page):
    page.get_by_role("button", name="Créer mon compte").click()
    page.locator("[data-form-error]").wait_for(state="visible")


def _dashboard_table(page):
    page.locator(".dash-main table tbody tr").first.wait_for(state="visible")


def _calendar(page):
    page.locator(".session-event").first.wait_for(state="visible")


PAGES = [
    # (name, path, who, prepare)
    ("home", "/", None, None),
    ("calendar", "/courses/calendar", "member", _calendar),
    ("tarifs", "/tarifs", None, None),
    ("register-errors", "/register", None, _register_with_errors),
    ("my-courses", "/my-courses", "member", lambda page: page.locator(".my-courses-table").first.wait_for()),
    ("dashboard-orders", "/admin/orders", "staff", _dashboard_table),
    ("dashboard-sessions", "/admin/sessions", "staff", _dashboard_table),
    ("dashboard-users", "/admin/users", "staff", _dashboard_table),
    ("dashboard-parties", "/admin/parties", "staff", _dashboard_table),
    ("dashboard-rentals", "/admin/rentals", "staff", _dashboard_table),
]


def test_main_pages_fit_every_screen(browser, live_server, demo):
    staff, member = demo
    users = {"staff": staff, "member": member}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems = {}
    for width, height in SIZES:
        for who in (None, "member", "staff"):
            context = browser.new_context(
                viewport={"width": width, "height": height}, locale="fr-FR", timezone_id="Europe/Paris"
            )
            if who:
                _login(context, live_server, users[who])
            for name, path, page_user, prepare in PAGES:
                if page_user != who:
                    continue
                page = context.new_page()
                page.goto(live_server.url + path)
                page.wait_for_load_state("networkidle")
                if prepare:
                    prepare(page)
                key = f"{name} {width}x{height}"
                page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}x{height}.png"), full_page=True)
                scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                if scroll_width > inner_width:
                    problems.setdefault(key, []).append(f"page {scroll_width}px wide for {inner_width}px")
                cut = page.evaluate(CUT_TEXT)
                if cut:
                    problems.setdefault(key, []).append(f"text cut: {cut[:5]}")
                if width == 1366:
                    header = page.evaluate(HEADER_ROWS)
                    if header["spread"] > 4 or header["wrapped"]:
                        problems.setdefault(key, []).append(f"header not on one row: {header}")
                page.close()
            context.close()
    assert problems == {}, "\n".join(f"{key}: {found}" for key, found in problems.items())


def test_the_cookie_bar_never_covers_a_forms_buttons_and_refusing_takes_one_tap(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", timezone_id="Europe/Paris")
    page = context.new_page()
    page.goto(live_server.url + "/register")
    banner = page.locator("#cookie-banner")
    banner.wait_for(state="visible")
    height = banner.bounding_box()["height"]
    assert height <= 844 * 0.2, f"the cookie bar takes {height}px of an 844px screen"
    submit = page.get_by_role("button", name="Créer mon compte")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    box, bar = submit.bounding_box(), banner.bounding_box()
    assert box["y"] + box["height"] <= bar["y"], "the cookie bar covers the form's button"
    banner.get_by_role("button", name="Refuser").click()
    page.wait_for_function("!document.body.classList.contains('has-cookie-banner')")
    assert not banner.is_visible()
    context.close()


def test_the_header_holds_one_row_from_320_to_1920(browser, live_server, staff):
    for width, height in [(320, 640), (1200, 800), (1920, 1080)]:
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale="fr-FR", timezone_id="Europe/Paris"
        )
        _login(context, live_server, staff)
        page = context.new_page()
        page.goto(live_server.url + "/")
        header = page.evaluate(HEADER_ROWS)
        assert header["spread"] <= 4 and not header["wrapped"], (width, header)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
        page.screenshot(path=str(SCREENSHOTS / f"header-staff-{width}x{height}.png"))
        context.close()


# The data cells of a row that the row's sticky actions cell lies over (their boxes intersect by more than a pixel),
# with the table scrolled to its start.
COVERED_CELLS = """(row) => {
  const actions = row.querySelector('td.dash-actions').getBoundingClientRect();
  return Array.from(row.querySelectorAll('td:not(.dash-actions)'))
    .filter((td) => {
      const box = td.getBoundingClientRect();
      return Math.min(box.right, actions.right) - Math.max(box.left, actions.left) > 1;
    })
    .map((td) => td.dataset.label);
}"""


def test_on_a_laptop_the_users_sticky_actions_cover_no_column(browser, live_server, demo):
    """At 1366 px the users list's actions (Données, Effacer à sa demande (RGPD), Modifier, Supprimer) stay in view
    without lying over the member's phone, role or absences: they wrap in their column instead of widening it."""
    staff, member = demo
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="fr-FR", timezone_id="Europe/Paris")
    _login(context, live_server, staff)
    page = context.new_page()
    page.goto(live_server.url + "/admin/users")
    _dashboard_table(page)
    row = page.locator(".dash-main .dash-table tbody tr").filter(has_text=member.email)
    expect(row).to_have_count(1)
    assert row.evaluate(COVERED_CELLS) == []
    actions = row.locator("td.dash-actions")
    for name in ("Données", "Effacer à sa demande (RGPD)", "Modifier", "Supprimer"):
        expect(actions.locator("a, button").filter(has_text=name).first).to_be_visible()
    context.close()

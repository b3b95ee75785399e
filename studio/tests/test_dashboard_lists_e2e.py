"""Every staff list of the dashboard, as the front desk sees it on a 1366 px laptop and a 390 px phone.

At 1366 px no list scrolls sideways to show its columns (the table's box holds the table, every column header ends
inside the window), a session row is at most two lines tall and the section's buttons ("Ajouter", "Créer une série
hebdomadaire") sit above the list; at 390 px no page scrolls sideways. No list shows a code the API answers (an
order's "ACOMPTE_EVJF", "COMPLETED") or an ISO date: each is in French. The demo studio is seeded, plus rows with
long names and every order status and type."""

import io
import re
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# Two lines of text and the row's padding, or the "Actions" button and its padding.
SESSION_ROW_MAX_PX = 90

TABLES = """() => Array.from(document.querySelectorAll('.dash-main table'))
  .filter((table) => table.getClientRects().length && !table.closest('dialog'))
  .map((table) => {
    const box = table.closest('.table-wrap') || table.parentElement;
    return {
      scrollWidth: box.scrollWidth,
      clientWidth: box.clientWidth,
      headers: Array.from(table.querySelectorAll('thead th')).map((th) => ({
        text: th.innerText.replace(/[▲▼↕]/g, '').trim(),
        right: th.getBoundingClientRect().right,
      })),
      viewport: document.documentElement.clientWidth,
    };
  })"""

# Codes that are also the words the studio and its clients write ("Acompte EVJF", "Soirée EVG").
FRENCH_ACRONYMS = {"EVJF", "EVG"}
PAGE_OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
SECTIONS_JS = Path(__file__).resolve().parents[2] / "frontend/src/islands/dashboard/sections.js"
# The sections that are no list: the owner's figures and the export forms.
NOT_LISTS = {"overview", "exports", "accounting"}


def staff_list_sections():
    """Every section of the dashboard's registry (sections.js) that shows a list, a section added later included."""
    keys = re.findall(r'\{ key: "([a-z-]+)"', SECTIONS_JS.read_text(encoding="utf-8"))
    assert "sessions" in keys and "orders" in keys
    return [key for key in keys if key not in NOT_LISTS]


@pytest.fixture(autouse=True)
def _cookies_decided(context):
    """The cookie banner would cover the tables; its own tests live with the shell."""
    context.add_init_script("window.localStorage.setItem('cookieConsent', 'declined')")


def _order_types():
    """Every order type the payment services write (payments/services, payments/subscriptions)."""
    from courses.models import TariffType
    from payments.services.deposits import DEPOSIT_TYPE
    from payments.services.gift_card_orders import GIFT_CARD_TYPE
    from payments.services.orders import RESERVATION_TYPE
    from payments.subscriptions.services.paypal import PAYPAL_SUBSCRIPTION_TYPE

    return [RESERVATION_TYPE, PAYPAL_SUBSCRIPTION_TYPE, GIFT_CARD_TYPE, "UNKNOWN", *DEPOSIT_TYPE.values()] + [
        t.upper() for t in TariffType.values
    ]


def _raw_codes():
    """The codes a list must never show as they are: every order type, and every choice value of the project's
    models written in capitals or with an underscore (a French label never is)."""
    from django.apps import apps

    codes = set(_order_types())
    ours = {config.label for config in apps.get_app_configs() if str(config.path).startswith(str(settings.BASE_DIR))}
    for model in apps.get_models():
        if model._meta.app_label not in ours:
            continue
        for field in model._meta.get_fields():
            for value, label in getattr(field, "flatchoices", None) or []:
                if value in FRENCH_ACRONYMS:
                    continue
                if isinstance(value, str) and value != str(label) and (value.isupper() or "_" in value):
                    codes.add(value)
    return sorted(codes)


@pytest.fixture
def studio(db):
    """The demo studio, and rows that make the lists wide: long names and e-mails, every order status and type,
    a dozen upcoming sessions with their bookings and waiting lists."""
    from accounts.tests.factories import UserFactory
    from bookings.models import Reservation, ReservationStatus
    from courses.tests.factories import CourseFactory, CourseSessionFactory
    from payments.models import PaymentOrder, PaymentStatus

    call_command("seed_demo", stdout=io.StringIO())
    course = CourseFactory(title="Pole Dance Exotic Heels – niveau intermédiaire")
    start = timezone.localtime().replace(hour=18, minute=30, second=0, microsecond=0)
    member = UserFactory(
        first_name="Marie-Charlotte", last_name="de La Tour-Dubreuil", email="marie-charlotte.delatour@exemple-long.fr"
    )
    for n in range(1, 13):
        session = CourseSessionFactory(
            course=course, start=start + timedelta(days=n), instructor="Anne-Sophie Delacroix-Martin", max_attendees=12
        )
        Reservation.objects.create(
            session=session,
            user=member,
            participants=2,
            unit_price=Decimal("25.00"),
            first_name=member.first_name,
            last_name=member.last_name,
            email=member.email,
            status=ReservationStatus.CONFIRMED,
            confirmed_at=timezone.now(),
        )
    today = timezone.localdate()
    for i, (status, kind) in enumerate(
        (s, t) for s in PaymentStatus.values for t in _order_types()[: 3 if s != PaymentStatus.COMPLETED else None]
    ):
        PaymentOrder.objects.create(
            order_id=f"LISTS-{i:03d}-{'x' * 20}",
            email=f"adresse.vraiment.tres.longue.{i}@exemple-de-domaine.fr",
            first_name="Marie-Charlotte",
            last_name="de La Tour-Dubreuil",
            title="Acompte EVJF – groupe de douze personnes, samedi soir",
            amount=Decimal("1234.50"),
            date=(today - timedelta(days=i)).isoformat(),
            time="18:30:00",
            type=kind,
            status=status,
            completed_at=timezone.now() if status == PaymentStatus.COMPLETED else None,
        )
    return member


def _open(page, url, key):
    page.goto(f"{url}/admin/{key}")
    expect(page.locator('[data-island="dashboard"][data-mounted]')).to_have_count(1)
    # The section's list has arrived (rows, or its "nothing yet" line), or the section has no table.
    page.wait_for_function(
        """() => {
          const main = document.querySelector('.dash-main');
          if (!main || main.querySelector('[aria-busy="true"]')) return false;
          const tables = main.querySelectorAll('table');
          if (!tables.length) return Boolean(main.querySelector('h2')) && !/Chargement…/.test(main.innerText);
          return Array.from(tables).every((t) => t.querySelector('tbody tr'));
        }""",
        timeout=15000,
    )


def test_no_staff_list_scrolls_sideways_on_a_laptop_and_a_session_row_is_two_lines(
    page, live_server, login_as, studio, staff
):
    page.set_viewport_size(LAPTOP)
    login_as(staff)
    too_wide = {}
    for key in staff_list_sections():
        _open(page, live_server.url, key)
        for table in page.evaluate(TABLES):
            beyond = [h["text"] for h in table["headers"] if h["right"] > table["viewport"] + 0.5]
            if table["scrollWidth"] > table["clientWidth"] + 1 or beyond:
                too_wide[key] = {"scroll": (table["scrollWidth"], table["clientWidth"]), "cut headers": beyond}
    assert too_wide == {}

    _open(page, live_server.url, "sessions")
    rows = page.locator(".dash-table tbody tr")
    expect(rows).to_have_count(10)
    heights = [rows.nth(i).bounding_box()["height"] for i in range(10)]
    assert max(heights) <= SESSION_ROW_MAX_PX, heights
    table_top = page.locator(".dash-table").bounding_box()["y"]
    for name in ("Créer une série hebdomadaire", "Ajouter une session", "Filtrer"):
        button = page.get_by_role("button", name=name, exact=True)
        assert button.bounding_box()["y"] + button.bounding_box()["height"] <= table_top, name
    # The filters each have their own label, apart from the next.
    labels = page.locator("form.dash-filters label")
    boxes = [labels.nth(i).bounding_box() for i in range(labels.count())]
    assert [labels.nth(i).inner_text() for i in range(labels.count())] == [
        "Période",
        "Cours",
        "Professeur",
        "Recherche",
    ]
    assert all(b["x"] + b["width"] + 8 <= a["x"] for b, a in zip(boxes, boxes[1:], strict=False) if a["y"] == b["y"])

    # The orders show amount, status and invoice within the window.
    _open(page, live_server.url, "orders")
    for header in ("Montant", "Statut", "Facture"):
        th = page.locator("thead th", has_text=header)
        assert th.bounding_box()["x"] + th.bounding_box()["width"] <= LAPTOP["width"], header


def test_the_session_actions_menu_works_with_the_keyboard_and_a_cancelled_class_is_confirmed(
    page, live_server, login_as, studio, staff
):
    page.set_viewport_size(LAPTOP)
    login_as(staff)
    _open(page, live_server.url, "sessions")
    row = page.locator(".dash-table tbody tr").first
    button = row.get_by_role("button", name=re.compile("^Actions"))
    expect(button).to_have_attribute("aria-haspopup", "menu")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    menu = page.get_by_role("menu")
    expect(menu.get_by_role("menuitem").first).to_be_focused()
    page.keyboard.press("End")
    expect(menu.get_by_role("menuitem").last).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_have_count(0)
    expect(button).to_be_focused()

    button.click()
    page.get_by_role("menuitem", name="Annuler le cours").click()
    dialog = page.locator("dialog[open]")
    dialog.get_by_label("Motif (envoyé aux inscrits)").fill("Professeure malade")
    dialog.get_by_role("button", name="Confirmer l'annulation").click()
    expect(page.get_by_role("status").filter(has_text="Le cours est annulé")).to_contain_text(
        "1 réservation(s) annulée(s)"
    )
    expect(page.get_by_role("menu")).to_have_count(0)
    # The cancelled class leaves the upcoming list with its button: the focus goes to the list, not the page's body.
    expect(page.get_by_role("region", name=re.compile("^Tableau"))).to_be_focused()
    page.get_by_label("Période").select_option("cancelled")
    expect(page.locator(".dash-table tbody tr").first).to_contain_text("Annulé")


def test_no_list_shows_a_raw_code_or_an_iso_date(page, live_server, login_as, studio, staff):
    page.set_viewport_size(LAPTOP)
    login_as(staff)
    codes = _raw_codes()
    assert {"ACOMPTE_EVJF", "COMPLETED", "REFUND_PENDING"} <= set(codes)
    shown = {}
    for key in staff_list_sections():
        _open(page, live_server.url, key)
        text = page.locator(".dash-main").inner_text()
        found = [code for code in codes if re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text)]
        found += re.findall(r"\b\d{4}-\d{2}-\d{2}\b", text)
        if found:
            shown[key] = found
    assert shown == {}
    _open(page, live_server.url, "orders")
    expect(page.locator(".dash-table")).to_contain_text("Acompte EVJF")
    expect(page.locator(".dash-table")).to_contain_text("Payée")
    expect(page.locator(".dash-table")).to_contain_text(re.compile(r"\d{2}/\d{2}/\d{4} 18:30"))


def test_no_staff_list_page_scrolls_sideways_on_a_phone(page, live_server, login_as, studio, staff):
    page.set_viewport_size(PHONE)
    login_as(staff)
    overflow = {}
    for key in staff_list_sections():
        _open(page, live_server.url, key)
        extra = page.evaluate(PAGE_OVERFLOW)
        if extra > 0:
            overflow[key] = extra
    assert overflow == {}
    # A session is a card: its fields by label, its "Actions" button inside the card.
    _open(page, live_server.url, "sessions")
    card = page.locator(".dash-table tbody tr").first
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    actions = card.get_by_role("button", name=re.compile("^Actions"))
    expect(actions).to_be_visible()
    # Its menu opens inside the window.
    actions.click()
    menu = page.get_by_role("menu").bounding_box()
    assert menu["x"] >= 0 and menu["x"] + menu["width"] <= PHONE["width"], menu

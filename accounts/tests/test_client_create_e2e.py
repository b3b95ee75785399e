"""The front desk registers a newcomer (docs/decisions.md 50), on a laptop and on a phone: staff add the client from
the users section and see where the invitation went; the client follows the e-mailed link, chooses a password and
logs in; staff open the client's file and find the line of the account's creation with their own name."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from accounts.models import User
from accounts.services.clients import CLIENT_CREATED_SUMMARY, MSG_CLIENT_CREATED
from accounts.services.passwords import MSG_PASSWORD_RESET
from accounts.tests.helpers import link_token

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Barre-Verticale-31"
# For a person to look at (git-ignored), as the layout test leaves its own.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture(autouse=True)
def _links_point_at_the_live_server(settings, live_server, context):
    settings.SITE_URL = live_server.url
    context.add_init_script("localStorage.setItem('cookieConsent', 'declined')")


def no_sideways_scroll(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [1366, 390])
def test_the_desk_creates_a_client_who_sets_a_password_and_logs_in(
    page, live_server, login_as, staff, mailoutbox, width
):
    page.set_viewport_size({"width": width, "height": 900 if width > 1000 else 844})
    login_as(staff)

    # Staff add the client from the top of the users section.
    page.goto(live_server.url + "/admin/users")
    add = page.get_by_role("button", name="Ajouter un client")
    add.click()
    dialog = page.get_by_role("dialog", name="Ajouter un client")
    dialog.get_by_label("Prénom").fill("Inès")
    dialog.get_by_label(re.compile(r"^Nom")).fill("Moreau")
    dialog.get_by_label("E-mail").fill("ines.moreau@example.fr")
    dialog.get_by_label("Téléphone (facultatif)").fill("06 11 22 33 44")
    dialog.get_by_role("button", name="Enregistrer").click()
    confirmation = page.get_by_role("status").filter(has_text="Client créé")
    expect(confirmation).to_have_text(MSG_CLIENT_CREATED.format(email="ines.moreau@example.fr"))
    expect(confirmation).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(add).to_be_focused()
    no_sideways_scroll(page, width)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"client-created-{width}.png"))

    # The client's invitation, from the outbox: the link sets a password, which logs them in.
    (invitation,) = [mail for mail in mailoutbox if mail.to == ["ines.moreau@example.fr"]]
    token = link_token(invitation, "reset-password")
    client_page = page.context.browser.new_context(locale="fr-FR", timezone_id="Europe/Paris").new_page()
    client_page.set_viewport_size(page.viewport_size)
    client_page.add_init_script("localStorage.setItem('cookieConsent', 'declined')")
    client_page.goto(f"{live_server.url}/reset-password/{token}")
    client_page.get_by_label("Nouveau mot de passe", exact=True).fill(PASSWORD)
    client_page.get_by_label("Confirmer le mot de passe", exact=True).fill(PASSWORD)
    client_page.get_by_role("button", name="Réinitialiser").click()
    expect(client_page.locator("[data-form-success]")).to_have_text(MSG_PASSWORD_RESET)
    client_page.goto(live_server.url + "/login")
    client_page.get_by_label("Email", exact=True).fill("ines.moreau@example.fr")
    client_page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    client_page.get_by_role("button", name="Se connecter").click()
    expect(client_page).to_have_url(live_server.url + "/")
    client = User.objects.get(email="ines.moreau@example.fr")
    assert client.check_password(PASSWORD) and client.email_confirmed
    client_page.context.close()

    # Staff open the client's file: the creation, by them.
    page.get_by_label("Rechercher par nom ou e-mail").fill("ines.moreau")
    row = page.locator(".dash-main table tbody tr").filter(has_text="ines.moreau@example.fr")
    expect(row).to_have_count(1)
    open_file = row.get_by_role("button", name="Fiche client de Inès Moreau")
    open_file.click()
    file = page.get_by_role("dialog", name="Fiche client : Inès Moreau")
    line = file.get_by_role("listitem").filter(has_text=CLIENT_CREATED_SUMMARY)
    expect(line).to_contain_text(re.compile(r"par Camille Laurent, le \d{2}/\d{2}/\d{4} \d{2}:\d{2}"))
    expect(file.get_by_role("region", name="Cours à venir")).to_contain_text("Aucun élément.")
    expect(file).to_contain_text("06 11 22 33 44".replace(" ", ""))
    expect(line).to_be_in_viewport()
    no_sideways_scroll(page, width)
    page.screenshot(path=str(SCREENSHOTS / f"client-file-{width}.png"))
    # Centred on the screen whatever the row it opened from (its actions cell spaces its own buttons).
    file_box = file.bounding_box()
    left, right = file_box["x"], width - file_box["x"] - file_box["width"]
    assert left > 0 and right > 0 and abs(left - right) <= 1
    file.get_by_role("button", name="Fermer la fiche").click()
    expect(open_file).to_be_focused()

"""The whole profile page (its main content and its islands, not the site's header and footer) writes exactly what it
wrote before its rendering was reworked for speed: the member's own page, in view and in edit mode, after a refused
save, a staff member's and an administrator's view of a member, and a newcomer's empty page. The expected HTML is
`profile_page.html` beside this file (ids, the CSRF token and the bundles' hashes replaced by names); lines are
compared without their surrounding blanks, as a browser reads them.

`RECORD_PROFILE_PAGE=1 pytest accounts/tests/test_profile_page_html.py` writes that file again from the code as it is.
"""

import os
import re
from pathlib import Path

import pytest
from freezegun import freeze_time

from accounts.models import Role
from accounts.tests.factories import UserFactory
from accounts.tests.test_profile_sections import PATTERNS, TODAY, rich_member  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

EXPECTED = Path(__file__).with_name("profile_page.html")
RECORD = os.environ.get("RECORD_PROFILE_PAGE") == "1"


def page(html: str, names: dict, member) -> str:
    """<main> and what follows the footer (the islands), ids replaced by names, blanks around lines dropped."""
    assert '<link rel="stylesheet" href="/static/css/accounts.css">' in html
    part = html[html.index("<main") : html.index("</main>") + 7] + "\n" + html[html.index('<div id="toast-root"') :]
    part = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value="TOKEN"', part)
    part = re.sub(r"(/static/dist/[\w-]+)\.\w+\.(js|css)", r"\1.\2", part)
    part = part.replace(f"/user/profile/{member.pk}", "/user/profile/<member>")
    for name, obj in names.items():
        for pattern in PATTERNS[type(obj).__name__]:
            part = re.sub(pattern.format(pk=obj.pk), rf"\g<1><{name}>\g<3>", part)
    return "\n".join(line.strip() for line in part.splitlines() if line.strip()) + "\n"


def check(who: str, text: str) -> None:
    if RECORD:
        recorded = EXPECTED.read_text() if EXPECTED.exists() else ""
        kept = re.sub(rf"<!-- {who} -->\n.*?<!-- end -->\n", "", recorded, flags=re.S)
        EXPECTED.write_text(kept + f"<!-- {who} -->\n{text}<!-- end -->\n")
        return
    recorded = EXPECTED.read_text()
    assert text == recorded.split(f"<!-- {who} -->\n", 1)[1].split("<!-- end -->\n", 1)[0]


@freeze_time(TODAY)
def test_the_members_own_page(client, member, rich_member):  # noqa: F811
    client.force_login(member)
    response = client.get("/user/profile")
    assert response.status_code == 200
    check("member", page(response.content.decode(), rich_member, member))


@freeze_time(TODAY)
def test_the_members_own_page_in_edit_mode(client, member, rich_member):  # noqa: F811
    client.force_login(member)
    response = client.get("/user/profile?edit=1")
    assert response.status_code == 200
    check("member edit", page(response.content.decode(), rich_member, member))


@freeze_time(TODAY)
def test_the_members_own_page_after_a_refused_save(client, member, rich_member):  # noqa: F811
    client.force_login(member)
    response = client.post(
        "/user/profile",
        {"first_name": "Emma <b>", "last_name": "Petit", "phone": "12", "postal_code": "75011", "city": "Paris"},
    )
    assert response.status_code == 400
    check("member refused", page(response.content.decode(), rich_member, member))


@freeze_time(TODAY)
def test_a_supervisors_view_of_a_member(client, supervisor, member, rich_member):  # noqa: F811
    client.force_login(supervisor)
    response = client.get(f"/user/profile/{member.pk}?edit=1")
    assert response.status_code == 200
    check("supervisor", page(response.content.decode(), rich_member, member))


@freeze_time(TODAY)
def test_an_administrators_view_of_a_member(client, member, rich_member):  # noqa: F811
    admin = UserFactory(first_name="Alice", last_name="Bernard", email="alice@example.fr", role=Role.ADMIN)
    client.force_login(admin)
    response = client.get(f"/user/profile/{member.pk}")
    assert response.status_code == 200
    check("admin", page(response.content.decode(), rich_member, member))


@freeze_time(TODAY)
def test_a_newcomers_empty_page(client, rich_member):  # noqa: F811
    newcomer = UserFactory(
        first_name="Nina", last_name="Roux", email="nina@example.fr", phone="", address="", city="", country=""
    )
    client.force_login(newcomer)
    response = client.get("/user/profile")
    assert response.status_code == 200
    check("newcomer", page(response.content.decode(), {}, newcomer))


@freeze_time(TODAY)
def test_the_members_own_page_after_a_save_with_an_address_awaiting_confirmation(client, member, rich_member):  # noqa: F811
    type(member).objects.filter(pk=member.pk).update(pending_email="emma.new@example.fr")
    client.force_login(member)
    response = client.post(
        "/user/profile",
        {"first_name": "Emma", "last_name": "Petit & Cie", "phone": "0612345678", "postal_code": "75011"},
    )
    assert response.status_code == 302
    response = client.get("/user/profile")
    assert response.status_code == 200
    check("member saved", page(response.content.decode(), rich_member, member))

"""What an HTML conformance checker reads in the site's pages: each form control's autocomplete tokens are the
ones the HTML standard's autofill table allows for that kind of control, and a refused method on a page answers
a whole French page (doctype, language, title), not an empty body."""

import re
from html.parser import HTMLParser

import pytest
from django.utils.html import escape

from accounts.tests.helpers import link_token
from courses.tests.factories import CourseFactory
from studio.request_limits import MSG_METHOD_NOT_ALLOWED

pytestmark = pytest.mark.django_db

# The HTML standard's autofill field names and the control group each belongs to ("autofill field" table), and
# the controls each group applies to. A field name on a control outside its group is an error for the checker.
FIELD_GROUPS = {
    **dict.fromkeys(
        [
            "name",
            "honorific-prefix",
            "given-name",
            "additional-name",
            "family-name",
            "honorific-suffix",
            "nickname",
            "organization-title",
            "organization",
            "address-line1",
            "address-line2",
            "address-line3",
            "address-level4",
            "address-level3",
            "address-level2",
            "address-level1",
            "country",
            "country-name",
            "postal-code",
            "cc-name",
            "cc-given-name",
            "cc-additional-name",
            "cc-family-name",
            "cc-number",
            "cc-csc",
            "cc-type",
            "transaction-currency",
            "language",
            "sex",
            "tel-country-code",
            "tel-national",
            "tel-area-code",
            "tel-local",
            "tel-local-prefix",
            "tel-local-suffix",
            "tel-extension",
        ],
        "text",
    ),
    "street-address": "multiline",
    "username": "username",
    "new-password": "password",
    "current-password": "password",
    "one-time-code": "password",
    "cc-exp": "month",
    "cc-exp-month": "numeric",
    "cc-exp-year": "numeric",
    "transaction-amount": "numeric",
    "bday": "date",
    "bday-day": "numeric",
    "bday-month": "numeric",
    "bday-year": "numeric",
    "url": "url",
    "photo": "url",
    "impp": "url",
    "email": "email",
    "tel": "tel",
}
CONTACT_FIELDS = {name for name in FIELD_GROUPS if name.startswith("tel")} | {"email", "impp"}
ANY_TEXT = {"hidden", "text", "search", "textarea", "select"}
GROUP_CONTROLS = {
    "text": ANY_TEXT,
    "multiline": {"hidden", "textarea", "select"},
    "password": ANY_TEXT | {"password"},
    "username": ANY_TEXT | {"email"},
    "url": ANY_TEXT | {"url"},
    "email": ANY_TEXT | {"email"},
    "tel": ANY_TEXT | {"tel"},
    "numeric": ANY_TEXT | {"number"},
    "month": ANY_TEXT | {"month"},
    "date": ANY_TEXT | {"date"},
}


def autocomplete_problem(control: str, value: str) -> str:
    """Why `value` is not a valid autocomplete attribute on `control` ("text", "tel", "textarea", ...), or ''."""
    tokens = value.lower().split()
    if not tokens:
        return ""
    if tokens in (["on"], ["off"]):
        return "on/off on a hidden input" if control == "hidden" else ""
    if tokens[-1] == "webauthn":
        tokens.pop()
    if not tokens or tokens[-1] not in FIELD_GROUPS:
        return f"{value!r} names no autofill field"
    field = tokens.pop()
    if tokens and tokens[-1] in {"home", "work", "mobile", "fax", "pager"}:
        if field not in CONTACT_FIELDS:
            return f"{value!r}: a contact kind before a field that is no contact"
        tokens.pop()
    if tokens and tokens[-1] in {"shipping", "billing"}:
        tokens.pop()
    if tokens and tokens[-1].startswith("section-"):
        tokens.pop()
    if tokens:
        return f"{value!r}: tokens out of order"
    if control not in GROUP_CONTROLS[FIELD_GROUPS[field]]:
        return f"{field!r} is not allowed on {control}"
    return ""


class ControlCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.controls = []  # (control kind, autocomplete value, id)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag not in ("input", "select", "textarea") or "autocomplete" not in attributes:
            return
        control = tag if tag != "input" else (attributes.get("type") or "text").lower()
        self.controls.append((control, attributes["autocomplete"] or "", attributes.get("id", "")))


def autocomplete_problems(html: str) -> list[str]:
    collector = ControlCollector()
    collector.feed(html)
    return [
        f"#{control_id} ({control}): {problem}"
        for control, value, control_id in collector.controls
        if (problem := autocomplete_problem(control, value))
    ]


def test_the_checker_knows_the_standards_autofill_rules():
    assert autocomplete_problem("tel", "tel") == ""
    assert autocomplete_problem("text", "tel-national") == ""
    assert autocomplete_problem("tel", "tel-national") == "'tel-national' is not allowed on tel"
    assert autocomplete_problem("text", "street-address") == "'street-address' is not allowed on text"
    assert autocomplete_problem("textarea", "street-address") == ""
    assert autocomplete_problem("text", "section-a billing address-line1") == ""
    assert autocomplete_problem("email", "work email") == ""
    assert autocomplete_problem("text", "work given-name")
    assert autocomplete_problem("password", "current-password") == ""
    assert autocomplete_problem("email", "off") == ""
    assert autocomplete_problem("text", "adresse")


PUBLIC_PAGES = [
    "/",
    "/weekly",
    "/tarifs",
    "/tarifs-page",
    "/contact",
    "/evjf-evg",
    "/room-rental",
    "/rental-form",
    "/courses/calendar",
    "/login",
    "/register",
    "/forgot-password",
    "/confirm-email/un-jeton",
]
MEMBER_PAGES = [
    "/user/profile",
    "/user/profile?edit=1",
    "/my-courses",
    "/user/messages",
    "/user/requests",
    "/user/delete-account",
    "/contact",
    "/evjf-evg",
    "/rental-form",
]


def test_every_autocomplete_token_suits_its_control_on_public_and_member_pages(
    client, member, mailoutbox, django_capture_on_commit_callbacks
):
    course = CourseFactory()
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/forgot-password", {"email": member.email})
    reset_page = f"/reset-password/{link_token(mailoutbox[-1], 'reset-password')}"
    problems = {}
    seen = 0
    for path in [*PUBLIC_PAGES, f"/courses/{course.pk}", reset_page]:
        response = client.get(path)
        assert response.status_code == 200, path
        seen += response.text.count("autocomplete=")
        problems[path] = autocomplete_problems(response.text)
    client.force_login(member)
    for path in MEMBER_PAGES:
        response = client.get(path)
        assert response.status_code == 200, path
        seen += response.text.count("autocomplete=")
        problems[f"{path} (member)"] = autocomplete_problems(response.text)
    assert seen > 20  # the forms were really there
    assert {path: found for path, found in problems.items() if found} == {}


def test_the_registration_and_profile_phone_and_street_keep_their_autofill(client, member):
    """The phone stays filled in its national form (the site asks for 10 digits) and the street as one line."""
    register = client.get("/register").text
    client.force_login(member)
    profile = client.get("/user/profile?edit=1").text
    for html, prefix in ((register, "reg"), (profile, "profile")):
        phone = re.search(rf'<input id="{prefix}-phone"[^>]*>', html).group(0)
        assert 'autocomplete="tel-national"' in phone and 'inputmode="tel"' in phone
        street = re.search(rf'<input id="{prefix}-address"[^>]*>', html).group(0)
        assert 'autocomplete="address-line1"' in street


def test_a_refused_method_on_a_page_answers_a_french_page(client):
    response = client.get("/confirm-email/resend")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    html = response.text
    assert html.lstrip().lower().startswith("<!doctype html>")
    assert '<html lang="fr"' in html
    assert re.search(r"<title>Méthode non autorisée[^<]*</title>", html)
    assert escape(MSG_METHOD_NOT_ALLOWED) in html
    assert '<a class="button" href="/">' in html


def test_a_refused_method_on_the_api_keeps_the_api_error_shape(api_client, member):
    api_client.force_authenticate(member)
    response = api_client.get("/api/users/resend-confirmation")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]

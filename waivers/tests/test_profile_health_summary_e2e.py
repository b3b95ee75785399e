"""On a 390 px phone: a member without a declaration sees on the profile that it is missing, fills it in from
"Mettre à jour", then sees its date and answers (docs/decisions.md 48)."""

import pytest
from playwright.sync_api import expect

from waivers.seed import QUESTIONS
from waivers.seed import run as publish_demo_set

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LABEL_ACCEPT = "J'ai lu et j'accepte la décharge de responsabilité et le règlement intérieur."
MSG_NONE = (
    "Vous n'avez pas encore rempli le questionnaire de santé : il vous sera demandé à votre première réservation."
)


def test_the_member_sees_what_is_missing_fills_it_in_and_sees_their_answers(page, live_server, login_as, member):
    page.set_viewport_size({"width": 390, "height": 844})
    publish_demo_set()
    login_as(member)
    page.goto(live_server.url + "/user/profile")
    summary = page.locator("section.health-summary")
    expect(summary).to_contain_text(MSG_NONE)

    summary.get_by_role("button", name="Mettre à jour").click()
    questions = summary.locator("fieldset.health-question")
    expect(questions).to_have_count(len(QUESTIONS))
    for index in range(len(QUESTIONS)):
        questions.nth(index).get_by_label("Oui" if index == 2 else "Non").check()
    summary.get_by_label(LABEL_ACCEPT).check()
    summary.get_by_role("button", name="Enregistrer ma déclaration").click()

    expect(summary).to_contain_text("Remplie le")
    expect(summary.locator("dd")).to_have_text(["Oui" if index == 2 else "Non" for index in range(len(QUESTIONS))])
    expect(summary).to_contain_text("Accepté : questionnaire version 1")

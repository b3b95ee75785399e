"""The health questionnaire's answers are the member's special-category data (docs/decisions.md 48): in their data
export, nowhere else (no copy in another table, an e-mail or the staff's export), and gone with the account."""

import pytest

from accounts.tests.factories import DEFAULT_PASSWORD
from waivers.models import HealthDeclaration
from waivers.seed import QUESTIONS
from waivers.seed import run as publish_demo_set

from .test_personal_data import EXPORT, ME, where_is

pytestmark = pytest.mark.django_db

ADVICE_OF_THE_YES = QUESTIONS[2]["advice"]
# An ASCII piece of it: a JSON column may store accents escaped, which a text search would not match.
ADVICE_PIECE = "signalez-le"


@pytest.mark.database  # the scan runs on PostgreSQL too
def test_the_answers_are_in_the_export_nowhere_else_and_leave_with_the_account(
    api_client, member, django_capture_on_commit_callbacks
):
    publish_demo_set()
    api_client.force_authenticate(member)
    assert ADVICE_PIECE in ADVICE_OF_THE_YES
    declared = api_client.post(
        "/api/health/declaration",
        {
            "questionnaire_version": 1,
            "waiver_version": 1,
            "house_rules_version": 1,
            "answers": [False, False, True, False],
            "accepted": True,
        },
        format="json",
    )
    assert declared.status_code == 201 and declared.json()["advice"] == [ADVICE_OF_THE_YES]

    exported = api_client.get(EXPORT).json()["health_declaration"]
    assert [a["answer"] for a in exported["answers"]] == ["non", "non", "oui", "non"]
    assert exported["waiver_version"] == exported["house_rules_version"] == 1
    # The advice shown on "yes" is kept only with the questionnaire itself: no e-mail, no log, no copy elsewhere.
    assert where_is(ADVICE_PIECE) == ["waivers_questionnaire.questions"]

    with django_capture_on_commit_callbacks(execute=True):
        done = api_client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json")
    assert done.status_code == 200
    assert not HealthDeclaration.objects.exists()
    assert where_is(ADVICE_PIECE) == ["waivers_questionnaire.questions"]

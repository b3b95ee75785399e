"""The health questionnaire, the waiver and the house rules (docs/decisions.md 48): staff publish versions, a member
declares against the versions in force, a new version or a year asks again, and the answers are read only by the
member and the admins."""

from datetime import timedelta

import pytest
from django.utils import timezone
from freezegun import freeze_time

from accounts.models import Role
from accounts.tests.factories import UserFactory
from waivers import services
from waivers.models import HealthDeclaration, Questionnaire, StudioDocument
from waivers.seed import run as seed_run
from waivers.selectors import declaration_missing, members_flagged, members_missing

pytestmark = pytest.mark.django_db

CURRENT = "/api/health/current"
DECLARE = "/api/health/declaration"
QUESTIONNAIRES = "/api/health/questionnaires"
DOCUMENTS = "/api/health/documents"


@pytest.fixture
def published(db):
    seed_run()


def declare(api_client, member, *, answers=(False, False, False, False), accepted=True, **versions):
    api_client.force_authenticate(member)
    body = {"questionnaire_version": 1, "waiver_version": 1, "house_rules_version": 1, **versions}
    return api_client.post(DECLARE, {**body, "answers": list(answers), "accepted": accepted}, format="json")


def test_the_messages_are_french():
    assert services.MSG_DECLARATION_REQUIRED == (
        "Avant votre premier cours, répondez au questionnaire de santé et acceptez la décharge de responsabilité et "
        "le règlement intérieur."
    )
    assert services.MSG_DECLARATION_RENEW == (
        "Le questionnaire de santé, la décharge ou le règlement intérieur ont changé, ou votre déclaration date de "
        "plus d'un an : merci de les relire avant de réserver."
    )
    assert services.MSG_DECLARATION_RECORDED == "Merci, vos réponses sont enregistrées : vous pouvez réserver."
    assert (
        services.MSG_DECLARATION_OUTDATED == "Une nouvelle version vient d'être publiée : relisez-la avant de valider."
    )
    assert (
        services.MSG_ACCEPT_REQUIRED
        == "Acceptez la décharge de responsabilité et le règlement intérieur pour réserver."
    )
    assert services.MSG_ANSWERS_INVALID == "Répondez par oui ou par non à chaque question."


def test_nothing_published_asks_nothing(member):
    assert declaration_missing(member_id=member.pk) == []
    services.declaration_require(member=member)  # no refusal


def test_a_new_member_is_asked_all_three_then_is_up_to_date(api_client, member, published):
    api_client.force_authenticate(member)
    current = api_client.get(CURRENT).json()
    assert current["missing"] == ["questionnaire", "waiver", "house_rules"] and current["valid_until"] is None
    assert len(current["questionnaire"]["questions"]) == 4
    assert current["waiver"]["title"] == "Décharge de responsabilité"
    assert current["house_rules"]["title"] == "Règlement intérieur"
    with pytest.raises(services.DeclarationError) as refused:
        services.declaration_require(member=member)
    assert refused.value.message == services.MSG_DECLARATION_REQUIRED and refused.value.status == 409
    assert refused.value.body()["missing"] == ["questionnaire", "waiver", "house_rules"]

    response = declare(api_client, member, answers=[True, False, False, False])
    assert response.status_code == 201, response.json()
    assert response.json()["message"] == services.MSG_DECLARATION_RECORDED
    assert response.json()["advice"] == [
        "Parlez-en à votre professeur·e avant le cours : certains mouvements seront adaptés ou évités."
    ]
    assert api_client.get(CURRENT).json()["missing"] == []
    services.declaration_require(member=member)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"answers": [True, False]}, "answers", services.MSG_ANSWERS_INVALID),
        ({"answers": ["oui", False, False, False]}, "answers", services.MSG_ANSWERS_INVALID),
        ({"accepted": False}, "accepted", services.MSG_ACCEPT_REQUIRED),
    ],
)
def test_incomplete_answers_are_refused_in_french_and_record_nothing(
    api_client, member, published, change, field, message
):
    response = declare(api_client, member, **change)
    assert response.status_code == 400
    assert message in str(response.json())
    assert not HealthDeclaration.objects.exists()


def test_a_version_published_meanwhile_asks_to_read_again(api_client, member, staff, published):
    services.document_publish(by=staff, kind="waiver", title="Décharge", body="Nouveau texte.")
    response = declare(api_client, member)
    assert response.status_code == 409 and response.json()["error"] == services.MSG_DECLARATION_OUTDATED
    assert declare(api_client, member, waiver_version=2).status_code == 201


def test_a_new_version_or_a_year_asks_again(api_client, member, staff, published):
    assert declare(api_client, member).status_code == 201
    services.document_publish(by=staff, kind="house_rules", title="Règlement intérieur", body="Nouvelles règles.")
    assert declaration_missing(member_id=member.pk) == ["house_rules"]
    with pytest.raises(services.DeclarationError) as refused:
        services.declaration_require(member=member)
    assert refused.value.message == services.MSG_DECLARATION_RENEW
    assert declare(api_client, member, house_rules_version=2).status_code == 201
    assert declaration_missing(member_id=member.pk) == []
    a_year_later = timezone.now() + timedelta(days=365, minutes=1)
    assert declaration_missing(member_id=member.pk, now=a_year_later) == ["questionnaire", "waiver", "house_rules"]
    with freeze_time(a_year_later):
        assert members_missing(member_ids=[member.pk]) == {member.pk}


def test_staff_publish_versions_members_cannot(api_client, member, supervisor):
    api_client.force_authenticate(member)
    assert api_client.post(QUESTIONNAIRES, {"questions": [{"text": "Q ?"}]}, format="json").status_code == 403
    api_client.force_authenticate(supervisor)
    first = api_client.post(
        QUESTIONNAIRES, {"questions": [{"text": "Blessure récente ?", "advice": "Dites-le."}]}, format="json"
    )
    second = api_client.post(QUESTIONNAIRES, {"questions": [{"text": "Enceinte ?"}]}, format="json")
    assert (first.status_code, second.status_code) == (201, 201)
    assert (first.json()["version"], second.json()["version"]) == (1, 2)
    assert [q["version"] for q in api_client.get(QUESTIONNAIRES).json()] == [2, 1]
    empty = api_client.post(QUESTIONNAIRES, {"questions": []}, format="json")
    assert empty.status_code == 400
    document = api_client.post(DOCUMENTS, {"kind": "waiver", "title": "Décharge", "body": "Texte."}, format="json")
    assert document.status_code == 201 and document.json()["version"] == 1
    blank = api_client.post(DOCUMENTS, {"kind": "waiver", "title": "Décharge", "body": "   "}, format="json")
    assert blank.status_code == 400


def test_only_the_member_and_the_admins_read_the_answers(
    api_client, member, other_member, staff, supervisor, published
):
    assert declare(api_client, member, answers=[False, True, False, False]).status_code == 201
    mine = api_client.get(DECLARE).json()
    assert [a["answer"] for a in mine["answers"]] == ["non", "oui", "non", "non"]
    url = f"/api/users/{member.pk}/health-declaration"
    instructor = UserFactory(role=Role.INSTRUCTOR)
    for reader in (supervisor, instructor, other_member):
        api_client.force_authenticate(reader)
        response = api_client.get(url)
        assert response.status_code == 403, reader.role
        assert "oui" not in response.content.decode()
    api_client.force_authenticate(other_member)
    assert api_client.get(DECLARE).status_code == 404  # their own: none
    api_client.force_authenticate(staff)
    assert api_client.get(url).json()["answers"][1]["answer"] == "oui"
    assert api_client.get(f"/api/users/{other_member.pk}/health-declaration").status_code == 404


def test_the_instructors_sheet_learns_only_a_flag_and_its_date(api_client, member, other_member, published):
    declare(api_client, member, answers=[False, False, True, False])
    declare(api_client, other_member)
    flagged = members_flagged(member_ids=[member.pk, other_member.pk])
    assert list(flagged) == [member.pk]
    assert flagged[member.pk].date() == timezone.now().date()


def test_the_account_deletion_erases_the_answers(api_client, member, published):
    declare(api_client, member, answers=[True, True, True, True])
    assert services.declaration_erase(member_id=member.pk) == 1
    assert not HealthDeclaration.objects.exists()


def test_the_demo_seed_publishes_once(published):
    seed_run()
    assert Questionnaire.objects.count() == 1 and StudioDocument.objects.count() == 2

"""Staff set a member's company to invoice from the dashboard's user editor (docs/decisions.md 54): the same checks
as the member's own profile, a refusal in French beside its field that changes nothing; a member cannot set
another member's."""

import pytest

from accounts.company import MSG_COMPANY_NAME_REQUIRED, MSG_SIREN_INVALID, MSG_VAT_NUMBER_INVALID

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("editor", ["staff", "supervisor"])
def test_staff_set_a_members_company_checked_as_the_profile_is(api_client, member, editor, request):
    api_client.force_authenticate(request.getfixturevalue(editor))
    url = f"/api/users/{member.pk}"
    cases = [
        ({"company_name": "Lumière SA", "company_siren": "732 829 321"}, "company_siren", MSG_SIREN_INVALID),
        (
            {"company_name": "Lumière SA", "company_vat_number": "44732829320"},
            "company_vat_number",
            MSG_VAT_NUMBER_INVALID,
        ),
        ({"company_siren": "732829320"}, "company_name", MSG_COMPANY_NAME_REQUIRED),
    ]
    for body, field, message in cases:
        refused = api_client.put(url, body, format="json")
        assert refused.status_code == 400 and refused.json()["errors"] == {field: [message]}
    member.refresh_from_db()
    assert (member.company_name, member.company_siren, member.company_vat_number) == ("", "", "")

    saved = api_client.put(
        url,
        {"company_name": "Lumière SA", "company_siren": "732 829 320", "company_vat_number": "fr44 732 829 320"},
        format="json",
    )
    assert saved.status_code == 200, saved.json()
    member.refresh_from_db()
    assert (member.company_name, member.company_siren, member.company_vat_number) == (
        "Lumière SA",
        "732829320",
        "FR44732829320",
    )
    listed = api_client.get("/api/users", {"search": "emma"}).json()["results"]
    assert [row["company_siren"] for row in listed] == ["732829320"]


def test_a_member_cannot_set_another_members_company(api_client, member, other_member):
    api_client.force_authenticate(other_member)
    refused = api_client.put(f"/api/users/{member.pk}", {"company_name": "Intrus SA"}, format="json")
    assert refused.status_code in (403, 404)
    member.refresh_from_db()
    assert member.company_name == ""

"""Staff keep each instructor's pay rules from a date (docs/decisions.md 52); nobody else reaches them."""

from decimal import Decimal

import pytest

from accounts.models import Role
from accounts.tests.factories import UserFactory
from courses.apis.pay_rules import MSG_PAY_RULE_AMOUNT, MSG_PAY_RULE_DATE, MSG_PAY_RULE_KIND
from courses.models_pay import InstructorPayRule
from courses.services.catalogue import MSG_INSTRUCTOR_NOT_FOUND
from courses.services.pay_rules import MSG_PAY_RULE_DAY_TAKEN, MSG_PAY_RULE_NOT_FOUND
from courses.tests.factories import InstructorFactory

pytestmark = pytest.mark.django_db


def _rules_url(instructor_id):
    return f"/api/instructors/{instructor_id}/pay-rules"


def test_staff_add_a_rule_of_each_kind_and_the_unused_amount_is_kept_at_zero(api_client, staff):
    lea = InstructorFactory(name="Léa Garnier")
    api_client.force_authenticate(staff)
    answer = api_client.post(
        _rules_url(lea.pk),
        {"starts_on": "2026-09-01", "kind": "per_class", "class_amount": "45.50", "attendee_amount": "3.00"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["kind_label"] == "Par cours"
    assert answer.json()["attendee_amount"] == "0.00"
    api_client.post(
        _rules_url(lea.pk),
        {"starts_on": "2026-10-01", "kind": "base_plus_attendee", "class_amount": "20", "attendee_amount": "2.5"},
        format="json",
    )
    listed = api_client.get(_rules_url(lea.pk)).json()
    assert [(r["starts_on"], r["kind_label"]) for r in listed] == [
        ("2026-10-01", "Forfait + par participant"),
        ("2026-09-01", "Par cours"),
    ]
    rule = InstructorPayRule.objects.get(instructor=lea, starts_on="2026-10-01")
    assert (rule.class_amount, rule.attendee_amount) == (Decimal("20.00"), Decimal("2.50"))


def test_a_second_rule_on_the_same_day_is_refused_in_french(api_client, staff):
    lea = InstructorFactory()
    api_client.force_authenticate(staff)
    body = {"starts_on": "2026-09-01", "kind": "per_attendee", "attendee_amount": "4"}
    assert api_client.post(_rules_url(lea.pk), body, format="json").status_code == 201
    again = api_client.post(_rules_url(lea.pk), body, format="json")
    assert again.status_code == 409
    assert again.json()["message"] == MSG_PAY_RULE_DAY_TAKEN


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"starts_on": "01/09/2026", "kind": "per_class", "class_amount": "10"}, MSG_PAY_RULE_DATE),
        ({"starts_on": "2026-09-01", "kind": "hourly", "class_amount": "10"}, MSG_PAY_RULE_KIND),
        ({"starts_on": "2026-09-01", "kind": "per_class", "class_amount": "-1"}, MSG_PAY_RULE_AMOUNT),
        ({"starts_on": "2026-09-01", "kind": "per_class", "class_amount": "1.234"}, MSG_PAY_RULE_AMOUNT),
        ({"starts_on": "2026-09-01", "kind": "per_attendee", "attendee_amount": "abc"}, MSG_PAY_RULE_AMOUNT),
        ({"starts_on": "2026-09-01", "kind": "per_attendee", "attendee_amount": ""}, MSG_PAY_RULE_AMOUNT),
        ({"starts_on": "2026-09-01", "kind": "per_attendee", "attendee_amount": -0.5}, MSG_PAY_RULE_AMOUNT),
    ],
)
def test_bad_input_is_answered_in_french(api_client, staff, body, message):
    api_client.force_authenticate(staff)
    answer = api_client.post(_rules_url(InstructorFactory().pk), body, format="json")
    assert answer.status_code == 400
    assert answer.json()["message"] == message


def test_staff_change_and_delete_a_rule(api_client, staff):
    lea = InstructorFactory()
    api_client.force_authenticate(staff)
    rule_id = api_client.post(
        _rules_url(lea.pk), {"starts_on": "2026-09-01", "kind": "per_class", "class_amount": "40"}, format="json"
    ).json()["id"]
    changed = api_client.put(
        f"/api/instructor-pay-rules/{rule_id}",
        {"starts_on": "2026-09-15", "kind": "per_attendee", "class_amount": "40", "attendee_amount": "5"},
        format="json",
    )
    assert changed.status_code == 200
    assert changed.json()["class_amount"] == "0.00" and changed.json()["attendee_amount"] == "5.00"
    assert api_client.delete(f"/api/instructor-pay-rules/{rule_id}").status_code == 204
    gone = api_client.delete(f"/api/instructor-pay-rules/{rule_id}")
    assert gone.status_code == 404 and gone.json()["message"] == MSG_PAY_RULE_NOT_FOUND
    unknown = api_client.get(_rules_url(999999))
    assert unknown.status_code == 404 and unknown.json()["message"] == MSG_INSTRUCTOR_NOT_FOUND


def test_an_instructor_or_a_member_cannot_read_or_write_pay_rules(api_client, member):
    account = UserFactory(role=Role.INSTRUCTOR)
    lea = InstructorFactory(user=account)
    for user in (account, member):
        api_client.force_authenticate(user)
        assert api_client.get(_rules_url(lea.pk)).status_code == 403
        body = {"starts_on": "2026-09-01", "kind": "per_class", "class_amount": "999"}
        assert api_client.post(_rules_url(lea.pk), body, format="json").status_code == 403
    assert not InstructorPayRule.objects.exists()


def test_an_amount_may_be_a_json_number_as_the_schema_says(api_client, staff):
    api_client.force_authenticate(staff)
    body = {"starts_on": "2026-09-01", "kind": "base_plus_attendee", "class_amount": 25, "attendee_amount": 2.5}
    answer = api_client.post(_rules_url(InstructorFactory().pk), body, format="json")
    assert answer.status_code == 201
    assert (answer.json()["class_amount"], answer.json()["attendee_amount"]) == ("25.00", "2.50")

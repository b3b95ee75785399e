"""Two staff saving a pay rule for the same instructor and day at once (PostgreSQL): one rule is kept, the other
hears in French that the day is taken."""

import threading
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection

from courses.models_pay import InstructorPayRule, PayRuleKind
from courses.services.pay_rules import MSG_PAY_RULE_DAY_TAKEN, PayRuleError, pay_rule_create
from courses.tests.factories import InstructorFactory


@pytest.mark.postgres
def test_two_rules_on_the_same_day_at_once_keep_one():
    lea = InstructorFactory()
    barrier = threading.Barrier(2)
    outcomes = []

    def create(amount):
        try:
            barrier.wait()
            pay_rule_create(
                instructor=lea, starts_on=date(2026, 9, 1), kind=PayRuleKind.PER_CLASS,
                class_amount=Decimal(amount), attendee_amount=Decimal("0"),
            )  # fmt: skip
            outcomes.append("created")
        except PayRuleError as error:
            outcomes.append((error.status, error.message))
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(amount,)) for amount in ("40", "45")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes, key=str) == sorted(["created", (409, MSG_PAY_RULE_DAY_TAKEN)], key=str)
    assert InstructorPayRule.objects.filter(instructor=lea).count() == 1

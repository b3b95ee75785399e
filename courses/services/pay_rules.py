"""Staff write instructors' pay rules (docs/decisions.md 52): each applies to the classes given from its date on,
until the instructor's next rule starts (bookings' statements read them)."""

from datetime import date
from decimal import Decimal

from django.db import IntegrityError, transaction

from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

from ..models import Instructor
from ..models_pay import InstructorPayRule, PayRuleKind

MSG_PAY_RULE_NOT_FOUND = "Règle de rémunération introuvable."
MSG_PAY_RULE_DAY_TAKEN = "Une règle de ce professeur commence déjà ce jour-là : modifiez-la plutôt."
ZERO = Decimal("0.00")


class PayRuleError(ApplicationError):
    default_code = "pay_rule_invalid"
    messages = {"pay_rule_not_found": MSG_PAY_RULE_NOT_FOUND, "pay_rule_day_taken": MSG_PAY_RULE_DAY_TAKEN}
    statuses = {"pay_rule_not_found": NOT_FOUND, "pay_rule_day_taken": CONFLICT}


def _amounts(kind: str, class_amount: Decimal, attendee_amount: Decimal) -> tuple[Decimal, Decimal]:
    """The amounts the kind pays with; the other kept at zero so the row reads as it pays."""
    if kind == PayRuleKind.PER_CLASS:
        return class_amount, ZERO
    if kind == PayRuleKind.PER_ATTENDEE:
        return ZERO, attendee_amount
    return class_amount, attendee_amount


def pay_rules_of(*, instructor: Instructor) -> list[InstructorPayRule]:
    return list(InstructorPayRule.objects.filter(instructor=instructor).order_by("-starts_on", "-id"))


def pay_rule_get_or_404(*, rule_id: int) -> InstructorPayRule:
    rule = InstructorPayRule.objects.select_related("instructor").filter(pk=rule_id).first()
    if rule is None:
        raise PayRuleError.of("pay_rule_not_found")
    return rule


def _saved(rule: InstructorPayRule) -> InstructorPayRule:
    try:
        with transaction.atomic():
            rule.save()
    except IntegrityError:  # the unique (instructor, day): two staff saving the same day at once included
        raise PayRuleError.of("pay_rule_day_taken", field="starts_on") from None
    return rule


def pay_rule_create(
    *, instructor: Instructor, starts_on: date, kind: str, class_amount: Decimal, attendee_amount: Decimal
) -> InstructorPayRule:
    class_amount, attendee_amount = _amounts(kind, class_amount, attendee_amount)
    rule = InstructorPayRule(
        instructor=instructor,
        starts_on=starts_on,
        kind=kind,
        class_amount=class_amount,
        attendee_amount=attendee_amount,
    )
    return _saved(rule)


def pay_rule_update(
    *, rule: InstructorPayRule, starts_on: date, kind: str, class_amount: Decimal, attendee_amount: Decimal
) -> InstructorPayRule:
    rule.starts_on, rule.kind = starts_on, kind
    rule.class_amount, rule.attendee_amount = _amounts(kind, class_amount, attendee_amount)
    return _saved(rule)


def pay_rule_delete(*, rule: InstructorPayRule) -> None:
    rule.delete()

"""An instructor's monthly statement (docs/decisions.md 52): the classes they gave in a Paris month, the attendees
present at each, the pay rule that applies and what it pays.

A class counts for the instructor it names when it is read, so a class taken over by a substitute is paid to the
substitute; a cancelled class is not paid. The attendees are the participants of the confirmed bookings marked
present on the attendance sheet: an absent or unmarked booking is not counted (the studio pays for who came). The
rule of a class is the instructor's latest rule starting on or before the class's Paris day; a class before their
first rule pays nothing and says so. Three queries whatever the month holds."""

from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce

from courses.models import CourseSession, Instructor, SessionStatus
from courses.models_pay import InstructorPayRule, PayRuleKind

from ..models import ReservationStatus
from ..models_operations import AttendanceStatus

ZERO = Decimal("0.00")
NO_RULE = "Aucune règle de rémunération à cette date"
MONTHS = (
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
)  # fmt: skip


@dataclass(frozen=True)
class StatementLine:
    session_id: int
    start: datetime
    course_title: str
    attendees: int
    rule: InstructorPayRule | None
    amount: Decimal

    @property
    def rule_text(self) -> str:
        return pay_rule_text(self.rule)

    @property
    def amount_text(self) -> str:
        return euros(self.amount)


@dataclass(frozen=True)
class Statement:
    instructor: Instructor
    month: date  # its first day
    lines: list[StatementLine]
    total: Decimal

    @property
    def total_text(self) -> str:
        return euros(self.total)

    @property
    def month_label(self) -> str:
        return f"{MONTHS[self.month.month - 1]} {self.month.year}"


def euros(amount: Decimal) -> str:
    """French money as the statement prints it: "1 234,50 €" (a space groups thousands)."""
    whole, cents = f"{Decimal(amount):.2f}".split(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return f"{' '.join(groups)},{cents} €"


def pay_rule_text(rule: InstructorPayRule | None) -> str:
    if rule is None:
        return NO_RULE
    match rule.kind:
        case PayRuleKind.PER_CLASS:
            return f"Par cours : {euros(rule.class_amount)}"
        case PayRuleKind.PER_ATTENDEE:
            return f"Par participant : {euros(rule.attendee_amount)}"
        case _:
            return f"Forfait + par participant : {euros(rule.class_amount)} + {euros(rule.attendee_amount)}"


def month_bounds(month: date) -> tuple[datetime, datetime]:
    """The month's first instant and the next month's, in Paris time."""
    paris = ZoneInfo(settings.TIME_ZONE)
    following = date(month.year + month.month // 12, month.month % 12 + 1, 1)
    return (
        datetime.combine(month.replace(day=1), time.min, tzinfo=paris),
        datetime.combine(following, time.min, tzinfo=paris),
    )


def _rule_on(rules: list[InstructorPayRule], day: date) -> InstructorPayRule | None:
    found = None
    for rule in rules:  # by starting day, ascending
        if rule.starts_on <= day:
            found = rule
    return found


def instructor_statement(*, instructor: Instructor, month: date) -> Statement:
    start, end = month_bounds(month)
    present = Q(
        reservations__status=ReservationStatus.CONFIRMED,
        reservations__attendance__status=AttendanceStatus.PRESENT,
    )
    sessions = (
        CourseSession.objects.filter(instructor=instructor, start__gte=start, start__lt=end)
        .exclude(status=SessionStatus.CANCELLED)
        .select_related("course")
        .only("start", "course__title")
        .annotate(
            present=Coalesce(Sum("reservations__participants", filter=present), Value(0), output_field=IntegerField())
        )
        .order_by("start", "id")
    )
    rules = list(
        InstructorPayRule.objects.filter(instructor=instructor, starts_on__lt=end.date()).order_by("starts_on", "id")
    )
    paris = start.tzinfo
    lines = []
    for session in sessions:
        rule = _rule_on(rules, session.start.astimezone(paris).date())
        amount = rule.amount_for(session.present) if rule else ZERO
        lines.append(
            StatementLine(
                session_id=session.pk,
                start=session.start,
                course_title=session.course.title,
                attendees=session.present,
                rule=rule,
                amount=amount,
            )
        )
    total = sum((line.amount for line in lines), ZERO).quantize(Decimal("0.01"))
    return Statement(instructor=instructor, month=month.replace(day=1), lines=lines, total=total)

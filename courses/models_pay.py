"""What the studio pays its instructors (docs/decisions.md 52): rules from a date, read by bookings' statements."""

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models


class PayRuleKind(models.TextChoices):
    PER_CLASS = "per_class", "Par cours"
    PER_ATTENDEE = "per_attendee", "Par participant"
    BASE_PLUS_ATTENDEE = "base_plus_attendee", "Forfait + par participant"


class InstructorPayRule(models.Model):
    """How an instructor is paid for the classes given from `starts_on` on, until their next rule starts.

    `class_amount` is the amount per class ("Par cours") or the base ("Forfait + par participant");
    `attendee_amount` is paid per present attendee ("Par participant", and on top of the base). A kind's unused amount
    is kept at zero by the service, so the row reads as it pays."""

    instructor = models.ForeignKey(
        "courses.Instructor", on_delete=models.CASCADE, related_name="pay_rules", verbose_name="professeur"
    )
    starts_on = models.DateField("à partir du")
    kind = models.CharField("mode de rémunération", max_length=20, choices=PayRuleKind.choices)
    class_amount = models.DecimalField(
        "montant par cours ou forfait (€)",
        max_digits=8,
        decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal("0.00"))],
    )
    attendee_amount = models.DecimalField(
        "montant par participant (€)",
        max_digits=8,
        decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal("0.00"))],
    )
    created_at = models.DateTimeField("créée le", auto_now_add=True)

    class Meta:
        verbose_name = "règle de rémunération"
        verbose_name_plural = "règles de rémunération"
        ordering = ["instructor_id", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["instructor", "starts_on"], name="pay_rule_one_per_instructor_and_day"),
            models.CheckConstraint(condition=models.Q(kind__in=PayRuleKind.values), name="pay_rule_kind_valid"),
            models.CheckConstraint(
                condition=models.Q(class_amount__gte=0, attendee_amount__gte=0), name="pay_rule_amounts_not_negative"
            ),
        ]

    def __str__(self):
        return f"{self.instructor} – {self.get_kind_display()} dès le {self.starts_on:%d/%m/%Y}"

    def amount_for(self, attendees: int) -> Decimal:
        """What one class with `attendees` present pays under this rule, to the cent."""
        match self.kind:
            case PayRuleKind.PER_CLASS:
                amount = self.class_amount
            case PayRuleKind.PER_ATTENDEE:
                amount = self.attendee_amount * attendees
            case _:
                amount = self.class_amount + self.attendee_amount * attendees
        return Decimal(amount).quantize(Decimal("0.01"))

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from courses.models import CourseSession


class ReservationStatus(models.TextChoices):
    HELD = "held", "En attente de paiement"
    CONFIRMED = "confirmed", "Confirmée"
    CANCELLED = "cancelled", "Annulée"
    EXPIRED = "expired", "Expirée"


ACTIVE_STATUSES = (ReservationStatus.HELD, ReservationStatus.CONFIRMED)


class Reservation(models.Model):
    """Seats taken by a member on a course session.

    A HELD reservation keeps its seats until `hold_expires_at` (DECISIONS.md 13); a capture confirms it.
    """

    session = models.ForeignKey(
        CourseSession, on_delete=models.PROTECT, related_name="reservations", verbose_name="session"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reservations", verbose_name="membre"
    )
    participants = models.PositiveSmallIntegerField("participants", default=1, validators=[MinValueValidator(1)])
    unit_price = models.DecimalField("prix par participant (€)", max_digits=8, decimal_places=2)
    first_name = models.CharField("prénom", max_length=150)
    last_name = models.CharField("nom", max_length=150)
    email = models.EmailField("email")
    message = models.TextField("message", blank=True)
    status = models.CharField(
        "statut", max_length=20, choices=ReservationStatus.choices, default=ReservationStatus.HELD, db_index=True
    )
    hold_expires_at = models.DateTimeField("place retenue jusqu'à", null=True, blank=True)
    created_at = models.DateTimeField("créée le", auto_now_add=True)
    confirmed_at = models.DateTimeField("confirmée le", null=True, blank=True)
    cancelled_at = models.DateTimeField("annulée le", null=True, blank=True)

    class Meta:
        verbose_name = "réservation"
        verbose_name_plural = "réservations"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(participants__gte=1), name="reservation_participants_positive"),
            models.CheckConstraint(condition=models.Q(unit_price__gte=0), name="reservation_price_not_negative"),
            models.UniqueConstraint(
                fields=["session", "user"],
                condition=models.Q(status__in=["held", "confirmed"]),
                name="reservation_one_active_per_member_and_session",
            ),
        ]
        indexes = [models.Index(fields=["session", "status"])]

    def __str__(self):
        return f"{self.user} – {self.session} ({self.get_status_display()})"

    @property
    def total_amount(self) -> Decimal:
        return (self.unit_price * self.participants).quantize(Decimal("0.01"))


class PartyEventType(models.TextChoices):
    EVJF = "EVJF", "EVJF (enterrement de vie de jeune fille)"
    EVG = "EVG", "EVG (enterrement de vie de garçon)"


class PartyReservation(models.Model):
    """An EVJF/EVG party request (SPEC.md 2.7, 3): stored, e-mailed to the studio and the member, listed for staff."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="party_reservations",
        verbose_name="membre",
    )
    event_type = models.CharField(
        "type d'événement", max_length=4, choices=PartyEventType.choices, default=PartyEventType.EVJF
    )
    date = models.DateField("date")
    time = models.TimeField("heure")
    participants = models.PositiveSmallIntegerField("participants", validators=[MinValueValidator(1)])
    email = models.EmailField("email")
    first_name = models.CharField("prénom", max_length=150, blank=True)
    last_name = models.CharField("nom", max_length=150, blank=True)
    title = models.CharField("intitulé", max_length=200, blank=True)
    message = models.TextField("message", blank=True)
    created_at = models.DateTimeField("reçue le", auto_now_add=True)

    class Meta:
        verbose_name = "réservation EVJF/EVG"
        verbose_name_plural = "réservations EVJF/EVG"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(participants__gte=1), name="party_participants_positive"),
            models.CheckConstraint(condition=models.Q(event_type__in=["EVJF", "EVG"]), name="party_event_type_valid"),
        ]

    def __str__(self):
        return f"{self.event_type} – {self.date:%d/%m/%Y} ({self.email})"


class CourseFeedback(models.Model):
    """A member's rating and comment on a course they followed: one per member and course, editable."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="course_feedbacks", verbose_name="membre"
    )
    course = models.ForeignKey(
        "courses.Course", on_delete=models.CASCADE, related_name="feedbacks", verbose_name="cours"
    )
    rating = models.PositiveSmallIntegerField("note", validators=[MinValueValidator(1), MaxValueValidator(5)])
    comment = models.TextField("commentaire")
    created_at = models.DateTimeField("créé le", auto_now_add=True)
    updated_at = models.DateTimeField("modifié le", auto_now=True)

    class Meta:
        verbose_name = "avis sur un cours"
        verbose_name_plural = "avis sur les cours"
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "course"], name="feedback_one_per_member_and_course"),
            models.CheckConstraint(condition=models.Q(rating__gte=1, rating__lte=5), name="feedback_rating_1_to_5"),
        ]

    def __str__(self):
        return f"{self.user} – {self.course} ({self.rating}/5)"

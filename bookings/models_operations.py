"""The bookings models of the studio's daily running: waiting lists, attendance, reminders and the personal calendar
feed. Kept apart from `models.py` to keep each module short; they are imported there, so Django and every
`from bookings.models import ...` find them. Their relations to the models of `models.py` are named by string
("bookings.Reservation"), so that this module imports nothing from there (no import circle)."""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

from courses.models import CourseSession


class WaitlistStatus(models.TextChoices):
    WAITING = "waiting", "En liste d'attente"
    OFFERED = "offered", "Place proposée"
    BOOKED = "booked", "Réservée"
    LEFT = "left", "Quittée"
    EXPIRED = "expired", "Proposition expirée"
    SKIPPED = "skipped", "Passée (carte ou abonnement insuffisant)"


WAITLIST_LIVE_STATUSES = (WaitlistStatus.WAITING, WaitlistStatus.OFFERED)


class WaitlistEntry(models.Model):
    """A member in line for a full session (docs/decisions.md 28), first come first offered (`created_at`, id).

    When seats free, the first WAITING entry whose participants fit is offered them (bookings/services/waitlist.py):
    with `auto_book` and a pass that pays, it is booked at once (BOOKED, `reservation` confirmed); otherwise a hold
    (`reservation`, HELD until `offer_expires_at`) waits for the member to pay (OFFERED). An offer is made once.
    """

    session = models.ForeignKey(
        CourseSession, on_delete=models.CASCADE, related_name="waitlist_entries", verbose_name="session"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waitlist_entries", verbose_name="membre"
    )
    participants = models.PositiveSmallIntegerField("participants", default=1, validators=[MinValueValidator(1)])
    auto_book = models.BooleanField("réserver automatiquement", default=False)
    pass_ref = models.ForeignKey(
        "bookings.Pass",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="waitlist_entries",
        verbose_name="carte ou abonnement",
    )
    status = models.CharField(
        "statut", max_length=20, choices=WaitlistStatus.choices, default=WaitlistStatus.WAITING, db_index=True
    )
    created_at = models.DateTimeField("inscrite le", auto_now_add=True)
    offered_at = models.DateTimeField("place proposée le", null=True, blank=True)
    offer_expires_at = models.DateTimeField("proposition valable jusqu'au", null=True, blank=True)
    ended_at = models.DateTimeField("terminée le", null=True, blank=True)
    reservation = models.OneToOneField(
        "bookings.Reservation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="waitlist_entry",
        verbose_name="réservation",
    )

    class Meta:
        verbose_name = "inscription en liste d'attente"
        verbose_name_plural = "listes d'attente"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(participants__gte=1), name="waitlist_participants_positive"),
            models.CheckConstraint(condition=models.Q(status__in=WaitlistStatus.values), name="waitlist_status_valid"),
            models.CheckConstraint(
                condition=models.Q(auto_book=False) | models.Q(pass_ref__isnull=False),
                name="waitlist_auto_book_needs_a_pass",
            ),
            models.UniqueConstraint(
                fields=["session", "user"],
                condition=models.Q(status__in=["waiting", "offered"]),
                name="waitlist_one_live_entry_per_member_and_session",
            ),
        ]
        indexes = [models.Index(fields=["session", "status", "created_at"])]

    def __str__(self):
        return f"{self.user} – {self.session} ({self.get_status_display()})"


class AttendanceStatus(models.TextChoices):
    PRESENT = "present", "Présent(e)"
    ABSENT = "absent", "Absent(e)"


class Attendance(models.Model):
    """Whether a booked member came (docs/decisions.md 38), marked by staff at the studio door.

    An absence is a no-show on the member's record (counted, no fee). A walk-in added at the door is a booking like
    any other (confirmed, paid with a pass credit or recorded as paid at the desk), marked present at once.
    """

    reservation = models.OneToOneField(
        "bookings.Reservation", on_delete=models.CASCADE, related_name="attendance", verbose_name="réservation"
    )
    status = models.CharField("présence", max_length=10, choices=AttendanceStatus.choices)
    walk_in = models.BooleanField("ajouté(e) à l'accueil", default=False)
    paid_at_desk = models.BooleanField("payé à l'accueil", default=False)
    marked_at = models.DateTimeField("pointé le", auto_now=True)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="pointé par",
    )

    class Meta:
        verbose_name = "présence"
        verbose_name_plural = "présences"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=AttendanceStatus.values), name="attendance_status_valid"
            ),
        ]
        # The absences alone (a no-show on the member's record), counted for the users list from the index.
        indexes = [
            models.Index(
                fields=["reservation"], condition=models.Q(status=AttendanceStatus.ABSENT), name="attendance_absent_idx"
            )
        ]

    def __str__(self):
        return f"{self.reservation} – {self.get_status_display()}"


class BookingPreferences(models.Model):
    """A member's booking preferences (docs/decisions.md 29): the two reminder e-mails, each switchable on the
    profile, and the secret token of their personal iCalendar feed (None until they ask for it; a new one revokes
    the old URL). Absent row = the defaults (both reminders on, no feed)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="booking_preferences", verbose_name="membre"
    )
    remind_day_before = models.BooleanField("rappel 24 heures avant le cours", default=True)
    remind_cancellation_deadline = models.BooleanField("rappel avant la fin de l'annulation gratuite", default=True)
    calendar_token = models.CharField(
        "jeton du calendrier personnel", max_length=64, null=True, blank=True, unique=True
    )
    calendar_token_created_at = models.DateTimeField("lien de calendrier créé le", null=True, blank=True)

    class Meta:
        verbose_name = "préférences de réservation"
        verbose_name_plural = "préférences de réservation"

    def __str__(self):
        return f"Préférences de {self.user}"


class ReminderKind(models.TextChoices):
    DAY_BEFORE = "day_before", "24 heures avant"
    CANCELLATION_DEADLINE = "cancellation_deadline", "Fin de l'annulation gratuite"


class ReservationReminder(models.Model):
    """A reminder e-mail sent for a reservation: one row per kind, so the scheduler sends each once."""

    reservation = models.ForeignKey(
        "bookings.Reservation", on_delete=models.CASCADE, related_name="reminders", verbose_name="réservation"
    )
    kind = models.CharField("rappel", max_length=30, choices=ReminderKind.choices)
    sent_at = models.DateTimeField("envoyé le", auto_now_add=True)

    class Meta:
        verbose_name = "rappel envoyé"
        verbose_name_plural = "rappels envoyés"
        constraints = [
            models.UniqueConstraint(fields=["reservation", "kind"], name="reminder_once_per_reservation_and_kind"),
            models.CheckConstraint(condition=models.Q(kind__in=ReminderKind.values), name="reminder_kind_valid"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} – {self.reservation_id}"


class LateCancellationStatus(models.TextChoices):
    PENDING = "pending", "Place remise en vente"
    RETURNED = "returned", "Place reprise : crédit rendu"


class LateCancellation(models.Model):
    """A member's cancellation inside the free-cancellation window (docs/decisions.md 44): the studio keeps what was
    paid unless the class fills back before it starts, i.e. its confirmed seats reach again `seats_taken_before`
    (what they were just before this cancellation); then the pass credits, or an 'avoir' for a card payment, come
    back once (RETURNED, `returned_at`), under the session lock. Still PENDING when the class starts: kept."""

    reservation = models.OneToOneField(
        "bookings.Reservation", on_delete=models.PROTECT, related_name="late_cancellation", verbose_name="réservation"
    )
    session = models.ForeignKey(
        "courses.CourseSession", on_delete=models.PROTECT, related_name="late_cancellations", verbose_name="session"
    )
    seats_taken_before = models.PositiveSmallIntegerField("places confirmées avant l'annulation")
    status = models.CharField(
        "statut", max_length=10, choices=LateCancellationStatus.choices, default=LateCancellationStatus.PENDING
    )
    cancelled_at = models.DateTimeField("annulée le", auto_now_add=True)
    returned_at = models.DateTimeField("crédit rendu le", null=True, blank=True)

    class Meta:
        app_label = "bookings"
        verbose_name = "annulation tardive"
        verbose_name_plural = "annulations tardives"
        ordering = ["cancelled_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=LateCancellationStatus.values), name="late_cancellation_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(status=LateCancellationStatus.PENDING, returned_at__isnull=True)
                | models.Q(status=LateCancellationStatus.RETURNED, returned_at__isnull=False),
                name="late_cancellation_returned_has_a_date",
            ),
        ]
        indexes = [
            models.Index(
                fields=["session"],
                condition=models.Q(status="pending"),
                name="late_cancellation_pending_idx",
            )
        ]

    def __str__(self):
        return f"Annulation tardive {self.reservation_id} ({self.get_status_display()})"

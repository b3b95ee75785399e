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


class CancelReason(models.TextChoices):
    """Why a reservation ended without its class: set by the bookings service that ended it, so that payments tells
    a class the studio cancelled (refunded in full) from a member's own cancellation (an 'avoir') without guessing."""

    MEMBER = "member", "Annulée par le membre"
    LATE = "late", "Annulée hors délai"
    STUDIO = "studio", "Cours annulé par le studio"
    EXPIRED = "expired", "Place retenue expirée"
    REFUNDED = "refunded", "Paiement remboursé"


class PaymentPending(models.TextChoices):
    """The card payment of a hold, as payments reports it through bookings' services (payments/services/common.py):
    while one is open the reservation's seats and price are frozen and no pass may pay it; once the payer approved
    it, it may be captured at any moment and the member can no longer release the hold."""

    NONE = "", "Aucun paiement en cours"
    OPEN = "open", "Paiement en cours"
    APPROVED = "approved", "Paiement approuvé, en attente d'encaissement"


class DeskPayment(models.TextChoices):
    """A booking staff made on a member's behalf and paid at the front desk (docs/decisions.md 50): still to be settled
    ("à régler") or settled by a desk sale, which payments records through bookings' services."""

    NONE = "", "Non concerné"
    DUE = "due", "À régler"
    PAID = "paid", "Payé à l'accueil"


class Reservation(models.Model):
    """Seats taken by a member on a course session.

    A HELD reservation keeps its seats until `hold_expires_at` (docs/decisions.md 13); a capture confirms it.
    """

    session = models.ForeignKey(
        CourseSession, on_delete=models.PROTECT, related_name="reservations", verbose_name="session"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reservations",
        verbose_name="membre",
        db_index=False,  # reservation_user_idx below: (user, id)
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
    cancel_reason = models.CharField("motif d'annulation", max_length=10, choices=CancelReason.choices, blank=True)
    payment_pending = models.CharField(
        "paiement par carte", max_length=10, choices=PaymentPending.choices, blank=True, default=PaymentPending.NONE
    )
    # Paid with a class card or a subscription instead of a card payment: which pass, how many credits.
    paid_with_pass = models.ForeignKey(
        "bookings.Pass",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reservations",
        verbose_name="payée avec",
    )
    credits_spent = models.PositiveSmallIntegerField("crédits utilisés", default=0)
    # Staff booking or cancelling on the member's behalf (docs/decisions.md 50): who did it; the client's history
    # keeps the same in accounts' StaffAction lines.
    booked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="réservée par (équipe)",
    )
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="annulée par (équipe)",
    )
    desk_payment = models.CharField(
        "paiement à l'accueil", max_length=4, choices=DeskPayment.choices, blank=True, default=DeskPayment.NONE
    )

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
            models.CheckConstraint(
                condition=models.Q(credits_spent=0) | models.Q(paid_with_pass__isnull=False),
                name="reservation_credits_spent_on_a_pass",
            ),
        ]
        indexes = [
            models.Index(fields=["session", "status"]),
            # A member's bookings by id, read from the index alone (the users list's no-show counts,
            # bookings/selectors/attendance.py); in place of the foreign key's own index on the member.
            models.Index(fields=["user", "id"], name="reservation_user_idx"),
        ]

    def __str__(self):
        return f"{self.user} – {self.session} ({self.get_status_display()})"

    @property
    def total_amount(self) -> Decimal:
        return (self.unit_price * self.participants).quantize(Decimal("0.01"))


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


class PassKind(models.TextChoices):
    CARD = "card", "Carte de cours"
    SUBSCRIPTION = "subscription", "Abonnement"


class PassOrigin(models.TextChoices):
    PURCHASE = "purchase", "Achat en ligne"
    STAFF = "staff", "Attribuée par le studio"
    CANCELLATION = "cancellation", "Avoir d'annulation"


class Pass(models.Model):
    """What a member may book with instead of paying by card: a class card (credits) or a subscription (unlimited).

    Valid from `starts_on` to `expires_on` included (Paris dates). A card spends one credit per participant; a
    subscription covers the member alone. Created by a captured tariff order (one pass per order: a quantity of N
    cards gives N × the tariff's credits, N subscriptions N × its period), by staff, or by cancelling a reservation
    paid by card (an 'avoir').
    """

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="passes", verbose_name="membre"
    )
    tariff = models.ForeignKey(
        "courses.Tariff", on_delete=models.PROTECT, null=True, blank=True, related_name="passes", verbose_name="tarif"
    )
    kind = models.CharField("type", max_length=20, choices=PassKind.choices)
    origin = models.CharField("origine", max_length=20, choices=PassOrigin.choices, default=PassOrigin.PURCHASE)
    title = models.CharField("intitulé", max_length=150)
    credits_total = models.PositiveIntegerField("crédits accordés", null=True, blank=True)
    credits_left = models.PositiveIntegerField("crédits restants", null=True, blank=True)
    starts_on = models.DateField("valable à partir du")
    expires_on = models.DateField("valable jusqu'au")
    source_reservation = models.OneToOneField(
        Reservation,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="credit_pass",
        verbose_name="réservation annulée d'origine",
    )
    created_at = models.DateTimeField("créée le", auto_now_add=True)

    class Meta:
        verbose_name = "carte ou abonnement"
        verbose_name_plural = "cartes et abonnements"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(kind__in=PassKind.values), name="pass_kind_valid"),
            models.CheckConstraint(condition=models.Q(origin__in=PassOrigin.values), name="pass_origin_valid"),
            models.CheckConstraint(
                condition=(
                    models.Q(
                        kind=PassKind.CARD,
                        credits_total__isnull=False,
                        credits_left__isnull=False,
                        credits_left__gte=0,
                        credits_left__lte=models.F("credits_total"),
                    )
                    | models.Q(kind=PassKind.SUBSCRIPTION, credits_total__isnull=True, credits_left__isnull=True)
                ),
                name="pass_credits_match_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(expires_on__gte=models.F("starts_on")), name="pass_expires_after_start"
            ),
        ]
        indexes = [
            models.Index(fields=["member", "expires_on"]),
            # The staff's passes list, newest first by default: read from the index, not sorted whole.
            models.Index(fields=["created_at", "id"], name="pass_created_idx"),
        ]

    def __str__(self):
        return f"{self.title} – {self.member} (jusqu'au {self.expires_on:%d/%m/%Y})"

    @property
    def is_card(self) -> bool:
        return self.kind == PassKind.CARD


class PassAdjustmentAction(models.TextChoices):
    PURCHASE = "purchase", "Achat"
    GRANT = "grant", "Attribution par le studio"
    CREDITS = "credits", "Crédits ajustés"
    EXTEND = "extend", "Validité prolongée"
    SPEND = "spend", "Réservation"
    RETURN = "return", "Annulation : crédits rendus"
    CANCELLATION_CREDIT = "cancellation_credit", "Avoir d'annulation"
    REFUND = "refund", "Commande remboursée"


STAFF_ACTIONS = (PassAdjustmentAction.GRANT, PassAdjustmentAction.CREDITS, PassAdjustmentAction.EXTEND)


class PassAdjustment(models.Model):
    """The pass's ledger: every change of credits or validity, who made it (staff, or nobody for the system) and why."""

    pass_ref = models.ForeignKey(
        Pass, on_delete=models.PROTECT, related_name="adjustments", verbose_name="carte ou abonnement"
    )
    action = models.CharField("action", max_length=30, choices=PassAdjustmentAction.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="pass_adjustments",
        verbose_name="par",
    )
    credits_delta = models.IntegerField("crédits (+/-)", default=0)
    expires_on_before = models.DateField("fin avant", null=True, blank=True)
    expires_on_after = models.DateField("fin après", null=True, blank=True)
    reservation = models.ForeignKey(
        Reservation,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="pass_adjustments",
        verbose_name="réservation",
    )
    reason = models.TextField("raison", blank=True)
    at = models.DateTimeField("le", auto_now_add=True)

    class Meta:
        verbose_name = "mouvement de carte"
        verbose_name_plural = "mouvements de cartes"
        ordering = ["-at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(action__in=PassAdjustmentAction.values), name="pass_adjustment_action_valid"
            ),
            models.CheckConstraint(
                condition=~models.Q(action__in=[a.value for a in STAFF_ACTIONS], reason=""),
                name="pass_adjustment_staff_gives_a_reason",
            ),
        ]

    def __str__(self):
        return f"{self.get_action_display()} ({self.credits_delta:+d}) – {self.pass_ref_id}"


# Django registers an app's models from its `models` module: waiting lists, attendance, preferences and reminders
# live in models_operations.py, substitute requests in models_team.py (which refer to these models by name, so
# neither imports the other's names).
from . import models_operations, models_team  # noqa: E402, F401

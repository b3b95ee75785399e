"""Requests the studio answers with a quote and a deposit (docs/decisions.md 17): EVJF/EVG parties and members' room
rentals share one life:

    envoyée → devis envoyé → (acompte payé) → confirmée            or, while not confirmed, refusée / annulée

The abstract models hold the status, the quote, the deposit and the history rows; each kind's concrete request and
history inherit them. The tables keep the names they had when parties lived in bookings and rentals in messaging.
"""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone


class RequestStatus(models.TextChoices):
    SENT = "sent", "Envoyée"
    QUOTED = "quoted", "Devis envoyé"
    CONFIRMED = "confirmed", "Confirmée"
    REFUSED = "refused", "Refusée"
    CANCELLED = "cancelled", "Annulée"


# What the member may still cancel and staff may still quote or refuse.
OPEN_REQUEST_STATUSES = (RequestStatus.SENT, RequestStatus.QUOTED)


class RequestEventKind(models.TextChoices):
    SENT = "sent", "Demande envoyée"
    QUOTED = "quoted", "Devis envoyé"
    DEPOSIT_PAID = "deposit_paid", "Acompte payé"
    CONFIRMED = "confirmed", "Demande confirmée"
    REFUSED = "refused", "Demande refusée"
    CANCELLED = "cancelled", "Demande annulée"


class QuotedRequest(models.Model):
    """Status, quote and deposit of a request the studio answers (abstract: parties and rentals inherit it)."""

    status = models.CharField(
        "statut", max_length=10, choices=RequestStatus.choices, default=RequestStatus.SENT, db_index=True
    )
    quote_amount = models.DecimalField("montant du devis (€)", max_digits=10, decimal_places=2, null=True, blank=True)
    deposit_amount = models.DecimalField("acompte (€)", max_digits=10, decimal_places=2, null=True, blank=True)
    quote_note = models.TextField("note du devis", blank=True)
    quoted_at = models.DateTimeField("devis envoyé le", null=True, blank=True)
    deposit_paid_at = models.DateTimeField("acompte payé le", null=True, blank=True)
    closed_at = models.DateTimeField("confirmée, refusée ou annulée le", null=True, blank=True)
    # A company asking (a works council, a business booking for its staff): the deposit's invoice names it
    # (docs/decisions.md 54); accounts/company.py checks its numbers.
    company_name = models.CharField("société", max_length=200, blank=True)
    company_siren = models.CharField("SIREN", max_length=9, blank=True)
    company_vat_number = models.CharField("n° de TVA intracommunautaire", max_length=20, blank=True)
    company_address = models.CharField("adresse de facturation", max_length=300, blank=True)

    class Meta:
        abstract = True

    @property
    def deposit_due(self) -> bool:
        return self.status == RequestStatus.QUOTED and self.deposit_paid_at is None and bool(self.deposit_amount)

    @property
    def cancellable(self) -> bool:
        return self.status in OPEN_REQUEST_STATUSES

    @property
    def status_text(self) -> str:
        """The status as the member reads it: 'Devis envoyé – acompte payé' once the deposit is in."""
        label = self.get_status_display()
        if self.status == RequestStatus.QUOTED and self.deposit_paid_at:
            return f"{label} – acompte payé, confirmation à venir"
        return label


def quoted_request_constraints(prefix: str) -> list:
    """The database's side of the rules (a concrete model adds these to its Meta.constraints)."""
    return [
        models.CheckConstraint(condition=models.Q(status__in=RequestStatus.values), name=f"{prefix}_status_valid"),
        models.CheckConstraint(
            condition=models.Q(quote_amount__isnull=True) | models.Q(quote_amount__gt=0),
            name=f"{prefix}_quote_positive",
        ),
        models.CheckConstraint(
            condition=models.Q(deposit_amount__isnull=True)
            | (models.Q(deposit_amount__gt=0) & models.Q(deposit_amount__lte=models.F("quote_amount"))),
            name=f"{prefix}_deposit_within_quote",
        ),
    ]


class QuotedRequestEvent(models.Model):
    """One line of a request's history: what happened, when, and who (abstract; each kind points it at its request)."""

    kind = models.CharField("étape", max_length=20, choices=RequestEventKind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name="par"
    )
    by_staff = models.BooleanField("par le studio", default=False)
    note = models.TextField("note", blank=True)
    created_at = models.DateTimeField("le", default=timezone.now)

    class Meta:
        abstract = True
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.created_at:%d/%m/%Y %H:%M})"


# --- EVJF/EVG parties -----------------------------------------------------------------------------------------------


class PartyEventType(models.TextChoices):
    EVJF = "EVJF", "EVJF (enterrement de vie de jeune fille)"
    EVG = "EVG", "EVG (enterrement de vie de garçon)"


class PartyReservation(QuotedRequest):
    """An EVJF/EVG party request: stored, e-mailed to the studio and the member, listed for staff.

    It has a status the member follows (envoyée, devis envoyé, confirmée, refusée, annulée), a quote priced by the
    server from `quote_participants` and `quote_spectators`, a deposit paid online, a history.
    """

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
    # What the member says when asking (the price depends on both): spectators pay 5 € each, the bride or groom
    # takes the class for free.
    spectators = models.PositiveSmallIntegerField("spectateurs", default=0)
    guest_of_honour = models.BooleanField("la future mariée ou le futur marié prend le cours", default=True)
    quote_participants = models.PositiveSmallIntegerField("participants du devis", null=True, blank=True)
    quote_spectators = models.PositiveSmallIntegerField("spectateurs du devis", null=True, blank=True)

    class Meta:
        db_table = "bookings_partyreservation"
        verbose_name = "réservation EVJF/EVG"
        verbose_name_plural = "réservations EVJF/EVG"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(participants__gte=1), name="party_participants_positive"),
            models.CheckConstraint(condition=models.Q(event_type__in=["EVJF", "EVG"]), name="party_event_type_valid"),
            *quoted_request_constraints("party"),
        ]

    def __str__(self):
        return f"{self.event_type} – {self.date:%d/%m/%Y} ({self.email})"


class PartyRequestEvent(QuotedRequestEvent):
    """A line of an EVJF/EVG request's history: seen by the member and by staff."""

    party = models.ForeignKey(PartyReservation, on_delete=models.CASCADE, related_name="events", verbose_name="demande")

    class Meta(QuotedRequestEvent.Meta):
        db_table = "bookings_partyrequestevent"
        verbose_name = "étape d'une demande EVJF/EVG"
        verbose_name_plural = "étapes des demandes EVJF/EVG"


# --- Room rentals ---------------------------------------------------------------------------------------------------


class RentalEventType(models.TextChoices):
    PRIVATE_EVENT = "Événement Privé", "Événement Privé"
    MEETING = "Réunion", "Réunion"
    BIRTHDAY = "Anniversaire", "Anniversaire"
    CLASS = "Cours", "Cours"


class RoomRentalRequest(QuotedRequest):
    """A room-rental request, stored and e-mailed to the studio (docs/decisions.md 17).

    A member's request has a status they follow, a quote staff set (no price rule exists for the room), a deposit
    paid online and a history; a visitor's request (no account) is answered by e-mail.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rental_requests",
        verbose_name="membre",
    )
    name = models.CharField("nom", max_length=150)
    email = models.EmailField("email")
    phone = models.CharField("téléphone", max_length=10)
    event_type = models.CharField(
        "type d'événement", max_length=20, choices=RentalEventType.choices, default=RentalEventType.PRIVATE_EVENT
    )
    date = models.DateField("date")
    time = models.TimeField("heure")
    message = models.TextField("message", blank=True)
    created_at = models.DateTimeField("reçue le", default=timezone.now, db_index=True)

    class Meta:
        db_table = "messaging_roomrentalrequest"
        verbose_name = "demande de location"
        verbose_name_plural = "demandes de location"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(event_type__in=RentalEventType.values), name="messaging_rental_event_type_valid"
            ),
            *quoted_request_constraints("messaging_rental"),
        ]

    def __str__(self):
        return f"{self.event_type} – {self.name} ({self.date:%d/%m/%Y})"


class RentalRequestEvent(QuotedRequestEvent):
    """A line of a room-rental request's history."""

    rental = models.ForeignKey(
        RoomRentalRequest, on_delete=models.CASCADE, related_name="events", verbose_name="demande"
    )

    class Meta(QuotedRequestEvent.Meta):
        db_table = "messaging_rentalrequestevent"
        verbose_name = "étape d'une demande de location"
        verbose_name_plural = "étapes des demandes de location"

"""Requests the studio answers with a quote and a deposit (docs/decisions.md 17): EVJF/EVG parties (bookings) and
members' room rentals (messaging) share one life, written here once:

    envoyée → devis envoyé → (acompte payé) → confirmée            or, while not confirmed, refusée / annulée

The abstract models hold the status, the quote, the deposit and the history rows; each app's concrete request and
history inherit them. The transitions below are the rules; each app's service locks its row, calls them, records the
history row and sends its e-mails. A request closed (refused or cancelled) after its deposit was paid is announced
with `quoted_request_closed`, whose receiver in payments refunds the deposit: the core imports no app.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.dispatch import Signal
from django.utils import timezone

from .errors import CONFLICT, NOT_FOUND, ApplicationError

CENT = Decimal("0.01")
MAX_QUOTE_AMOUNT = Decimal("99999.99")

# Sent after the commit when a request whose deposit was paid is refused or cancelled, with `sender` the concrete
# request model and `request_id`: payments refunds the deposit (in a task).
quoted_request_closed = Signal()


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


MSG_REQUEST_NOT_FOUND = "Demande introuvable."
MSG_NOT_QUOTABLE = "Cette demande ne peut plus recevoir de devis."
MSG_DEPOSIT_POSITIVE = "L'acompte doit être supérieur à 0 €."
MSG_DEPOSIT_TOO_HIGH = "L'acompte ne peut pas dépasser le montant du devis."
MSG_AMOUNT_POSITIVE = "Le montant du devis doit être supérieur à 0 €."
MSG_NOT_CONFIRMABLE = "Seule une demande dont l'acompte est payé peut être confirmée."
MSG_ALREADY_CLOSED = "Cette demande est déjà close."
MSG_NOT_CANCELLABLE = "Cette demande ne peut plus être annulée."
MSG_REASON_REQUIRED = "Indiquez la raison du refus."
MSG_DEPOSIT_NOT_DUE = "Aucun acompte n'est à payer pour cette demande."
MSG_DEPOSIT_CHANGED = "Le devis a changé : rechargez la page avant de payer."
MSG_NO_MEMBER = "Cette demande a été envoyée sans compte : répondez-lui par e-mail."


class QuoteError(ApplicationError):
    """A refused step in a request's life: `QuoteError.of(code)`."""

    default_code = "request_invalid"
    messages: ClassVar[dict[str, str]] = {
        "request_not_found": MSG_REQUEST_NOT_FOUND,
        "not_quotable": MSG_NOT_QUOTABLE,
        "deposit_positive": MSG_DEPOSIT_POSITIVE,
        "deposit_too_high": MSG_DEPOSIT_TOO_HIGH,
        "amount_positive": MSG_AMOUNT_POSITIVE,
        "not_confirmable": MSG_NOT_CONFIRMABLE,
        "already_closed": MSG_ALREADY_CLOSED,
        "not_cancellable": MSG_NOT_CANCELLABLE,
        "reason_required": MSG_REASON_REQUIRED,
        "deposit_not_due": MSG_DEPOSIT_NOT_DUE,
        "deposit_changed": MSG_DEPOSIT_CHANGED,
        "no_member": MSG_NO_MEMBER,
    }
    statuses: ClassVar[dict[str, int]] = {
        "request_not_found": NOT_FOUND,
        "not_quotable": CONFLICT,
        "not_confirmable": CONFLICT,
        "already_closed": CONFLICT,
        "not_cancellable": CONFLICT,
        "deposit_not_due": CONFLICT,
        "deposit_changed": CONFLICT,
        "no_member": CONFLICT,
        # A well-formed deposit that the quote's amount (the server's price, or the amount beside it) cannot hold.
        "deposit_too_high": CONFLICT,
    }


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
    """One line of a request's history: what happened, when, and who (abstract; each app points it at its request)."""

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


@dataclass(frozen=True)
class Step:
    """What a transition did: the history line to record."""

    kind: str
    note: str = ""


def euros(amount: Decimal | None) -> str:
    return "—" if amount is None else f"{amount:.2f}".replace(".", ",") + " €"


# --- Transitions: called on a row the caller has locked; they change it in memory and say what to record. ---------


def quote(request: QuotedRequest, *, amount: Decimal, deposit: Decimal, note: str = "", now=None) -> Step:
    if request.status not in OPEN_REQUEST_STATUSES or request.deposit_paid_at is not None:
        raise QuoteError.of("not_quotable")
    amount, deposit = amount.quantize(CENT), deposit.quantize(CENT)
    if amount <= 0:
        raise QuoteError.of("amount_positive", field="amount")
    if deposit <= 0:
        raise QuoteError.of("deposit_positive", field="deposit")
    if deposit > amount:
        raise QuoteError.of("deposit_too_high", field="deposit")
    request.status = RequestStatus.QUOTED
    request.quote_amount = amount
    request.deposit_amount = deposit
    request.quote_note = (note or "").strip()
    request.quoted_at = now or timezone.now()
    summary = f"Devis de {euros(amount)}, acompte de {euros(deposit)}"
    return Step(RequestEventKind.QUOTED, f"{summary}. {request.quote_note}".strip() if request.quote_note else summary)


def check_deposit_payable(request: QuotedRequest) -> Decimal:
    """The deposit to pay now, or a QuoteError."""
    if not request.deposit_due:
        raise QuoteError.of("deposit_not_due")
    return request.deposit_amount


def record_deposit(request: QuotedRequest, *, amount: Decimal, now=None) -> Step:
    """The deposit was captured: once, for the quoted amount, while the request is still quoted."""
    if not request.deposit_due:
        raise QuoteError.of("deposit_not_due")
    if amount != request.deposit_amount:
        raise QuoteError.of("deposit_changed")
    request.deposit_paid_at = now or timezone.now()
    return Step(RequestEventKind.DEPOSIT_PAID, f"Acompte de {euros(amount)} payé en ligne")


def confirm(request: QuotedRequest, *, now=None) -> Step:
    if request.status != RequestStatus.QUOTED or request.deposit_paid_at is None:
        raise QuoteError.of("not_confirmable")
    request.status = RequestStatus.CONFIRMED
    request.closed_at = now or timezone.now()
    return Step(RequestEventKind.CONFIRMED)


def refuse(request: QuotedRequest, *, reason: str, now=None) -> Step:
    reason = (reason or "").strip()
    if request.status not in OPEN_REQUEST_STATUSES:
        raise QuoteError.of("already_closed")
    if not reason:
        raise QuoteError.of("reason_required", field="reason")
    request.status = RequestStatus.REFUSED
    request.closed_at = now or timezone.now()
    return Step(RequestEventKind.REFUSED, reason)


def cancel(request: QuotedRequest, *, now=None) -> Step:
    if request.status not in OPEN_REQUEST_STATUSES:
        raise QuoteError.of("not_cancellable")
    request.status = RequestStatus.CANCELLED
    request.closed_at = now or timezone.now()
    note = "L'acompte sera remboursé." if request.deposit_paid_at else ""
    return Step(RequestEventKind.CANCELLED, note)


QUOTED_REQUEST_FIELDS = [
    "status",
    "quote_amount",
    "deposit_amount",
    "quote_note",
    "quoted_at",
    "deposit_paid_at",
    "closed_at",
]


# --- E-mails (through the outbox: recorded in the caller's transaction, sent by a worker after the commit) -------

MEMBER_SUBJECTS = {
    RequestEventKind.QUOTED: "Votre devis : {label}",
    RequestEventKind.CONFIRMED: "Demande confirmée : {label}",
    RequestEventKind.REFUSED: "Demande refusée : {label}",
}
STAFF_SUBJECTS = {
    RequestEventKind.CANCELLED: "Demande annulée par le membre : {label}",
    RequestEventKind.DEPOSIT_PAID: "Acompte payé : {label}",
}


def notify(request: QuotedRequest, *, step: Step, label: str, member_email: str, member_url: str, staff_url: str):
    """Tell the other side of a step: the member of a quote, a confirmation or a refusal; the studio of a
    cancellation or a paid deposit."""
    from .emails import send_templated_email

    context = {
        "request": request,
        "label": label,
        "step": RequestEventKind(step.kind).label,
        "note": step.note,
        "quote_amount": euros(request.quote_amount),
        "deposit_amount": euros(request.deposit_amount),
        "member_url": member_url,
        "staff_url": staff_url,
    }
    if step.kind in MEMBER_SUBJECTS and member_email:
        send_templated_email(
            to=member_email,
            subject=MEMBER_SUBJECTS[step.kind].format(label=label),
            template="quoted_request_member",
            context=context,
        )
    elif step.kind in STAFF_SUBJECTS:
        send_templated_email(
            to=settings.STAFF_NOTIFICATION_EMAIL,
            subject=STAFF_SUBJECTS[step.kind].format(label=label),
            template="quoted_request_staff",
            context=context,
        )

"""The rules of a quoted request's life (docs/decisions.md 17), written once for parties and rentals: each transition
is called on a row the caller has locked, changes it in memory and says which history line to record. A refused step
is a `QuoteError` with its French text and HTTP status.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.utils import timezone

from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

from .models import OPEN_REQUEST_STATUSES, QuotedRequest, RequestEventKind, RequestStatus

CENT = Decimal("0.01")
MAX_QUOTE_AMOUNT = Decimal("99999.99")

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

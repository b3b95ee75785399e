"""The e-mails of quoted requests, through the outbox (recorded in the caller's transaction, sent by a worker after
the commit): a party request's acknowledgement, a room-rental request's notice to the studio, and each later step
told to the other side."""

import logging

from django.conf import settings

from studio.emails import send_templated_email

from .models import PartyReservation, QuotedRequest, RequestEventKind, RoomRentalRequest
from .workflow import Step, euros

logger = logging.getLogger(__name__)

SUBJECT_PARTY_MEMBER = "Votre demande d'EVJF/EVG est bien reçue"
SUBJECT_PARTY_STAFF = "Nouvelle demande d'EVJF/EVG"


def send_party_reservation_emails(*, party_id: int, estimate=None) -> None:
    """`estimate`: the request's price by the staff's quoting rule, so both sides read the same figure."""
    party = PartyReservation.objects.select_related("user").get(pk=party_id)
    context = {"party": party, "estimate": estimate}
    send_templated_email(
        to=settings.STAFF_NOTIFICATION_EMAIL,
        subject=SUBJECT_PARTY_STAFF,
        template="quotes_party_staff",
        context=context,
        reply_to=[party.email],
    )
    send_templated_email(to=party.email, subject=SUBJECT_PARTY_MEMBER, template="quotes_party_member", context=context)


def send_rental_request_staff_email(rental: RoomRentalRequest, *, recipients: list[str]) -> None:
    """The studio hears of a room-rental request. A request is stored even when the mail server is down: the failure
    is logged, the request never lost."""
    try:
        send_templated_email(
            to=recipients,
            subject=f"Demande de location : {rental.event_type} le {rental.date:%d/%m/%Y}",
            template="quotes_rental_staff",
            context={"rental": rental, "dashboard_url": f"{settings.SITE_URL}/admin/rentals"},
            reply_to=[rental.email],
        )
    except Exception:  # noqa: BLE001 - any transport error
        logger.exception("Could not send the rental request e-mail to the studio")


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
            template="quotes_request_member",
            context=context,
        )
    elif step.kind in STAFF_SUBJECTS:
        send_templated_email(
            to=settings.STAFF_NOTIFICATION_EMAIL,
            subject=STAFF_SUBJECTS[step.kind].format(label=label),
            template="quotes_request_staff",
            context=context,
        )

"""The life of a quoted request after it is sent (docs/decisions.md 17), once for both kinds: staff quote it, the
member pays the deposit online (payments calls `deposit_record` under the order's lock), staff confirm or refuse, the
member may cancel while it is not confirmed. Each step is recorded in the request's history and told to the other
side by e-mail (the outbox, sent by a worker). The rules of the steps are quotes.workflow's.

A `Kind` says what differs between parties and rentals: the model, its history, its label and links. Lock order: the
PaymentOrder (payments), then the request row; nothing else is locked here.
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone

from .. import emails, workflow
from ..models import QuotedRequest
from ..signals import quoted_request_closed
from ..workflow import QuoteError

MEMBER_REQUESTS_URL = "/user/requests"


@dataclass(frozen=True)
class Kind:
    model: type[QuotedRequest]
    event_model: type[models.Model]
    event_field: str  # the history row's foreign key to its request
    slug: str  # in the member's links: /user/requests/<slug>/<id>
    staff_path: str  # the staff's dashboard list
    label: Callable[[QuotedRequest], str]
    member_email: Callable[[QuotedRequest], str]

    def member_url(self, request: QuotedRequest) -> str:
        return f"{settings.SITE_URL}{MEMBER_REQUESTS_URL}/{self.slug}/{request.pk}"


def lock(kind: Kind, request_id: int, *, member=None) -> QuotedRequest:
    """The request row, locked; the member's own when `member` is given (anyone else's is a 404)."""
    requests = kind.model.objects.select_for_update().filter(pk=request_id)
    if member is not None:
        requests = requests.filter(user=member)
    request = requests.first()
    if request is None:
        raise QuoteError.of("request_not_found")
    return request


def record(kind: Kind, request: QuotedRequest, step: workflow.Step, *, actor, by_staff: bool, fields: list[str]):
    """Save the step's fields, add its history line and tell the other side."""
    request.save(update_fields=fields)
    kind.event_model.objects.create(
        **{kind.event_field: request}, kind=step.kind, actor=actor, by_staff=by_staff, note=step.note
    )
    emails.notify(
        request,
        step=step,
        label=kind.label(request),
        member_email=kind.member_email(request),
        member_url=kind.member_url(request),
        staff_url=f"{settings.SITE_URL}{kind.staff_path}",
    )


def _announce_refund_if_paid(kind: Kind, request: QuotedRequest) -> None:
    if request.deposit_paid_at is not None:
        request_id, sender = request.pk, kind.model
        transaction.on_commit(lambda: quoted_request_closed.send(sender=sender, request_id=request_id))


@transaction.atomic
def confirm(kind: Kind, *, request_id: int, staff) -> QuotedRequest:
    request = lock(kind, request_id)
    step = workflow.confirm(request)
    record(kind, request, step, actor=staff, by_staff=True, fields=workflow.QUOTED_REQUEST_FIELDS)
    return request


@transaction.atomic
def refuse(kind: Kind, *, request_id: int, staff, reason: str) -> QuotedRequest:
    request = lock(kind, request_id)
    step = workflow.refuse(request, reason=reason)
    record(kind, request, step, actor=staff, by_staff=True, fields=workflow.QUOTED_REQUEST_FIELDS)
    _announce_refund_if_paid(kind, request)
    return request


@transaction.atomic
def cancel(kind: Kind, *, request_id: int, member) -> QuotedRequest:
    """The member cancels their own request while it is not confirmed; a paid deposit is refunded (payments)."""
    request = lock(kind, request_id, member=member)
    step = workflow.cancel(request)
    record(kind, request, step, actor=member, by_staff=False, fields=workflow.QUOTED_REQUEST_FIELDS)
    _announce_refund_if_paid(kind, request)
    return request


def deposit_payable(kind: Kind, *, request_id: int, member) -> QuotedRequest:
    """The member's own request with its deposit to pay now (for payments' create-order), or a QuoteError."""
    request = kind.model.objects.filter(pk=request_id, user=member).first()
    if request is None:
        raise QuoteError.of("request_not_found")
    workflow.check_deposit_payable(request)
    return request


def deposit_record(kind: Kind, *, request_id: int, amount: Decimal) -> QuotedRequest:
    """payments captured the deposit: record it once (called inside payments' transaction, under the order's lock).
    A request no longer waiting for this deposit raises QuoteError, and payments refunds the money."""
    with transaction.atomic():
        request = lock(kind, request_id)
        step = workflow.record_deposit(request, amount=amount, now=timezone.now())
        record(kind, request, step, actor=request.user, by_staff=False, fields=["deposit_paid_at"])
    return request

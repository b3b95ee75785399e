"""French e-mails in HTML and text from one pair of templates: templates/emails/<name>.txt and <name>.html.

Nothing here talks to a mail server in a request (docs/decisions.md 41): `send_templated_email` renders the mail,
records it in the outbox (`OutgoingEmail`, in the caller's transaction) and queues its sending after the commit
(`outgoing_email_send`, through studio.queue: a queue that refuses it has the mail sent there, after the commit). A
worker then runs `email_deliver`: it claims the row under a lock, sends, and records the outcome. A failure is retried
with back-off by the periodic `emails_retry_due` job, up to `EMAIL_MAX_ATTEMPTS`; after that the mail is listed to staff
as undelivered, with a resend button.
"""

import base64
import email.policy
import logging
from datetime import timedelta
from email.headerregistry import HeaderRegistry, UnstructuredHeader
from email.message import MIMEPart
from email.utils import make_msgid, parseaddr

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string
from django.utils import timezone

from .errors import ApplicationError
from .models import EmailStatus, OutgoingEmail
from .queue import enqueue_after_commit
from .signals import email_delivered

logger = logging.getLogger(__name__)

MSG_EMAIL_NOT_FOUND = "Cet e-mail est introuvable."
MSG_EMAIL_ALREADY_SENT = "Cet e-mail a déjà été envoyé."
MSG_EMAIL_REQUEUED = "L'e-mail est remis en file d'envoi."

# A worker that claimed a mail and died before recording the outcome: after this long the mail is tried again.
CLAIM_TIMEOUT = timedelta(minutes=10)
# A mail whose first sending was lost (its task, or the process sending it, died) is picked up by the retry job.
FIRST_ATTEMPT_GRACE = timedelta(minutes=2)
MAX_BACKOFF = timedelta(hours=1)
RETRY_BATCH = 200


class EmailError(ApplicationError):
    def __init__(self, message: str, *, status_code: int | None = None, **kwargs):
        super().__init__(message, status=status_code, **kwargs)

    @property
    def status_code(self) -> int:
        return self.status


def max_attempts() -> int:
    return getattr(settings, "EMAIL_MAX_ATTEMPTS", 6)


def retry_delay(attempts: int) -> timedelta:
    """Back-off after the `attempts`-th failure: 1, 2, 4, 8… minutes, at most an hour."""
    return min(timedelta(minutes=2 ** max(attempts - 1, 0)), MAX_BACKOFF)


def send_templated_email(
    *,
    to: list[str] | str,
    subject: str,
    template: str,
    context: dict | None = None,
    attachments: list[tuple[str, bytes | str, str]] | None = None,
    reply_to: list[str] | None = None,
    topic: str = "",
    topic_id: str | int = "",
    headers: dict[str, str] | None = None,
) -> OutgoingEmail:
    """Render `emails/<template>.txt` (and `.html` when it exists) for `to`, record it, send it after the commit.

    Attachments are (name, content, mimetype). `topic`/`topic_id` name what the mail is about, for the receivers of
    `email_delivered`. `headers` are extra headers (List-Unsubscribe…).
    """
    recipients = [to] if isinstance(to, str) else list(to)
    ctx = {"STUDIO": settings.STUDIO, "SITE_URL": settings.SITE_URL, **(context or {})}
    text = render_to_string(f"emails/{template}.txt", ctx)
    try:
        html = render_to_string(f"emails/{template}.html", ctx)
    except TemplateDoesNotExist:
        html = ""
    stored_attachments = []
    for name, content, mimetype in attachments or []:
        if isinstance(content, bytes):
            stored_attachments.append(
                {"name": name, "mimetype": mimetype, "base64": base64.b64encode(content).decode("ascii")}
            )
        else:
            stored_attachments.append({"name": name, "mimetype": mimetype, "text": content})
    email = OutgoingEmail.objects.create(
        template=template[:100],
        subject=f"{settings.STUDIO['name']} – {subject}"[:255],
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=recipients,
        reply_to=list(reply_to or []),
        body_text=text,
        body_html=html or "",
        attachments=stored_attachments,
        headers=dict(headers or {}),
        topic=topic[:50],
        topic_id=str(topic_id)[:64],
        next_attempt_at=timezone.now(),
    )
    enqueue_after_commit(outgoing_email_send, email_id=email.pk)
    return email


def _is_fqdn(domain: str) -> bool:
    return "." in domain and domain != "localhost" and not domain.replace(".", "").isdigit()


def message_id_domain(from_email: str) -> str:
    """The domain of the sender's address, else the site's host: never the machine's name (often `localhost`,
    which spam filters score as a Message-ID that names no real domain)."""
    sender_domain = parseaddr(from_email)[1].rpartition("@")[2].lower()
    if _is_fqdn(sender_domain):
        return sender_domain
    site_host = settings.SITE_URL.split("://")[-1].split("/")[0].split(":")[0].lower()
    return site_host if _is_fqdn(site_host) else sender_domain or site_host


class _UrlHeader(UnstructuredHeader):
    """A header holding <URL>s (List-Unsubscribe): written on one line as it is. The default folding of a long
    unbroken value turns it into RFC 2047 encoded words, which mail clients do not read as a URL."""

    def fold(self, *, policy):
        value = str(self)
        if not value.isascii():
            return super().fold(policy=policy)
        return f"{self.name}: {value}{policy.linesep}"


_URL_HEADERS = ("list-unsubscribe",)


class _OutboxMessage(EmailMultiAlternatives):
    def message(self, *, policy=email.policy.default):
        registry = HeaderRegistry()
        for name in _URL_HEADERS:
            registry.map_to_type(name, _UrlHeader)
        return super().message(policy=policy.clone(header_factory=registry))


def _as_message(email: OutgoingEmail) -> EmailMultiAlternatives:
    message = _OutboxMessage(
        subject=email.subject,
        body=email.body_text,
        from_email=email.from_email,
        to=email.to,
        reply_to=email.reply_to or None,
        headers={
            **(email.headers or {}),
            "Message-ID": make_msgid(idstring=str(email.pk), domain=message_id_domain(email.from_email)),
        },
    )
    if email.body_html:
        message.attach_alternative(email.body_html, "text/html")
    for attachment in email.attachments:
        content = base64.b64decode(attachment["base64"]) if "base64" in attachment else attachment.get("text", "")
        mimetype = attachment["mimetype"]
        if ";" in mimetype:
            message.attach(_attachment_with_parameters(attachment["name"], content, mimetype))
        else:
            message.attach(attachment["name"], content, mimetype)
    return message


def _attachment_with_parameters(name: str, content: bytes | str, mimetype: str) -> MIMEPart:
    """An attachment whose content type carries parameters (`text/calendar; method=CANCEL`, RFC 6047), which
    `EmailMessage.attach` cannot express."""
    kind, *raw_params = (piece.strip() for piece in mimetype.split(";"))
    maintype, subtype = kind.split("/", 1)
    params = dict(param.split("=", 1) for param in raw_params if "=" in param)
    part = MIMEPart()
    if maintype == "text":
        text = content.decode("utf-8") if isinstance(content, bytes) else content
        part.set_content(text, subtype=subtype, charset="utf-8", disposition="attachment", filename=name, params=params)
    else:
        data = content.encode("utf-8") if isinstance(content, str) else content
        part.set_content(data, maintype, subtype, disposition="attachment", filename=name, params=params)
    return part


def email_deliver(*, email_id: int) -> str:
    """Send one outbox mail if it is due and nobody else holds it. Idempotent: a sent mail is never sent again.

    Returns what happened ("sent", "retry", "failed", or why nothing was done), for logs and tests.
    """
    now = timezone.now()
    with transaction.atomic():
        email = OutgoingEmail.objects.select_for_update().filter(pk=email_id).first()
        if email is None:
            return "missing"
        if email.status in (EmailStatus.SENT, EmailStatus.FAILED):
            return "done"
        if email.status == EmailStatus.SENDING and email.claimed_at and email.claimed_at > now - CLAIM_TIMEOUT:
            return "claimed"
        if email.status == EmailStatus.PENDING and email.next_attempt_at and email.next_attempt_at > now:
            return "not due"
        email.status = EmailStatus.SENDING
        email.claimed_at = now
        email.attempts += 1
        email.save(update_fields=["status", "claimed_at", "attempts"])

    # The mail server is talked to outside any transaction: a slow server holds no lock.
    try:
        _as_message(email).send()
    except Exception as exc:  # noqa: BLE001 - any transport error is retried later
        return _record_failure(email, exc)

    sent_at = timezone.now()
    OutgoingEmail.objects.filter(pk=email.pk, status=EmailStatus.SENDING).update(
        status=EmailStatus.SENT, sent_at=sent_at, last_error=""
    )
    email.status, email.sent_at = EmailStatus.SENT, sent_at
    logger.info("E-mail %s '%s' sent to %s (attempt %s)", email.pk, email.template, email.to, email.attempts)
    for receiver, response in email_delivered.send_robust(sender=OutgoingEmail, email=email):
        if isinstance(response, Exception):
            logger.error("email_delivered receiver %s failed for e-mail %s: %r", receiver, email.pk, response)
    return "sent"


@task
def outgoing_email_send(email_id: int) -> str:
    """A worker sends one outbox mail (queued after the commit that recorded it, or by the retry job)."""
    return email_deliver(email_id=email_id)


def _record_failure(email: OutgoingEmail, exc: Exception) -> str:
    gave_up = email.attempts >= max_attempts()
    error = f"{exc.__class__.__name__}: {exc}"[:1000]
    with transaction.atomic():
        updated = OutgoingEmail.objects.filter(pk=email.pk, status=EmailStatus.SENDING).update(
            status=EmailStatus.FAILED if gave_up else EmailStatus.PENDING,
            next_attempt_at=None if gave_up else timezone.now() + retry_delay(email.attempts),
            last_error=error,
        )
    if gave_up:
        logger.error(
            "E-mail %s '%s' to %s undelivered after %s attempts: %s",
            email.pk,
            email.template,
            email.to,
            email.attempts,
            error,
        )
        return "failed"
    logger.warning(
        "E-mail %s '%s' to %s not sent (attempt %s), retried later: %s",
        email.pk,
        email.template,
        email.to,
        email.attempts,
        error,
    )
    return "retry" if updated else "claimed"


def emails_due(*, now=None) -> list[int]:
    """Outbox mails that should be (re)tried now: failed attempts whose back-off is over, first sendings whose task
    was lost, and mails whose worker died while sending."""
    now = now or timezone.now()
    due = (
        Q(status=EmailStatus.PENDING, attempts__gt=0, next_attempt_at__lte=now)
        | Q(status=EmailStatus.PENDING, attempts=0, created_at__lte=now - FIRST_ATTEMPT_GRACE)
        | Q(status=EmailStatus.SENDING, claimed_at__lte=now - CLAIM_TIMEOUT)
    )
    return list(
        OutgoingEmail.objects.filter(due).order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:RETRY_BATCH]
    )


def emails_retry_due(*, now=None) -> int:
    """Enqueue a sending for every due mail. Safe on two schedulers: `email_deliver` claims each mail once."""
    ids = emails_due(now=now)
    for email_id in ids:
        enqueue_after_commit(outgoing_email_send, email_id=email_id)
    return len(ids)


def email_resend(*, email_id: int) -> OutgoingEmail:
    """Staff's resend of an undelivered mail: its attempts start again, and it is sent after the commit."""
    with transaction.atomic():
        email = OutgoingEmail.objects.select_for_update().filter(pk=email_id).first()
        if email is None:
            raise EmailError(MSG_EMAIL_NOT_FOUND, status_code=404)
        if email.status == EmailStatus.SENT:
            raise EmailError(MSG_EMAIL_ALREADY_SENT)
        email.status = EmailStatus.PENDING
        email.attempts = 0
        email.next_attempt_at = timezone.now()
        email.claimed_at = None
        email.save(update_fields=["status", "attempts", "next_attempt_at", "claimed_at"])
        enqueue_after_commit(outgoing_email_send, email_id=email.pk)
    return email

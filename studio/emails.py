"""French e-mails in HTML and text from one pair of templates: templates/emails/<name>.txt and <name>.html."""

import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def send_templated_email(
    *,
    to: list[str] | str,
    subject: str,
    template: str,
    context: dict | None = None,
    attachments: list[tuple[str, bytes | str, str]] | None = None,
    reply_to: list[str] | None = None,
) -> bool:
    """Send `emails/<template>.txt` (and `.html` when it exists) to `to`. Attachments are (name, content, mimetype)."""
    recipients = [to] if isinstance(to, str) else list(to)
    ctx = {"STUDIO": settings.STUDIO, "SITE_URL": settings.SITE_URL, **(context or {})}
    text = render_to_string(f"emails/{template}.txt", ctx)
    message = EmailMultiAlternatives(
        subject=f"{settings.STUDIO['name']} – {subject}",
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=recipients,
        reply_to=reply_to,
    )
    try:
        html = render_to_string(f"emails/{template}.html", ctx)
    except TemplateDoesNotExist:
        html = None
    if html:
        message.attach_alternative(html, "text/html")
    for name, content, mimetype in attachments or []:
        message.attach(name, content, mimetype)
    try:
        message.send()
    except (OSError, smtplib.SMTPException):
        # The action the e-mail reports on has happened; a mail server that is down must not turn it into a 500.
        logger.exception("E-mail '%s' to %s could not be sent", template, recipients)
        return False
    return True

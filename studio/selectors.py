"""Reads of the core that pages and APIs share."""

from django.db.models import Q, QuerySet

from .models import EmailStatus, OutgoingEmail


def emails_undelivered() -> QuerySet[OutgoingEmail]:
    """Mails that have not left: given up after the last attempt, or failed at least once and waiting to retry."""
    return OutgoingEmail.objects.filter(
        Q(status=EmailStatus.FAILED) | Q(status=EmailStatus.PENDING, attempts__gt=0)
    ).order_by("-created_at", "-id")

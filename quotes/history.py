"""A quoted request's history as its pages and APIs show it: its sending, then each recorded step, with who did it
as the reader should read it ("Le studio", "Vous" or the member's name) and when, in Paris time for the pages."""

from django.utils import timezone

from studio.fields import rfc3339

from .models import QuotedRequest, RequestEventKind

STAFF_LABEL = "Le studio"
MEMBER_SELF_LABEL = "Vous"


def _by(event, *, viewer) -> str:
    if event.by_staff:
        if viewer is not None and getattr(viewer, "is_studio_staff", False) and event.actor is not None:
            return event.actor.get_full_name() or event.actor.email
        return STAFF_LABEL
    if viewer is not None and event.actor_id is not None and event.actor_id == viewer.pk:
        return MEMBER_SELF_LABEL
    return event.actor.get_full_name() or event.actor.email if event.actor is not None else "Membre"


def paris_text(moment) -> str:
    """'23/11/2026 à 18:30', in Paris time, for the pages (the API answers RFC 3339)."""
    return f"{timezone.localtime(moment):%d/%m/%Y à %H:%M}"


def history(request: QuotedRequest, events, *, viewer, sent_by) -> list[dict]:
    """The request's history: its sending (from `created_at`) then each recorded step, oldest first."""
    first = {
        "kind": RequestEventKind.SENT.value,
        "label": RequestEventKind.SENT.label,
        "at": rfc3339(request.created_at),
        "at_text": paris_text(request.created_at),
        "by": MEMBER_SELF_LABEL if viewer is not None and sent_by is not None and sent_by == viewer.pk else "Membre",
        "by_staff": False,
        "note": "",
    }
    rows = [first]
    for event in events:
        rows.append(
            {
                "kind": event.kind,
                "label": event.get_kind_display(),
                "at": rfc3339(event.created_at),
                "at_text": paris_text(event.created_at),
                "by": _by(event, viewer=viewer),
                "by_staff": event.by_staff,
                "note": event.note,
            }
        )
    return rows

"""The terms of sale (docs/decisions.md 47): the configured text and version, and the withdrawal form.

Core code: the pages show them, payments records the version an order accepted and mails them."""

from django.conf import settings
from django.template.loader import render_to_string

WITHDRAWAL_FORM_TEMPLATE = "legal/withdrawal_form.txt"


def terms_version() -> str:
    return settings.TERMS_OF_SALE["version"]


def terms_text(template_name: str | None = None) -> str:
    """The studio's terms as HTML (headings and paragraphs)."""
    context = {"STUDIO": settings.STUDIO, "mediator": settings.CONSUMER_MEDIATOR}
    return render_to_string(template_name or settings.TERMS_OF_SALE["template"], context)


def withdrawal_form_text() -> str:
    """The model withdrawal form (annex to article R221-1 of the Code de la consommation), filled with the studio."""
    return render_to_string(WITHDRAWAL_FORM_TEMPLATE, {"STUDIO": settings.STUDIO}).strip()

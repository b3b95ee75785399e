"""The studio's closures ("Fermetures", docs/decisions.md 51): a label and a first and last day, kept by staff from
the dashboard. Weekly series create no class on their days (series.py), the public calendar shows them, and staff may
cancel the classes already planned inside one (payments/services/closure_cancellation.py, which sees the refunds)."""

from datetime import date as date_type

from django.db import transaction

from studio.errors import NOT_FOUND, ApplicationError

from ..models import ClosurePeriod

MSG_CLOSURE_NOT_FOUND = "Fermeture introuvable."
MSG_CLOSURE_LABEL_REQUIRED = "Indiquez l'intitulé de la fermeture (120 caractères au plus)."
MSG_CLOSURE_DATE_INVALID = "Indiquez une date valide (AAAA-MM-JJ)."
MSG_CLOSURE_RANGE_INVALID = "Indiquez une période valide : du AAAA-MM-JJ au AAAA-MM-JJ, sur 400 jours au plus."
MSG_CLOSURE_ENDS_BEFORE_START = "Le dernier jour de la fermeture doit être le premier jour ou un jour après."
MSG_CLOSURE_CREATED = "Fermeture « {label} » enregistrée du {start} au {end}."
MSG_CLOSURE_UPDATED = "Fermeture « {label} » modifiée : du {start} au {end}."
MSG_CLOSURE_DELETED = "Fermeture « {label} » supprimée."


class ClosureError(ApplicationError):
    default_code = "closure_invalid"
    messages = {
        "closure_not_found": MSG_CLOSURE_NOT_FOUND,
        "closure_label_required": MSG_CLOSURE_LABEL_REQUIRED,
        "closure_ends_before_start": MSG_CLOSURE_ENDS_BEFORE_START,
        "closure_range_invalid": MSG_CLOSURE_RANGE_INVALID,
    }
    statuses = {"closure_not_found": NOT_FOUND}


def closure_get_or_404(*, closure_id: int) -> ClosurePeriod:
    closure = ClosurePeriod.objects.filter(pk=closure_id).first() if 0 < closure_id < 2**31 else None
    if closure is None:
        raise ClosureError.of("closure_not_found")
    return closure


def _checked(closure: ClosurePeriod, *, label: str, starts_on: date_type, ends_on: date_type) -> ClosurePeriod:
    label = (label or "").strip()
    if not label or len(label) > 120:
        raise ClosureError.of("closure_label_required", field="label")
    if ends_on < starts_on:
        raise ClosureError.of("closure_ends_before_start", field="ends_on")
    closure.label, closure.starts_on, closure.ends_on = label, starts_on, ends_on
    closure.save()
    return closure


@transaction.atomic
def closure_create(*, label: str, starts_on: date_type, ends_on: date_type) -> ClosurePeriod:
    return _checked(ClosurePeriod(), label=label, starts_on=starts_on, ends_on=ends_on)


@transaction.atomic
def closure_update(
    *, closure: ClosurePeriod, label: str | None = None, starts_on: date_type | None = None, ends_on=None
) -> ClosurePeriod:
    return _checked(
        closure,
        label=closure.label if label is None else label,
        starts_on=starts_on or closure.starts_on,
        ends_on=ends_on or closure.ends_on,
    )


@transaction.atomic
def closure_delete(*, closure: ClosurePeriod) -> None:
    """The record only: classes it cancelled stay cancelled, and a series already made keeps its dates."""
    closure.delete()


def closure_message(template: str, closure: ClosurePeriod) -> str:
    return template.format(
        label=closure.label, start=closure.starts_on.strftime("%d/%m/%Y"), end=closure.ends_on.strftime("%d/%m/%Y")
    )

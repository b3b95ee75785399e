"""What the APIs of quoted requests share: the status, quote and history in an answer, and the staff's refusal and
deposit inputs. Parties and rentals add their own fields."""

import re
from decimal import Decimal

from django.core.validators import RegexValidator
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from studio.fields import DateTimeOutputField, rfc3339
from studio.parsers import MSG_TEXT_TOO_LONG
from studio.schema import ErrorOutput

from ..history import history
from ..models import QuotedRequest, RequestEventKind, RequestStatus
from ..workflow import MAX_QUOTE_AMOUNT, MSG_AMOUNT_POSITIVE, MSG_DEPOSIT_POSITIVE, MSG_REASON_REQUIRED

# The refusals every step of a request may answer, as the schema states them.
NOT_FOUND = {404: OpenApiResponse(ErrorOutput, description="Demande introuvable (ou d'un autre membre).")}
REFUSED = {409: OpenApiResponse(ErrorOutput, description="L'étape n'est pas possible dans l'état de la demande.")}
INVALID = {400: OpenApiResponse(ErrorOutput, description="Saisie refusée, message en français.")}

SPACES = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
FILLED = rf"^[^\x00]*[^\x00{SPACES}][^\x00]*$"
NO_NUL = r"^[^\x00]*$"
# A positive amount in euros, at most 99999.99, no leading zero: "150", "150.5", "0.50" ("0" and "0.00" are not).
AMOUNT_PATTERN = r"^([1-9][0-9]{0,4}(\.[0-9]{1,2})?|0\.([1-9][0-9]?|0[1-9]))$"
ZERO_PATTERN = r"^0+(\.0*)?$"
MAX_NOTE = 2000

MSG_AMOUNT_FORMAT = "Le montant doit être en euros, par exemple 150.00."
MSG_NOTE_INVALID = "Le mot pour le membre doit être un texte."


@extend_schema_field({"type": "string", "pattern": AMOUNT_PATTERN, "example": "150.00"})
class EurosInput(serializers.DecimalField):
    """Euros as a string of digits with at most two decimals ("150.00"); a JSON number is refused."""

    def __init__(self, *, positive: str, **kwargs):
        keys = ("invalid", "max_digits", "max_decimal_places", "max_whole_digits", "max_string_length")
        errors = dict.fromkeys(keys, MSG_AMOUNT_FORMAT)
        errors.update(dict.fromkeys(("required", "null", "min_value"), positive))
        super().__init__(
            max_digits=7,
            decimal_places=2,
            min_value=Decimal("0"),
            max_value=MAX_QUOTE_AMOUNT,
            error_messages=errors,
            **kwargs,
        )

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if not data.strip():
            self.fail("required")
        if re.fullmatch(ZERO_PATTERN, data):
            self.fail("min_value", min_value=0)
        if not re.fullmatch(AMOUNT_PATTERN, data):
            self.fail("invalid")
        return super().to_internal_value(data)


def deposit_field() -> EurosInput:
    return EurosInput(positive=MSG_DEPOSIT_POSITIVE, help_text="L'acompte à payer en ligne, en euros.")


def amount_field() -> EurosInput:
    return EurosInput(positive=MSG_AMOUNT_POSITIVE, help_text="Le montant du devis, en euros.")


class NoteField(serializers.CharField):
    """An optional text: absent, blank (then ''), or text without NUL, documented as one string schema (DRF's own
    `allow_blank` would be documented as a `oneOf` that the empty string matches twice)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", MAX_NOTE)
        kwargs.setdefault("error_messages", {"max_length": MSG_TEXT_TOO_LONG, "invalid": MSG_NOTE_INVALID})
        super().__init__(trim_whitespace=False, **kwargs)
        self.validators.append(RegexValidator(NO_NUL, message=MSG_NOTE_INVALID))

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str) and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        if isinstance(data, str) and not data.strip():
            return ""
        return super().run_validation(data)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class NoteFieldSchema(OpenApiSerializerFieldExtension):
    target_class = NoteField

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "pattern": NO_NUL, "maxLength": self.target.max_length}


def note_field() -> NoteField:
    return NoteField(help_text="Un mot pour le membre (facultatif).")


class FilledText(serializers.RegexField):
    """A required text (something other than spaces, no NUL); a number or an object is no text."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class RefuseInput(serializers.Serializer):
    reason = FilledText(
        FILLED,
        max_length=MAX_NOTE,
        trim_whitespace=False,
        error_messages={
            "required": MSG_REASON_REQUIRED,
            "null": MSG_REASON_REQUIRED,
            "blank": MSG_REASON_REQUIRED,
            "invalid": MSG_REASON_REQUIRED,
            "max_length": MSG_TEXT_TOO_LONG,
        },
    )


class RequestEventOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=RequestEventKind.choices)
    label = serializers.CharField()
    at = DateTimeOutputField()
    by = serializers.CharField(help_text="« Le studio », « Vous » (le membre qui lit) ou le nom du membre")
    by_staff = serializers.BooleanField()
    note = serializers.CharField(allow_blank=True)


class QuotedRequestOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=RequestStatus.choices)
    status_label = serializers.CharField()
    status_text = serializers.CharField()
    quote_amount = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    deposit_amount = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    quote_note = serializers.CharField(allow_blank=True)
    quoted_at = DateTimeOutputField(allow_null=True)
    deposit_paid_at = DateTimeOutputField(allow_null=True)
    closed_at = DateTimeOutputField(allow_null=True)
    deposit_due = serializers.BooleanField()
    cancellable = serializers.BooleanField()
    events = RequestEventOutput(many=True)


def quoted_request_data(request: QuotedRequest, events, *, viewer, sent_by) -> dict:
    return {
        "status": request.status,
        "status_label": request.get_status_display(),
        "status_text": request.status_text,
        "quote_amount": request.quote_amount,
        "deposit_amount": request.deposit_amount,
        "quote_note": request.quote_note,
        "quoted_at": rfc3339(request.quoted_at),
        "deposit_paid_at": rfc3339(request.deposit_paid_at),
        "closed_at": rfc3339(request.closed_at),
        "deposit_due": request.deposit_due,
        "cancellable": request.cancellable,
        "events": history(request, events, viewer=viewer, sent_by=sent_by),
    }

"""The closures API's shapes (docs/decisions.md 51)."""

from rest_framework import serializers

from ..services.closures import MSG_CLOSURE_DATE_INVALID, MSG_CLOSURE_LABEL_REQUIRED, MSG_CLOSURE_RANGE_INVALID
from .fields import TextField

_DATE_ERRORS = {key: MSG_CLOSURE_DATE_INVALID for key in ("invalid", "null", "required", "datetime", "date")}


class ClosureInputSerializer(serializers.Serializer):
    label = TextField(
        max_length=120,
        error_messages={key: MSG_CLOSURE_LABEL_REQUIRED for key in ("blank", "null", "required", "max_length")},
        help_text="Ex. « Vacances de Noël ».",
    )
    starts_on = serializers.DateField(error_messages=_DATE_ERRORS, help_text="Premier jour de fermeture.")
    ends_on = serializers.DateField(error_messages=_DATE_ERRORS, help_text="Dernier jour de fermeture (inclus).")


class ClosureUpdateInputSerializer(ClosureInputSerializer):
    """PUT: what is sent changes, the rest stays."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, partial=True, **kwargs)
        for field in self.fields.values():
            field.required = False


class ClosureOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class ClosureStaffOutputSerializer(ClosureOutputSerializer):
    sessions_planned = serializers.IntegerField(
        min_value=0, help_text="Les cours programmés (non annulés) pendant la fermeture."
    )


class ClosureSavedOutputSerializer(ClosureStaffOutputSerializer):
    message = serializers.CharField(help_text="La confirmation à montrer, en français.")


class ClosureRangeInputSerializer(serializers.Serializer):
    """The calendar's range: its first and last day, as dates or as FullCalendar's date-times (the day is read)."""

    start = serializers.RegexField(
        r"^\d{4}-\d{2}-\d{2}",
        max_length=40,
        error_messages={k: MSG_CLOSURE_RANGE_INVALID for k in ("invalid", "required", "blank", "max_length")},
    )
    end = serializers.RegexField(
        r"^\d{4}-\d{2}-\d{2}",
        max_length=40,
        error_messages={k: MSG_CLOSURE_RANGE_INVALID for k in ("invalid", "required", "blank", "max_length")},
    )

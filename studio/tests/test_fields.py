"""API text fields count their maxLength on the text as sent, as the OpenAPI schema says."""

from rest_framework import serializers

from studio.parsers import MSG_TEXT_TOO_LONG


class Note(serializers.Serializer):
    note = serializers.CharField(max_length=5, error_messages={"max_length": MSG_TEXT_TOO_LONG})


def test_spaces_around_a_text_count_in_its_length_as_the_schema_says():
    # Schemathesis found it: '\x1e' and spaces around 255 characters passed a maxLength of 255 once trimmed.
    form = Note(data={"note": "\x1e  abc   "})
    assert not form.is_valid()
    assert form.errors["note"] == [MSG_TEXT_TOO_LONG.format(max_length=5)]


def test_a_text_within_the_length_is_still_trimmed():
    form = Note(data={"note": " abc "})
    assert form.is_valid(), form.errors
    assert form.validated_data["note"] == "abc"


def test_a_text_without_a_maximum_is_untouched():
    form = Note(data={"note": "abc"})
    assert form.is_valid()
    long = type("Long", (serializers.Serializer,), {"note": serializers.CharField()})(data={"note": " x" * 1000})
    assert long.is_valid()


def test_a_number_or_a_boolean_is_not_a_text():
    # Schemathesis found it: {"reason": 0} cancelled a class with the reason "0".
    for value in (0, 12.5, True):
        form = Note(data={"note": value})
        assert not form.is_valid()
        assert form.errors["note"] == ["Chaîne de caractère invalide."]  # DRF's own French text

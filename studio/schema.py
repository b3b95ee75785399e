"""The OpenAPI schema's shared parts: every operation documents the error answers the API can give.

Any API can answer 400 (a body the parser refuses), 401/403 (authentication, permissions, CSRF), 413 (body too
large), 415 (a body neither JSON nor, where a file is uploaded, multipart) and 429 (rate limits); an operation with
a path parameter can answer 404; a write can answer 409 (a conflict
with the studio's state: seats, payments, uniqueness). All of them carry the same body, `ErrorOutput`, built by
`studio.api.exception_handler` from an `ApplicationError` or DRF's own exceptions.
"""

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers


class ErrorOutput(serializers.Serializer):
    """The error body every API answers: the French message twice (clients read `error` or
    `message`)."""

    error = serializers.CharField()
    message = serializers.CharField()
    code = serializers.CharField(required=False)
    errors = serializers.DictField(required=False, help_text="Messages par champ : {champ: [message, …]}.")
    waitlist_open = serializers.BooleanField(
        required=False, help_text="Cours complet : sa liste d'attente accepte-t-elle encore des inscriptions ?"
    )


ALWAYS = ("400", "401", "403", "413", "415", "429")
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


class StudioAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = list(ALWAYS)
        if "{" in self.path:
            codes.append("404")
        if self.method in WRITE_METHODS:
            codes.append("409")
        for code in codes:
            if code not in responses:
                responses[code] = self._get_response_for_code(ErrorOutput, code, direction=direction)
        return responses


EMPTY_TEXT = {"type": "string", "maxLength": 0}
# The free-text pattern (anything but NUL) as the apps write it and as drf-spectacular spells it.
FREE_TEXT_PATTERNS = {r"^[^\x00]*$", r"^[^\u0000]*$"}


def _free_text(branch: dict) -> bool:
    if branch.get("type") != "string" or "format" in branch or "enum" in branch or branch.get("minLength", 0):
        return False
    pattern = branch.get("pattern")
    return pattern is None or pattern in FREE_TEXT_PATTERNS


def _blank_is_text(node) -> None:
    if isinstance(node, dict):
        branches = node.get("oneOf", [])
        if len(branches) == 2 and branches[1] == EMPTY_TEXT and _free_text(branches[0]):
            node["anyOf"] = node.pop("oneOf")
        for value in node.values():
            _blank_is_text(value)
    elif isinstance(node, list):
        for value in node:
            _blank_is_text(value)


def blank_is_text_hook(result, generator, request, public):
    """drf-spectacular states a text that may be blank as `oneOf: [its pattern, {maxLength: 0}]`. For a free text
    the pattern takes '' too, so '' matches both branches and `oneOf` refuses what the server accepts (schemathesis
    found `GET /api/users?search=`). Such a text, in a body or a query parameter, becomes `anyOf` everywhere; texts
    whose pattern says more (the profile's phone and postal code) keep their `oneOf`."""
    _blank_is_text(result)
    return result


ENUM_VALUE_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))


def _enum_type(values) -> str | None:
    kinds = set()
    for value in values:
        kinds.add(next((name for kind, name in ENUM_VALUE_TYPES if isinstance(value, kind)), None))
    if kinds == {"integer", "number"}:
        return "number"
    return kinds.pop() if len(kinds) == 1 else None


def _type_enums(node) -> None:
    if isinstance(node, dict):
        if "enum" in node and "type" not in node and "$ref" not in node:
            values = [value for value in node["enum"] if value is not None]
            # OpenAPI 3.0 has no null type: null alone is a nullable schema whose only value is null.
            kind = _enum_type(values) if values else "string"
            if kind:
                node["type"] = kind
                if None in node["enum"]:
                    node["nullable"] = True
        for value in node.values():
            _type_enums(value)
    elif isinstance(node, list):
        for value in node:
            _type_enums(value)


def typed_enums_hook(result, generator, request, public):
    """Every enum states its type: client generators build the enum's model from it. drf-spectacular's own
    `BlankEnum` (`['']`) and `NullEnum` (`[null]`) come without one, as would an enum written by hand."""
    _type_enums(result)
    return result

"""A text that may be blank is documented as the server treats it (schemathesis checks it).

drf-spectacular states a text field that takes '' as `oneOf: [its pattern, {maxLength: 0}]`. When the pattern
accepts '' too (a free text: anything but NUL), '' matches both branches, so `oneOf` calls it invalid while the
server accepts it: schemathesis then reports "schema-violating request accepted" for `GET /api/users?search=`
(seen in CI on 2026-11-24). Every such text, in a body or in a query parameter, must be `anyOf`."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

EMPTY_TEXT = {"type": "string", "maxLength": 0}


def _pattern_accepts_blank(branch: dict) -> bool:
    pattern = branch.get("pattern")
    if pattern is None:
        return "format" not in branch and "enum" not in branch and branch.get("minLength", 0) == 0
    return re.search(pattern.replace(r"\u00", r"\x"), "") is not None


def _blank_matching_both(node, path=""):
    if isinstance(node, dict):
        branches = node.get("oneOf", [])
        if len(branches) == 2 and EMPTY_TEXT in branches:
            other = branches[0] if branches[1] == EMPTY_TEXT else branches[1]
            if _pattern_accepts_blank(other):
                yield path
        for key, value in node.items():
            yield from _blank_matching_both(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _blank_matching_both(value, f"{path}[{index}]")


# The profile's phone and postal code keep oneOf on purpose (accounts/apis/serializers.py, FREE_TEXT): the service
# refuses '' unless the stored value is empty too, a state rule.
KEPT = re.compile(r"/components/schemas/(Patched)?ProfileInput/properties/(phone|postal_code)/")


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_no_blank_text_is_refused_by_both_branches_of_a_one_of(schema):
    found = [path for path in _blank_matching_both(schema) if not KEPT.match(path + "/")]
    assert found == []


def test_the_users_lists_search_and_ordering_take_the_empty_text(schema):
    parameters = {p["name"]: p["schema"] for p in schema["paths"]["/api/users"]["get"]["parameters"]}
    for name in ("search", "ordering"):
        assert "oneOf" not in parameters[name]
        assert EMPTY_TEXT in parameters[name]["anyOf"]

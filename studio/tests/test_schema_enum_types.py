"""Every enum of the OpenAPI schema states its type. Client generators build a model from an enum's type:
openapi-python-client stops on `PassUnlimitedEnum: {"enum": [false]}` ("Unsupported enum type <class 'bool'>")
and generates nothing for the tariffs. Its values are of that type (null only where the schema is nullable)."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from studio.schema import typed_enums_hook

JSON_TYPES = {"string": (str,), "boolean": (bool,), "integer": (int,), "number": (int, float)}


def enum_problems(node, path=""):
    if isinstance(node, dict):
        if "enum" in node:
            kind = node.get("type")
            if kind not in JSON_TYPES:
                yield f"{path}: enum {node['enum']!r} without a type"
            else:
                for value in node["enum"]:
                    if value is None:
                        if not node.get("nullable"):
                            yield f"{path}: null in a schema that is not nullable"
                    elif not isinstance(value, JSON_TYPES[kind]) or (kind != "boolean" and isinstance(value, bool)):
                        yield f"{path}: {value!r} is not of type {kind}"
        for key, value in node.items():
            yield from enum_problems(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from enum_problems(value, f"{path}[{index}]")


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_every_enum_in_the_schema_has_a_type_its_values_match(schema):
    assert list(enum_problems(schema)) == []


def test_the_tariffs_unlimited_flag_is_a_boolean_in_its_rules(schema):
    components = schema["components"]["schemas"]
    unlimited = [
        branch["properties"]["pass_unlimited"]
        for rule in components["TariffInput"]["allOf"]
        for branch in rule["anyOf"]
        if "pass_unlimited" in branch.get("properties", {})
    ]
    assert unlimited
    for prop in unlimited:
        target = components[prop["$ref"].rsplit("/", 1)[1]] if "$ref" in prop else prop
        assert target == {"type": "boolean", "enum": [False]}


def test_drf_spectacular_blank_and_null_choices_get_a_type(schema):
    components = schema["components"]["schemas"]
    assert components["BlankEnum"] == {"type": "string", "enum": [""]}
    assert components["NullEnum"]["enum"] == [None] and components["NullEnum"]["nullable"] is True


def test_the_hook_types_an_enum_by_its_values():
    result = {
        "components": {
            "schemas": {
                "A": {"enum": ["x", "y", None]},
                "B": {"enum": [1, 2]},
                "C": {"enum": [1.5, 2]},
                "D": {"enum": [True]},
                "E": {"type": "string", "enum": ["kept"]},
            }
        }
    }
    schemas = typed_enums_hook(result, None, None, True)["components"]["schemas"]
    assert schemas["A"] == {"type": "string", "nullable": True, "enum": ["x", "y", None]}
    assert schemas["B"]["type"] == "integer"
    assert schemas["C"]["type"] == "number"
    assert schemas["D"]["type"] == "boolean"
    assert schemas["E"] == {"type": "string", "enum": ["kept"]}

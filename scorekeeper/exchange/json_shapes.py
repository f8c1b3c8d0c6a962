"""Request bodies declared once (`Body`): each body's fields with their JSON Schema, the fields a
body must give with the sentence one without them is refused with, and the keys of the answer
it may send back, ignored. Its parser checks a body's keys by it, and the OpenAPI document's
schema of the body is made from it. Here too are the JSON Schema pieces they are written with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..rules import RuleError

Schema = dict[str, Any]

STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
BOOLEAN: Schema = {"type": "boolean"}
COUNT: Schema = {**INTEGER, "minimum": 0}
FROM_ONE: Schema = {**INTEGER, "minimum": 1}
NO_NUL_AND_NOT_BLANK = r"^[^\x00]*[^\x00\s][^\x00]*$"
NO_NUL = r"^[^\x00]*$"
OUTPUT_ONLY: Schema = {"readOnly": True, "description": "Output only: ignored in a body."}


def ref(name: str, kind: str = "schemas") -> Schema:
    """A reference to a component: a schema unless another kind is named."""
    return {"$ref": f"#/components/{kind}/{name}"}


def nullable(schema: Schema) -> Schema:
    kind = schema["type"]
    return {**schema, "type": [*([kind] if isinstance(kind, str) else kind), "null"]}


def ref_or_null(name: str, **more: Any) -> Schema:
    return {"anyOf": [ref(name), {"type": "null"}], **more}


def obj(properties: Schema, *required: str, **more: Any) -> Schema:
    """An object of these properties; `obj(fields, *fields)` requires every one."""
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return {**schema, **more}


def values(kind: type[Enum], *more: Any) -> Schema:
    return {"enum": [*(member.value for member in kind), *more]}


def output_only(*keys: str) -> Schema:
    return {key: OUTPUT_ONLY for key in keys}


def given(**types: str) -> Schema:
    """Holds when each key is present with a value of its JSON type (`null` is not)."""
    return {"required": list(types), "properties": {key: {"type": t} for key, t in types.items()}}


_TYPES = {str: "string", bool: "boolean", int: "integer"}


def json_type(schema: Schema) -> str:
    """The JSON type of the values a schema holds but null: its type's, or its choices'."""
    if "type" in schema:
        kinds = schema["type"]
        return kinds if isinstance(kinds, str) else next(k for k in kinds if k != "null")
    return _TYPES[type(next(value for value in schema["enum"] if value is not None))]


@dataclass(frozen=True)
class Field:
    """A field of a body: its schema, and the sentence a body that leaves it out (or null) is
    refused with, when the body must give it. A field `required` is one the body must give
    that a later check refuses the want of (or the parser, before the body's keys)."""

    schema: Schema
    missing: str = ""
    required: bool = False


@dataclass(frozen=True)
class Body:
    """A request body: its fields in the order they are checked, the keys of the answer it
    ignores (`output`; those that are fields of it are not), the fields a change gives at least
    one of (`any_of`), and what more its schema says (`more`: a description, ...)."""

    fields: Mapping[str, Field]
    output: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()
    more: Mapping[str, Any] = field(default_factory=dict)

    def check(self, body: Mapping[str, Any]) -> None:
        """Refuse a key it has no field for, then a field it must give and leaves out."""
        for key in body:
            if key not in self.fields and key not in self.output:
                raise RuleError(f"There is no field called {key} here.", key)
        for key, declared in self.fields.items():
            if declared.missing and body.get(key) is None:
                raise RuleError(declared.missing, key)

    def schema(self) -> Schema:
        fields = self.fields.items()
        properties = {key: declared.schema for key, declared in fields}
        required = (key for key, declared in fields if declared.missing or declared.required)
        more = dict(self.more)
        if self.any_of:
            kinds = {key: json_type(self.fields[key].schema) for key in self.any_of}
            more["anyOf"] = [given(**{key: kind}) for key, kind in kinds.items()]
        ignored = output_only(*(key for key in self.output if key not in self.fields))
        return obj(properties | ignored, *required, additionalProperties=False, **more)

"""JSON bodies read into the rules engine's terms: the body as a JSON object, refusing what
could upset the parser or the database, and the values every body's reading shares (whole
numbers, text, days, new players' names, rule options), each wrong one refused with a sentence.
The bodies themselves are declared and read by subject: `session_bodies`, `event_bodies` and
`season_bodies`.

Whole numbers must be JSON integers: 60.0, "60" and true are refused.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any

from flask import Request

from .. import rules
from ..rules import RuleError
from .json_shapes import (
    BOOLEAN,
    COUNT,
    STRING,
    Schema,
    nullable,
    obj,
    values,
)

RULE_FLAGS = {option.name for option in rules.OPTIONS if option.kind is bool}


RULE_NUMBERS = {option.name for option in rules.OPTIONS if option.kind is int}


RULES_KEYS = set(rules.OPTION_NAMES)


RULE_TEXTS = RULES_KEYS - RULE_FLAGS - RULE_NUMBERS


def body_of(request: Request) -> bytes:
    """The body as it came, or 413 when it is over the limit."""
    data = request.get_data(cache=True)
    limit = request.max_content_length
    if limit is not None and len(data) >= limit:
        # A streamed body stops at the limit without a word; the next read refuses it (413).
        request.stream.read(1)
    return data


def json_object(request: Request) -> dict[str, Any]:
    """The body as a JSON object, refusing what could upset the parser or the database: invalid
    UTF-8, deep nesting, long numbers, NaN and Infinity, and lone surrogates."""
    data = body_of(request)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RuleError("The body is not valid UTF-8 text.") from None
    try:
        body = json.loads(
            text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
        )
    except RecursionError:
        raise RuleError(TOO_DEEP) from None
    except ValueError:
        raise RuleError("The body must be a JSON object.") from None
    if not isinstance(body, dict):
        raise RuleError("The body must be a JSON object.")
    _check_values(body)
    return body


MAX_DEPTH = 10


MAX_DIGITS = 6


TOO_DEEP = f"The body is nested too deeply: at most {MAX_DEPTH} levels of objects and lists."


LONE_SURROGATE = re.compile("[\\ud800-\\udfff]")


@dataclass(frozen=True)
class _Refused:
    """A number the parser met but the body may not hold; refused, with its field, once the
    whole body is read."""

    message: str


TOO_LONG = _Refused(f"A number has more than {MAX_DIGITS} digits.")


def _json_int(literal: str) -> int | _Refused:
    # Checked before int(), which raises on thousands of digits.
    return TOO_LONG if len(literal.lstrip("-")) > MAX_DIGITS else int(literal)


def _json_float(literal: str) -> float | _Refused:
    mantissa = literal.lstrip("-").lower().partition("e")[0]
    value = float(literal)
    if sum(c.isdigit() for c in mantissa) > MAX_DIGITS:
        return TOO_LONG
    return value if math.isfinite(value) else _Refused(f"{literal} is too large a number.")


def _json_constant(literal: str) -> _Refused:
    return _Refused(f"{literal} is not a number JSON allows.")


def _check_values(body: dict[str, Any]) -> None:
    """Depth, numbers and text of every value, walked without recursion. A refusal names the
    top-level field it was found under."""
    pending: list[tuple[Any, int, str | None]] = [(body, 1, None)]
    while pending:
        value, depth, field = pending.pop()
        if depth > MAX_DEPTH:
            raise RuleError(TOO_DEEP, field)
        if isinstance(value, _Refused):
            raise RuleError(value.message, field)
        if isinstance(value, str) and LONE_SURROGATE.search(value):
            raise RuleError(
                "Text in the body holds a lone surrogate (such as \\ud800), "
                "which is not a character.",
                field,
            )
        if isinstance(value, dict):
            for key, item in value.items():
                pending.append((key, depth, field))
                pending.append((item, depth + 1, key if field is None else field))
        elif isinstance(value, list):
            pending.extend((item, depth + 1, field) for item in value)


def whole_number(value: Any, field: str, label: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise rules.whole_number_error(label, low, high, field)
    return value


def text_of(value: Any, field: str, what: str) -> str:
    if not isinstance(value, str):
        raise RuleError(f"{what} must be given as text.", field)
    # PostgreSQL can't store it; SQLite would, so both databases refuse it here.
    if "\x00" in value:
        raise RuleError(f"{what} can't hold a NUL character.", field)
    return value


NAME_LENGTH: Schema = {"minLength": 1, "maxLength": rules.MAX_NAME_LENGTH}


def new_players(body: Mapping[str, Any]) -> list[str]:
    """The names confirmed as new players, though they look like another player's."""
    value = body.get("new_players")
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise RuleError("New players must be a list of names.", "new_players")
    return [text_of(name, "new_players", "A player's name") for name in value]


def _option_schema(option: rules.Option) -> Schema:
    about = option.about
    if issubclass(option.kind, StrEnum):
        return values(option.kind)
    if option.kind is bool:
        return BOOLEAN
    if about.values:
        return {"enum": list(about.values), "description": about.note}
    return {**COUNT, "maximum": about.high, "description": about.note}


RULES_SCHEMA = {option.name: _option_schema(option) for option in rules.OPTIONS}


RULES_INPUT = nullable(obj(RULES_SCHEMA, additionalProperties=False))


ROUNDS_SCHEMA: Schema = {**COUNT, "maximum": rules.MAX_ROUNDS}


def rule_options(given: Any) -> dict[str, Any]:
    """The rule options given by name, their types checked (their values are the engine's to
    check); null means not given."""
    if not isinstance(given, dict):
        raise RuleError("Rules must be an object of rule options.", "rules")
    for key in given:
        if key not in RULES_KEYS:
            names = ", ".join(sorted(RULES_KEYS))
            raise RuleError(f"There is no rule option {key}; the options are {names}.", "rules")
    options = {key: value for key, value in given.items() if value is not None}
    for key, value in options.items():
        if key in RULE_TEXTS:
            text_of(value, "rules", f"The {key.replace('_', ' ')} rule")
        elif key in RULE_FLAGS and not isinstance(value, bool):
            raise RuleError(f"The {key} rule must be true or false.", "rules")
        elif key in RULE_NUMBERS and (not isinstance(value, int) or isinstance(value, bool)):
            raise RuleError(f"The {key.replace('_', ' ')} must be a whole number.", "rules")
    return options


def rounds_of(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise rules.rounds_error()
    return value


def day_in(args: Mapping[str, str], field: str) -> date | None:
    """A day given as YYYY-MM-DD in the query string, or None when it is not given."""
    value = args.get(field)
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value) if DAY.fullmatch(value) else _no_day(field)
    except ValueError:
        return _no_day(field)


DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


WHOLE = re.compile(r"\d{1,10}", re.ASCII)


def whole_in(args: Mapping[str, str], field: str, low: int, high: int) -> int | None:
    """A whole number from `low` to `high` in the query string, or None when it is not given."""
    value = args.get(field)
    if value is None or value == "":
        return None
    if WHOLE.fullmatch(value) and low <= int(value) <= high:
        return int(value)
    raise RuleError(f"The {field} must be a whole number from {low} to {high}.", field)


def _no_day(field: str) -> date:
    raise RuleError(f"The {field} date must be a day written as YYYY-MM-DD.", field)


def day_of(value: Any, field: str) -> date:
    if not isinstance(value, str):
        return _no_day(field)
    try:
        return date.fromisoformat(value) if DAY.fullmatch(value) else _no_day(field)
    except ValueError:
        return _no_day(field)


DAY_SCHEMA = {**STRING, "format": "date"}

"""The rule options' registry (`rules.OPTIONS`, declared on `rules.Options`) against every place
derived from it: each option is checked, stored, said and asked for there, and nothing else is."""

from __future__ import annotations

import json
from dataclasses import replace
from enum import StrEnum
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Boolean, Integer, String

from scorekeeper import rules
from scorekeeper.api.openapi import document
from scorekeeper.commands import import_session_command
from scorekeeper.exchange import json_in
from scorekeeper.insights import scope
from scorekeeper.pages.forms import RulesForm
from scorekeeper.pages.words import rules_words
from scorekeeper.sessions.models import Session
from scorekeeper.sessions.records import options_json

from ..helpers.api import DEFAULT_RULES

NAMES = [option.name for option in rules.OPTIONS]
# Each option at a value other than its default (every choice, for a choice).
OTHER_VALUES = [
    (option, value)
    for option in rules.OPTIONS
    for value in (
        [v for v in option.kind if v != option.default]
        if issubclass(option.kind, StrEnum)
        else [not option.default]
        if option.kind is bool
        else [option.about.values[-1] if option.about.values else option.about.high]
    )
]


def test_the_registry_is_the_options_fields() -> None:
    assert list(rules.OPTION_NAMES) == NAMES
    assert rules.Options() == rules.Options(**{o.name: o.default for o in rules.OPTIONS})
    for option in rules.OPTIONS:
        assert option.kind in (bool, int) or issubclass(option.kind, StrEnum)
        assert isinstance(option.default, option.kind)
        if option.kind is not bool:
            assert option.about.refusal, option.name
        if option.kind is int:
            assert bool(option.about.values) != bool(option.about.high), option.name


@pytest.mark.parametrize(
    ("option", "value"), OTHER_VALUES, ids=[f"{o.name}={v}" for o, v in OTHER_VALUES]
)
def test_options_from_takes_each_value(option: rules.Option, value: object) -> None:
    options = rules.options_from(**{option.name: value})
    assert getattr(options, option.name) == value
    assert options_json(options)[option.name] == value


def test_options_from_refuses_an_unknown_name() -> None:
    with pytest.raises(TypeError):
        rules.options_from(trump="clubs")


def test_options_json_names_every_option_in_order() -> None:
    assert list(options_json(rules.Options())) == NAMES


def test_every_option_has_its_session_column() -> None:
    columns = Session.__table__.columns
    for option in rules.OPTIONS:
        column = columns[option.name]
        assert not column.nullable, option.name
        if option.kind is bool:
            assert isinstance(column.type, Boolean), option.name
        elif option.kind is int:
            assert isinstance(column.type, Integer), option.name
        else:
            assert isinstance(column.type, String), option.name
            longest = max(len(value) for value in option.kind)
            assert column.type.length is not None and longest <= column.type.length


def test_the_api_checks_the_type_of_every_option() -> None:
    assert set(NAMES) == json_in.RULES_KEYS
    assert set(NAMES) == json_in.RULE_FLAGS | json_in.RULE_NUMBERS | json_in.RULE_TEXTS
    for option in rules.OPTIONS:
        wrong = "yes" if option.kind in (bool, int) else 1
        with pytest.raises(rules.RuleError):
            json_in.rule_options({option.name: wrong})


def test_the_openapi_rules_object_has_every_option() -> None:
    schemas = document()["components"]["schemas"]
    assert list(schemas["Session"]["properties"]["rules"]["properties"]) == NAMES
    assert schemas["Session"]["properties"]["rules"]["required"] == NAMES


def test_import_session_has_an_option_for_every_rule() -> None:
    params = {param.name: param for param in import_session_command.params}
    for option in rules.OPTIONS:
        param = params[option.name]
        assert param.show_default, option.name
        assert getattr(param, "is_flag", False) is (option.kind is bool), option.name


@pytest.mark.parametrize(
    ("option", "value"), OTHER_VALUES, ids=[f"{o.name}={v}" for o, v in OTHER_VALUES]
)
def test_rules_words_say_each_value(option: rules.Option, value: object) -> None:
    # Doublers are said only where everyone passing makes them.
    tables = (rules.Options(), rules.options_from(no_bid="doubler"))
    assert any(
        rules_words(replace(options, **{option.name: value})) != rules_words(options)
        for options in tables
    )


def test_house_rule_filters_are_the_options_that_declare_one() -> None:
    declared = [option for option in rules.OPTIONS if option.about.filter_key]
    assert list(scope.HOUSE_RULES) == [option.about.filter_key for option in declared]
    for option, value in OTHER_VALUES:
        if option.about.filter_key:
            house_rule = scope.HOUSE_RULES[option.about.filter_key]
            assert house_rule.label == option.about.filter_label
            assert house_rule.played(rules.options_from(**{option.name: value}))
            assert not house_rule.played(rules.Options())


def test_the_rules_form_asks_for_every_option_once(app: Flask) -> None:
    with app.test_request_context():
        form = RulesForm()
        shown = [field.name for group in form.rule_groups() for field in group.fields]
        assert sorted(shown) == sorted(NAMES)
        for option in rules.OPTIONS:
            field = getattr(form, option.name)
            assert field.label.text == option.about.label
            values = [choice.value for choice in getattr(field, "choices", None) or ()]
            assert values == [str(value) for value in option.about.choices]


@pytest.mark.parametrize("page", ["/sessions/new", "/sessions/import", "/rule-sets"])
def test_the_rules_form_shows_every_option(client: FlaskClient, page: str) -> None:
    html = client.get(page).get_data(as_text=True)
    for option in rules.OPTIONS:
        assert f'name="{option.name}"' in html, option.name


def test_the_tests_default_rules_are_the_options_defaults() -> None:
    assert options_json(rules.Options()) == DEFAULT_RULES


def test_the_tests_default_rules_are_api_md_s() -> None:
    text = (Path(__file__).parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
    lead = "holds every option of RULES.md, house rules included:\n\n```json\n"
    documented = text.split(lead, 1)[1].split("```", 1)[0]
    assert json.loads(documented) == DEFAULT_RULES

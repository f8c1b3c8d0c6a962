"""The parts of a hand the engine derives and a hand's JSON shows (`rules.DERIVED_FIELDS`,
declared on `rules.HandResult`) against every place derived from them: each is shown with every
hand, documented as an answer and refused as input, read back and checked from a backup; a
part declared anew needs nothing else written there."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from flask import Flask

from scorekeeper import rules
from scorekeeper.api.openapi import document
from scorekeeper.api.openapi.schemas import DERIVED
from scorekeeper.exchange import change_checks, session_bodies
from scorekeeper.sessions.records import hand_json, result_of

from ..helpers.api import Api, pick

NAMES = [name for name, _derived in rules.DERIVED_FIELDS]


def test_the_declared_parts_are_the_hand_results_shown_ones() -> None:
    assert NAMES == ["multiplier", "doubled", "scores", "bumped", "players", "sitting_out"]
    hidden = {f.name for f in dataclasses.fields(rules.HandResult)} - set(NAMES)
    assert hidden == {"hand", "winners", "schneidered"}


def test_each_is_in_every_hand_and_read_back_as_it_was(app: Flask, api: Api) -> None:
    session_id = api.new_session()["id"]
    shown = api.record(session_id, **pick("Ann", "Bob", 75))
    assert set(NAMES) <= set(shown)
    result = result_of(shown)
    for name in NAMES:
        if name != "scores":
            assert getattr(result, name) == type(getattr(result, name))(shown[name])
    again = hand_json(shown["number"], result, list(shown["scores"]))
    assert {name: again[name] for name in NAMES} == {name: shown[name] for name in NAMES}


@pytest.mark.parametrize(("name", "derived"), rules.DERIVED_FIELDS)
def test_each_is_documented_as_its_shape_and_refused_as_input(
    name: str, derived: rules.Derived
) -> None:
    schemas: dict[str, Any] = document()["components"]["schemas"]
    shown = schemas["Hand"]["properties"][name]
    assert {key: shown[key] for key in DERIVED[derived.shape]} == DERIVED[derived.shape]
    assert shown.get("description", "") == derived.about
    for kind in ("Pick", "Leaster", "Pass", "Penalty"):
        assert name in schemas[f"{kind}Input"]["properties"]
    assert name in session_bodies.HAND_OUTPUT_KEYS


@pytest.mark.parametrize(("name", "derived"), rules.DERIVED_FIELDS)
def test_each_is_checked_in_a_backup_and_may_be_missing_only_if_later(
    name: str, derived: rules.Derived
) -> None:
    assert name in change_checks.DERIVED_PARTS
    assert (name in change_checks.LATER_PARTS) == derived.later

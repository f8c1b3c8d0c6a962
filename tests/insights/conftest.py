"""The statistics' tests' nights, recorded through the API (`helpers/stats_season.py`): the
season and its house rules nights once a process for each database (`built_once`)."""

from __future__ import annotations

import pytest
from flask import Flask

from ..helpers.api import Api
from ..helpers.database import built_once
from ..helpers.stats_season import record_house_nights, record_season
from ..helpers.tables import play_the_night


@pytest.fixture
def season(app: Flask, api: Api) -> list[int]:
    return built_once(app, "season", lambda: record_season(app, api))


@pytest.fixture
def night(api: Api) -> int:
    """A table that changes: hands played are the hands a player played."""
    return play_the_night(api)


@pytest.fixture
def house_season(app: Flask, api: Api, season: list[int]) -> tuple[int, int]:
    """The season (played with no house rule), the house rules night on 2025-05-01, and on
    2025-05-02 a night of bump alone: Ann & Bob 45, Ann -4, Bob -2, Cat Dan Eve +2."""
    return built_once(app, "house season", lambda: record_house_nights(app, api))

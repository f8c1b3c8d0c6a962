"""The rules of Sheepshead as the scorekeeper computes them: pure Python, no Flask, no database."""

from .errors import RuleError, SessionComplete
from .hands import (
    CALLED_CARDS,
    Blitz,
    Hand,
    HandInput,
    Kind,
    check_card_points,
    validate_hand,
    whole_number_error,
)
from .scoring import HandResult, multiplier, opponent_value, score_hand
from .sheet import Sheet, Standing, score_sheet, standings
from .table import (
    MAX_ROUNDS,
    NoBid,
    Options,
    PartnerMode,
    Table,
    name_key,
    new_table,
    options_from,
    player_name,
    rounds_error,
    session_name,
)

__all__ = [
    "CALLED_CARDS",
    "MAX_ROUNDS",
    "Blitz",
    "Hand",
    "HandInput",
    "HandResult",
    "Kind",
    "NoBid",
    "Options",
    "PartnerMode",
    "RuleError",
    "SessionComplete",
    "Sheet",
    "Standing",
    "Table",
    "check_card_points",
    "multiplier",
    "name_key",
    "new_table",
    "opponent_value",
    "options_from",
    "player_name",
    "rounds_error",
    "score_hand",
    "score_sheet",
    "session_name",
    "standings",
    "validate_hand",
    "whole_number_error",
]

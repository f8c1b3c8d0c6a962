"""Player pages and the leaderboard, over all sessions or the sessions of some dates."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from flask import Response, abort, render_template, request
from markupsafe import Markup
from sqlalchemy import select

from ..exchange.csv_out import Cell, csv_lines
from ..insights import stats
from ..insights.dates import day_of
from ..sessions.database import one_or_404
from ..sessions.models import Player
from .blueprint import bp
from .charts import Series, line_chart
from .filters import HOUSE_KEYS, read_filters
from .sessions import csv_download

PLAYER_FILTERS = ("from", "to", *HOUSE_KEYS)
LEADERBOARD_FILTERS = (*PLAYER_FILTERS, "min_picks")


@bp.get("/players/<id(player):player_id>")
def player_page(player_id: int) -> tuple[str, int]:
    player = one_or_404("player", player_id, select(Player).where(Player.id == player_id))
    filters = read_filters(request.args, PLAYER_FILTERS)
    if filters.errors:
        return render_template("player.html", player=player, filters=filters), 400
    numbers = stats.player_stats(player, filters.dates, filters.house)
    return render_template(
        "player.html",
        player=player,
        filters=filters,
        stats=numbers,
        chart=season_chart(player.name, numbers.sessions) if numbers.sessions else None,
    ), 200


def season_chart(name: str, sessions: Sequence[stats.SessionLine]) -> Markup:
    """The player's season total from 0 before the first session, then after each session in
    date order: a line even for one session."""
    running = list(accumulate((line.total for line in sessions), initial=0))
    first, last = (day_of(line.created_at) for line in (sessions[0], sessions[-1]))
    span = first if first == last else f"{first} to {last}"
    return line_chart([Series(name, running)], f"{name}'s season total", f"sessions, {span}")


@bp.get("/players")
@bp.get("/leaderboard")
def leaderboard() -> tuple[str, int]:
    filters = read_filters(request.args, LEADERBOARD_FILTERS)
    if filters.errors:
        return render_template("leaderboard.html", filters=filters), 400
    board = stats.leaderboard(filters.dates, filters.min_picks, filters.house)
    return render_template("leaderboard.html", filters=filters, board=board), 200


CSV_HEADER = (
    "place_by_total", "place_by_average", "place_by_picking", "player", "total",
    "hands_played", "hands_won", "average_per_hand", "picks", "picks_won", "picking_win_rate",
)  # fmt: skip


def leaderboard_csv(board: stats.Leaderboard) -> str:
    """One row a player, in the order of the ranking by total, with all three places; the
    picking place and rate are empty for players under the minimum number of picks."""
    by_average = {r.player.player_id: r.place for r in board.by_average}
    by_picking = {r.player.player_id: r.place for r in board.by_picking}
    rows: list[Sequence[Cell]] = [CSV_HEADER]
    for ranked in board.by_total:
        p = ranked.player
        picking_place = by_picking.get(p.player_id)
        rows.append([
            ranked.place, by_average[p.player_id], picking_place, p.name, p.total,
            p.hands.of, p.hands.count, p.average_shown, p.picks.of, p.picks.count,
            None if picking_place is None else p.picks.percent,
        ])  # fmt: skip
    return "".join(csv_lines(rows))


@bp.get("/leaderboard.csv")
def leaderboard_download() -> Response:
    filters = read_filters(request.args, LEADERBOARD_FILTERS)
    if filters.errors:
        abort(400, " ".join(filters.errors))
    board = stats.leaderboard(filters.dates, filters.min_picks, filters.house)
    name = "".join(f"-{key}-{day}" for key, day in filters.given_dates.items())
    return csv_download(leaderboard_csv(board), f"sheepshead-leaderboard{name}")

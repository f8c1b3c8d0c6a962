"""Player pages and the leaderboard, over all sessions or the sessions of some dates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta
from itertools import accumulate

from flask import Response, abort, flash, redirect, render_template, request, url_for
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import joinedload
from werkzeug.wrappers import Response as BaseResponse
from wtforms import SelectField, StringField

from ..exchange.csv_out import Cell, csv_lines
from ..insights import company, player_numbers, roster, stats
from ..insights.dates import days_of
from ..rules import RuleError
from ..rules.rating import RATED_HANDS
from ..sessions.database import one_or_404
from ..sessions.models import MAX_ID, Player
from ..sessions.players import merge_undone
from .blueprint import bp
from .charts import Series, line_chart
from .filters import HOUSE_KEYS, RANKED_SHOWN, read_filters
from .forms import EngineForm
from .saving import done, player_write, sent_key
from .sessions import csv_download

PLAYER_FILTERS = ("from", "to", *HOUSE_KEYS)
LEADERBOARD_FILTERS = (*PLAYER_FILTERS, "min_picks", "season")
# A player's page reached from the players list says so in its address, and its back link goes
# back there; from anywhere else it goes to the leaderboard.
FROM_PLAYERS = {"back": "players"}
# Players a page of the players list: a league's thousand stay small pages.
PLAYERS_A_PAGE = 200


class RenameForm(EngineForm):
    name = StringField("New name")


class MergeForm(EngineForm):
    into = SelectField("Merge into", validate_choice=False)

    def into_id(self) -> int:
        chosen = self.into.data or ""
        if not chosen.isdigit() or len(chosen) > len(str(MAX_ID)):
            raise RuleError("Choose the player to merge into.", "into")
        return int(chosen)


@bp.get("/players")
def players_page() -> str:
    search = request.args.get("q", "")
    found = roster.players(search)
    pages = max(1, -(-len(found) // PLAYERS_A_PAGE))
    number = min(max(request.args.get("page", 1, type=int), 1), pages)
    first = (number - 1) * PLAYERS_A_PAGE
    return render_template(
        "players/players.html",
        players=found[first : first + PLAYERS_A_PAGE],
        first=first + 1,
        found=len(found),
        number=number,
        pages=pages,
        search=search,
        came=FROM_PLAYERS,
    )


def _came_from() -> dict[str, str]:
    """The query that keeps a player's page going back to the players list, when it came from
    there."""
    return FROM_PLAYERS if request.args.get("back") == FROM_PLAYERS["back"] else {}


@bp.get("/players/<id(player):player_id>")
def player_page(player_id: int) -> tuple[str, int]:
    return _player_view(_player_or_404(player_id))


def _player_or_404(player_id: int) -> Player:
    """The player, with their rating, in one query."""
    query = select(Player).options(joinedload(Player.rating)).where(Player.id == player_id)
    return one_or_404("player", player_id, query)


def _player_view(
    player: Player,
    rename: RenameForm | None = None,
    merge: MergeForm | None = None,
    status: int = 200,
) -> tuple[str, int]:
    filters = read_filters(request.args, PLAYER_FILTERS)
    rename = rename or RenameForm(formdata=None, name=player.name)
    merge = merge or MergeForm(formdata=None)
    merge.into.choices = [("", "Choose a player"), *roster.others(player.id)]
    shown = {
        "player": player,
        "filters": filters,
        "came": _came_from(),
        "rename": rename,
        "merge": merge,
        "merges": roster.merges(into=player.id),
    }
    if filters.errors:
        return render_template("players/player.html", **shown), 400
    numbers = player_numbers.player_stats(player, filters.dates, filters.house, CHART_POINTS)
    chart = None
    if numbers.sessions_played > CHART_POINTS:
        chart = days_chart(player.name, numbers.days)
    elif numbers.sessions_played:
        chart = season_chart(player.name, numbers.recent)
    shown["rating_chart"] = rating_chart(player.name, numbers)
    return render_template(
        "players/player.html",
        stats=numbers,
        chart=chart,
        rated_hands=RATED_HANDS,
        extremes=player_numbers.best_and_worst(player.id, filters.dates, filters.house),
        partners=company.partners(player.id, filters.dates, filters.house)[:PARTNERS_SHOWN],
        opponents=company.opponents(player.id, filters.dates, filters.house),
        **shown,
    ), status


@bp.get("/players/<id(player):player_id>/sessions")
def player_sessions(player_id: int) -> tuple[str, int]:
    """A player's older sessions, `SESSIONS_SHOWN` a page, after the newest `before`."""
    player = _player_or_404(player_id)
    filters = read_filters(request.args, PLAYER_FILTERS)
    before = max(0, min(request.args.get("before", 0, type=int), MAX_ID))
    if filters.errors:
        shown = {"player": player, "filters": filters, "came": _came_from()}
        return render_template("players/player_sessions.html", **shown), 400
    lines = player_numbers.sessions_of(
        player.id, filters.dates, filters.house, player_numbers.SESSIONS_SHOWN + 1, before
    )
    shown = {
        "player": player,
        "filters": filters,
        "came": _came_from(),
        "lines": lines[-player_numbers.SESSIONS_SHOWN :],
        "before": before,
        "older": len(lines) > player_numbers.SESSIONS_SHOWN,
        "per_page": player_numbers.SESSIONS_SHOWN,
    }
    return render_template("players/player_sessions.html", **shown), 200


@bp.post("/players/<id(player):player_id>/rename")
def rename_player(player_id: int) -> str | tuple[str, int] | BaseResponse:
    player = _player_or_404(player_id)
    form = RenameForm()
    if form.validate_on_submit():
        try:
            with player_write([player_id]) as write:
                old = player.name
                renamed = write.rename(form.name.data or "")
                message = f"{old} is now {renamed.name}." if renamed.name != old else None
                return done(write, url_for("pages.player_page", player_id=player_id), message)
        except RuleError as error:
            form.refuse(error)
            return _player_view(_player_or_404(player_id), rename=form, status=error.status)
    return _player_view(player, rename=form, status=400)


@bp.post("/players/<id(player):player_id>/merge")
def merge_player(player_id: int) -> str | tuple[str, int] | BaseResponse:
    player = _player_or_404(player_id)
    form = MergeForm()
    if form.validate_on_submit():
        try:
            into = form.into_id()
            with player_write([player_id, into]) as write:
                gone = player.name
                kept = write.merge()
                page = url_for("pages.player_page", player_id=kept.id)
                return done(write, page, f"{gone} is merged into {kept.name}.")
        except RuleError as error:
            form.refuse(error)
            return _player_view(_player_or_404(player_id), merge=form, status=error.status)
    return _player_view(player, merge=form, status=400)


@bp.post("/players/<id(player):player_id>/active")
def retire_player(player_id: int) -> BaseResponse:
    active = request.form.get("active") == "1"
    with player_write([player_id], sessions=False) as write:
        player = write.set_active(active)
        verb = "is offered for new sessions again" if active else "is retired"
        page = url_for("pages.player_page", player_id=player_id)
        return done(write, page, f"{player.name} {verb}.")


@bp.post("/players/merges/<id(merge):merge_id>/undo")
def undo_merge(merge_id: int) -> BaseResponse:
    try:
        with merge_undone(merge_id, *sent_key()) as write:
            back, into = write.players
            page = url_for("pages.player_page", player_id=back.id)
            return done(write, page, f"{back.name} is back, apart from {into.name}.")
    except RuleError as error:
        flash(error.message)
        return redirect(url_for("pages.players_page"))


# The most points of a season chart drawn one a session, or one a day; beyond, one a week.
CHART_POINTS = 60
# The partners a player's page lists, most hands together first.
PARTNERS_SHOWN = 10


def season_chart(name: str, sessions: Sequence[player_numbers.SessionLine]) -> Markup:
    """The player's season total from 0 before the first session, then after each session in
    date order: a line even for one session. A long history is drawn a point a day, or a
    week (the week's Monday), so the chart stays as small as a season's."""
    started = days_of(line.created_at for line in sessions)
    days = [(day, line.total) for day, line in zip(started, sessions, strict=True)]
    if len(days) > CHART_POINTS:
        return days_chart(name, _summed_by(days, lambda day: day))
    return _chart(name, days, "sessions")


def days_chart(name: str, days: Sequence[tuple[date, int]]) -> Markup:
    """The season chart of a history of more than CHART_POINTS sessions, from the total of
    each day played in the order played: a point a day, or a week."""
    if len(days) > CHART_POINTS:
        weeks = _summed_by(days, lambda day: day - timedelta(days=day.weekday()))
        return _chart(name, weeks, "weeks")
    return _chart(name, days, "days")


def _chart(name: str, days: Sequence[tuple[date, int]], unit: str) -> Markup:
    running = list(accumulate((total for _, total in days), initial=0))
    first, last = days[0][0].isoformat(), days[-1][0].isoformat()
    span = first if first == last else f"{first} to {last}"
    return line_chart([Series(name, running)], f"{name}'s season total", f"{unit}, {span}")


def rating_chart(name: str, numbers: player_numbers.PlayerStats) -> Markup | None:
    """The player's rating from 0.0 before their first session, then after each session their
    history keeps (every session, or every second, fourth... of a long one, and their latest);
    None before their first rated game."""
    points = numbers.rating_history
    if not points:
        return None
    days = days_of(at for _, at, _ in points)
    first, last = days[0].isoformat(), days[-1].isoformat()
    span = first if first == last else f"{first} to {last}"
    every = (
        "each session"
        if numbers.rating_stride == 1
        else (f"every {numbers.rating_stride} sessions")
    )
    values = [0.0, *(value for _, _, value in points)]
    return line_chart([Series(name, values)], f"{name}'s rating", f"after {every}, {span}", 1)


def _summed_by(
    days: Sequence[tuple[date, int]], key: Callable[[date], date]
) -> list[tuple[date, int]]:
    summed: dict[date, int] = {}
    for day, total in days:
        summed[key(day)] = summed.get(key(day), 0) + total
    return list(summed.items())


@bp.get("/leaderboard")
def leaderboard() -> tuple[str, int]:
    filters = read_filters(request.args, LEADERBOARD_FILTERS)
    if filters.errors:
        return render_template("players/leaderboard.html", filters=filters), 400
    board = stats.leaderboard(filters.dates, filters.min_picks, filters.house)
    shown = None if request.args.get("everyone") == "1" else RANKED_SHOWN
    page = render_template(
        "players/leaderboard.html",
        filters=filters,
        board=board,
        shown=shown,
        rated_hands=RATED_HANDS,
        champions=stats.champions(filters.house),
    )
    return page, 200


CSV_HEADER = (
    "place_by_total", "place_by_average", "place_by_picking", "player", "total",
    "hands_played", "hands_won", "average_per_hand", "picks", "picks_won", "picking_win_rate",
    "place_by_rating", "rating", "rated_hands", "nights",
)  # fmt: skip


def leaderboard_csv(board: stats.Leaderboard) -> str:
    """One row a player, in the order of the ranking by total, with all four places; the
    picking place and rate are empty for players under the minimum number of picks, the rating
    place for a provisional rating, the rating before a player's first rated hand, and the
    average and its place for players of nights kept without hands alone."""
    by_average = {r.player.player_id: r.place for r in board.by_average}
    by_picking = {r.player.player_id: r.place for r in board.by_picking}
    by_rating = {r.player.player_id: r.place for r in board.by_rating}
    rows: list[Sequence[Cell]] = [CSV_HEADER]
    for ranked in board.by_total:
        p = ranked.player
        picking_place = by_picking.get(p.player_id)
        rating = p.rating
        rows.append([
            ranked.place, by_average.get(p.player_id), picking_place, p.name, p.total,
            p.hands.of, p.hands.count, p.average_shown, p.picks.of, p.picks.count,
            None if picking_place is None else p.picks.percent,
            by_rating.get(p.player_id), None if rating is None else rating.shown,
            0 if rating is None else rating.hands, p.nights,
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

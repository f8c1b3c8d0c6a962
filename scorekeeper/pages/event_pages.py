"""Club events: a new event, checking players in, drawing a round (shown before it is made),
the tables' cards to print, the board for the TV and the final results. Every form is read into
the API's terms (`exchange.event_bodies`) and written through `event_writes.event_write`, as the API
writes, so a form and the API refuse with the same sentence."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse
from wtforms import BooleanField, RadioField, SelectChoice, SelectField, StringField, TextAreaField

from .. import rules
from ..exchange import rule_sets
from ..exchange.event_bodies import check_in_request, draw_request, event_change, event_request
from ..insights.dates import day_of
from ..rules import RuleError
from ..sessions import event_reads, event_writes, loading
from ..sessions.errors import NotFound, VersionMismatch
from ..sessions.records import options_json
from .blueprint import bp
from .forms import EngineForm, NewPlayersForm, SubstituteForm
from .saving import done, roster_write, sent_key
from .words import currency, money, rules_words, signed

TIES = [
    SelectChoice(rules.Ties.SHARE.value, "Share the place"),
    SelectChoice(rules.Ties.HANDS_WON.value, "More hands won first"),
    SelectChoice(rules.Ties.LOT.value, "Drawn by lot"),
]
TIES_LINES = {
    rules.Ties.SHARE.value: "Equal totals share the place: 1, 2, 2, 4.",
    rules.Ties.HANDS_WON.value: "More hands won over the event goes first, then they share.",
    rules.Ties.LOT.value: "A draw from the event's seed orders them, and the standings say so.",
}
DIGITS = re.compile(r"\d{1,6}", re.ASCII)
ENTRY = re.compile(r"(\d{0,4})(?:[.,](\d{1,2}))?", re.ASCII)
LIST = re.compile(r"[\s,;]+")
# Between the two names of a pair to keep apart: "Ann and Bob", "Ann, Bob", "Ann & Bob".
BETWEEN = re.compile(r"\s*(?:,|;|&|\+|/)\s*|\s+and\s+", re.IGNORECASE)


def _number(text: str | None) -> int | str | None:
    """Typed digits as a number, anything else as typed for the API's check to refuse; empty
    means not given."""
    text = (text or "").strip()
    if not text:
        return None
    return int(text) if DIGITS.fullmatch(text) else text


def _numbers(text: str | None) -> list[int | str] | None:
    """A typed list such as "30, 15, 10"; empty means not given."""
    parts = [part for part in LIST.split(text or "") if part]
    return [_item(part) for part in parts] if parts else None


def _item(part: str) -> int | str:
    return int(part) if DIGITS.fullmatch(part) else part


def typed_entry(text: str | None) -> int | None:
    """A typed entry fee ("25", "$12.50") in cents; empty means none."""
    text = (text or "").strip().replace(" ", "").removeprefix(currency())
    if not text:
        return None
    found = ENTRY.fullmatch(text)
    if found is None or not (found[1] or found[2]):
        raise RuleError(
            f"The entry fee is money such as 25 or 12.50, from {money(0)} to "
            f"{money(event_writes.MAX_ENTRY)}.",
            "entry",
        )
    return int(found[1] or 0) * 100 + int((found[2] or "0").ljust(2, "0"))


def typed_pairs(text: str | None) -> list[list[str]]:
    """Pairs typed one a line ("Ann and Bob", "Ann, Bob"), each as its names for the engine to
    check; empty lines are left out."""
    lines = [line.strip() for line in (text or "").splitlines()]
    return [[name for name in BETWEEN.split(line) if name] for line in lines if line]


def pairs_text(pairs: list[list[str]]) -> str:
    return "\n".join(" and ".join(pair) for pair in pairs)


class EventForm(EngineForm):
    """A new event's settings, as typed."""

    name = StringField("Name")
    date = StringField("Date")
    hands = StringField("Hands a player plays each round", default=str(rules.DEFAULT_HANDS))
    rounds = StringField("Rounds", default="3")
    rule_set = SelectField("Rules", validate_choice=False, default="")
    entry = StringField("Entry fee")
    places = StringField("Prizes for places, in percent of the pot")
    round_top = StringField("Each round's top score, in percent of the pot")
    ties = RadioField("Ties", choices=TIES, default=rules.Ties.SHARE.value, validate_choice=False)
    confirm = BooleanField("The other side confirms every hand")
    apart = TextAreaField("Keep apart")
    practice = BooleanField("Practice event")

    FIELD_FOR: ClassVar[dict[str, str]] = {"rules": "rule_set", "seed": "name"}

    def offer_rule_sets(self) -> None:
        self.rule_set.choices = [
            SelectChoice("", "The usual rules"),
            *(SelectChoice(str(saved.id), saved.name) for saved in rule_sets.listed()),
        ]

    def body(self, change: bool = False) -> dict[str, Any]:
        """The event as the API takes it, for the API's checks; for a `change`, what is left
        empty is none (no prizes, no pairs kept apart, not confirming) rather than not given."""
        body: dict[str, Any] = {
            "name": (self.name.data or "").strip() or None,
            "date": (self.date.data or "").strip() or None,
            "hands": _number(self.hands.data),
            "rounds": _number(self.rounds.data),
            "entry": typed_entry(self.entry.data),
            "places": _numbers(self.places.data),
            "round_top": _number(self.round_top.data),
            "ties": self.ties.data or None,
            "confirm": bool(self.confirm.data) or None,
            "apart": typed_pairs(self.apart.data) or None,
            "practice": bool(self.practice.data) or None,
        }
        chosen = self.rule_set.data or ""
        if chosen:
            saved = next((s for s in rule_sets.listed() if str(s.id) == chosen), None)
            if saved is None:
                raise RuleError("That rule set is gone: choose the rules again.", "rules")
            body["rules"] = options_json(rule_sets.options_of(saved))
        if change:
            for key, nothing in (("places", []), ("apart", []), ("round_top", 0)):
                if body[key] is None:
                    body[key] = nothing
            if self.entry.raw_data and body["entry"] is None:
                body["entry"] = 0
            body["confirm"] = bool(self.confirm.data)
            body.pop("practice", None)
        return {key: value for key, value in body.items() if value is not None}

    def fill(self, event: Any) -> None:
        """The form as the event is now."""
        self.name.data = event.name
        self.date.data = event.day.isoformat() if event.day else ""
        self.hands.data = str(event.hands)
        self.rounds.data = str(event.rounds)
        self.entry.data = f"{event.entry // 100}.{event.entry % 100:02d}" if event.entry else ""
        self.places.data = ", ".join(map(str, event.places))
        self.round_top.data = str(event.round_top) if event.round_top else ""
        self.ties.data = event.ties
        self.apart.data = pairs_text(event.apart)
        self.confirm.data = event.confirm


class CheckInForm(NewPlayersForm):
    """Players checking in: names tapped from the roster and names typed, one a line."""

    new_name = StringField("New names")

    FIELD_FOR: ClassVar[dict[str, str]] = {"name": "new_name"}

    def names(self, formdata: Any) -> list[str]:
        typed = [line.strip() for line in (self.new_name.data or "").splitlines()]
        tapped = [name.strip() for name in formdata.getlist("name")]
        return [name for name in [*tapped, *typed] if name]


# Pages


@bp.get("/events")
def events_page() -> str:
    return render_template("events/events.html", events=event_reads.list_events())


@bp.route("/events/new", methods=["GET", "POST"])
def new_event() -> str | tuple[str, int] | BaseResponse:
    form = EventForm()
    form.offer_rule_sets()
    if form.validate_on_submit():
        try:
            given = event_request(form.body())
            with roster_write() as write:
                event = event_writes.new_event(given)
                page = url_for("pages.event_page", event_id=event.id)
                return done(write, page, f"{event.name} is ready: check the players in.")
        except RuleError as error:
            form.refuse(error)
    page = render_template(
        "events/new_event.html", form=form, ties_lines=TIES_LINES, event=None, usual_rules=_usual()
    )
    return (page, 400) if form.errors or form.form_errors else page


def _usual() -> str:
    return ", ".join(rules_words(rules.options_from()))


@bp.route("/events/<id(event):event_id>/edit", methods=["GET", "POST"])
def edit_event(event_id: int) -> str | tuple[str, int] | BaseResponse:
    """Change an event's settings as `PATCH /api/events/<id>` does, from the version the page
    showed: the rules (offered as they are, or a rule set) and the entry only before the first
    draw."""
    read = event_reads.read_event_or_404(event_id)
    form = EventForm()
    form.offer_rule_sets()
    form.rule_set.choices = [SelectChoice("", "As they are"), *form.rule_set.choices[1:]]
    version = read.event.version
    if form.validate_on_submit():
        version = int(request.form.get("version") or version)
        try:
            given = event_change(form.body(change=True))
            with event_writes.event_write(event_id, *sent_key(), if_match=str(version)) as write:
                write.update(given)
                write.finish()
                page = url_for("pages.event_page", event_id=event_id)
                return done(write, page, f"{write.event.name} is changed.")
        except VersionMismatch:
            form.form_errors.append(
                "The event changed on another phone since this page was opened: here it is as "
                "it is now. Make your changes again."
            )
            read = event_reads.read_event_or_404(event_id)
            form.process(formdata=None)
            form.fill(read.event)
            version = read.event.version
        except RuleError as error:
            form.refuse(error)
    elif request.method == "GET":
        form.fill(read.event)
    rules_now = ", ".join(rules_words(rules.options_from(**read.event.rules))).capitalize()
    page = render_template(
        "events/new_event.html",
        form=form,
        ties_lines=TIES_LINES,
        event=read.event,
        version=version,
        drawn_rounds=read.rounds,
        usual_rules=_usual(),
        rules_now=rules_now,
    )
    return (page, 400) if form.errors or form.form_errors else page


def _event_view(
    event_id: int, form: CheckInForm | None = None, status: int = 200
) -> tuple[str, int]:
    read = event_reads.read_event_or_404(event_id)
    form = form or CheckInForm(formdata=None)
    here = {p.player.name_key for p in read.event.players if p.checked_in}
    everyone = bool(request.args.get("everyone"))
    roster = [name for name in loading.roster(everyone) if rules.name_key(name) not in here]
    return render_template(
        "events/event.html",
        read=read,
        view=EventView.of(read),
        form=form,
        roster=roster,
        show_everyone=not everyone and loading.has_retired(),
    ), status


@bp.get("/events/<id(event):event_id>")
def event_page(event_id: int) -> tuple[str, int]:
    return _event_view(event_id)


@bp.post("/events/<id(event):event_id>/players")
def check_in(event_id: int) -> tuple[str, int] | BaseResponse:
    event_reads.event_version(event_id)
    form = CheckInForm()
    if form.validate_on_submit():
        form.read_new_players(request.form)
        names = form.names(request.form)
        try:
            if not names:
                raise RuleError("Tap the players who are here, or type their names.", "name")
            with event_writes.event_write(event_id, *sent_key(), roster=True) as write:
                for name in names:
                    given = check_in_request({"name": name, "new_players": form.new_players})
                    write.check_in(given.name, given.new_players)
                write.finish()
                here = sum(p.checked_in for p in write.event.players)
                said = names[0] if len(names) == 1 else f"{len(names)} players"
                message = f"{said} checked in: {here} in all."
                # After a typed name the page comes back ready for the next one.
                typed = "1" if (form.new_name.data or "").strip() else None
                page = url_for("pages.event_page", event_id=event_id, typed=typed)
                return done(write, page, message)
        except RuleError as error:
            form.refuse(error)
    return _event_view(event_id, form, 400)


@bp.post("/events/<id(event):event_id>/players/out")
def check_out(event_id: int) -> BaseResponse:
    event_reads.event_version(event_id)
    page = url_for("pages.event_page", event_id=event_id)
    name = request.form.get("name", "")
    try:
        with event_writes.event_write(event_id, *sent_key()) as write:
            write.check_out(name)
            write.finish()
            return done(write, page, f"{name.strip()} checked out: they keep their points.")
    except RuleError as error:
        flash(error.message)
        return redirect(page)


def _change_apart(
    event_id: int, pairs: Any, said: Callable[[list[list[str]]], str]
) -> BaseResponse:
    """Keep these pairs apart from the next draw on, as `PATCH /api/events/<id>` would."""
    page = url_for("pages.event_page", event_id=event_id, _anchor="apart-title")
    try:
        given = event_change({"apart": pairs})
        with event_writes.event_write(event_id, *sent_key()) as write:
            write.update(given)
            write.finish()
            return done(write, page, said(write.event.apart))
    except RuleError as error:
        flash(error.message)
        return redirect(page)


@bp.post("/events/<id(event):event_id>/apart")
def keep_apart(event_id: int) -> BaseResponse:
    event = event_reads.read_event_or_404(event_id).event
    pair = [request.form.get("first", "").strip(), request.form.get("second", "").strip()]
    names = [name for name in pair if name]
    return _change_apart(
        event_id,
        [*event.apart, names],
        lambda apart: f"{' and '.join(apart[-1])} are kept apart from the next draw on.",
    )


@bp.post("/events/<id(event):event_id>/apart/remove")
def stop_keeping_apart(event_id: int) -> BaseResponse:
    event = event_reads.read_event_or_404(event_id).event
    pair = [rules.name_key(name) for name in request.form.getlist("name")]
    kept = [p for p in event.apart if [rules.name_key(name) for name in p] != pair]
    said = f"{' and '.join(request.form.getlist('name'))} may sit together again."
    return _change_apart(event_id, kept, lambda _apart: said)


def _typed_sizes(text: str | None) -> list[int] | None:
    sizes = _numbers(text)
    return None if sizes is None else draw_request({"tables": sizes})


@bp.get("/events/<id(event):event_id>/draw")
def draw_page(event_id: int) -> tuple[str, int]:
    """The next round's tables as they would be drawn now, to confirm."""
    read = event_reads.read_event_or_404(event_id)
    view = EventView.of(read)
    typed = request.args.get("tables", "")
    planned, refusal = None, view.why_no_draw
    if refusal is None:
        try:
            planned = event_writes.planned_draw(event_id, _typed_sizes(typed))
        except RuleError as error:
            refusal = error.message
    page = render_template(
        "events/event_draw.html",
        read=read,
        view=view,
        planned=planned,
        refusal=refusal,
        typed=typed,
    )
    return page, 200 if planned else 409 if view.why_no_draw else 400


@bp.post("/events/<id(event):event_id>/rounds")
def draw_round(event_id: int) -> BaseResponse:
    """Draw the round the page showed: refused when the event changed since it showed it."""
    event_reads.event_version(event_id)
    typed = request.form.get("tables", "")
    shown = request.form.get("version", "")
    try:
        with event_writes.event_write(
            event_id, *sent_key(), if_match=shown or None, roster=True
        ) as write:
            number = write.draw_round(_typed_sizes(typed))
            write.finish()
            page = url_for("pages.event_round", event_id=event_id, number=number)
            return done(write, page, f"Round {number} drawn: hand each table its card.")
    except VersionMismatch:
        flash("The players changed since these tables were shown: here is the draw now.")
    except RuleError as error:
        flash(error.message)
    return redirect(url_for("pages.draw_page", event_id=event_id, tables=typed or None))


@bp.post("/events/<id(event):event_id>/rounds/<int:number>/practice-hands")
def practice_hands(event_id: int, number: int) -> BaseResponse:
    """Fill a practice event's round with made-up hands, as the API does."""
    event_reads.event_version(event_id)
    page = url_for("pages.event_page", event_id=event_id)
    try:
        with event_writes.event_write(event_id, *sent_key()) as write:
            made = write.practice_hands(number)
            write.finish()
            said = f"{made} made-up hands" if made else "Nothing to fill"
            return done(write, page, f"{said}: every table of round {number} is complete.")
    except RuleError as error:
        flash(error.message)
        return redirect(page)


@bp.route("/events/<id(event):event_id>/delete", methods=["GET", "POST"])
def delete_event(event_id: int) -> str | tuple[str, int] | BaseResponse:
    """Delete a practice event whole, once asked; a real event is refused."""
    read = event_reads.read_event_or_404(event_id)
    if request.method == "POST":
        try:
            with event_writes.event_write(event_id, *sent_key(), roster=True) as write:
                name = write.event.name
                write.delete_event()
                return done(write, url_for("pages.events_page"), f"{name} is deleted.")
        except RuleError as error:
            flash(error.message)
            return redirect(url_for("pages.event_page", event_id=event_id))
    page = render_template("events/delete_event.html", read=read, view=EventView.of(read))
    return page if read.event.practice else (page, 409)


@bp.get("/events/<id(event):event_id>/rounds/<int:number>")
def event_round(event_id: int, number: int) -> str:
    """A round's tables, a card each, to read out or print one a sheet."""
    return render_round(event_id, number)


def render_round(
    event_id: int, number: int | None, substitute: SubstituteForm | None = None
) -> str:
    """Round `number`'s tables (None: the round drawn last); while it is being played, with
    the form that seats a substitute (`substitute`, as it was sent)."""
    read = event_reads.read_event_or_404(event_id)
    view = EventView.of(read)
    number = read.rounds if number is None else number
    if not 1 <= number <= read.rounds:
        raise NotFound(f"Event {event_id} has no round {number} drawn.")
    if number == read.rounds and not view.round_complete:
        substitute = substitute or SubstituteForm(formdata=None)
        substitute.offer([name for line in view.current for name in line.seats])
    else:
        substitute = None
    return render_template(
        "events/event_round.html",
        read=read,
        view=view,
        number=number,
        tables=view.round(number),
        substitute=substitute,
        roster=loading.roster() if substitute else [],
    )


@bp.get("/events/<id(event):event_id>/board")
def event_board(event_id: int) -> str:
    read = event_reads.read_event_or_404(event_id)
    return render_template("events/event_board.html", read=read, view=EventView.of(read))


@bp.get("/events/<id(event):event_id>/standings")
def event_standings(event_id: int) -> str:
    """The standings to print: two columns to an A4 or Letter sheet."""
    read = event_reads.read_event_or_404(event_id)
    return render_template("events/event_standings.html", read=read, view=EventView.of(read))


@bp.get("/events/<id(event):event_id>/results")
def event_results(event_id: int) -> str:
    read = event_reads.read_event_or_404(event_id)
    view = EventView.of(read)
    return render_template("events/event_results.html", read=read, view=view, recap=recap(view))


# What the pages show


@dataclass(frozen=True)
class TableLine:
    """A table of a round as the pages show it."""

    number: int
    session_id: int
    seats: tuple[str, ...]
    hands: int
    hands_to_play: int
    complete: bool
    # Its hands waiting to be confirmed, and who sits in there for whom.
    to_confirm: int = 0
    stand_ins: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class EventView:
    """An event read whole, in the words and numbers its pages show."""

    read: event_reads.EventRead
    tables: list[TableLine]

    @classmethod
    def of(cls, read: event_reads.EventRead) -> EventView:
        lines = [
            TableLine(
                t.session.event_table or 0,
                t.session.id,
                t.table.seats,
                t.hands,
                t.hands_to_play,
                t.complete,
                t.to_confirm,
                t.stand_ins,
            )
            for t in read.tables
        ]
        return cls(read, lines)

    def round(self, number: int) -> list[TableLine]:
        return [
            line
            for line, table in zip(self.tables, self.read.tables, strict=True)
            if table.session.event_round == number
        ]

    @property
    def event(self) -> Any:
        return self.read.event

    @property
    def checked_in(self) -> list[str]:
        return [p.player.name for p in self.event.players if p.checked_in]

    @property
    def checked_out(self) -> list[str]:
        return [p.player.name for p in self.event.players if not p.checked_in]

    @property
    def current(self) -> list[TableLine]:
        """The tables of the round drawn last."""
        return self.round(self.read.rounds)

    @property
    def round_complete(self) -> bool:
        return bool(self.read.rounds) and all(line.complete for line in self.current)

    @property
    def all_drawn(self) -> bool:
        return bool(self.event.rounds) and self.read.rounds >= self.event.rounds

    @property
    def why_no_draw(self) -> str | None:
        """Why the next round can't be drawn now, or None when it can."""
        if self.all_drawn:
            return f"All {self.event.rounds} rounds of the event are drawn."
        waiting = [line for line in self.current if not line.complete]
        if waiting:
            tables = ", ".join(str(line.number) for line in waiting)
            s = "s" if len(waiting) > 1 else ""
            return (
                f"Round {self.read.rounds} is still being played at table{s} {tables}: the next "
                "round is drawn once every table is complete or ended."
            )
        if len(self.checked_in) < rules.MIN_SEATS:
            return f"Check in at least {rules.MIN_SEATS} players to draw a round."
        return None

    @property
    def waiting(self) -> list[tuple[int, int, int]]:
        """The tables whose hands wait to be confirmed: round, table and how many hands."""
        return [
            (table.session.event_round or 0, line.number, line.to_confirm)
            for line, table in zip(self.tables, self.read.tables, strict=True)
            if line.to_confirm
        ]

    @property
    def next_round(self) -> int:
        return self.read.rounds + 1

    @property
    def day(self) -> str:
        event = self.event
        return event.day.isoformat() if event.day else day_of(event.created_at)

    @property
    def money(self) -> bool:
        return bool(self.event.entry)

    def totals_paid(self) -> list[tuple[str, int, list[str]]]:
        """Each player paid, what they are paid (their standing's `paid`) and what for, largest
        first."""
        if not self.money:
            return []
        results = self.read.results
        tops: dict[str, list[str]] = {}
        for leader in results.round_leaders:
            if leader.prize:
                for player in leader.players:
                    tops.setdefault(player, []).append(f"round {leader.round}'s top")
        paid = [
            (s.player, s.paid, [_place(s.place)] * bool(s.prize) + tops.get(s.player, []))
            for s in results.standings
            if s.paid
        ]
        return sorted(paid, key=lambda line: -line[1])


def _place(place: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place % 100 not in (11, 12, 13) else 0)
    return f"{place}{suffix or 'th'} place"


def recap(view: EventView) -> str:
    """The results as a message to send: the standings, then who is paid what."""
    event, results = view.event, view.read.results
    provisional = " (provisional)" if results.provisional else ""
    lines = [f"{event.name}, {view.day}{provisional}", ""]
    for standing in results.standings:
        prize = f" · {money(standing.prize)}" if view.money and standing.prize else ""
        lines.append(f"{standing.place}. {standing.player} {signed(standing.total)}{prize}")
    leaders = [leader for leader in results.round_leaders if leader.players]
    if leaders:
        lines.append("")
        for leader in leaders:
            prize = f" · {money(leader.prize)}" if view.money and leader.prize else ""
            if prize and len(leader.players) > 1:
                prize += " each"
            who = ", ".join(leader.players)
            lines.append(f"Round {leader.round} top: {who} {signed(leader.total)}{prize}")
    if view.money:
        lines += ["", f"Pot {money(results.pot or 0)}, house {money(results.house or 0)}."]
    return "\n".join(lines)

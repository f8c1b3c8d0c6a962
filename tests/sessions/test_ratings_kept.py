"""The ratings kept beside the history (`sessions.ratings`): a hand recorded at the end updates
them in its write; every other change to the history has them recomputed from it, as if the
hands had always been so; a recompute writes only what is newer than what is kept; `flask
check` finds ratings that differ from the history and `--repair` recomputes them."""

from __future__ import annotations

import io
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import select, update

from scorekeeper import rules
from scorekeeper.rules.rating import Ratings, hand_game
from scorekeeper.sessions import ratings
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import Player, PlayerRating, RatingState

from ..helpers.api import Api, pick, session_with
from ..helpers.backups import export_backup, import_backup
from ..helpers.database import dated
from ..helpers.rules import SEATS

HANDS: list[dict[str, Any]] = [
    pick("Ann", "Bob", 75),
    pick("Cat", None, 45),
    pick("Dan", "Eve", 91),
    {"kind": "leaster", "winner": "Bob"},
    pick("Eve", "Ann", 30),
]
LEASTER_RULES = {"no_bid": "leaster"}


def kept(app: Flask) -> dict[str, tuple[float, float, int]]:
    """Each player's rating as kept: mu, sigma and rated hands, by name."""
    with app.app_context():
        rows = db.session.execute(
            select(Player.name, PlayerRating.mu, PlayerRating.sigma, PlayerRating.hands).join(
                PlayerRating, PlayerRating.player_id == Player.id
            )
        ).all()
        db.session.rollback()
    return {name: (mu, sigma, hands) for name, mu, sigma, hands in rows}


Played = list[dict[str, Any]] | tuple[tuple[str, ...], list[dict[str, Any]]]


def replayed(*sessions: Played) -> dict[str, Any]:
    """The ratings the rules engine gives sessions of these hands played in turn, one after
    the other, each at a table of `SEATS` (or the seats given with its hands) with a leaster
    when everyone passes."""
    engine: Ratings[str] = Ratings()
    for number, played in enumerate(sessions, start=1):
        seats, hands = played if isinstance(played, tuple) else (SEATS, played)
        table = rules.Table(seats=seats, options=rules.Options(no_bid=rules.NoBid.LEASTER))
        entries = []
        dealer = table.first_dealer
        for hand in hands:
            fields = {k: v for k, v in hand.items() if v is not None}
            entries.append(rules.validate_hand(table, dealer, rules.HandInput(**fields)))
            dealer = table.dealer_after(dealer)
        for result in rules.score_sheet(table, entries).results:
            game = hand_game(result)
            if game is not None:
                engine.play(game, (number, number))
    return {
        name: (s.rating.mu, s.rating.sigma, s.rating.hands) for name, s in engine.standings.items()
    }


def current(app: Flask) -> bool:
    with app.app_context():
        try:
            return not ratings.stale() and ratings.differences() == []
        finally:
            db.session.remove()


def test_each_hand_recorded_updates_its_players_ratings_as_the_engine_does(
    app: Flask, api: Api
) -> None:
    session_id = api.new_session(rules=LEASTER_RULES)["id"]
    assert kept(app) == dict.fromkeys(SEATS, (25.0, 25 / 3, 0))
    for number, hand in enumerate(HANDS, start=1):
        api.record(session_id, **hand)
        assert kept(app) == replayed(HANDS[:number])
    assert kept(app)["Bob"][2] == 5
    assert current(app)
    with app.app_context():
        assert ratings.state() == (0, 0)


def test_an_edit_has_them_recomputed_as_if_the_hand_had_always_been_so(
    app: Flask, api: Api
) -> None:
    first = session_with(api, HANDS, rules=LEASTER_RULES)
    second = session_with(api, HANDS[:2], rules=LEASTER_RULES)
    api.replace(first, 2, **pick("Cat", None, 95))
    edited = [HANDS[0], pick("Cat", None, 95), *HANDS[2:]]
    assert kept(app) == replayed(edited, HANDS[:2])
    with app.app_context():
        generation, computed = ratings.state()
    assert generation == computed == 1
    api.delete(first, 1)
    assert kept(app) == replayed(edited[1:], HANDS[:2])
    api.client.post(f"/api/sessions/{first}/history/0/restore")
    assert kept(app) == replayed(edited, HANDS[:2])
    assert api.client.delete(f"/api/sessions/{second}").status_code == 204
    assert kept(app) == replayed(edited)
    assert api.client.post(f"/api/trash/{second}/restore").status_code == 200
    assert kept(app) == replayed(edited, HANDS[:2])
    assert current(app)


def test_a_hand_recorded_into_an_older_session_takes_its_place_in_the_history(
    app: Flask, api: Api
) -> None:
    older = session_with(api, HANDS[:2], rules=LEASTER_RULES)
    later = session_with(api, HANDS[:3], rules=LEASTER_RULES)
    dated(app, older, "2026-01-01")
    dated(app, later, "2026-01-02")
    api.record(older, **HANDS[2])
    assert kept(app) == replayed(HANDS[:3], HANDS[:3])
    with app.app_context():
        assert ratings.state() == (1, 1)
    # A hand at the end of the last session is added to the end.
    api.record(later, **HANDS[3])
    assert kept(app) == replayed(HANDS[:3], HANDS[:4])
    with app.app_context():
        assert ratings.state() == (1, 1)


def test_a_merge_and_its_undo_rate_the_history_as_it_is_then(app: Flask, api: Api) -> None:
    seats = ("Ann", "Bob", "Cat", "Dan", "Zed")
    renamed = [{k: "Zed" if v == "Eve" else v for k, v in hand.items()} for hand in HANDS]
    session_with(api, HANDS, rules=LEASTER_RULES)
    session_with(api, renamed, rules=LEASTER_RULES, players=list(seats))
    assert kept(app) == replayed(HANDS, (seats, renamed))
    with app.app_context():
        ids = {name: id_ for name, id_ in db.session.execute(select(Player.name, Player.id))}
    merged = api.client.post(f"/api/players/{ids['Zed']}/merge", json={"into": ids["Eve"]})
    assert merged.status_code == 200, merged.json
    assert kept(app) == replayed(HANDS, HANDS)
    merge = api.client.get("/api/players/merges").json["merges"][0]
    assert api.client.post(f"/api/players/merges/{merge['id']}/undo").status_code == 200
    assert kept(app) == replayed(HANDS, (seats, renamed))
    assert current(app)


def test_a_restore_and_an_import_are_rated(app: Flask, api: Api, fresh: Any) -> None:
    session_with(api, HANDS, rules=LEASTER_RULES)
    session_with(api, HANDS[:3], rules=LEASTER_RULES)
    with app.app_context():
        backup = export_backup()
    restored = fresh()
    with restored.app_context():
        import_backup(backup)
        db.session.remove()
    assert kept(restored) == replayed(HANDS, HANDS[:3])
    assert current(restored)


def test_an_older_recompute_never_overwrites_a_newer_one(app: Flask, api: Api) -> None:
    session_id = session_with(api, HANDS, rules=LEASTER_RULES)
    with app.app_context():
        older = ratings.replay()
        db.session.rollback()
    api.replace(session_id, 1, **pick("Ann", "Bob", 30))
    newer = kept(app)
    with app.app_context():
        ratings.store(older)
        assert ratings.state() == (1, 1)
    assert kept(app) == newer
    assert current(app)


def test_a_recompute_replays_the_hands_recorded_since_its_snapshot(app: Flask, api: Api) -> None:
    session_id = session_with(api, HANDS[:2], rules=LEASTER_RULES)
    app.config["RATING_RECOMPUTE"] = "off"
    api.replace(session_id, 1, **pick("Ann", "Bob", 30))
    with app.app_context():
        snapshot = ratings.replay()
        db.session.rollback()
    for hand in HANDS[2:]:
        api.record(session_id, **hand)
    with app.app_context():
        assert ratings.state() == (1, 0)
        ratings.store(snapshot)
        assert ratings.state() == (1, 1)
    assert kept(app) == replayed([pick("Ann", "Bob", 30), *HANDS[1:]])
    assert current(app)


def test_a_recompute_of_a_history_changed_meanwhile_writes_it_but_stays_stale(
    app: Flask, api: Api
) -> None:
    session_id = session_with(api, HANDS, rules=LEASTER_RULES)
    app.config["RATING_RECOMPUTE"] = "off"
    api.replace(session_id, 1, **pick("Ann", "Bob", 30))
    with app.app_context():
        snapshot = ratings.replay()
        db.session.rollback()
    api.delete(session_id, 5)
    with app.app_context():
        assert ratings.state() == (2, 0)
        ratings.store(snapshot)
        assert ratings.state() == (2, 1)
        assert ratings.stale()
    assert kept(app) == replayed([pick("Ann", "Bob", 30), *HANDS[1:]])
    with app.app_context():
        ratings.recompute()
        assert ratings.state() == (2, 2)
    assert kept(app) == replayed([pick("Ann", "Bob", 30), *HANDS[1:4]])


def test_a_recompute_in_a_process_of_its_own(app: Flask, api: Api) -> None:
    session_id = session_with(api, HANDS, rules=LEASTER_RULES)
    app.config["RATING_RECOMPUTE"] = "process"
    api.replace(session_id, 3, **pick("Dan", "Eve", 30))
    deadline = time.monotonic() + 60
    while not current(app) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert kept(app) == replayed([*HANDS[:2], pick("Dan", "Eve", 30), *HANDS[3:]])
    with app.app_context():
        assert ratings.state() == (1, 1)


def test_check_finds_ratings_that_differ_from_the_history_and_repair_recomputes(
    app: Flask, api: Api, runner: FlaskCliRunner
) -> None:
    session_with(api, HANDS, rules=LEASTER_RULES)
    with app.app_context():
        bob = db.session.scalar(select(Player.id).where(Player.name == "Bob"))
        db.session.execute(
            update(PlayerRating).where(PlayerRating.player_id == bob).values(mu=30.0, hands=4)
        )
        db.session.commit()
    found = runner.invoke(args=["check"])
    assert found.exit_code == 1
    right = replayed(HANDS)["Bob"]
    assert found.output.splitlines() == [
        "Ratings: Bob's rating is kept as 5.9 (mu 30.0000, sigma "
        f"{right[1]:.4f}) after 4 rated hands; the history gives 4.2 (mu {right[0]:.4f}, "
        f"sigma {right[1]:.4f}) after 5 rated hands.",
        "Error: Checked 1 session: 1 problem.",
    ]
    repaired = runner.invoke(args=["check", "--repair"])
    assert repaired.exit_code == 0, repaired.output
    assert repaired.output.splitlines()[0].startswith("Repaired: Ratings: Bob's rating")
    assert kept(app) == replayed(HANDS)
    assert runner.invoke(args=["check"]).exit_code == 0


def test_a_new_player_has_a_rating_from_the_start(app: Flask, api: Api) -> None:
    api.new_session(players=["Ann", "Bob", "Cat", "Newt"])
    with app.app_context():
        rows = db.session.execute(
            select(Player.name, PlayerRating.hands, PlayerRating.history).join(PlayerRating)
        ).all()
    assert sorted(rows) == [("Ann", 0, None), ("Bob", 0, None), ("Cat", 0, None), ("Newt", 0, None)]


def test_without_a_state_row_the_ratings_are_current(app: Flask) -> None:
    with app.app_context():
        db.session.execute(RatingState.__table__.delete())
        db.session.commit()
        assert ratings.state() == (0, 0)
        assert not ratings.stale()


def test_a_server_starting_has_stale_ratings_recomputed(app: Flask, api: Api) -> None:
    """As a database upgraded to keep ratings leaves them: every player at the first rating,
    a recompute due."""
    session_with(api, HANDS, rules=LEASTER_RULES)
    with app.app_context():
        db.session.execute(
            update(PlayerRating).values(
                mu=25.0, sigma=25 / 3, hands=0, last_at=None, last_session_id=None, history=None
            )
        )
        ratings.changed()
        db.session.commit()
    assert not current(app)
    assert ratings.recompute_at_start(app)
    assert kept(app) == replayed(HANDS)
    assert current(app)
    assert not ratings.recompute_at_start(app)


def test_a_session_imported_from_a_hands_csv_is_rated(app: Flask, api: Api) -> None:
    session_id = session_with(api, HANDS, rules=LEASTER_RULES)
    exported = api.client.get(f"/sessions/{session_id}/export.csv").data
    imported = api.client.post(
        "/sessions/import",
        data={
            "hands": (io.BytesIO(exported), "hands.csv"),
            "partner": "jack_of_diamonds",
            "no_bid": "leaster",
            "cracking": "y",
            "blitzing": "y",
        },
    )
    assert imported.status_code == 302, imported.text
    assert kept(app) == replayed(HANDS, HANDS)
    assert current(app)


def test_a_night_kept_without_hands_is_rated_at_its_day_as_one_ranking_by_net(
    app: Flask, api: Api
) -> None:
    """A night dated before a session of hands is rated before it, whenever it was added;
    changing its nets has the ratings recomputed."""
    session_with(api, HANDS[:2], rules=LEASTER_RULES)
    nets = {"Ann": -5, "Bob": 0, "Cat": 5}
    night = api.client.post("/api/sessions", json={"played_on": "2010-01-04", "totals": nets})
    assert night.status_code == 201, night.json

    def expected(night_nets: dict[str, int]) -> dict[str, Any]:
        engine: Ratings[str] = Ratings()
        game = rules.rating.night_game(night_nets)
        assert game is not None
        engine.play(game, (0, 0), hand=False)
        table = rules.Table(seats=tuple(SEATS), options=rules.Options(no_bid=rules.NoBid.LEASTER))
        dealer = table.first_dealer
        entries = []
        for hand in HANDS[:2]:
            fields = {k: v for k, v in hand.items() if v is not None}
            entries.append(rules.validate_hand(table, dealer, rules.HandInput(**fields)))
            dealer = table.dealer_after(dealer)
        for result in rules.score_sheet(table, entries).results:
            hand_played = hand_game(result)
            if hand_played is not None:
                engine.play(hand_played, (1, 1))
        return {
            n: (s.rating.mu, s.rating.sigma, s.rating.hands) for n, s in engine.standings.items()
        }

    assert kept(app) == expected(nets)
    assert kept(app)["Cat"][2] == 2  # the night counts no hand
    changed = {"Ann": 5, "Bob": 0, "Cat": -5}
    patched = api.client.patch(f"/api/sessions/{night.json['id']}", json={"totals": changed})
    assert patched.status_code == 200, patched.json
    assert kept(app) == expected(changed)
    assert current(app)

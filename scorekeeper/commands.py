"""Command-line tasks: `flask --app scorekeeper export-backup FILE`, `import-backup FILE`,
`import-session FILE`, `import-nights FILE...` and `check [--repair]`."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import IO, Any, TypeVar

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

from . import rules
from .exchange import journal, nights_in
from .exchange.backup import Written, backup_text
from .exchange.csv_in import CsvRefused, import_session
from .exchange.restore import CONFLICT, Restore, open_backup
from .insights.dates import days_of, start_of
from .rules import RuleError
from .sessions import checks, ratings
from .sessions.writes import roster_write

Command = TypeVar("Command", bound=Callable[..., Any])

# A backup of this many sessions or more is checked in worker processes, one a CPU: fewer are
# checked sooner than the workers start.
CHECKED_IN_WORKERS_FROM = 200


def register_commands(app: Flask) -> None:
    app.cli.add_command(export_backup_command)
    app.cli.add_command(import_backup_command)
    app.cli.add_command(import_session_command)
    app.cli.add_command(import_nights_command)
    app.cli.add_command(check_command)


@click.command("export-backup")
@click.argument("file", type=click.File("w", encoding="utf-8", lazy=True))
@with_appcontext
def export_backup_command(file: IO[str]) -> None:
    """Write every player, session and hand to FILE as JSON ("-" for stdout)."""
    written = Written()
    # What is alive now outlives the backup: kept out of the collector's full passes, which
    # would walk all of it again every few batches of sessions, a third of the time it takes.
    gc.freeze()
    try:
        for text in backup_text(written):
            file.write(text)
    finally:
        gc.unfreeze()
    # On stderr, so that "-" writes nothing but the backup to stdout.
    click.echo(f"Backed up {written} to {click.format_filename(file.name)}.", err=True)


@click.command("import-backup")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--merge",
    is_flag=True,
    help="Add the backup's sessions to a database that already holds some.",
)
@with_appcontext
def import_backup_command(file: IO[bytes], merge: bool) -> None:
    """Restore a backup FILE written by export-backup ("-" for stdin) into an empty database,
    its tables made by `flask db upgrade`. Nothing is changed when the file is refused."""
    try:
        restore = Restore(open_backup(file), merge=merge)
        if restore.undone:
            click.echo(restore.undone)
        workers = len(os.sched_getaffinity(0)) if restore.total >= CHECKED_IN_WORKERS_FROM else 0
        with _progress("Checking sessions", restore.total) as checked:
            for done in restore.check(workers):
                checked(done)
        with _progress("Restoring sessions", restore.total) as progress:
            for done in restore.batches():
                progress(done)
    except RuleError as error:
        raise click.ClickException(error.message) from None
    except IntegrityError:
        raise click.ClickException(CONFLICT) from None
    except (OperationalError, ProgrammingError) as error:
        raise _database_failure(error) from None
    click.echo(f"Restored {restore.restored}.")


@contextmanager
def _progress(label: str, length: int) -> Iterator[Callable[[int], object]]:
    """A progress bar on a terminal; a script sees only the line saying what was done."""
    if not sys.stderr.isatty():
        yield lambda done: None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr, show_pos=True) as bar:
        yield bar.update


def _database_failure(error: OperationalError | ProgrammingError) -> click.ClickException:
    if "lock" in str(error.orig).lower():
        return click.ClickException(
            "The database is busy with another write (a restore or an import?). Try again."
        )
    return click.ClickException(
        "The database has no tables yet: run `flask --app scorekeeper db upgrade` first."
    )


def rule_options(command: Command) -> Command:
    """A click option for each rule option, in their order, named as the API names them (a
    flag as `--bump/--no-bump`), with its default shown."""
    for option in reversed(rules.OPTIONS):
        name = f"--{option.name.replace('_', '-')}"
        settings: dict[str, Any] = {
            "default": option.default,
            "show_default": True,
            "help": option.about.cli_help or None,
        }
        if option.kind is bool:
            name = f"{name}/--no-{name[2:]}"
        elif issubclass(option.kind, StrEnum):
            settings["type"] = click.Choice([value.value for value in option.kind])
            settings["default"] = str(option.default)
        elif option.about.values:
            settings["type"] = click.Choice([str(value) for value in option.about.values])
            settings["default"] = str(option.default)
            settings["callback"] = lambda _context, _parameter, value: int(value)
        else:
            settings["type"] = click.IntRange(0, option.about.high)
        command = click.option(name, **settings)(command)
    return command


@click.command("import-session")
@click.argument("file", type=click.File("rb"))
@click.option("--name", default="", help="The session's name.")
@click.option(
    "--rounds",
    type=click.IntRange(0, rules.MAX_ROUNDS),
    help="Rounds to play (0: open-ended). Default: as many as the hands fill.",
)
@click.option("--first-dealer", help="Default: whoever dealt the first hand.")
@click.option(
    "--new-player",
    "new_players",
    multiple=True,
    metavar="NAME",
    help="A new player, though the name looks like another player's (again for each).",
)
@rule_options
@with_appcontext
def import_session_command(
    file: IO[bytes],
    name: str,
    rounds: int | None,
    first_dealer: str | None,
    new_players: tuple[str, ...],
    **given: Any,
) -> None:
    """Record the hands of a session's CSV FILE, as its Hands (CSV) download gives it, in a new
    session played by the rules given. Nothing is written when any row is refused."""
    options = rules.options_from(**given)
    data = file.read()
    try:
        with roster_write():
            imported = import_session(data, name, rounds, first_dealer, options, new_players)
    except CsvRefused as refused:
        raise click.ClickException("\n".join(["Nothing was imported.", *refused.reasons])) from None
    except RuleError as error:
        raise click.ClickException(error.message) from None
    if imported.new:
        click.echo(f"Imported session {imported.session_id}.")
    else:
        click.echo(f"This file was imported before, as session {imported.session_id}.")


def _same_as(
    _context: click.Context, _parameter: click.Parameter, given: tuple[str, ...]
) -> dict[str, str]:
    same_as = {}
    for pair in given:
        name, equals, player = pair.partition("=")
        if not (equals and name.strip() and player.strip()):
            raise click.BadParameter(f"{pair!r} is not NAME=PLAYER.")
        same_as[name.strip()] = player.strip()
    return same_as


@click.command("import-nights")
@click.argument("files", nargs=-1, required=True, type=click.File("rb"))
@click.option(
    "--zeros",
    type=click.Choice(nights_in.ZEROS, case_sensitive=False),
    help="What a 0 is: a player who was there and broke even (played), or one who wasn't "
    "there (absent). Asked when a sheet has a 0 and this is not given.",
)
@click.option(
    "--new-player",
    "new_players",
    multiple=True,
    metavar="NAME",
    help="A name like a player's that is a new player (again for each).",
)
@click.option(
    "--same-as",
    multiple=True,
    metavar="NAME=PLAYER",
    callback=_same_as,
    help="A name of the files that is this player (again for each).",
)
@with_appcontext
def import_nights_command(
    files: tuple[IO[bytes], ...],
    zeros: str | None,
    new_players: tuple[str, ...],
    same_as: dict[str, str],
) -> None:
    """Import spreadsheets of nights kept without hands, each FILE in turn: a header `Date`
    and a column for each player, then a line a night, its date and each player's net. A file
    is checked whole before any of its nights is kept; a night already here is skipped. What
    a file can't say (what a 0 is, who a name like a player's is) is asked here, unless the
    options answer it ahead; each answer serves the files after it too."""
    answers = nights_in.Answers(zeros, list(new_players), same_as)
    days = nights_in.Days(start_of, days_of)
    for file in files:
        data = file.read()
        shown = click.format_filename(file.name)
        while True:
            try:
                with roster_write():
                    imported = nights_in.import_nights(data, answers, days)
                break
            except nights_in.NightsAsked as asked:
                answers = _answered(asked, answers)
            except nights_in.NightsRefused as refused:
                raise click.ClickException(
                    "\n".join([f"Nothing of {shown} was imported.", *refused.reasons])
                ) from None
            except RuleError as error:
                raise click.ClickException(f"{shown}: {error.message}") from None
            except (OperationalError, ProgrammingError) as error:
                raise _database_failure(error) from None
        click.echo(f"{shown}: {imported.summary()}")


def _answered(asked: nights_in.NightsAsked, answers: nights_in.Answers) -> nights_in.Answers:
    """The answers, with those to the questions asked at the terminal."""
    zeros = answers.zeros
    new_players = list(answers.new_players)
    same_as = dict(answers.same_as)
    try:
        if asked.zeros is not None:
            zero_cells, cells = asked.zeros
            zeros = click.prompt(
                nights_in.zeros_question(zero_cells, cells) + " Played or absent",
                type=click.Choice(nights_in.ZEROS, case_sensitive=False),
                default=nights_in.suggested_zeros(zero_cells, cells),
            )
        for name, like in asked.names:
            answer = click.prompt(
                nights_in.name_question(name, like) + " New, or the player's name",
                type=click.Choice(["new", *like], case_sensitive=False),
                default="new",
            )
            if answer == "new":
                new_players.append(name)
            else:
                same_as[name] = answer
    except click.Abort:
        raise click.ClickException(
            "Nothing more was imported: answer with --zeros, --new-player or --same-as."
        ) from None
    return nights_in.Answers(zeros, new_players, same_as)


@click.command("check")
@click.option(
    "--repair",
    is_flag=True,
    help="Renumber hands 1..n and rebuild the stored scores of sessions that need it.",
)
@with_appcontext
def check_command(repair: bool) -> None:
    """Check every session: hands numbered 1..n, each valid by the rules, every stored score
    equal to the one the hands give; that no restore was cut short; and every player's rating
    against a replay of the history (after the recompute due, if one is). Exits 1 when
    something is wrong (after --repair: still)."""
    if repair:
        # Recomputed once, at the end, rather than after each session repaired.
        current_app.config["RATING_RECOMPUTE"] = "off"
    wrong = _check_restore(repair)
    ids = checks.session_ids()
    for start in range(0, len(ids), checks.SESSIONS_A_BATCH):
        checked = checks.check_sessions(ids[start : start + checks.SESSIONS_A_BATCH])
        for session_id, found in checked.items():
            if found and repair:
                checks.repair_session(session_id)
                for problem in found:
                    click.echo(f"Repaired: {problem}")
                found = checks.check_sessions([session_id])[session_id]
            for problem in found:
                click.echo(problem)
            wrong += len(found)
    wrong += _check_ratings(repair)
    sessions = f"{len(ids)} session{'' if len(ids) == 1 else 's'}"
    if wrong:
        raise click.ClickException(
            f"Checked {sessions}: {wrong} problem{'' if wrong == 1 else 's'}."
        )
    click.echo(f"Checked {sessions}: every one is consistent with its hands.")


def _check_ratings(repair: bool) -> int:
    """Say where the ratings kept differ from a replay of the history, recomputing them with
    --repair; how many differences are left. A recompute that is due (after a change to the
    history, or on a database just upgraded) is done first, or waited for when a server's is
    under way, as its ratings would differ until then."""
    if ratings.stale():
        ratings.recompute(wait=True)
    found = ratings.differences()
    if repair and found:
        ratings.recompute(wait=True, force=True)
        for problem in found:
            click.echo(f"Repaired: {problem}")
        found = ratings.differences()
    for problem in found:
        click.echo(problem)
    return len(found)


def _check_restore(repair: bool) -> int:
    """Say whether a restore is under way or was cut short, undoing the latter with --repair;
    1 when one cut short is left."""
    unfinished = journal.unfinished()
    if unfinished is None:
        return 0
    if unfinished.running:
        click.echo(str(unfinished))
        return 0
    if not repair:
        click.echo(f"{unfinished} `flask --app scorekeeper check --repair` undoes it.")
        return 1
    try:
        click.echo(f"Repaired: {journal.undo_cut_short() or unfinished}")
    except journal.RestoreRunning as running:
        # Another restore has started since, and undid it first.
        click.echo(running.message)
    return 0

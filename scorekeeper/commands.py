"""Command-line tasks: `flask --app scorekeeper export-backup FILE`, `import-backup FILE` and
`import-session FILE`."""

from __future__ import annotations

from typing import IO

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy.exc import OperationalError, ProgrammingError

from . import rules
from .backup import backup_json, contents, export_backup, import_backup, read_backup
from .csv_import import CsvRefused, import_session
from .rules import RuleError


def register_commands(app: Flask) -> None:
    app.cli.add_command(export_backup_command)
    app.cli.add_command(import_backup_command)
    app.cli.add_command(import_session_command)


@click.command("export-backup")
@click.argument("file", type=click.File("w", encoding="utf-8", lazy=True))
@with_appcontext
def export_backup_command(file: IO[str]) -> None:
    """Write every player, session and hand to FILE as JSON ("-" for stdout)."""
    backup = export_backup()
    file.write(backup_json(backup))
    # On stderr, so that "-" writes nothing but the backup to stdout.
    click.echo(f"Backed up {contents(backup)} to {click.format_filename(file.name)}.", err=True)


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
        restored = import_backup(read_backup(file.read()), merge=merge)
    except RuleError as error:
        raise click.ClickException(error.message) from None
    except (OperationalError, ProgrammingError):
        raise click.ClickException(
            "The database has no tables yet: run `flask --app scorekeeper db upgrade` first."
        ) from None
    click.echo(f"Restored {restored}.")


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
    "--partner",
    type=click.Choice([mode.value for mode in rules.PartnerMode]),
    default=rules.PartnerMode.JACK_OF_DIAMONDS.value,
    show_default=True,
)
@click.option(
    "--no-bid",
    type=click.Choice([rule.value for rule in rules.NoBid]),
    default=rules.NoBid.FORCED_PICK.value,
    show_default=True,
    help="What happens when everyone passes.",
)
@click.option("--cracking/--no-cracking", default=True, show_default=True)
@click.option("--blitzing/--no-blitzing", default=True, show_default=True)
@with_appcontext
def import_session_command(
    file: IO[bytes],
    name: str,
    rounds: int | None,
    first_dealer: str | None,
    partner: str,
    no_bid: str,
    cracking: bool,
    blitzing: bool,
) -> None:
    """Record the hands of a session's CSV FILE, as its Hands (CSV) download gives it, in a new
    session played by the rules given. Nothing is written when any row is refused."""
    options = rules.options_from(partner, no_bid, cracking, blitzing)
    try:
        session_id = import_session(file.read(), name, rounds, first_dealer, options)
    except CsvRefused as refused:
        raise click.ClickException("\n".join(["Nothing was imported.", *refused.reasons])) from None
    except RuleError as error:
        raise click.ClickException(error.message) from None
    click.echo(f"Imported session {session_id}.")

"""Command-line tasks: `flask --app scorekeeper export-backup FILE` and `import-backup FILE`."""

from __future__ import annotations

from typing import IO

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy.exc import OperationalError, ProgrammingError

from .backup import backup_json, contents, export_backup, import_backup, read_backup
from .rules import RuleError


def register_commands(app: Flask) -> None:
    app.cli.add_command(export_backup_command)
    app.cli.add_command(import_backup_command)


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

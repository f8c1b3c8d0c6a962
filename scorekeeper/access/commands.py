"""`flask --app scorekeeper access ...`: set or remove the passcode, manage API tokens."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from flask.cli import AppGroup

from ..exchange.access_bodies import DEFAULT_HOURS, MAX_HOURS, Role
from ..sessions.extensions import db
from ..sessions.models import MAX_ID, Session
from . import state
from .state import AccessRefused


def how_to_set_a_passcode() -> str:
    """The command that asks for a passcode, as typed where the app is served: with the `flask`
    installed beside this Python (`.venv/bin/flask` after `make run`), since a new user's PATH
    has no `flask`."""
    flask = Path(sys.executable).with_name("flask")
    if not flask.exists():
        return "flask --app scorekeeper access set-passcode --role scorer"
    if flask.is_relative_to(Path.cwd()):
        flask = flask.relative_to(Path.cwd())
    return f"{flask} --app scorekeeper access set-passcode --role scorer"


access = AppGroup("access", help="Ask for a passcode and API tokens, or leave the app open.")


@access.command("set-passcode")
@click.option(
    "--role",
    type=click.Choice([role.value for role in Role]),
    default=Role.SCORER.value,
    show_default=True,
    help="scorer: changes need a sign-in or a token. reader: reading needs one too.",
)
@click.option(
    "--passcode",
    prompt=True,
    hide_input=True,
    confirmation_prompt=True,
    help="The passcode (prompted for, hidden, when not given).",
)
def set_passcode_command(role: str, passcode: str) -> None:
    """Set the passcode: every phone signed in with the old one is signed out."""
    try:
        state.set_passcode(passcode, Role(role))
    except AccessRefused as refused:
        raise click.ClickException(refused.message) from None
    click.echo(f"Passcode set. {describe(Role(role))}")
    click.echo("Every phone signed in with an earlier passcode is signed out.")


@access.command("off")
def off_command() -> None:
    """Remove the passcode: anyone on the network can read and change the scores."""
    state.turn_off()
    click.echo("Access is off: anyone on the network can read and change the scores.")
    click.echo("API tokens are kept for when a passcode is set again.")


@access.command("create-token")
@click.argument("name")
@click.option(
    "--session",
    "session_id",
    type=click.IntRange(1, MAX_ID),
    help="Only this session (its id): the token reaches nothing else, and expires.",
)
@click.option(
    "--role",
    type=click.Choice([role.value for role in Role]),
    help="With --session. scorer: records and edits there. reader: only reads.  [default: scorer]",
)
@click.option(
    "--hours",
    type=click.IntRange(1, MAX_HOURS),
    help=f"With --session: how long it lasts, 1 to {MAX_HOURS}.  [default: 12]",
)
def create_token_command(
    name: str, session_id: int | None, role: str | None, hours: int | None
) -> None:
    """Create an API token NAME; it is printed once, on the last line, and stored only hashed."""
    if session_id is None and (role is not None or hours is not None):
        raise click.UsageError("--role and --hours go with --session.")
    if session_id is not None and db.session.get(Session, session_id) is None:
        raise click.ClickException(f"There is no session {session_id}.")
    chosen = Role(role or Role.SCORER.value)
    lasts = hours or DEFAULT_HOURS
    try:
        token = state.create_token(name, session_id, chosen, lasts)
    except AccessRefused as refused:
        raise click.ClickException(refused.message) from None
    click.echo(f'Token "{name.strip()}" created. It is shown only now: keep it somewhere safe.')
    if session_id is not None:
        does = "records and edits hands of" if chosen is Role.SCORER else "reads"
        click.echo(
            f"It {does} session {session_id} alone, for {lasts} hour{'s' if lasts != 1 else ''}."
        )
    click.echo("Send it with every API request as the header Authorization: Bearer <token>.")
    click.echo(token)


@access.command("revoke-token")
@click.argument("name")
def revoke_token_command(name: str) -> None:
    """Revoke the API token NAME: it is refused from now on."""
    try:
        state.revoke_token(name)
    except AccessRefused as refused:
        raise click.ClickException(refused.message) from None
    click.echo(f'Token "{name.strip()}" revoked.')


@access.command("status")
def status_command() -> None:
    """Say whether a passcode is asked for, and which API tokens exist."""
    role = state.current().role
    if role is None:
        click.echo("Access is off: anyone on the network can change the scores.")
        click.echo(f"To ask for a passcode, run: {how_to_set_a_passcode()}")
    else:
        click.echo(f"Access is on. {describe(role)}")
        wrong = state.recent_failures()
        click.echo(f"{wrong} wrong {'try' if wrong == 1 else 'tries'} within the last hour.")
    tokens = state.tokens()
    if not tokens:
        click.echo("API tokens: none.")
        return
    click.echo("API tokens:")
    for token in tokens:
        scope = "" if token.session_id is None else f", session {token.session_id} as {token.role}"
        click.echo(f"  {token.name} (created {token.created_at:%Y-%m-%d}{scope})")


def describe(role: Role) -> str:
    if role is Role.READER:
        return "Reading and changing the scores need a sign-in or an API token (role reader)."
    return "Changing the scores needs a sign-in or an API token; reading is open (role scorer)."

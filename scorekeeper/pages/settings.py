"""Settings: a backup of everything to download or restore, and a session imported from CSV."""

from __future__ import annotations

import base64
import difflib
import io
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import IO, Any, ClassVar

from flask import (
    Response,
    current_app,
    render_template,
    request,
    stream_template,
    stream_with_context,
    url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.wrappers import Response as BaseResponse
from wtforms import BooleanField, StringField

from ..exchange import journal
from ..exchange.backup import backup_text
from ..exchange.csv_in import CsvRefused, import_session, new_names
from ..exchange.restore import Restore, Restored, open_backup
from ..rules import RuleError
from ..sessions import loading, shares
from ..sessions.writes import Replay, check_key
from ..web.security import shown_size
from .blueprint import bp
from .forms import NewPlayersForm, RulesForm, typed_rounds
from .saving import done, roster_write, sent_key


class RestoreForm(FlaskForm):  # type: ignore[misc]
    backup = FileField("Backup file", validators=[FileRequired("Choose the backup file.")])
    merge = BooleanField("Merge into the sessions here")


class ImportSessionForm(RulesForm, NewPlayersForm):
    hands = FileField("Hands CSV", validators=[FileRequired("Choose the CSV file of the hands.")])
    name = StringField("Name (optional)")
    rounds = StringField("Rounds")
    first_dealer = StringField("First dealer")

    FIELD_FOR: ClassVar[dict[str, str]] = {"rules": "no_bid"}

    def rounds_number(self) -> int | None:
        """Empty means as many rounds as the hands fill."""
        return typed_rounds(self.rounds.data)


@bp.get("/settings")
def settings() -> str:
    return _settings_page(RestoreForm())


def _refused(form: RestoreForm, status: int = 400) -> tuple[str, int]:
    """The settings page with the restore form and why it was refused: nothing was changed."""
    return _settings_page(form), status


def _settings_page(form: RestoreForm) -> str:
    """The settings page; it says when a restore is under way or was cut short."""
    return render_template(
        "settings/settings.html",
        form=form,
        unfinished=journal.unfinished(),
        upload_limit=shown_size(current_app.config["UPLOAD_LIMIT"]),
        shared=shares.listed(),
        shown_by_share=shares.SHOWS,
    )


@bp.get("/settings/backup.json")
def download_backup() -> Response:
    filename = f"sheepshead-backup-{date.today():%Y-%m-%d}.json"
    return Response(
        stream_with_context(backup_text()),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.post("/settings/restore")
def restore_backup() -> tuple[str, int] | BaseResponse:
    """The backup is checked whole before the page answers: one refused (no file, not JSON,
    not a backup, not for this scorekeeper, or a session, hand, event or merge the check
    refuses) is 400 (409 while another restore is being written), the form shown again with
    the reason, nothing changed. A backup the check went through is written on a page
    streamed as the restore goes, a batch at a time, then what came of it."""
    form = RestoreForm()
    if not form.validate_on_submit():
        return _refused(form)
    key, digest = sent_key()
    check_key(key, digest)
    # The upload's file (on disk past 500 KB, as Werkzeug spools it) is read as the restore
    # goes, while the page streams after this view has returned and the request's files are
    # closed: the restore takes it as its own, and closes it when done.
    upload = form.backup.data
    file, upload.stream = upload.stream, io.BytesIO()
    restore = None
    try:
        restore = Restore(open_backup(file), merge=form.merge.data)
        for _ in restore.check():
            # Under gevent, the worker's other connections go on between batches of the check.
            time.sleep(0)
    except RuleError as error:
        undone = restore.undone if restore is not None else None
        form.backup.errors.append(f"{undone} {error.message}" if undone else error.message)
        file.close()
        return _refused(form, error.status)
    except BaseException:
        file.close()
        raise
    steps = _restoring(restore, key, digest, url_for("pages.index"), file)
    page = stream_template(
        "settings/restore.html", steps=steps, total=restore.total, undone=restore.undone
    )
    return Response(page, headers={"X-Accel-Buffering": "no"})


# How many of the players here a new name in an imported file is offered as, the likeliest first.
MAX_OFFERS = 3
# How alike two names must be to ask (difflib's ratio: "Bobby" and "Bob" are 0.75; near names,
# `rules.near_names`, at least 0.8).
LIKE = 0.7
DAMAGED = "The file held by the page was damaged: choose it again."
SENT_BEFORE = "This form was sent before, and the backup it sent is restored: nothing was added."


@dataclass(frozen=True)
class Step:
    """How far a restore has gone: sessions written, then what was restored, or why it
    failed."""

    done: int
    restored: Restored | None = None
    failure: str | None = None


def _restoring(
    restore: Restore, key: str | None, digest: str, home: str, file: IO[bytes]
) -> Iterator[Step]:
    steps = _steps(restore, key, digest, home)
    try:
        # Not `yield from`, which would close `steps` along with this generator.
        for step in steps:  # noqa: UP028
            yield step
    finally:
        # A phone that leaves the page doesn't stop the restore: the writing goes on to the
        # end without it.
        try:
            for _ in steps:
                pass
        finally:
            file.close()


def _steps(restore: Restore, key: str | None, digest: str, home: str) -> Iterator[Step]:
    def answer(restored: Restored) -> tuple[int, Any]:
        # A form sent again lands where a redirect would have gone.
        return 302, {"location": home, "message": f"Backup restored: {restored}."}

    done = 0
    try:
        yield Step(done)
        for count in restore.batches(key, digest, answer):
            done += count
            yield Step(done)
        yield Step(done, restored=restore.restored)
    except RuleError as error:
        yield Step(done, failure=error.message)
    except Replay:
        yield Step(done, failure=SENT_BEFORE)


@dataclass(frozen=True)
class Asking:
    """A file whose players are not all players here yet, held while the page asks who each
    new name is: a new player, or one of the players here."""

    file: str
    file_name: str
    names: list[tuple[str, list[str]]]


@bp.route("/sessions/import", methods=["GET", "POST"])
def import_csv() -> str | BaseResponse:
    form = ImportSessionForm()
    held = request.form.get("held_file")
    if held:
        form.hands.validators = []
    if form.validate_on_submit():
        form.read_new_players(request.form)
        try:
            data = _held(held) if held else form.hands.data.read()
            given = None if held else form.hands.data.filename
            file_name = request.form.get("file_name") or given or "The file"
            asked = request.form.getlist("asked")
            if not asked:
                offers = _offers(new_names(data))
                if offers:
                    return _import_page(form, Asking(hold(data), file_name, offers))
            known_as = {
                name: player
                for index, name in enumerate(asked)
                if (player := request.form.get(f"as-{index}", ""))
            }
            # A name asked about and answered "a new player" is confirmed as one.
            answered_new = [name for name in asked if name not in known_as]
            with roster_write() as write:
                imported = import_session(
                    data,
                    form.name.data or "",
                    form.rounds_number(),
                    (form.first_dealer.data or "").strip() or None,
                    form.options(),
                    [*form.new_players, *answered_new],
                    known_as,
                )
                message = (
                    f"{file_name} is imported as a new session."
                    if imported.new
                    else f"{file_name} was imported before: here is that session."
                )
                page = url_for("pages.session_page", session_id=imported.session_id)
                return done(write, page, message)
        except CsvRefused as refusal:
            form.form_errors.extend(refusal.reasons)
        except RuleError as error:
            form.refuse(error)
    return _import_page(form, None)


def _import_page(form: ImportSessionForm, asking: Asking | None) -> str:
    return render_template("sessions/import_session.html", form=form, asking=asking)


def hold(data: bytes) -> str:
    """A file as a page holds it in a hidden field while it asks about it."""
    return base64.b64encode(data).decode()


def held(text: str) -> bytes | None:
    """A file a page held; None when it came back damaged."""
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return None


def _held(text: str) -> bytes:
    data = held(text)
    if data is None:
        raise CsvRefused([DAMAGED])
    return data


def _offers(names: list[str]) -> list[tuple[str, list[str]]]:
    """Each new name like the name of a player here ("Bobby" and "Bob"), with the players here
    it might mean, the likeliest first; a name like no one's is simply a new player."""
    here = loading.roster(everyone=True)
    folded = {player.casefold(): player for player in here}
    offers = []
    for name in names:
        close = difflib.get_close_matches(name.casefold(), folded, n=MAX_OFFERS, cutoff=LIKE)
        likely = [folded[player] for player in close]
        if likely:
            offers.append((name, [*likely, *(p for p in here if p not in likely)]))
    return offers

"""Settings' "Import nights from a spreadsheet": a league's paper history, a line a night, read
by `exchange/nights_in.py` as the API and `flask import-nights` read it. The page holds the
file while it asks what the sheet can't tell (what a 0 is, who each name like a player's is, a
question a name), names every bad line, and once imported says what came in."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..exchange import nights_in
from ..insights.dates import days_of, start_of
from ..rules import RuleError
from .blueprint import bp
from .saving import done, roster_write
from .settings import DAMAGED, held, hold

# The answer "a new player" to a question about a name.
NEW = "new"


@dataclass
class Holding:
    """What the page holds between its questions: the file and its name, the answers given so
    far, and what is asked now (or why the file was refused)."""

    file: str = ""
    file_name: str = ""
    answers: nights_in.Answers = field(default_factory=nights_in.Answers)
    asked: nights_in.NightsAsked | None = None
    refused: list[str] = field(default_factory=list)

    @property
    def suggested_zeros(self) -> str | None:
        if self.asked is None or self.asked.zeros is None:
            return None
        return nights_in.suggested_zeros(*self.asked.zeros)


@bp.route("/nights/import", methods=["GET", "POST"])
def import_nights() -> str | BaseResponse | tuple[str, int]:
    if request.method == "GET":
        return _page(Holding())
    holding = _holding()
    if holding.refused:
        return _page(holding), 400
    data = held(holding.file)
    if data is None:
        holding.refused = [DAMAGED]
        holding.file = ""
        return _page(holding), 400
    days = nights_in.Days(start_of, days_of)
    try:
        with roster_write() as write:
            imported = nights_in.import_nights(data, holding.answers, days)
            message = f"{holding.file_name}: {imported.summary()}"
            return done(write, url_for("pages.import_nights"), message)
    except nights_in.NightsAsked as asked:
        holding.asked = asked
        return _page(holding)
    except nights_in.NightsRefused as refused:
        holding.refused = refused.reasons
    except RuleError as error:
        holding.refused = [error.message]
    return _page(holding), 400


def _holding() -> Holding:
    """The file chosen (or the one held, when none is), and the answers the form gives."""
    form = request.form
    upload = request.files.get("sheet")
    holding = Holding(file=form.get("held_sheet", ""), file_name=form.get("sheet_name", ""))
    if upload is not None and upload.filename:
        holding.file, holding.file_name = hold(upload.read()), upload.filename
    if not holding.file:
        holding.refused = ["Choose the spreadsheet's CSV file."]
        return holding
    new_players = form.getlist("new_player")
    same_as = dict(zip(form.getlist("same_name"), form.getlist("same_player"), strict=False))
    for index, name in enumerate(form.getlist("asked")):
        answer = form.get(f"as-{index}")
        if answer == NEW:
            new_players.append(name)
        elif answer:
            same_as[name] = answer
    try:
        zeros = nights_in.zeros_answer(form.get("zeros"))
    except RuleError as error:
        holding.refused = [error.message]
        zeros = None
    holding.answers = nights_in.Answers(zeros, new_players, same_as)
    return holding


def _page(holding: Holding) -> str:
    return render_template("nights/import_nights.html", holding=holding, new=NEW)

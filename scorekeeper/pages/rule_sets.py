"""The Rule sets page: a group's rules saved under a name, used or shared as a link and a QR code
that open the new-session page with those rules chosen."""

from __future__ import annotations

from typing import Any

from flask import abort, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse
from wtforms import BooleanField, RadioField, SelectChoice, SelectField, StringField

from .. import rule_sets, rules
from ..extensions import db
from ..models import RuleSet
from ..rules import RuleError
from ..rules.table import MAX_STAKE
from . import bp
from .forms import (
    CAPS,
    NO_BID_RULES,
    PARTNER_RULES,
    SITTING_OUT_RULES,
    EngineForm,
    whole_number,
)
from .writing import done, roster_write

SCHWARZ_RULES = [
    SelectChoice(rules.Schwarz.POINTS.value, "By card points"),
    SelectChoice(rules.Schwarz.TRICKS.value, "By tricks"),
]
DOUBLERS_RULES = [
    SelectChoice(rules.Doublers.QUEUE.value, "One pick each"),
    SelectChoice(rules.Doublers.STACK.value, "All on the next pick"),
]
MAX_CAP = max(rules.MULTIPLIER_CAPS)


class RuleSetForm(EngineForm):
    """A rule set's name and every option, defaulting to the seed's rules."""

    name = StringField("Name")
    partner = RadioField(
        "Partner", choices=PARTNER_RULES, default=PARTNER_RULES[0].value, validate_choice=False
    )
    no_bid = RadioField(
        "When everyone passes",
        choices=NO_BID_RULES,
        default=NO_BID_RULES[0].value,
        validate_choice=False,
    )
    sitting_out = RadioField(
        "With six or more seated",
        choices=SITTING_OUT_RULES,
        default=SITTING_OUT_RULES[0].value,
        validate_choice=False,
    )
    schwarz = RadioField(
        "Schwarz", choices=SCHWARZ_RULES, default=SCHWARZ_RULES[0].value, validate_choice=False
    )
    doublers = RadioField(
        "Doublers", choices=DOUBLERS_RULES, default=DOUBLERS_RULES[0].value, validate_choice=False
    )
    cracking = BooleanField("Cracking", default=True)
    blitzing = BooleanField("Blitzing", default=True)
    bump = BooleanField("Double on the bump")
    penalties = BooleanField("Penalty hands")
    max_multiplier = SelectField("Multiplier cap", choices=CAPS, default="0", validate_choice=False)
    stake = StringField("Stake (¢ a point)", default="0")

    def options(self) -> rules.Options:
        given: dict[str, Any] = {
            "partner": self.partner.data,
            "no_bid": self.no_bid.data,
            "sitting_out": self.sitting_out.data,
            "schwarz": self.schwarz.data,
            "doublers": self.doublers.data,
            "cracking": self.cracking.data,
            "blitzing": self.blitzing.data,
            "bump": self.bump.data,
            "penalties": self.penalties.data,
            "max_multiplier": whole_number(
                self.max_multiplier.data, "The multiplier cap", "max_multiplier", MAX_CAP
            ),
            "stake": whole_number(self.stake.data, "The stake", "stake", MAX_STAKE),
        }
        # Each option alone first, so that a refusal is shown at the option it is about.
        for key, value in given.items():
            try:
                rules.options_from(**{key: value})
            except RuleError as error:
                raise RuleError(error.message, key) from None
        return rules.options_from(**given)


class Listed:
    """A saved rule set as the page lists it."""

    def __init__(self, rule_set: RuleSet) -> None:
        options = rule_sets.options_of(rule_set)
        self.id = rule_set.id
        self.name = rule_set.name
        self.words = rule_sets.in_words(options)
        self.use = f"{url_for('pages.new_session')}?{rule_sets.new_session_query(options)}"


@bp.route("/rule-sets", methods=["GET", "POST"])
def rule_sets_page() -> str | BaseResponse:
    form = RuleSetForm()
    if form.validate_on_submit():
        try:
            options = form.options()
            with roster_write() as write:
                saved = rule_sets.save(form.name.data or "", options)
                page = url_for("pages.rule_sets_page", _anchor=f"rule-set-{saved.id}")
                return done(write, page, f"{saved.name} saved.")
        except RuleError as error:
            form.refuse(error)
    listed = [Listed(rule_set) for rule_set in rule_sets.listed()]
    return render_template("rule_sets.html", form=form, rule_sets=listed)


def _rule_set_or_404(rule_set_id: int) -> RuleSet:
    rule_set = db.session.get(RuleSet, rule_set_id)
    if rule_set is None:
        abort(404)
    return rule_set


@bp.get("/rule-sets/<int:rule_set_id>/share")
def share_rule_set(rule_set_id: int) -> str:
    rule_set = _rule_set_or_404(rule_set_id)
    options = rule_sets.options_of(rule_set)
    link = f"{url_for('pages.new_session', _external=True)}?{rule_sets.new_session_query(options)}"
    return render_template(
        "share_rule_set.html",
        rule_set=rule_set,
        words=rule_sets.in_words(options),
        link=link,
        qr=rule_sets.qr_svg(link),
    )


@bp.route("/rule-sets/<int:rule_set_id>/delete", methods=["GET", "POST"])
def delete_rule_set(rule_set_id: int) -> str | BaseResponse:
    if request.method == "POST":
        with roster_write() as write:
            name = rule_sets.delete(rule_set_id)
            message = f"{name} deleted." if name else "That rule set was deleted already."
            return done(write, url_for("pages.rule_sets_page"), message)
    rule_set = _rule_set_or_404(rule_set_id)
    words = rule_sets.in_words(rule_sets.options_of(rule_set))
    return render_template("delete_rule_set.html", rule_set=rule_set, words=words)

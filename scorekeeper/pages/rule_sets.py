"""The Rule sets page: a group's rules saved under a name, used or shared as a link and a QR code
that open the new-session page with those rules chosen."""

from __future__ import annotations

from flask import render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse
from wtforms import StringField

from ..exchange import rule_sets
from ..rules import RuleError
from ..sessions.database import one_or_404
from ..sessions.models import RuleSet
from ..web.hosts import external_url
from .blueprint import bp
from .forms import RulesForm
from .saving import done, roster_write
from .words import rules_words


class RuleSetForm(RulesForm):
    """A rule set's name and every option, defaulting to the seed's rules."""

    name = StringField("Name")


class Listed:
    """A saved rule set as the page lists it."""

    def __init__(self, rule_set: RuleSet) -> None:
        options = rule_sets.options_of(rule_set)
        self.id = rule_set.id
        self.name = rule_set.name
        self.words = rules_words(options)
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
    return render_template("settings/rule_sets.html", form=form, rule_sets=listed)


def _rule_set_or_404(rule_set_id: int) -> RuleSet:
    return one_or_404("rule set", rule_set_id, select(RuleSet).where(RuleSet.id == rule_set_id))


@bp.get("/rule-sets/<id(rule_set):rule_set_id>/share")
def share_rule_set(rule_set_id: int) -> str:
    rule_set = _rule_set_or_404(rule_set_id)
    options = rule_sets.options_of(rule_set)
    link = f"{external_url('pages.new_session')}?{rule_sets.new_session_query(options)}"
    return render_template(
        "shares/share_rule_set.html",
        rule_set=rule_set,
        words=rules_words(options),
        link=link,
        qr=rule_sets.qr_svg(link),
    )


@bp.route("/rule-sets/<id(rule_set):rule_set_id>/delete", methods=["GET", "POST"])
def delete_rule_set(rule_set_id: int) -> str | BaseResponse:
    if request.method == "POST":
        with roster_write() as write:
            name = rule_sets.delete(rule_set_id)
            message = f"{name} deleted." if name else "That rule set was deleted already."
            return done(write, url_for("pages.rule_sets_page"), message)
    rule_set = _rule_set_or_404(rule_set_id)
    words = rules_words(rule_sets.options_of(rule_set))
    return render_template("settings/delete_rule_set.html", rule_set=rule_set, words=words)

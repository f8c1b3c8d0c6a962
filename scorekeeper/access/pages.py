"""The sign-in page and signing out."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from wtforms import PasswordField
from wtforms.validators import InputRequired

from . import state
from .guard import address, holds_invite, local_path, sign_in, sign_out, too_many_tries

bp = Blueprint("access", __name__)


class SignInForm(FlaskForm):  # type: ignore[misc]
    passcode = PasswordField("Passcode", validators=[InputRequired("Type the passcode.")])


class SignOutForm(FlaskForm):  # type: ignore[misc]
    pass


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in_page() -> ResponseReturnValue:
    access = state.current()
    back = local_path(request.args.get("next")) or url_for("pages.index")
    form = SignInForm()
    if access.on and form.validate_on_submit():
        counted = state.count_try(address())
        if isinstance(counted, state.Wait):
            return too_many_tries(counted)
        if state.passcode_matches(form.passcode.data):
            state.take_back(counted)
            sign_in()
            return redirect(back, code=303)
        form.passcode.errors.append("That passcode is wrong. Check it and try again.")
    return render_template(
        "access/sign_in.html", form=form, access=access, back=back, invited=holds_invite()
    )


@bp.post("/sign-out")
def sign_out_page() -> ResponseReturnValue:
    if SignOutForm().validate_on_submit():
        sign_out()
        flash("Signed out.")
    return redirect(url_for("pages.settings"), code=303)

"""What the server's logs keep of a request: an address that carries a secret is logged with the
secret masked, wherever it shows (the request line, a `next=` in the query, a Referer), in
gunicorn's logs (`serving.py`), werkzeug's development server's and the app's own.

Of the app's addresses, two carry a secret: an invite's link (`/invites/<id>.<secret>`), which
signs a phone in for hours to anyone who reads it, and a share link (`/shared/<id>.<secret>`),
which shows a season, an event or a session to anyone who reads it until it is revoked. A rule
set's share link holds only its rules, and the table view's code is an invite's link or the
table view's plain address. An address written with `%2F` or `%2E` (which the app reads as `/`
and `.`) is masked too."""

from __future__ import annotations

import logging
import re

from flask import Flask

# `/invites/` or `/shared/` and the link's id, then the rest of that part of the address: the
# secret. (The id alone, as in `/api/sessions/1/invites/3`, is no secret.)
SECRET_PATH = re.compile(
    r"(?P<keep>(?:/|%2F)(?:invites|shared)(?:/|%2F)\d*+)(?P<secret>[^/?#&\s\"'\\]+)",
    re.IGNORECASE,
)
MASK = "***"


def _masked(found: re.Match[str]) -> str:
    secret = found["secret"]
    dot = next((d for d in (".", "%2e", "%2E") if secret.startswith(d)), "")
    return f"{found['keep']}{dot}{MASK}"


def mask(text: str) -> str:
    """`text` with the secret of every invite's link and share link in it masked."""
    lowered = text.lower()
    if "invites" not in lowered and "shared" not in lowered:
        return text
    return SECRET_PATH.sub(_masked, text)


class MaskSecrets(logging.Filter):
    """Masks the secrets in a record's message, once its arguments are put in."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask(message)
        if masked != message:
            record.msg = masked
            record.args = None
        return True


MASK_SECRETS = MaskSecrets()
# The development server's log (`flask run`, the browser tests' server).
DEVELOPMENT_LOG = "werkzeug"


def register(app: Flask) -> None:
    app.logger.addFilter(MASK_SECRETS)
    logging.getLogger(DEVELOPMENT_LOG).addFilter(MASK_SECRETS)

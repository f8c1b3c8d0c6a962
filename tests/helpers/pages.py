"""Pages as a browser without JavaScript reads them: a page's words, lists and tables (`Page`),
its forms as they would be sent (`FormPage`), and the paths of a session's pages."""

from __future__ import annotations

from collections.abc import Mapping
from html.parser import HTMLParser

from flask.testing import FlaskClient
from werkzeug.test import TestResponse


class Page(HTMLParser):
    """A page read the way a person sees it: its text, list items and table rows."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.words: list[str] = []
        self.items: list[list[str]] = []
        self.tables: dict[str, list[list[str]]] = {}
        self._item: list[str] | None = None
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li":
            self._item = []
            self.items.append(self._item)
        elif tag == "table":
            self._table = self.tables.setdefault(dict(attrs).get("class") or "", [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self._item = None
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._table is not None and self._cell is not None:
            self._table[-1].append(" ".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        words = data.split()
        self.words.extend(words)
        if self._item is not None:
            self._item.extend(words)
        if self._cell is not None and words:
            self._cell.append(" ".join(words))

    @property
    def text(self) -> str:
        return " ".join(self.words)

    def rows(self, table_class: str) -> list[list[str]]:
        return self.tables[table_class]


def page(client: FlaskClient, path: str) -> Page:
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    return Page(response.text)


# Elements whose text a test reads, by class; buttons and the preview <output> by tag.
CAPTURED_CLASSES = ("error", "flash", "saved", "winner", "tiebreak")


CAPTURED_TAGS = ("button", "output")


class FormPage(HTMLParser):
    """A page as a browser holds it: what its forms would send as they stand, and the text of
    its messages."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.fields: dict[str, list[str]] = {}
        self.texts: dict[str, list[str]] = {}
        self.error_ids: list[str] = []
        self.words: list[str] = []
        self._select: str | None = None
        self._open: list[tuple[str, str, list[str]]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        name = attr.get("name")
        if tag == "input" and name:
            if attr.get("type") not in ("radio", "checkbox") or "checked" in attr:
                self.fields.setdefault(name, []).append(attr.get("value") or "")
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in attr:
            self.fields.setdefault(self._select, []).append(attr.get("value") or "")
        classes = (attr.get("class") or "").split()
        key = next((c for c in CAPTURED_CLASSES if c in classes), None)
        if key is None and tag in CAPTURED_TAGS:
            key = tag
        if key is not None:
            if key == "error":
                self.error_ids.append(attr.get("id") or "")
            self._open.append((tag, key, []))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        if self._open and self._open[-1][0] == tag:
            _tag, key, words = self._open.pop()
            self.texts.setdefault(key, []).append(" ".join(words))

    def handle_data(self, data: str) -> None:
        words = data.split()
        self.words.extend(words)
        for _tag, _key, captured in self._open:
            captured.extend(words)

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def errors(self) -> list[str]:
        return self.texts.get("error", [])

    @property
    def flashes(self) -> list[str]:
        return self.texts.get("flash", [])


def html_page(response: TestResponse) -> FormPage:
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    return FormPage(response.text)


def get_page(client: FlaskClient, path: str) -> FormPage:
    return html_page(client.get(path))


def redirected_page(client: FlaskClient, response: TestResponse, location: str) -> FormPage:
    assert response.status_code == 302
    assert response.location == location
    return get_page(client, location)


def filled(client: FlaskClient, path: str, taps: Mapping[str, str]) -> dict[str, str]:
    """The form at `path` as a browser sends it after these taps and typing."""
    shown = {name: values[0] for name, values in get_page(client, path).fields.items()}
    return {**shown, **taps}


def assert_kept(page: FormPage, sent: Mapping[str, str]) -> None:
    """What was typed and chosen is in the form again, as it was sent."""
    assert {name: page.fields.get(name) for name in sent} == {
        name: [value] for name, value in sent.items()
    }


def hands_path(session_id: int, rest: str = "new") -> str:
    return f"/sessions/{session_id}/hands/{rest}"


def sheet_path(session_id: int, saved: int | None = None, undone: int | None = None) -> str:
    """The scoresheet after a hand was saved, or offering to bring back the hand just deleted."""
    if saved is not None:
        return f"/sessions/{session_id}?saved={saved}"
    return f"/sessions/{session_id}" + ("" if undone is None else f"?undone={undone}")

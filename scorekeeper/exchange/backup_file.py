"""A backup's file read as JSON a piece at a time, so that memory stays small however long the
history: a restore holds one session of it at a time, never the whole file.

`BackupFile` reads the file through twice at once: its bytes, to refuse a file far denser in
values than a backup or not text at all, then its text, to refuse one that is not JSON, holds a
number too long to be an id or a text no database stores (a lone surrogate). Each is refused in
the very sentence `json.loads` of the whole file would give rise to, at the same line and column.
It keeps every part of the backup's object but the lists of its sessions and its trash, which
stay in the file (`Streamed`): where each of their items lies in the file's bytes is kept
(`Span`), and an item is read again from there whenever it is wanted, in any process that has
the file open (a restore's check workers read the sessions they check).

Only the top two levels of the text are read here, as `json`'s own decoder reads them; every
value below them (a player, a session, a rule set) is read whole by `json`'s scanner.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import re
from array import array
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, NamedTuple

from ..rules import RuleError
from .json_in import LONE_SURROGATE

# What a backup's text holds at least, a value to the next: one much denser is refused unread.
# Counted by the marks that open or follow a value, above a size where it could matter.
MIN_BYTES_A_VALUE = 5
VALUE_MARKS = (",", ":", "[", "{")
DENSITY_CHECKED_FROM = 256 * 1024
# The longest number a backup holds is an id or a version; a longer one is damage.
MAX_DIGITS = 20

# The lists of a backup's object left in the file, read an item at a time as they are walked.
STREAMED = ("sessions", "trash")
# Where in the backup an item of these lists is: "Session 3 of the backup".
PARTS = {
    "players": "Player",
    "sessions": "Session",
    "rule_sets": "Rule set",
    "trash": "Trashed session",
    "seasons": "Season",
}

# Bytes read from the file at a time (more when a single value is longer).
CHUNK = 1024 * 1024
WHITESPACE = re.compile(r"[ \t\n\r]*")
# The characters of a number or of true, false, null, NaN and Infinity: text read so far that
# ends in them might end inside one, so they wait for the text after them.
TOKEN = frozenset("0123456789+-.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# A value the text so far refuses within this many characters of its end (or in a string it
# ends inside) may be whole with the text after it: `json`'s scanner looks no further ahead.
LOOKAHEAD = 8
# What might hold a lone surrogate: its escape, or one decoded from the bytes as they were (in
# text that is not all ASCII). Each is looked for only where it may be: a search for either at
# once is slow.
ESCAPED = re.compile(r"\\u[dD][89a-fA-F]")
SURROGATE = re.compile(r"[\ud800-\udfff]")
LONE_SURROGATE_HELD = "its text holds a lone surrogate (such as \\ud800), which is not a character."
# The byte order marks an encoding `json.detect_encoding` names may begin with, each with the
# codec of the text after it.
MARKS = {
    "utf-8-sig": ((codecs.BOM_UTF8, "utf-8"),),
    "utf-16": ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")),
    "utf-32": ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be")),
}


def not_json(message: str, line: int, column: int) -> RuleError:
    return RuleError(
        f"This file is damaged or not a backup: it is not valid JSON "
        f"(line {line}, column {column}: {message})."
    )


NOT_TEXT = "This file is damaged or not a backup: it is not JSON text."
CHANGED = "The backup's file changed while it was being read, so nothing was restored."


def check_density(size: int, values: int) -> None:
    """Refuse, before reading it, a file much denser in values than a backup: read, each value
    takes memory, so 60 MB of empty lists would take 1.5 GB, 25 times their size, where a
    backup (a value every 7 to 8 bytes) takes 5 to 6 times its own. `values` counts the marks
    of `VALUE_MARKS` in its `size` bytes (or characters)."""
    if size < DENSITY_CHECKED_FROM:
        return
    if values * MIN_BYTES_A_VALUE > size:
        raise RuleError(
            "This file is damaged or not a backup: it holds a value every "
            f"{size / values:.1f} bytes, where a backup holds one every 7 or more."
        )


def backup_int(literal: str) -> int:
    # Checked before int(), which raises on thousands of digits.
    digits = len(literal.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RuleError(
            f"This file is damaged or not a backup: it holds a number of {digits} digits."
        )
    return int(literal)


def holds_lone_surrogate(value: Any) -> bool:
    pending = [value]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if LONE_SURROGATE.search(value):
                return True
        elif isinstance(value, dict):
            pending.extend(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


class _Text:
    """The file's text from where it has been read to, a window at a time: `text` from `pos` is
    what is still to read; what came before it is let go, only its lines counted, to say where
    a refusal is."""

    def __init__(self, file: IO[bytes], encoding: str, codec: str, mark: int) -> None:
        """`codec` reads the text after the file's byte order mark, `mark` bytes long."""
        file.seek(0)
        self._file = file
        self._codec = codec
        # A place in the text (`_place`), at or before `pos`, and where it is in the file's bytes.
        self._place = 0
        self._place_byte = mark
        # As `json.loads` decodes bytes.
        self._decoder = codecs.getincrementaldecoder(encoding)("surrogatepass")
        self.text = ""
        self.pos = 0
        self.ended = False
        self._held = ""
        self._lines = 0
        self._column = 0
        # The decoder's own scanner (in C), which reads one value at a time.
        self._scan = json.JSONDecoder(parse_int=backup_int).scan_once  # type: ignore[attr-defined]

    def more(self) -> None:
        """Read on (at least a character, unless the file has ended), letting go of what
        was read."""
        while not self.ended:
            self.byte_at(self.pos)
            self._place = 0
            gone = self.text[: self.pos]
            newlines = gone.count("\n")
            if newlines:
                self._lines += newlines
                self._column = len(gone) - gone.rfind("\n") - 1
            else:
                self._column += len(gone)
            self.text = self.text[self.pos :]
            self.pos = 0
            raw = self._file.read(max(CHUNK, len(self.text)))
            try:
                fresh = self._held + self._decoder.decode(raw, final=not raw)
            except UnicodeDecodeError:
                raise RuleError(NOT_TEXT) from None
            if not raw:
                self.ended, self._held = True, ""
            else:
                cut = len(fresh)
                while cut and fresh[cut - 1] in TOKEN:
                    cut -= 1
                fresh, self._held = fresh[:cut], fresh[cut:]
            if fresh:
                self.text += fresh
                return

    def byte_at(self, pos: int) -> int:
        """Where the text at `pos` (never before a place asked before) is in the file's bytes."""
        if self._codec == "utf-8" and self.text.isascii():
            self._place_byte += pos - self._place
        else:
            passed = self.text[self._place : pos]
            self._place_byte += len(passed.encode(self._codec, "surrogatepass"))
        self._place = pos
        return self._place_byte

    def next_char(self) -> str:
        """Skip whitespace: the character at `pos` then, or "" at the end of the file."""
        while True:
            self.pos += len(WHITESPACE.match(self.text, self.pos)[0])  # type: ignore[index]
            if self.pos < len(self.text):
                return self.text[self.pos]
            if self.ended:
                return ""
            self.more()

    def value(self) -> tuple[Any, bool]:
        """The JSON value at `pos`, read whole, `pos` moved past it; and whether its text might
        hold a lone surrogate."""
        while True:
            text, start = self.text, self.pos
            try:
                value, end = self._scan(text, start)
            except StopIteration as stop:
                message, at = "Expecting value", stop.value
            except json.JSONDecodeError as error:
                message, at = error.msg, error.pos
            except RecursionError:
                raise RuleError(NOT_TEXT) from None
            else:
                self.pos = end
                return value, (
                    (
                        text.find("\\u", start, end) >= 0
                        and ESCAPED.search(text, start, end) is not None
                    )
                    or (not text.isascii() and SURROGATE.search(text, start, end) is not None)
                )
            cut_short = message.startswith("Unterminated string") or at >= len(text) - LOOKAHEAD
            if self.ended or not cut_short:
                raise self.refused(message, at)
            self.more()

    def refused(self, message: str, at: int) -> RuleError:
        """A refusal of the text at `at`, saying its line and column in the whole file."""
        line = self._lines + self.text.count("\n", 0, at) + 1
        last = self.text.rfind("\n", 0, at)
        return not_json(message, line, at - last if last >= 0 else self._column + at + 1)


class Span(NamedTuple):
    """Where an item of a list left in the file lies in its bytes: from `start` up to `end`."""

    start: int
    end: int


@dataclass(frozen=True, eq=False)
class Streamed:
    """A list of the backup left in its file (its sessions, its trash; or the whole of a file
    that is a list): where each of its items lies, each read again from the file as it is
    walked. `key` names it in the backup's object (None for the file's own list); `occurrence`
    counts the lists of that name before it, which a file may repeat (the last one counts)."""

    file: BackupFile = field(repr=False)
    key: str | None
    occurrence: int
    # Each item's span, its start and end one after the other.
    places: array[int] = field(repr=False)

    def __len__(self) -> int:
        return len(self.places) // 2

    def spans(self) -> Iterator[Span]:
        """Where each item lies, in order: `file.item` reads it."""
        places = iter(self.places)
        return map(Span, places, places)

    def __iter__(self) -> Iterator[Any]:
        return map(self.file.item, self.spans())


# An item of a list left in the file: its list's key and occurrence, its position from 1, the
# item, whether it might hold a lone surrogate, and its span.
_Item = tuple[str | None, int, int, Any, bool, Span]


class BackupFile:
    """A backup's file (bytes, open for reading, seekable), read through once to refuse what is
    not JSON as `json.loads` would; `data` is its JSON but for the lists `Streamed` from it."""

    def __init__(self, file: IO[bytes], encoding: str | None = None) -> None:
        self._file = file
        self._encoding = encoding or self._checked_bytes()
        self._file.seek(0)
        self._codec, self._mark = _unmarked(self._encoding, self._file.read(4))
        self.data = self._read()

    def _checked_bytes(self) -> str:
        """Refuse a file much denser in values than a backup, then one that is not text; the
        encoding of its text, as `json.loads` tells it."""
        self._file.seek(0)
        encoding = json.detect_encoding(self._file.read(4))
        self._file.seek(0)
        decoder = codecs.getincrementaldecoder(encoding)("surrogatepass")
        marks = [mark.encode() for mark in VALUE_MARKS]
        size = values = 0
        text = True
        while chunk := self._file.read(CHUNK):
            size += len(chunk)
            values += sum(chunk.count(mark) for mark in marks)
            if text:
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError:
                    text = False
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            text = False
        check_density(size, values)
        if not text:
            raise RuleError(NOT_TEXT)
        return encoding

    def _read(self) -> Any:
        """Read the file through: its JSON, with its lists to stream left in it; refused where a
        text holds a lone surrogate, once the whole is known to be JSON."""
        places: dict[tuple[str | None, int], array[int]] = {}
        held: dict[tuple[str | None, int], int] = {}
        walk = self._walk(_Text(self._file, self._encoding, self._codec, self._mark))
        try:
            while True:
                key, occurrence, position, item, hinted, span = next(walk)
                places.setdefault((key, occurrence), array("q")).extend(span)
                if hinted and (key, occurrence) not in held and holds_lone_surrogate(item):
                    held[key, occurrence] = position
        except StopIteration as walked:
            data = walked.value

        def streamed(value: Any) -> Any:
            if not isinstance(value, _List):
                return value
            spans = places.get((value.key, value.occurrence), array("q"))
            return Streamed(self, value.key, value.occurrence, spans)

        if isinstance(data, dict):
            data = {key: streamed(value) for key, value in data.items()}
        else:
            data = streamed(data)
        where = _lone_surrogate(data, held)
        if where is not None:
            raise RuleError(f"{where}: {LONE_SURROGATE_HELD}")
        return data

    def item(self, span: Span) -> Any:
        """The item of a list left in the file that lies at `span`, read again (it was JSON
        then, and is refused if it is no longer). Read from the file's descriptor where it has
        one, so that processes forked with it open read it at once."""
        size = span.end - span.start
        try:
            descriptor = self._file.fileno()
        except (OSError, io.UnsupportedOperation):
            self._file.seek(span.start)
            raw = self._file.read(size)
        else:
            raw = os.pread(descriptor, size, span.start)
        try:
            return json.loads(raw.decode(self._codec, "surrogatepass"))
        except ValueError:
            raise RuleError(CHANGED) from None

    def whole(self) -> Any:
        """The file's JSON, whole."""
        if isinstance(self.data, Streamed):
            return list(self.data)
        if isinstance(self.data, dict):
            return {
                key: list(value) if isinstance(value, Streamed) else value
                for key, value in self.data.items()
            }
        return self.data

    def _walk(self, text: _Text) -> Generator[_Item, None, Any]:
        """Read the text as `json.loads` would, yielding each item of the lists to stream (with
        its list's key and occurrence, its position from 1 and whether it might hold a lone
        surrogate) instead of keeping it; return the JSON, each such list a `_List`."""
        first = text.next_char()
        if first == "[":
            data: Any = yield from self._list(text, None, 0)
        elif first == "{":
            data = yield from self._object(text)
        else:
            data, _ = text.value()
        if text.next_char():
            raise text.refused("Extra data", text.pos)
        return data

    def _object(self, text: _Text) -> Generator[_Item, None, dict[str, Any]]:
        text.pos += 1
        pairs: dict[str, Any] = {}
        occurrences: dict[str, int] = {}
        char = text.next_char()
        if char == "}":
            text.pos += 1
            return pairs
        while True:
            if char != '"':
                raise text.refused("Expecting property name enclosed in double quotes", text.pos)
            key, _ = text.value()
            if text.next_char() != ":":
                raise text.refused("Expecting ':' delimiter", text.pos)
            text.pos += 1
            if text.next_char() == "[" and key in STREAMED:
                occurrence = occurrences[key] = occurrences.get(key, -1) + 1
                pairs[key] = yield from self._list(text, key, occurrence)
            else:
                pairs[key], _ = text.value()
            char = text.next_char()
            if char == "}":
                text.pos += 1
                return pairs
            if char != ",":
                raise text.refused("Expecting ',' delimiter", text.pos)
            text.pos += 1
            char = text.next_char()

    def _list(self, text: _Text, key: str | None, occurrence: int) -> Generator[_Item, None, _List]:
        text.pos += 1
        listed = _List(key, occurrence)
        if text.next_char() == "]":
            text.pos += 1
            return listed
        position = 0
        while True:
            start = text.byte_at(text.pos)
            item, hinted = text.value()
            position += 1
            yield key, occurrence, position, item, hinted, Span(start, text.byte_at(text.pos))
            char = text.next_char()
            if char == "]":
                text.pos += 1
                return listed
            if char != ",":
                raise text.refused("Expecting ',' delimiter", text.pos)
            text.pos += 1
            text.next_char()


@dataclass(frozen=True)
class _List:
    """A list to stream, as the first read through finds it."""

    key: str | None
    occurrence: int


def _unmarked(encoding: str, head: bytes) -> tuple[str, int]:
    """The codec of a file's text after its byte order mark, if `encoding` has one, and the
    mark's length in bytes; `head` is the file's first bytes."""
    for mark, codec in MARKS.get(encoding, ()):
        if head.startswith(mark):
            return codec, len(mark)
    return encoding, 0


def _lone_surrogate(data: Any, held: dict[tuple[str | None, int], int]) -> str | None:
    """Where in the backup a text (a key too) holds a lone surrogate, which JSON's escapes can
    write and no database stores: "Session 3 of the backup"; None when none does. `held` gives
    the first item of each list streamed that holds one."""
    if isinstance(data, Streamed):
        return "This backup" if (None, 0) in held else None
    if not isinstance(data, dict):
        return "This backup" if holds_lone_surrogate(data) else None
    for key, value in data.items():
        label = PARTS.get(key)
        if isinstance(value, Streamed):
            position = held.get((key, value.occurrence))
            if position is not None:
                return f"{label} {position} of the backup"
        elif label is not None and isinstance(value, list):
            for position, item in enumerate(value, start=1):
                if holds_lone_surrogate(item):
                    return f"{label} {position} of the backup"
        elif holds_lone_surrogate([key, value]):
            return "This backup"
    return None

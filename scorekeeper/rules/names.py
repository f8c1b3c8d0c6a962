"""What a name is, for a player, a session or a rule set: one check and one sentence for the
pages, the API and the files alike; and when two players' names look alike.

A name is kept in Unicode's composed form (NFC), trimmed, with each run of spaces made one plain
space. Control characters (a tab, a line break, ESC, DEL) and invisible ones (a zero-width space,
a byte order mark, a soft hyphen, a bidi override...) are refused: they make a name that looks
like another but is not. Names are compared by `name_key`: composed, trimmed, case ignored.

Names that differ but look alike ("Ann" spelt with a Cyrillic A, U+0410, and "Ann") have the same
`look_alike_key`: Unicode's confusables (UTS #39), as the confusable-homoglyphs package holds them.
A file imported from years of paper also spells one person two ways ("Tom Kiebzak" one year, "Tom
Kiebzack" the next): its names are near names too (`near_names`), one letter apart.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from functools import cache, lru_cache

from .errors import RuleError

MAX_NAME_LENGTH = 40
MAX_SESSION_NAME_LENGTH = 100

# Unicode's Default_Ignorable_Code_Point characters, which show nothing, and the blank Braille
# pattern, which shows as a space; categories Cc, Cf, Cs, Co and Cn are refused besides.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Text and emoji presentation selectors only choose how the character before them is drawn.
PRESENTATION = re.compile("[\ufe0e\ufe0f]")
# Unicode's space separators (Zs): a no-break space, an em space... Tabs and line breaks are
# control characters, refused.
SPACES = re.compile("[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
SAID = {"\t": "a tab", "\n": "a line break", "\r": "a line break"}


def _normal(text: str) -> str:
    text = PRESENTATION.sub("", unicodedata.normalize("NFC", text))
    return SPACES.sub(" ", text.strip())


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """The form of a name used to compare it: composed, trimmed, spaces as one, case ignored."""
    return unicodedata.normalize("NFC", _normal(name).casefold())


@lru_cache(maxsize=4096)
def checked_name(text: str, what: str, longest: int, field: str, shortest: int = 1) -> str:
    """`text` as a name of `what` ("A player's name") is kept, or a refusal saying why not."""
    name = _normal(text)
    for character in name:
        if INVISIBLE.match(character) or unicodedata.category(character) in REFUSED_CATEGORIES:
            raise RuleError(
                f"{what} can't hold control or invisible characters; "
                f"this one holds {_said(character)}.",
                field,
            )
    if not shortest <= len(name) <= longest:
        if shortest:
            raise RuleError(f"{what} must be {shortest} to {longest} characters long.", field)
        raise RuleError(f"{what} can be at most {longest} characters long.", field)
    return name


def _said(character: str) -> str:
    if character in SAID:
        return SAID[character]
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" ({name.lower()})" if name else "")


def player_name(name: str, field: str = "players") -> str:
    """A player's name as it is kept, or a refusal."""
    return checked_name(name, "A player's name", MAX_NAME_LENGTH, field)


def session_name(name: str) -> str:
    """A session's name (empty: the pages show its date), or a refusal."""
    return checked_name(name, "A session name", MAX_SESSION_NAME_LENGTH, "name", shortest=0)


class LookAlike(RuleError):
    """A new player's name that looks like another player's, not confirmed as a new player."""

    def __init__(self, name: str, like: str, like_is_new: bool, field: str) -> None:
        where = "also new here" if like_is_new else "who has played here"
        # The two may look the same in the sentence too: it names what sets them apart. Near
        # names don't look the same: a letter more or less is plain to see.
        differs = ""
        if look_alike_key(name) == look_alike_key(like):
            differs = next((f", but holds {_said(c)}" for c in name if c not in like), "")
        instead = "another name" if like_is_new else like
        super().__init__(
            f"{name} looks like {like}, {where}{differs}. Choose {instead}, "
            f"or confirm {name} as a new player.",
            field,
        )
        self.name = name
        self.like = like


def refuse_look_alikes(
    new: Iterable[str],
    existing: Iterable[str],
    confirmed: Collection[str],
    field: str,
    near: bool = False,
) -> None:
    """Refuse a new player's name that looks like an existing player's, or like a new name
    before it, unless it is among the `confirmed` new players; with `near`, a near name of one
    too (`near_names`: an import's names)."""
    for name, like in _alike(new, existing, confirmed, near):
        raise LookAlike(name, *like[0], field)


def look_alike_questions(
    new: Iterable[str], existing: Iterable[str], confirmed: Collection[str]
) -> list[tuple[str, list[str]]]:
    """What `refuse_look_alikes` with `near` refuses, every name at once: each new name, not
    `confirmed`, that looks like or is a near name of an existing player's or a new name before
    it, with those names (an existing player's first, the look-alikes before the near names)."""
    return [
        (name, [other for other, _new in like])
        for name, like in _alike(new, existing, confirmed, near=True)
    ]


# The fewest characters (spaces not counted) of a name with near names, one letter from it:
# in shorter names one letter tells two people apart ("Dan" and "Don", "Mark" and "Marky").
NEAR_NAME_LENGTH = 5


def near_names(name: str, other: str) -> bool:
    """Whether two names, as they look (`look_alike_key`), are one letter apart: a letter added,
    dropped or changed, or two side by side swapped ("Tom Kiebzak" and "Tom Kiebzack"), both
    of at least `NEAR_NAME_LENGTH` characters."""
    key, other_key = _near_key(name), _near_key(other)
    return key is not None and other_key is not None and _one_apart(key, other_key)


def names_like(name: str, others: Iterable[str]) -> list[str]:
    """The names among `others` that look like `name` or are near names of it, the look-alikes
    first; not `name` itself in another case."""
    found = list(_alike([name], others, (), near=True))
    return [other for other, _new in found[0][1]] if found else []


def _alike(
    new: Iterable[str], existing: Iterable[str], confirmed: Collection[str], near: bool
) -> Iterator[tuple[str, list[tuple[str, bool]]]]:
    """Each new name, not confirmed, that looks like (or with `near` is a near name of) an
    existing name or a new name before it, with those names, each with whether it is new.
    Near names are found through the keys with a character taken out, which two names one
    letter apart share; a long list of players costs a look-up a name, not a comparison with
    each."""
    confirmed_keys = {name_key(name) for name in confirmed}
    by_key: dict[str, list[tuple[str, bool]]] = {}
    by_near_key: dict[str, list[tuple[str, bool]]] = {}
    shortened: defaultdict[str, list[str]] = defaultdict(list)
    # The order the near keys were first given in.
    order: dict[str, int] = {}

    def add(name: str, is_new: bool) -> None:
        by_key.setdefault(look_alike_key(name), []).append((name, is_new))
        key = _near_key(name) if near else None
        if key is not None:
            if key not in by_near_key:
                by_near_key[key] = []
                order[key] = len(order)
                for variant in _shortened(key):
                    shortened[variant].append(key)
            by_near_key[key].append((name, is_new))

    for player in existing:
        add(player, False)
    for name in new:
        own = name_key(name)
        if own not in confirmed_keys:
            like = list(by_key.get(look_alike_key(name), ()))
            key = _near_key(name) if near else None
            if key is not None:
                keys = {k for v in _shortened(key) for k in shortened.get(v, ())}
                close = sorted((k for k in keys if _one_apart(key, k)), key=order.__getitem__)
                like += [pair for k in close for pair in by_near_key[k] if pair not in like]
            like = [pair for pair in like if name_key(pair[0]) != own]
            if like:
                # The players here before the new names, in the order they were given.
                yield name, sorted(like, key=lambda pair: pair[1])
        add(name, True)


def _near_key(name: str) -> str | None:
    """What a name looks like, its case ignored first ("TOM" and "Tom" are near names of the
    same names, though a capital I looks like a small l); None for a name too short to have
    near names."""
    key = name_key(name)
    if len(key.replace(" ", "")) < NEAR_NAME_LENGTH:
        return None
    return look_alike_key(key)


def _shortened(key: str) -> set[str]:
    """A key, and the key with each of its characters taken out."""
    return {key, *(key[:i] + key[i + 1 :] for i in range(len(key)))}


def _one_apart(key: str, other: str) -> bool:
    """Two near keys one edit apart (optimal string alignment)."""
    if key == other or abs(len(key) - len(other)) > 1:
        return False
    longer, shorter = (key, other) if len(key) >= len(other) else (other, key)
    at = next((i for i, (a, b) in enumerate(zip(longer, shorter, strict=False)) if a != b), None)
    if at is None:
        # The longer is the shorter with a character added at its end.
        return True
    if len(longer) != len(shorter):
        return longer[at + 1 :] == shorter[at:]
    if longer[at + 1 :] == shorter[at + 1 :]:
        return True
    swapped = longer[at : at + 2] == shorter[at : at + 2][::-1]
    return swapped and longer[at + 2 :] == shorter[at + 2 :]


def look_alike_key(name: str) -> str:
    """What a name looks like: its UTS #39 skeleton, case ignored, so that "Ann" with a
    Cyrillic A, "ANN" and "Ann" are one."""
    return _skeleton(_skeleton(_normal(name)).casefold())


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, the character (or characters: "rn" for "m") it
    looks like. The package lists each pair of Unicode's table both ways; a prototype is the
    one that several look like, or a string of several characters (which is always the
    prototype); of a pair that only look like each other, the lower one."""
    from confusable_homoglyphs.confusables import confusables_data

    links: defaultdict[str, set[str]] = defaultdict(set)
    for character, homoglyphs in confusables_data.items():
        for homoglyph in homoglyphs:
            one, other = _bare(character), _bare(homoglyph["c"])
            if one != other:
                links[one].add(other)
                links[other].add(one)
    prototypes = {}
    for character, alike in links.items():
        if len(character) != 1 or len(alike) != 1:
            continue
        [prototype] = alike
        if len(prototype) == 1 and len(links[prototype]) == 1:
            prototype = min(character, prototype)
        if prototype != character:
            prototypes[character] = prototype
    # A prototype of several characters may hold one of a pair, which goes by the pair's.
    for character, prototype in prototypes.items():
        if len(prototype) > 1:
            prototypes[character] = "".join(prototypes.get(c, c) for c in prototype)
    return prototypes


def _bare(text: str) -> str:
    """The package's text without the direction marks it puts around right-to-left letters."""
    return text.replace("\u200e", "").replace("\u200f", "")

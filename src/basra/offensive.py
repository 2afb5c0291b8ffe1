"""Offensive names: usernames and nicknames are checked against a list of offensive words in
the client's four languages (English, Arabic, French, Serbian in its Latin and Cyrillic
scripts), kept as data (``basra/data/offensive/*.txt``, one file a language, and
``allowed.txt``), and a name holding one is refused with ``name/offensive``
(:class:`OffensiveName`). Moderators extend the list: the caller keeps their words and hands
them to :class:`WordList`.

**How a name is read** (:func:`normalised`): NFKC (fullwidth ``ｆ`` is ``f``), case folded,
accents and every other combining mark off (Arabic's harakat and shadda too, and the
tatweel ``ـ``), Arabic's letter forms made one (``أ إ آ ٱ`` are ``ا``, ``ة`` is ``ه``,
``ى`` is ``ي``, the Persian ``ی ک`` are ``ي ك``) while its letters keep their identity,
Cyrillic read as Serbian Latin (``пичка`` is ``picka``: one list serves both scripts; ``đ``
is ``dj``, ``č ć`` are ``c``), other look-alike letters (Greek, IPA, dotless ``ı``...) mapped
to the Latin letter Unicode's confusables give them (:func:`basra.confusables.prototypes`),
look-alike digits and signs mapped (:data:`LOOKALIKES`: ``0`` is ``o``, ``1`` ``i``, ``3``
``e``, ``4`` ``a``, ``5`` ``s``, ``7`` ``t``, ``8`` ``b``, ``@`` ``a``, ``$`` ``s``, ``!``
``i``, ``|`` ``l``), every other character (spaces, ``. _ -``, punctuation, other digits,
zero-width and other characters that show nothing) dropped, and each run of one letter
made one (``fuuuck`` is ``fuck``). A name in Cyrillic is also read by its look
(``сосk``, Cyrillic but for the ``k``, is ``cock`` as well as ``sosk``).

**Repeated letters.** Collapsing runs would make ``nigger`` and ``Niger``, ``faggot`` and
French ``fagot`` one. So a listed word keeps the length of its runs: a letter it writes
twice must be at least twice in the name; any letter of the name may be repeated more. A
word whose single form is offensive too is listed in that form (``kosomak`` matches
``kossomak``).

**Where a word matches: the Scunthorpe rule.** A listed word of :data:`LONG` letters or
more (counted normalised, before runs are collapsed) matches anywhere in the name, its
words joined (``f.u.c.k_face`` holds ``fuck``). A shorter one matches only as a whole word
of the name: the name split at separators, at a change of script and at a change of case
(``BigCock`` is ``Big`` and ``Cock``), single letters spelled out joined (``a s s``), a word
with its look-alike digits or signs trimmed from its ends (``Ass77``) or Arabic's article
(``ال``) taken off; or as the whole name. So ``cockpit``, ``class``, ``Essex``,
``Dickens``, ``shiitake``, ``Hancock``, ``نيكولا`` (Nicola) and ``Monique`` pass. In the
data a mark overrides the length: ``=word`` matches only as a whole word, however long;
``*word*`` anywhere, however short (``fuck``, ``cunt``). A word matching anywhere that
hides in an innocent one (``cunt`` in ``Scunthorpe``, ``penis`` in ``Penistone``,
``nigger`` in ``snigger``, ``salope`` in ``salopette``, ``pičku`` in ``pickup``) is let
through by the allow-list, ``allowed.txt``: a listed word found wholly inside an allowed
word's place in the name (its letters repeated as often) does not count.

**Speed.** The reading of each character is cached and the list is indexed (long words by
their collapsed text, looked up at each place of the name where one may begin; short ones by
the collapsed text of each word of the name), so a check costs about the same however long
the list grows: 20 microseconds for a 15-character name here (``Swift Falcon 27``, one
core), 40 for one in Cyrillic (read twice).

>>> normalised("F.u_u-U c K"), normalised("Ｓｈ1ｔ"), normalised("пичка")
('fuck', 'shit', 'picka')
>>> normalised("أَحْمَـــد") == normalised("احمد")
True
>>> words = default_words()
>>> words.match("Big_F.u.c.k"), words.match("Scunthorpe"), words.match("Niger")
('fuck', None, None)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from basra.confusables import hidden, prototypes
from basra.errors import BasraError

LANGUAGES = ("en", "ar", "fr", "sr")
"""The languages of the shipped lists: the client's (a file ``<language>.txt`` each)."""

DATA = ("data", "offensive")
"""Where the lists are, under the package (shipped in the wheel as package data)."""

ALLOWED = "allowed.txt"
"""The allow-list's file: innocent words that hold a listed one."""

LONG = 5
"""A listed word of this many normalised letters or more matches anywhere in a name; a
shorter one only as a whole word of it."""

MESSAGE = "this name is not allowed here: choose another one"
"""What a refused name is told: one line, never the word found."""

LOOKALIKES: dict[str, str] = {
    "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
    "@": "a", "$": "s", "!": "i", "|": "l", "€": "e",
}
"""Digits and signs written for a letter (after NFKC: ``１`` is ``1``)."""

_LATIN = {"đ": "dj", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "ħ": "h", "ŧ": "t",
          "ı": "i", "ɨ": "i", "ƚ": "l", "ð": "d", "þ": "th"}
"""Latin letters that NFD does not take apart (a stroke, a ligature)."""

_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "ђ": "dj", "е": "e", "ж": "z",
    "з": "z", "и": "i", "ј": "j", "к": "k", "л": "l", "љ": "lj", "м": "m", "н": "n",
    "њ": "nj", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "ћ": "c", "у": "u",
    "ф": "f", "х": "h", "ц": "c", "ч": "c", "џ": "dz", "ш": "s",
    # letters of Serbia's neighbours' alphabets, read the nearest way
    "я": "ja", "ю": "ju", "э": "e", "ы": "y", "ь": "", "ъ": "", "щ": "sc", "є": "je",
    "і": "i", "ѕ": "dz", "ґ": "g",
}
"""Cyrillic (after NFD: ``й`` is ``и`` with a mark) read as Serbian Latin without its
accents (``ж`` is ``ž``, then ``z``), so one list serves both of Serbian's scripts."""

_ARABIC = {"ٱ": "ا", "ى": "ي", "ی": "ي", "ة": "ه", "ۃ": "ه", "ە": "ه", "ہ": "ه", "ھ": "ه",
           "ک": "ك", "ڪ": "ك"}
"""Arabic letter forms made one (the hamza and madda of ``أ إ آ ؤ ئ`` are marks, gone with
NFD)."""

_TATWEEL = "\u0640"

_LETTER, _LOOKALIKE, _SEPARATOR = 0, 1, 2
"""What a character of a name is: a letter, a look-alike digit or sign, or a separator."""

_RUN = re.compile(r"(.)\1", re.DOTALL)
"""Two of one character in a row."""

_ARTICLE = "ال"
"""Arabic's article, taken off a word of a name for the short words."""


class OffensiveName(BasraError, ValueError):
    """A name that holds an offensive word: refused, the word not named."""

    code = "name/offensive"


# ---------------------------------------------------------------------------------------
# reading a name


@dataclass(frozen=True, slots=True)
class _Unit:
    """One character of a name as read: its ``text`` (lower case, mapped; may be two
    letters, ``dj``), its kind, its script (letters only) and whether it was upper case."""

    text: str
    kind: int
    script: str
    upper: bool


_DROPPED = _Unit("", _SEPARATOR, "", False)
"""A character read as nothing at all (a mark, a zero-width character, the tatweel)."""


def _script(ch: str) -> str:
    """The first word of a letter's Unicode name: ``LATIN``, ``ARABIC``, ``CYRILLIC``..."""
    return unicodedata.name(ch, "").partition(" ")[0]


def _ascii_letters(text: str | None) -> str | None:
    """``text`` case folded, when that is ASCII letters only."""
    if text is None:
        return None
    folded = text.casefold()
    return folded if folded.isascii() and folded.isalpha() else None


def _by_look(ch: str) -> str | None:
    """The Latin letters Unicode's confusables give a character (or its upper case: ``к``
    looks like ``K``'s small form), if any."""
    table = prototypes()
    return _ascii_letters(table.get(ch)) or _ascii_letters(table.get(ch.upper()))


@functools.lru_cache(maxsize=8192)
def _read(ch: str, visual: bool) -> _Unit:
    """How one character of a name (after NFKC) is read; ``visual`` reads Cyrillic by its
    look rather than as Serbian."""
    if hidden(ch) or ch == _TATWEEL:
        return _DROPPED
    if ch in LOOKALIKES:
        return _Unit(LOOKALIKES[ch], _LOOKALIKE, "", False)
    category = unicodedata.category(ch)
    if category[0] == "M":
        return _DROPPED
    if category[0] != "L":
        return _Unit("", _SEPARATOR, "", False)
    script = _script(ch)
    if visual and script == "CYRILLIC":
        look = _by_look(unicodedata.normalize("NFD", ch)[0])
        if look is not None:
            return _Unit(look, _LETTER, script, ch.isupper())
    text = "".join(_letter(base, script)
                   for base in unicodedata.normalize("NFD", ch.casefold())
                   if unicodedata.category(base)[0] != "M")
    return _Unit(text, _LETTER, script, ch.isupper()) if text else _DROPPED


def _letter(base: str, script: str) -> str:
    """How a letter (case folded, without its marks) of ``script`` is read."""
    if base.isascii():
        return base
    if base in _LATIN:
        return _LATIN[base]
    if script == "CYRILLIC":
        return _CYRILLIC.get(base, base)
    if script == "ARABIC":
        return _ARABIC.get(base, base)
    return _by_look(base) or base


@dataclass(frozen=True, slots=True)
class _Reading:
    """One reading of a name: its letters joined (mapped, runs kept), their runs, and the
    places (spans of ``joined``) of the name's words, where the short words may match."""

    joined: str
    runs: str
    counts: tuple[int, ...]
    starts: tuple[int, ...]
    words: frozenset[tuple[int, int]]


def _runs(text: str) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """``text`` with each run of one letter made one, each run's length and start."""
    letters: list[str] = []
    counts: list[int] = []
    starts: list[int] = []
    for i, ch in enumerate(text):
        if letters and letters[-1] == ch:
            counts[-1] += 1
        else:
            letters.append(ch)
            counts.append(1)
            starts.append(i)
    return "".join(letters), tuple(counts), tuple(starts)


_Placed = tuple[_Unit, int, int]
"""A unit of a name and its place (start, end) in the name's joined letters."""


def _collapsed(text: str) -> str:
    """``text`` with each run of one letter made one (:func:`_runs`'s first part, faster
    for a text with no run)."""
    return text if _RUN.search(text) is None else _runs(text)[0]


def _case_parts(word: list[_Placed]) -> list[list[_Placed]]:
    """A word's parts by case: ``BigCock`` is ``Big`` and ``Cock``, ``ASSHole`` ``ASS`` and
    ``Hole`` (none when the case does not change)."""
    parts: list[list[_Placed]] = [[word[0]]]
    for i in range(1, len(word)):
        unit = word[i][0]
        before = word[i - 1][0]
        after = word[i + 1][0] if i + 1 < len(word) else None
        if unit.kind == _LETTER and before.kind == _LETTER and unit.upper and (
                not before.upper
                or (after is not None and after.kind == _LETTER and not after.upper)):
            parts.append([])
        parts[-1].append(word[i])
    return parts if len(parts) > 1 else []


def _places(part: list[_Placed]) -> list[tuple[int, int]]:
    """The place of a word (or a part of one) and, when it begins or ends with look-alike
    digits or signs, its place without them (``Ass77`` is also ``Ass``)."""
    places = [(part[0][1], part[-1][2])]
    letters = [i for i, (unit, _, _) in enumerate(part) if unit.kind == _LETTER]
    if letters and (letters[0] > 0 or letters[-1] < len(part) - 1):
        places.append((part[letters[0]][1], part[letters[-1]][2]))
    return places


def _reading(text: str, visual: bool) -> _Reading:
    """A name read (see the module's docstring): ``visual`` reads Cyrillic by its look."""
    pieces: list[str] = []
    words: list[list[_Placed]] = [[]]
    script = ""
    at = 0
    for ch in text:
        unit = _read(ch, visual)
        if unit is _DROPPED:
            continue
        if unit.kind == _SEPARATOR:
            if words[-1]:
                words.append([])
                script = ""
            continue
        if unit.kind == _LETTER:
            if script and unit.script != script and words[-1]:
                words.append([])
            script = unit.script
        pieces.append(unit.text)
        words[-1].append((unit, at, at + len(unit.text)))
        at += len(unit.text)
    joined = "".join(pieces)
    runs, counts, starts = _runs(joined)
    return _Reading(joined, runs, counts, starts, _word_places(joined, words))


def _word_places(joined: str, words: list[list[_Placed]]) -> frozenset[tuple[int, int]]:
    """Where the short words may match in a name (spans of its ``joined`` letters): the
    whole name, each of its words, their parts by case, each without its look-alike ends
    or Arabic's article, and each run of single letters spelled out."""
    spans: set[tuple[int, int]] = {(0, len(joined))} if joined else set()
    singles: list[tuple[int, int]] = []
    for word in words:
        if not word:
            continue
        for part in [word, *_case_parts(word)]:
            for begin, end in _places(part):
                spans.add((begin, end))
                if joined.startswith(_ARTICLE, begin) and end - begin > len(_ARTICLE) + 1:
                    spans.add((begin + len(_ARTICLE), end))
        if len(word) == 1:
            singles.append((word[0][1], word[0][2]))
            continue
        if len(singles) > 1:
            spans.add((singles[0][0], singles[-1][1]))
        singles = []
    if len(singles) > 1:
        spans.add((singles[0][0], singles[-1][1]))
    return frozenset(spans)


def _readings(name: str) -> list[_Reading]:
    """The ways a name is read: as written (Cyrillic as Serbian), and by look when it holds
    Cyrillic."""
    text = unicodedata.normalize("NFKC", name)
    readings = [_reading(text, visual=False)]
    if any(_read(ch, False).script == "CYRILLIC" for ch in text):
        readings.append(_reading(text, visual=True))
    return readings


def _joined(text: str) -> str:
    """A name's letters as read (see the module's docstring), runs kept."""
    return _reading(unicodedata.normalize("NFKC", text), visual=False).joined


def normalised(text: str) -> str:
    """``text`` as a name is compared with the list (see the module's docstring): letters
    only, case folded, accents off, Cyrillic read as Serbian Latin, look-alikes mapped,
    separators dropped, each run of one letter made one. Idempotent.

    >>> normalised("Đorđe"), normalised("Ђорђе"), normalised("$ALOPE!")
    ('djordje', 'djordje', 'salopei')
    >>> normalised("إِيمَانُ") == normalised("ايمان"), normalised("مدرسة") == normalised("مدرسه")
    (True, True)
    """
    return _collapsed(_joined(text))


# ---------------------------------------------------------------------------------------
# the list


ANYWHERE, WHOLE = "anywhere", "whole"
"""Where a listed word matches: anywhere in a name's joined letters, or only as a whole
word of it (or the whole name)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One listed word: as ``listed`` (without its mark), its collapsed letters and their
    runs' lengths, and where it matches (:data:`ANYWHERE` or :data:`WHOLE`)."""

    listed: str
    runs: str
    counts: tuple[int, ...]
    where: str


def entry(line: str) -> Entry | None:
    """One line of a list as an :class:`Entry`: ``None`` for a blank line or a comment
    (``#`` to the end of the line). ``=word`` matches only as a whole word, ``*word*``
    anywhere; otherwise a word of :data:`LONG` letters or more matches anywhere. Raises
    ``ValueError`` for a word with fewer than two letters once normalised (it would refuse
    too much).

    >>> entry("=Tapette  # a fly swatter too").where, entry("*fuck*").where
    ('whole', 'anywhere')
    >>> entry("nigger").counts
    (1, 1, 2, 1, 1)
    """
    text = line.partition("#")[0].strip()
    if not text:
        return None
    mark = None
    if text.startswith("="):
        mark, text = WHOLE, text[1:].strip()
    elif len(text) > 2 and text.startswith("*") and text.endswith("*"):
        mark, text = ANYWHERE, text[1:-1].strip()
    joined = _joined(text)
    if len(joined) < 2:
        raise ValueError(f"an offensive word needs two letters or more once normalised: "
                         f"{text!r}")
    runs, counts, _ = _runs(joined)
    where = mark or (ANYWHERE if len(joined) >= LONG else WHOLE)
    return Entry(text, runs, counts, where)


def entries(lines: Iterable[str]) -> list[Entry]:
    """The entries of a list's lines (blank lines and comments skipped)."""
    return [found for line in lines if (found := entry(line)) is not None]


def shipped(name: str) -> str:
    """The text of one shipped file (``en.txt``, ``allowed.txt``...)."""
    return resources.files("basra").joinpath(*DATA, name).read_text("utf-8")


class WordList:
    """The words a name may not hold: the shipped lists (unless ``shipped`` is false) and
    ``extra`` ones (the moderators', in the lists' syntax: ``=word``, ``*word*``), with the
    shipped allow-list and ``allowed`` words. Raises ``ValueError`` for a word with fewer
    than two letters once normalised.

    >>> words = WordList(["Blorp", "=zzyzx", "*ab*"], shipped=False)
    >>> words.match("Mr.B_l_o_r_p"), words.match("ZZYZX road"), words.match("Zzyzxroad")
    ('Blorp', 'zzyzx', None)
    >>> words.match("Crab cake"), len(words)
    ('ab', 3)
    """

    def __init__(self, extra: Iterable[str] = (), *, allowed: Iterable[str] = (),
                 shipped: bool = True) -> None:
        lines: list[str] = []
        allow_lines: list[str] = list(allowed)
        if shipped:
            for language in LANGUAGES:
                lines.extend(_shipped_text(f"{language}.txt").splitlines())
            allow_lines.extend(_shipped_text(ALLOWED).splitlines())
        lines.extend(extra)
        self._anywhere: dict[str, list[Entry]] = {}
        self._whole: dict[str, list[Entry]] = {}
        count = 0
        for found in entries(lines):
            index = self._anywhere if found.where == ANYWHERE else self._whole
            index.setdefault(found.runs, []).append(found)
            count += 1
        self._count = count
        self._lengths = tuple(sorted({len(runs) for runs in self._anywhere}))
        self._heads = frozenset(runs[:2] for runs in self._anywhere)
        self._allowed = tuple({(found.runs, found.counts) for found in entries(allow_lines)})

    def __len__(self) -> int:
        """How many words are listed."""
        return self._count

    def match(self, name: str) -> str | None:
        """The listed word ``name`` holds (as listed), or ``None`` when it holds none (see
        the module's docstring for where a word matches)."""
        for reading in _readings(name):
            found = self._match(reading)
            if found is not None:
                return found
        return None

    def _match(self, reading: _Reading) -> str | None:
        """The listed word one reading of a name holds, if any: a long one anywhere, a short
        one as a word, unless inside an allowed word."""
        found = [*self._anywhere_in(reading), *self._words_in(reading)]
        if not found:
            return None
        allowed = self._allowed_spans(reading)
        return next((word for word, span in found if not _inside(span, allowed)), None)

    def _anywhere_in(self, reading: _Reading) -> list[tuple[str, tuple[int, int]]]:
        """The words matching anywhere that a reading holds, and where (spans of its joined
        letters)."""
        runs, counts, starts = reading.runs, reading.counts, reading.starts
        size = len(runs)
        found = []
        for begin in range(size):
            if runs[begin:begin + 2] not in self._heads:
                continue
            for length in self._lengths:
                if begin + length > size:
                    break
                last = begin + length - 1
                found += [(item.listed, (starts[begin], starts[last] + counts[last]))
                          for item in self._anywhere.get(runs[begin:begin + length], ())
                          if _enough(counts[begin:begin + length], item.counts)]
        return found

    def _words_in(self, reading: _Reading) -> list[tuple[str, tuple[int, int]]]:
        """The short words that a reading holds as words, and where."""
        found = []
        for span in reading.words:
            text = reading.joined[span[0]:span[1]]
            found += [(item.listed, span) for item in self._whole.get(_collapsed(text), ())
                      if _enough(_runs(text)[1], item.counts)]
        return found

    def _allowed_spans(self, reading: _Reading) -> list[tuple[int, int]]:
        """The places (spans of the joined letters) of the allowed words in a reading."""
        spans = []
        for word, need in self._allowed:
            at = reading.runs.find(word)
            while at >= 0:
                last = at + len(word) - 1
                if _enough(reading.counts[at:last + 1], need):
                    spans.append((reading.starts[at],
                                  reading.starts[last] + reading.counts[last]))
                at = reading.runs.find(word, at + 1)
        return spans


def _enough(have: tuple[int, ...], need: tuple[int, ...]) -> bool:
    """Whether runs of letters as long as ``have`` hold a word whose runs are ``need`` long
    (each at least as long)."""
    return all(a >= b for a, b in zip(have, need, strict=True))


def _inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Whether ``span`` lies wholly inside one of ``spans``."""
    return any(begin <= span[0] and span[1] <= end for begin, end in spans)


@functools.cache
def _shipped_text(name: str) -> str:
    return shipped(name)


@functools.cache
def default_words() -> WordList:
    """The shipped list alone (made once)."""
    return WordList()


def check_name(name: str, words: WordList | None = None) -> None:
    """Refuse a name that holds an offensive word of ``words`` (the shipped list when
    none is given): raises :class:`OffensiveName` (``name/offensive``), whose message does
    not name the word.

    >>> check_name("Swift Falcon 27")
    >>> check_name("B1tch_Queen")
    Traceback (most recent call last):
    ...
    basra.offensive.OffensiveName: this name is not allowed here: choose another one
    """
    if (words if words is not None else default_words()).match(name) is not None:
        raise OffensiveName(MESSAGE)

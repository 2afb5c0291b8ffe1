"""Names that look alike: Unicode's confusable skeleton (UTS #39, section 4) and the
characters a name may not hide (default-ignorable code points).

- :func:`skeleton` is UTS #39's: the text in NFD, its default-ignorable code points
  removed, each character replaced by its prototype (:mod:`basra.confusables_data`, Unicode's
  ``confusables.txt``), NFD again. Two texts with one skeleton look alike: ``Ａ`` (fullwidth),
  ``А`` (Cyrillic) and ``A``; ``I``, ``1`` and ``l``; ``rn`` and ``m``.
- :func:`lookalike_key` is what no two accounts may share (the store keeps it beside each
  username): NFKC first (the data leaves most compatibility forms, such as fullwidth
  ``ｍ``, to it), then the skeleton, case folded, again until it settles (so a look-alike of
  any case of a name is caught too), and the separators a username may hold (space
  ``_ - . '``) dropped: ``Amira.`` and ``Ami_ra`` look like ``Amira``.
- :func:`hidden` says which characters show nothing or only change how the one before
  looks: every default-ignorable code point (zero-width characters, bidi controls, the
  combining grapheme joiner, variation selectors and Mongolian ones, Khmer inherent vowels,
  Hangul fillers, tags...) and the Khitan filler. A name with one looks like the same name
  without it, so names may hold none.

Names wholly in one script stay apart from other scripts' unless they look alike letter
for letter: ``Amira``, ``أميرة``, ``Ђорђе`` and ``Đorđe`` have four skeletons.

>>> lookalike_key("Ａｍｉｒａ") == lookalike_key("Amira.") == lookalike_key("Amira")
True
>>> lookalike_key("AmIra") == lookalike_key("Am1ra") == lookalike_key("Amlra")
True
>>> hidden("\\u034f"), hidden("\\ufe0f"), hidden("a")
(True, True, False)
"""

from __future__ import annotations

import functools
import unicodedata

from basra.confusables_data import PROTOTYPES

DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),    # soft hyphen
    (0x034F, 0x034F),    # combining grapheme joiner
    (0x061C, 0x061C),    # Arabic letter mark
    (0x115F, 0x1160),    # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),    # Khmer inherent vowels
    (0x180B, 0x180F),    # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),    # zero width space, non-joiner, joiner; LRM, RLM
    (0x202A, 0x202E),    # bidi embeddings and overrides
    (0x2060, 0x206F),    # word joiner, invisible operators, bidi isolates, deprecated ones
    (0x3164, 0x3164),    # Hangul filler
    (0xFE00, 0xFE0F),    # variation selectors 1-16
    (0xFEFF, 0xFEFF),    # zero width no-break space (byte order mark)
    (0xFFA0, 0xFFA0),    # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),    # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical beam and phrase controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17-256, reserved
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, the same from
Unicode 14 to 16): code points that show nothing when a font has no glyph for them."""

ALSO_HIDDEN = frozenset({0x16FE4})
"""Code points that show nothing though not default-ignorable (the Khitan small script
filler)."""

SEPARATORS = frozenset(" _-.'")
"""What a username may hold besides letters, digits and marks: not told apart by
:func:`lookalike_key` (``Amira.``, ``Ami ra`` and ``Amira`` are one)."""

SETTLE = 8
"""How many rounds of NFKC, skeleton and case folding :func:`lookalike_key` runs at most:
folding a prototype's case, or a skeleton's NFD, can make a character the data maps again
(every character settles within four)."""


def default_ignorable(ch: str) -> bool:
    """Whether ``ch`` is a Default_Ignorable_Code_Point."""
    point = ord(ch)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def hidden(ch: str) -> bool:
    """Whether ``ch`` shows nothing, or only changes how its neighbour looks: a name must
    hold none (see the module's docstring)."""
    return default_ignorable(ch) or ord(ch) in ALSO_HIDDEN


def first_hidden(text: str) -> str | None:
    """The first :func:`hidden` character of ``text``, if any."""
    return next((ch for ch in text if hidden(ch)), None)


def describe(ch: str) -> str:
    """``U+034F COMBINING GRAPHEME JOINER``: a character named in an error message (the
    character itself would not show)."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (:data:`basra.confusables_data.PROTOTYPES`)."""
    table: dict[str, str] = {}
    for row in PROTOTYPES.splitlines():
        source, *target = row.split()
        table[chr(int(source, 16))] = "".join(chr(int(point, 16)) for point in target)
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text`` (section 4): NFD, default-ignorable code points
    removed, each character replaced by its prototype, NFD again.

    >>> skeleton("Ａmira"), skeleton("AmIra"), skeleton("Élodie") == skeleton("Élodie")
    ('Arnira', 'Arnlra', True)
    """
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)
                     if not default_ignorable(ch))
    return unicodedata.normalize("NFD", mapped)


def lookalike_key(name: str) -> str:
    """What two usernames that look alike share (see the module's docstring): the
    skeleton of the name in NFKC, case folded, until it settles; separators dropped.

    >>> lookalike_key("Amira"), lookalike_key("AMIRA"), lookalike_key("Ami.ra_")
    ('arnira', 'arnlra', 'arnira')
    """
    key = name
    for _ in range(SETTLE):
        step = skeleton(unicodedata.normalize("NFKC", key)).casefold()
        if step == key:
            break
        key = step
    return "".join(ch for ch in key if ch not in SEPARATORS and not ch.isspace())

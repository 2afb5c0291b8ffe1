"""One registry of error codes (``basra.codes.CODES``): every code raised is in it, every
code in it is raised, the HTTP statuses come from it, and docs/PROTOCOL.md's table is what
it generates.

How a code is found in the source: every ``src/basra/**/*.py`` but ``basra/codes.py`` is
parsed with :mod:`ast`, and a code is any string constant that

- matches ``^[a-z][a-z_]*/[a-z0-9_]+$`` as a whole (``table/not_found``, ``http/405``);
- is not a statement of its own (an ``ast.Expr`` of a string: a module's, class's or
  function's docstring, an attribute's docstring, so no doctest either);
- is not a piece of an f-string (``f"http/{status}"``: its ``"http/"`` is glued to a value);
- and is not a MIME type: its kind is none of IANA's top-level media types (``application``,
  ``audio``, ``font``, ``example``, ``image``, ``message``, ``model``, ``multipart``,
  ``text``, ``video``).

That is where the project raises its codes: ``Kind(message, "kind/detail")``, a class's
``code = "kind/detail"``, ``Error("kind/detail", ...)`` and module constants such as
``basra.engine_protocol.messages.BAD_JSON``. Starlette's ``http/NNN`` are a rule
(:func:`basra.codes.starlette_status`), not entries.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import basra
from basra import codes
from basra.codes import CODES, DEFAULT_STATUS, SURFACES, starlette_status
from basra.server.wire.errors import STATUS, status_of

SOURCE = Path(basra.__file__).parent
ROOT = SOURCE.parent.parent
REGISTRY = SOURCE / "codes.py"
CODE = re.compile(r"[a-z][a-z_]*/[a-z0-9_]+")
MIME_TYPES = frozenset({"application", "audio", "example", "font", "image", "message",
                        "model", "multipart", "text", "video"})


def codes_in(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Each code string of a parsed module and its line (the rule of the module's
    docstring)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # a docstring (doctests included)
        elif isinstance(node, ast.JoinedStr):
            skipped.update(id(part) for part in node.values)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in skipped and CODE.fullmatch(node.value)
                and node.value.partition("/")[0] not in MIME_TYPES):
            yield node.value, node.lineno


def raised() -> dict[str, list[str]]:
    """Every code the source raises or sends: the places (``path:line``) of each."""
    found: dict[str, list[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        if path == REGISTRY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for code, line in codes_in(tree):
            found.setdefault(code, []).append(f"{path.relative_to(SOURCE)}:{line}")
    return found


def test_the_rule_finds_codes_and_nothing_else() -> None:
    source = '''
"""A module with "doc/string" codes.

>>> raise Kind("message", "doc/test")
"""
X = "table/not_found"
Y = f"http/{404}"
Z = ("application/json", "text/html", "image/png", "Not/Code", "a/b/c", " pad/ded")


class Kind(Exception):
    """``class/doc``"""

    code = "kind/default"
    "attribute/doc"

    def f(self) -> None:
        """function/doc"""
        raise Kind("no code/here", "play/not_in_hand")
'''
    assert sorted(codes_in(ast.parse(source))) == [
        ("kind/default", 14), ("play/not_in_hand", 19), ("table/not_found", 6)]


def test_every_code_raised_is_in_the_registry() -> None:
    missing = {code: places for code, places in raised().items()
               if code not in CODES and starlette_status(code) is None}
    assert not missing, f"codes raised but not in basra.codes.CODES: {missing}"


def test_every_code_in_the_registry_is_raised() -> None:
    found = raised()
    dead = sorted(code for code in CODES if code not in found)
    assert not dead, f"codes in basra.codes.CODES that src/basra never uses: {dead}"


def test_the_registry_holds_together() -> None:
    assert len(CODES) >= 100  # the project's own, not a sample
    for key, entry in CODES.items():
        assert key == entry.code and CODE.fullmatch(key), key
        assert starlette_status(key) is None, f"{key}: http/NNN is a rule, not an entry"
        assert 400 <= entry.status <= 599, key
        assert entry.meaning and entry.meaning == " ".join(entry.meaning.split()), key
        assert entry.surfaces and set(entry.surfaces) <= set(SURFACES), key
        assert len(set(entry.surfaces)) == len(entry.surfaces), key
        if "http" not in entry.surfaces:  # never sent over HTTP: the status it would get
            assert entry.status == DEFAULT_STATUS, key
    source = REGISTRY.read_text(encoding="utf-8")
    assert len(source.splitlines()) < 600  # one registry, kept to a page or two
    assert {n.split(".")[0] for n in _imports(ast.parse(source))} <= {
        "__future__", "collections", "dataclasses", "types"}, "basra.codes: stdlib only"


def _imports(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.module or ""


@pytest.mark.parametrize("code", sorted(CODES))
def test_the_server_answers_each_code_with_the_registrys_status(code: str) -> None:
    assert STATUS[code] == CODES[code].status == status_of(code) == codes.status_of(code)


def test_the_rule_of_starlettes_codes() -> None:
    assert set(STATUS) == set(CODES)
    for code, status in [("http/404", 404), ("http/405", 405), ("http/599", 599),
                         ("http/600", DEFAULT_STATUS), ("http/99", DEFAULT_STATUS),
                         ("http/x", DEFAULT_STATUS), ("nobody/knows", DEFAULT_STATUS)]:
        assert status_of(code) == codes.status_of(code) == status, code


def test_the_protocol_doc_holds_the_generated_table() -> None:
    doc = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    assert codes.with_table(doc) == doc, (
        "docs/PROTOCOL.md's error codes are not the registry's: run scripts/error-codes")
    section = doc.partition("## 6. Error codes")[2]
    assert codes.DOC_BEGIN in section and codes.markdown_table() in section
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == sorted(CODES)


def test_the_table_is_made_again_between_the_markers() -> None:
    doc = f"# A\n\n{codes.DOC_BEGIN}\n| stale |\n{codes.DOC_END}\n\nafter\n"
    made = codes.with_table(doc)
    assert made == f"# A\n\n{codes.DOC_BEGIN}\n{codes.markdown_table()}\n{codes.DOC_END}" \
        "\n\nafter\n"
    assert codes.with_table(made) == made
    for broken in ("no markers", f"{codes.DOC_END}\n{codes.DOC_BEGIN}",
                   f"{codes.DOC_BEGIN}{codes.DOC_BEGIN}{codes.DOC_END}"):
        with pytest.raises(ValueError, match="error codes"):
            codes.with_table(broken)

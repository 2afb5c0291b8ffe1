"""Every store write is named by what it does, and its first two words (its operation, the
``operation`` label of ``basra_store_commit_seconds`` on ``/metrics``) are words, never an
id: a label per player or per table would make the metrics grow without bound (the bell of
an event's start once made 2,000 labels, one per entrant)."""

from __future__ import annotations

import ast
from pathlib import Path

from basra.store.sql.engine import operation_of

SQL = Path(__file__).resolve().parents[2] / "src" / "basra" / "store" / "sql"
NAMED = {"batched", "transact", "update_existing"}
PASSED_ON = {"update {}", "store {} writes", "store {}"}
"""Names made of a name given by the caller (``update_existing``'s, a play's ``where``) or of
a count (``store 12 writes``: numbers are not part of an operation)."""


def names() -> list[tuple[str, str]]:
    """(where, the leading text of the name) of every named write in the SQL store."""
    found = []
    for path in sorted(SQL.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in NAMED and node.args):
                continue
            name = node.args[2] if node.func.attr == "update_existing" else node.args[0]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                lead = name.value
            elif isinstance(name, ast.JoinedStr):
                lead = "".join(part.value if isinstance(part, ast.Constant) else "{}"
                               for part in name.values)
            else:
                continue
            if node.func.attr == "update_existing":
                lead = f"update {lead}"
            found.append((f"{path.name}:{node.lineno}", lead))
    return found


def test_every_write_is_named_by_two_words_before_any_id() -> None:
    found = names()
    assert len(found) > 40  # the walk finds the store's writes
    bad = [(where, lead) for where, lead in found if lead not in PASSED_ON
           and "{}" in operation_of(lead.replace("{}", " {} "))]
    assert bad == []


def test_the_operation_is_the_first_two_words_that_are_not_numbers() -> None:
    assert operation_of("notify player AbC123") == "notify player"
    assert operation_of("store 12 writes") == "store writes"

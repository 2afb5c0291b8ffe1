"""The ``>>>`` examples in the package's docstrings, run against the installed build.

Modules compiled with mypyc keep no docstrings, so the examples are read from the source
files (with :mod:`ast`) and run in the namespace of the imported module, compiled or not.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import basra

SOURCE = Path(basra.__file__).parent
MODULES = sorted(
    ".".join(("basra", *p.relative_to(SOURCE).with_suffix("").parts)).removesuffix(".__init__")
    for p in SOURCE.rglob("*.py")
    if p.name != "__main__.py"
)


def _docstrings(path: Path) -> list[tuple[str, str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=True)
            if doc and ">>>" in doc:
                name = getattr(node, "name", "<module>")
                lineno = node.body[0].lineno if node.body else 0
                found.append((name, doc, lineno))
    return found


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    relative = name.removeprefix("basra").lstrip(".").replace(".", "/")
    path = SOURCE / (relative + ".py") if relative else SOURCE / "__init__.py"
    if not path.exists():
        path = SOURCE / relative / "__init__.py"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for obj_name, doc, lineno in _docstrings(path):
        test = parser.get_doctest(doc, dict(vars(module)), f"{name}.{obj_name}", str(path),
                                  lineno)
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docstring example(s) failed in {name}"

"""The browser client's files as the server serves them: one version for the whole tree
(a digest of every file), so that the page names its files under ``/static/v<version>/``
and they are cached for a year (``immutable``); a new release is a new version, and a new
address for every file. ``/static/...`` without a version stays, revalidated on each use
(its ETag). No build step: the modules import each other by relative paths, so a module
loaded under the versioned prefix loads its imports under it too.

The shell (what the service worker keeps for offline use, ``WebAssets.shell``) is the
page's entry module and the lobby's, with every module they import statically, the
stylesheets and icons of the first page, and the English texts.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

YEAR = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?from\s+["'](\.{1,2}/[^"']+)["']""",
                    re.MULTILINE)
"""A static ``import ... from "./x.js"`` (or ``export ... from``) of a module."""
SHELL_EXTRA = ("css/base.css", "css/lobby.css", "css/themes.css", "css/message.css",
               "img/icon.svg", "img/icon-192.png", "i18n/en.json")
"""What the first page and the offline page need besides the entry module's imports."""


def version_of(web_dir: Path) -> str:
    """A short digest of every file under ``web_dir`` (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
        digest.update(path.relative_to(web_dir).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def imports_of(web_dir: Path, entry: str) -> list[str]:
    """``entry`` (a path under ``web_dir``) and every module it imports statically, each
    once, in the order found."""
    found: list[str] = []
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in found or not (web_dir / name).is_file():
            continue
        found.append(name)
        source = (web_dir / name).read_text(encoding="utf-8")
        base = Path(name).parent
        for spec in IMPORT.findall(source):
            todo.append((base / spec).as_posix() if not spec.startswith("../")
                        else _normal(base / spec))
    return found


def _normal(path: Path) -> str:
    parts: list[str] = []
    for part in path.as_posix().split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


@dataclass
class WebAssets:
    """The client's files, their version and the shell."""

    web_dir: Path
    version: str = ""
    shell: list[str] = field(default_factory=list)
    """The shell's files, relative to ``web_dir``."""

    def __post_init__(self) -> None:
        self.version = version_of(self.web_dir)
        modules = imports_of(self.web_dir, "js/main.js")
        modules += [m for m in imports_of(self.web_dir, "js/pages/lobby.js") if m not in modules]
        self.shell = [*modules, *(f for f in SHELL_EXTRA if (self.web_dir / f).is_file())]

    @property
    def prefix(self) -> str:
        """Where the page names its files: ``/static/v<version>``."""
        return f"/static/v{self.version}"

    def app(self) -> StaticFiles:
        return CachedStatic(self.version, directory=self.web_dir)


class CachedStatic(StaticFiles):
    """Static files with cache headers: under ``/static/v<this version>/`` immutable for a
    year; under another version (a page from before a release, or from a node of another
    release in a cluster) or none, revalidated by ETag. Every answer names the release
    whose file it is (``X-Basra-Version``), so the service worker keeps only its own."""

    def __init__(self, version: str, *, directory: Path) -> None:
        super().__init__(directory=directory)
        self.version = version

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"]
        rest = path.removeprefix(scope.get("root_path", ""))
        head, _, tail = rest.lstrip("/").partition("/")
        versioned = head.startswith("v") and bool(tail) and re.fullmatch(r"v[0-9a-f]{6,64}",
                                                                          head) is not None
        cache = YEAR if versioned and head == f"v{self.version}" else REVALIDATE
        if versioned:
            scope = {**scope, "path": scope["path"].replace(f"/{head}/", "/", 1)}

        async def with_cache(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"cache-control", cache.encode()),
                           (b"x-basra-version", self.version.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await super().__call__(scope, receive, with_cache)

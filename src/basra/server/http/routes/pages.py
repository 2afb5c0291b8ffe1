"""The browser client: its files under ``/static`` (:mod:`basra.server.http.static`), and the
page for each of its own paths (``/``, ``/join/CODE``, ``/table/ID``, ``/rules``,
``/history``, ``/tournaments``, ``/tournament/ID``, ...: ``PAGES``), which the client routes
itself (no build step: docs/CLIENT.md). The server fills in each page's title, description
and link-preview tags (an invite names who invites), the static prefix and the
``<noscript>`` text; a bad invite and an unknown path get a page of their own before any
script runs. Also the web app manifest, the service
worker and the offline page it shows."""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from basra.server.http.deps import LobbyDep, StoreDep, get_guards, get_settings
from basra.server.http.static import WebAssets
from basra.server.origin import site_origin
from basra.server.table.seats import full
from basra.server.wire.errors import RateLimited

WEB_DIR = Path(__file__).resolve().parents[3] / "web"
"""The browser client's static files."""

PAGES = ("/", "/table/{table_id}", "/rules", "/rules/{variant}", "/history",
         "/players/{name}", "/leaderboard", "/leaderboard/{variant}", "/account", "/sign-in",
         "/live", "/tv", "/replay", "/replay/{table_id}", "/tournaments",
         "/tournament/{tournament_id}", "/partner/{code}", "/friends", "/learn",
         "/learn/{lesson}", "/puzzles", "/puzzles/{mode}", "/puzzle/{puzzle_id}",
         "/mistakes/{table_id}", "/settings", "/mod")
TITLES = (("/rules", "page.title.rules"), ("/history", "page.title.history"),
          ("/table/", "page.title.table"), ("/account", "page.title.account"),
          ("/sign-in", "page.title.signin"), ("/players/", "page.title.profile"),
          ("/leaderboard", "page.title.leaderboard"), ("/live", "page.title.live"),
          ("/tv", "page.title.tv"), ("/replay", "page.title.replay"),
          ("/tournaments", "page.title.tournaments"), ("/tournament/", "page.title.tournament"),
          ("/partner/", "page.title.partner"), ("/friends", "page.title.friends"),
          ("/learn", "page.title.learn"), ("/puzzles", "page.title.puzzles"),
          ("/puzzle/", "page.title.puzzles"), ("/mistakes/", "page.title.mistakes"),
          ("/settings", "page.title.settings"), ("/mod", "page.title.mod"))
"""Each page's title key, by the start of its path (the lobby's: ``app.title``)."""
LANGUAGES = ("en", "ar", "fr", "sr")
RIGHT_TO_LEFT = frozenset({"ar"})
NO_STORE = {"Cache-Control": "no-cache"}
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


@lru_cache(maxsize=8)
def catalogue(web_dir: Path, lang: str) -> dict[str, str]:
    """A language's texts (the client's catalogue, read once)."""
    texts: dict[str, str] = json.loads((web_dir / "i18n" / f"{lang}.json").read_text("utf-8"))
    return texts


def language(request: Request) -> str:
    """The reader's language among ours, from ``Accept-Language`` (English otherwise)."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


class Pages:
    """The pages, made from ``index.html`` and ``message.html`` with a language's texts."""

    def __init__(self, web_dir: Path) -> None:
        self.web_dir = web_dir
        self.assets = WebAssets(web_dir)
        self.index = (web_dir / "index.html").read_text("utf-8")
        self.message = (web_dir / "message.html").read_text("utf-8")

    def text(self, lang: str, key: str, **values: object) -> str:
        texts = catalogue(self.web_dir, lang)
        raw = texts.get(key) or catalogue(self.web_dir, "en")[key]
        for name, value in values.items():
            raw = raw.replace("{" + name + "}", str(value))
        return raw

    @staticmethod
    def meta(title: str, description: str, url: str, image: str) -> str:
        """``<title>``, the description and the Open Graph and Twitter tags."""
        t, d, u, i = (html.escape(x, quote=True) for x in (title, description, url, image))
        return "\n".join([
            f"<title>{t}</title>",
            f'<meta name="description" content="{d}">',
            '<meta property="og:type" content="website">',
            '<meta property="og:site_name" content="Basra">',
            f'<meta property="og:title" content="{t}">',
            f'<meta property="og:description" content="{d}">',
            f'<meta property="og:url" content="{u}">',
            f'<meta property="og:image" content="{i}">',
            '<meta name="twitter:card" content="summary">',
            f'<meta name="twitter:title" content="{t}">',
            f'<meta name="twitter:description" content="{d}">',
            f'<meta name="twitter:image" content="{i}">'])

    @staticmethod
    def _fill(template: str, values: dict[str, str]) -> str:
        """Every ``{{name}}`` of the template replaced in one pass (a value is never read
        for placeholders of its own)."""
        return PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), template)

    def links(self, request: Request) -> tuple[str, str]:
        """The page's own address and its preview image, on the site's public origin
        (never the request's ``Host``)."""
        origin = site_origin(get_settings(request), request.scope)
        return (origin + quote(request.url.path),
                origin + self.assets.prefix + "/img/icon-512.png")

    def page(self, request: Request, title: str, description: str) -> HTMLResponse:
        """The client's page, with its title and tags."""
        lang = language(request)
        body = self._fill(self.index, {
            "meta": self.meta(title, description, *self.links(request)),
            "static": self.assets.prefix,
            "noscript_heading": html.escape(self.text(lang, "page.noscript.heading")),
            "noscript_text": html.escape(self.text(lang, "page.noscript.text")),
        })
        return HTMLResponse(body, headers=NO_STORE)

    def notice(self, request: Request, kind: str, status: int, *,
               links: list[tuple[str, str]] | None = None, **values: object) -> HTMLResponse:
        """A page of its own: ``kind`` names its texts (``page.KIND.heading`` ...)."""
        lang = language(request)
        heading = self.text(lang, f"page.{kind}.heading")
        title_key = f"page.{kind}.title"
        title = (self.text(lang, title_key) if title_key in catalogue(self.web_dir, "en")
                 else f"{heading} · Basra")
        text = self.text(lang, f"page.{kind}.text", **values)
        nav = links if links is not None else [("/", self.text(lang, "page.home_link"))]
        anchors = "".join(
            f'<a href="{html.escape(href, quote=True)}"{" class=ghost" if i else ""}>'
            f"{html.escape(label)}</a>" for i, (href, label) in enumerate(nav))
        body = self._fill(self.message, {
            "lang": lang, "dir": "rtl" if lang in RIGHT_TO_LEFT else "ltr",
            "meta": self.meta(title, text, *self.links(request)) + (
                '\n<meta name="robots" content="noindex">' if status >= 400 else ""),
            "static": self.assets.prefix, "heading": html.escape(heading),
            "text": html.escape(text), "links": anchors})
        return HTMLResponse(body, status_code=status, headers=NO_STORE)

    def manifest(self) -> dict[str, Any]:
        """The web app manifest: installable, opening the lobby full screen."""
        icons = [{"src": f"{self.assets.prefix}/img/icon-{n}.png", "sizes": f"{n}x{n}",
                  "type": "image/png", "purpose": "any maskable"} for n in (192, 512)]
        icons.append({"src": f"{self.assets.prefix}/img/icon.svg", "sizes": "any",
                      "type": "image/svg+xml"})
        return {"name": "Basra", "short_name": "Basra", "id": "/", "start_url": "/",
                "scope": "/", "display": "standalone", "orientation": "any",
                "background_color": "#0b2a22", "theme_color": "#0b2a22",
                "description": self.text("en", "page.description"), "icons": icons}

    def worker(self) -> str:
        """The service worker, with this version's shell to keep."""
        source = (self.web_dir / "sw.js").read_text("utf-8")
        shell = [f"{self.assets.prefix}/{name}" for name in self.assets.shell]
        return self._fill(source, {"version": self.assets.version,
                                   "shell": json.dumps(["/", "/offline", *shell])})


def wants_html(request: Request) -> bool:
    """A browser's page request (not the API, a socket or a file)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/", "/static/")) or request.method != "GET":
        return False
    return "text/html" in request.headers.get("accept", "")


def mount_web(app: FastAPI, web_dir: Path) -> None:
    """Serve the client from ``web_dir`` (nothing when it holds no ``index.html``)."""
    if not (web_dir / "index.html").exists():
        return
    pages = Pages(web_dir)
    app.state.pages = pages
    app.mount("/static", pages.assets.app(), name="static")
    router = APIRouter(include_in_schema=False)

    async def index(request: Request) -> HTMLResponse:
        lang = language(request)
        path = request.url.path
        key = next((key for prefix, key in TITLES if path.startswith(prefix)), "app.title")
        name = request.path_params.get("name", "")
        return pages.page(request, pages.text(lang, key, name=name),
                          pages.text(lang, "page.description"))

    for path in PAGES:
        router.add_api_route(path, index, methods=["GET", "HEAD"])

    @router.api_route("/join/{code}", methods=["GET", "HEAD"])
    async def invite(code: str, request: Request, store: StoreDep,
                     lobby: LobbyDep) -> HTMLResponse:
        """An invite: its preview names who invites; a code that opens no table, or a
        table already started (or with every seat taken), gets its own page before any
        question is asked."""
        lang = language(request)
        try:
            get_guards(request).invites.check(request.scope)
        except RateLimited as refused:
            return pages.notice(request, "too_many", 429, retry_after=refused.retry_after)
        table = await store.table_by_code(code.strip().upper()[:32])
        if table is None:
            return pages.notice(request, "invite_invalid", 404, code=code[:32])
        live = lobby.table(table.id)
        if table.status != "waiting" or (live is not None and full(live.seats)):
            return pages.notice(request, "invite_closed", 410, links=[
                (f"/table/{table.id}", pages.text(lang, "page.watch_link")),
                ("/", pages.text(lang, "page.home_link"))])
        owner = await store.player(table.owner_id) if table.owner_id else None
        name = owner.nickname if owner is not None else "Basra"
        return pages.page(request, pages.text(lang, "page.invite.title", name=name),
                          pages.text(lang, "page.invite.description", players=table.seats))

    @router.get("/offline")
    async def offline(request: Request) -> HTMLResponse:
        return pages.notice(request, "offline", 200, links=[
            ("/", pages.text(language(request), "page.retry"))])

    @router.get("/manifest.webmanifest")
    async def manifest() -> Response:
        return Response(json.dumps(pages.manifest()), media_type="application/manifest+json",
                        headers={"Cache-Control": "public, max-age=3600"})

    @router.get("/sw.js")
    async def worker() -> Response:
        return Response(pages.worker(), media_type="text/javascript",
                        headers={**NO_STORE, "Service-Worker-Allowed": "/"})

    app.include_router(router)

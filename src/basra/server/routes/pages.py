"""The browser client: its files under ``/static``, and ``index.html`` for the page's own
paths (``/``, ``/join/CODE``, ``/table/ID``, ``/rules``, ``/history``), which the client
routes itself (no build step: docs/CLIENT.md)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
"""The browser client's static files."""

PAGES = ("/", "/join/{code}", "/table/{table_id}", "/rules", "/rules/{variant}", "/history")


def mount_web(app: FastAPI, web_dir: Path) -> None:
    """Serve the client from ``web_dir`` (nothing when it holds no ``index.html``)."""
    if not (web_dir / "index.html").exists():
        return
    app.mount("/static", StaticFiles(directory=web_dir), name="static")

    async def index() -> FileResponse:
        return FileResponse(web_dir / "index.html", headers={"Cache-Control": "no-cache"})

    router = APIRouter(include_in_schema=False)
    for path in PAGES:
        router.add_api_route(path, index, methods=["GET"])
    app.include_router(router)

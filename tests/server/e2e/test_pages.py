"""The pages the server makes for the browser: titles, descriptions and link previews (an
invite names who invites), the ``<noscript>`` text, a page for a bad invite and for an
unknown path before any script runs, versioned static files cached for a year (the rest
revalidated by ETag), compressed answers, the web app manifest and the service worker
with its shell."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import httpx

from basra.server.http.static import imports_of, version_of
from server_harness import new_guest, private_table, serve

WEB = Path(__file__).resolve().parents[3] / "src" / "basra" / "web"
HTML = {"Accept": "text/html,application/xhtml+xml"}


def meta(page: str, name: str) -> str | None:
    found = re.search(rf'<meta (?:name|property)="{re.escape(name)}" content="([^"]*)"', page)
    return None if found is None else found.group(1)


def test_every_page_has_a_title_a_description_and_preview_tags(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for path, title in (("/", "Basra · the fishing card game"),
                            ("/rules", "The rules of Basra"),
                            ("/rules/serbian", "The rules of Basra"),
                            ("/history", "Your matches · Basra"),
                            ("/table/abc", "A table of Basra")):
            r = await http.get(base + path, headers=HTML)
            assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
            page = r.text
            assert f"<title>{title}</title>" in page, path
            assert meta(page, "og:title") == title and meta(page, "twitter:title") == title
            assert "fishing card game" in (meta(page, "description") or "")
            assert meta(page, "og:url") == base + path
            assert (meta(page, "og:image") or "").endswith("/img/icon-512.png")
            # Without JavaScript: the rules in short, never a blank page.
            noscript = page.split('<noscript>\n  <div class="page noscript">')[1].split(
                "</noscript>")[0]
            assert "needs JavaScript" in noscript and "121" in noscript
            assert "{{" not in page
        arabic = (await http.get(base + "/", headers={**HTML, "Accept-Language": "ar"})).text
        assert "تحتاج البصرة إلى JavaScript" in arabic
        assert (await http.head(base + "/")).status_code == 200

    serve(tmp_path, scenario)


def test_an_invite_previews_who_invites_and_a_bad_one_says_so_first(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        _, code = await private_table(base, http, amira, variant="lebanese", players=3)
        page = (await http.get(f"{base}/join/{code}", headers=HTML)).text
        assert "<title>Amira invites you to a game of Basra</title>" in page
        assert meta(page, "og:title") == "Amira invites you to a game of Basra"
        assert meta(page, "og:description", ).startswith("A game of Basra for 3 players")  # type: ignore[union-attr]
        # A made-up code: a page of its own, before any script or question.
        bad = await http.get(f"{base}/join/NOSUCH42", headers=HTML)
        assert bad.status_code == 404 and "text/html" in bad.headers["content-type"]
        assert "This invite is not valid" in bad.text and "NOSUCH42" in bad.text
        assert "<script" not in bad.text and 'href="/"' in bad.text
        tricky = await http.get(f"{base}/join/%3Cb%3Ex%3C%2Fb%3E", headers=HTML)
        assert tricky.status_code == 404 and "<b>x</b>" not in tricky.text
        # A code that looks like a placeholder stays text (one pass over the template).
        placeholder = await http.get(f"{base}/join/%7B%7Blinks%7D%7D", headers=HTML)
        assert "The code {{links}} does not open any table" in placeholder.text
        arabic = await http.get(f"{base}/join/NOSUCH42", headers={**HTML,
                                                                  "Accept-Language": "ar"})
        assert 'dir="rtl"' in arabic.text and "هذه الدعوة غير صالحة" in arabic.text
        # A table that started: said so, with a way to watch it.
        omar = await new_guest(base, http, "Omar")
        lina = await new_guest(base, http, "Lina")
        _, full = await private_table(base, http, omar)
        await http.post(f"{base}/api/tables/join", headers=lina.headers,
                        json={"invite_code": full})
        closed = await http.get(f"{base}/join/{full}", headers=HTML)
        assert closed.status_code == 410 and "already started" in closed.text
        assert 'href="/table/' in closed.text

    serve(tmp_path, scenario)


def test_an_unknown_page_is_a_page_and_an_unknown_api_path_is_json(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        page = await http.get(f"{base}/no/such/page", headers=HTML)
        assert page.status_code == 404 and "This page does not exist" in page.text
        assert "<title>Page not found · Basra</title>" in page.text
        for path in ("/no/such/page", "/api/nope"):
            r = await http.get(base + path, headers={"Accept": "application/json"})
            assert r.status_code == 404 and r.json()["error"]["code"] == "http/404"
        r = await http.get(f"{base}/api/nope", headers=HTML)
        assert r.json()["error"]["code"] == "http/404"

    serve(tmp_path, scenario)


def test_static_files_are_versioned_cached_and_compressed(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        page = (await http.get(base + "/", headers=HTML)).text
        prefix = f"/static/v{version_of(WEB)}"
        assert f'src="{prefix}/js/main.js"' in page
        raw = httpx.AsyncClient(headers={"Accept-Encoding": "gzip"})
        async with raw:
            r = await raw.get(f"{base}{prefix}/js/main.js")
            assert r.status_code == 200
            assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert r.headers["content-encoding"] == "gzip"
            assert r.headers["x-basra-version"] == version_of(WEB)
            assert r.text == (WEB / "js" / "main.js").read_text()
            # The same file without the version, or under another release's: revalidated.
            for other in ("/static", "/static/v0123456789ab"):
                plain = await raw.get(f"{base}{other}/js/main.js")
                assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
                etag = plain.headers["etag"]
                again = await raw.get(f"{base}{other}/js/main.js",
                                      headers={"If-None-Match": etag})
                assert again.status_code == 304
            api = await raw.get(f"{base}/api/variants")
            assert api.headers["content-encoding"] == "gzip"
            assert json.loads(api.text)["format"] == "basra-variants/1"
            page_gz = await raw.get(f"{base}/", headers=HTML)
            assert page_gz.headers["content-encoding"] == "gzip"
        # What httpx decoded was gzip indeed: the compressed page is much smaller.
        assert len(gzip.compress(page.encode())) < len(page.encode()) / 2
        missing = await http.get(f"{base}{prefix}/js/nope.js")
        assert missing.status_code == 404

    serve(tmp_path, scenario)


def test_the_manifest_and_the_service_worker_and_its_shell(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        r = await http.get(f"{base}/manifest.webmanifest")
        assert r.headers["content-type"].startswith("application/manifest+json")
        manifest = r.json()
        assert manifest["name"] == "Basra" and manifest["start_url"] == "/"
        assert manifest["display"] == "standalone"
        sizes = {i["sizes"] for i in manifest["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in manifest["icons"]:
            got = await http.get(base + icon["src"])
            assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
        worker = await http.get(f"{base}/sw.js")
        assert worker.headers["content-type"].startswith("text/javascript")
        assert worker.headers["cache-control"] == "no-cache"
        version = version_of(WEB)
        assert f'const VERSION = "{version}";' in worker.text
        shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", worker.text).group(1))  # type: ignore[union-attr]
        assert shell[:2] == ["/", "/offline"]
        assert f"/static/v{version}/js/main.js" in shell
        assert f"/static/v{version}/js/pages/lobby.js" in shell
        assert not any(s.endswith("/js/pages/table.js") for s in shell)  # loaded when a table opens
        for path in shell:
            assert (await http.get(base + path, headers=HTML)).status_code == 200, path
        offline = await http.get(f"{base}/offline", headers=HTML)
        assert "You are offline" in offline.text

    serve(tmp_path, scenario)


def test_the_shell_follows_static_imports_only(tmp_path: Path) -> None:
    (tmp_path / "js" / "sub").mkdir(parents=True)
    (tmp_path / "js" / "main.js").write_text(
        'import { a } from "./a.js";\nexport { b } from "./sub/b.js";\n'
        'const later = () => import("./late.js");\n')
    (tmp_path / "js" / "a.js").write_text('import { c } from "./sub/c.js";\n')
    (tmp_path / "js" / "sub" / "b.js").write_text('import { a } from "../a.js";\n')
    (tmp_path / "js" / "sub" / "c.js").write_text("export const c = 1;\n")
    (tmp_path / "js" / "late.js").write_text("export const late = 1;\n")
    found = imports_of(tmp_path, "js/main.js")
    assert sorted(found) == ["js/a.js", "js/main.js", "js/sub/b.js", "js/sub/c.js"]
    before = version_of(tmp_path)
    (tmp_path / "js" / "late.js").write_text("export const late = 2;\n")
    assert version_of(tmp_path) != before

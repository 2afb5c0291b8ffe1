"""Security headers and the public origin (issue 25, item 9), against a real server: every
answer (a page, the API, a refusal, a fault, a static file, an unknown path, the service
worker) carries a strict Content-Security-Policy, ``nosniff``, ``DENY`` framing, a
``same-origin`` referrer policy and opener policy; a request's ``Host`` changes no link
of a page and no passkey's relying party; ``basra serve`` refuses an address other than
loopback without ``--public-origin`` and, on loopback, names ``http://localhost:PORT``."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from basra.server.app import create_app
from basra.server.config import Settings
from basra.server.http.headers import content_security_policy
from basra.server.http.static import version_of
from basra.server.main import build_parser, main, settings_from
from basra.server.origin import bind_origin, is_loopback, parse_origin, site_origin
from server.e2e.test_accounts import an_account, code_of, passkey_sign_in, register
from server.identity.test_accounts import SoftAuthenticator
from server_harness import (
    ServeProcess,
    database,
    free_port,
    new_guest,
    run,
    running_server,
    serve,
)

WEB = Path(__file__).resolve().parents[3] / "src" / "basra" / "web"
HTML = {"Accept": "text/html,application/xhtml+xml"}
SITE = "https://play.example.org"
SPOOFED = {**HTML, "Host": "evil.example"}


def meta(page: str, name: str) -> str | None:
    found = re.search(rf'<meta (?:name|property)="{re.escape(name)}" content="([^"]*)"', page)
    return None if found is None else found.group(1)


def directives(policy: str) -> dict[str, list[str]]:
    parts = (d.split() for d in policy.split(";") if d.strip())
    return {name: values for name, *values in parts}


def assert_secured(r: httpx.Response, socket: str) -> None:
    """Every security header of the site, once each, on ``r``."""
    what = f"{r.request.method} {r.request.url.path} ({r.status_code})"
    for name in ("content-security-policy", "x-content-type-options", "x-frame-options",
                 "referrer-policy", "cross-origin-opener-policy"):
        assert len(r.headers.get_list(name)) == 1, (what, name)
    assert r.headers["x-content-type-options"] == "nosniff", what
    assert r.headers["x-frame-options"] == "DENY", what
    assert r.headers["referrer-policy"] == "same-origin", what
    assert r.headers["cross-origin-opener-policy"] == "same-origin", what
    policy = directives(r.headers["content-security-policy"])
    assert policy["default-src"] == ["'self'"], what
    assert policy["script-src"] == ["'self'"], what
    assert policy["style-src"] == ["'self'"], what
    assert policy["img-src"] == ["'self'", "data:"], what
    assert policy["connect-src"] == ["'self'", socket], what
    assert policy["object-src"] == ["'none'"], what
    assert policy["base-uri"] == ["'none'"], what
    assert policy["frame-ancestors"] == ["'none'"], what
    assert policy["form-action"] == ["'self'"], what
    assert not any("unsafe" in v for values in policy.values() for v in values), what


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as store:
        settings = store.settings()
    app = create_app(settings)

    @app.get("/api/fault")
    async def fault() -> None:  # a fault: answered by the server error's handler
        raise RuntimeError("a fault of the test's own")

    version = version_of(WEB)
    with running_server(settings, app) as base:
        socket = base.replace("http://", "ws://")

        async def scenario() -> None:
            async with httpx.AsyncClient() as http:
                amira = await new_guest(base, http, "Amira")
                answers = {
                    "page": await http.get(f"{base}/", headers=HTML),
                    "a page HEAD": await http.head(f"{base}/rules"),
                    "api": await http.get(f"{base}/api/variants"),
                    "signed in api": await http.get(f"{base}/api/me", headers=amira.headers),
                    "refusal": await http.get(f"{base}/api/tables/nope"),
                    "invalid": await http.post(f"{base}/api/guests", json={"nickname": 5}),
                    "static": await http.get(f"{base}/static/v{version}/js/main.js"),
                    "static unversioned": await http.get(f"{base}/static/css/base.css"),
                    "static missing": await http.get(f"{base}/static/js/nope.js"),
                    "unknown api": await http.get(f"{base}/api/nope"),
                    "unknown page": await http.get(f"{base}/nope", headers=HTML),
                    "bad invite": await http.get(f"{base}/join/NOSUCH42", headers=HTML),
                    "wrong method": await http.delete(f"{base}/api/variants"),
                    "worker": await http.get(f"{base}/sw.js"),
                    "manifest": await http.get(f"{base}/manifest.webmanifest"),
                    "health": await http.get(f"{base}/health"),
                }
                # Each closes its connection (a body left unread, a fault): on its own.
                async with httpx.AsyncClient() as alone:
                    answers["too large"] = await alone.post(
                        f"{base}/api/guests", content=b"{" + b" " * 70_000 + b"}",
                        headers={"Content-Type": "application/json"})
                async with httpx.AsyncClient() as alone:
                    answers["fault"] = await alone.get(f"{base}/api/fault")
                etag = answers["static unversioned"].headers["etag"]
                answers["not modified"] = await http.get(f"{base}/static/css/base.css",
                                                         headers={"If-None-Match": etag})
                answers["gzipped"] = await http.get(f"{base}/static/css/base.css",
                                                    headers={"Accept-Encoding": "gzip"})
            statuses = {what: r.status_code for what, r in answers.items()}
            assert statuses == {
                "page": 200, "a page HEAD": 200, "api": 200, "signed in api": 200,
                "refusal": 404, "invalid": 422, "too large": 413, "fault": 500,
                "static": 200, "static unversioned": 200, "static missing": 404,
                "unknown api": 404, "unknown page": 404, "bad invite": 404,
                "wrong method": 405, "worker": 200, "manifest": 200, "health": 200,
                "not modified": 304, "gzipped": 200}
            assert answers["fault"].json()["error"]["code"] == "server/internal"
            assert answers["gzipped"].headers["content-encoding"] == "gzip"
            for r in answers.values():
                assert_secured(r, socket)

        run(scenario())


def test_the_pages_have_no_inline_script_or_style() -> None:
    """What ``script-src 'self'`` and ``style-src 'self'`` would refuse: none of it in the
    pages the server fills in."""
    for name in ("index.html", "message.html"):
        page = (WEB / name).read_text("utf-8")
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == [], name
        assert "<style" not in page and " style=" not in page, name
        assert not re.search(r"\son[a-z]+=", page), name  # no inline handlers
    for path in (WEB / "js").rglob("*.js"):
        source = path.read_text("utf-8")
        assert not re.search(r"setAttribute\(\s*[\"']style[\"']", source), path
        assert not re.search(r"\bnew Function\b|\beval\(", source), path


def test_a_spoofed_host_changes_no_link_and_no_relying_party(tmp_path: Path) -> None:
    """Without a configured origin: the links name the address the server listens on."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for path in ("/", "/rules", "/table/abc"):
            page = (await http.get(base + path, headers=SPOOFED)).text
            assert meta(page, "og:url") == base + path
            assert (meta(page, "og:image") or "").startswith(base + "/static/v")
            assert "evil.example" not in page
        bad = await http.get(f"{base}/join/NOSUCH42", headers=SPOOFED)
        assert bad.status_code == 404 and meta(bad.text, "og:url") == f"{base}/join/NOSUCH42"
        assert "evil.example" not in bad.text
        r = await http.post(f"{base}/api/passkeys/sign-in/options",
                            headers={"Host": "evil.example"})
        assert r.json()["options"]["rpId"] == "127.0.0.1"
        r = await http.get(f"{base}/api/variants", headers={"Host": "evil.example"})
        assert "evil.example" not in r.headers["content-security-policy"]

    serve(tmp_path, scenario)


def test_the_public_origin_names_the_links_and_the_passkeys(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for headers in (HTML, SPOOFED):
            page = (await http.get(f"{base}/rules/serbian", headers=headers)).text
            assert meta(page, "og:url") == f"{SITE}/rules/serbian"
            assert (meta(page, "og:image") or "").startswith(f"{SITE}/static/v")
        page = (await http.get(f"{base}/players/%D8%A3%D9%85%D9%8A%D8%B1%D8%A9",
                               headers=SPOOFED)).text
        assert meta(page, "og:url") == f"{SITE}/players/%D8%A3%D9%85%D9%8A%D8%B1%D8%A9"
        r = await http.get(f"{base}/", headers=SPOOFED)
        assert_secured(r, "wss://play.example.org")
        # The relying party is the site's, whatever Host the request names...
        amira = await an_account(base, http, "Amira")
        key = SoftAuthenticator(SITE)
        r = await http.post(f"{base}/api/passkeys/options",
                            headers={**amira.headers, "Host": "evil.example"})
        assert r.json()["options"]["rp"]["id"] == "play.example.org"
        assert (await register(base, http, amira, key)).status_code == 201
        r = await http.post(f"{base}/api/passkeys/sign-in/options",
                            headers={"Host": "evil.example"})
        assert r.json()["options"]["rpId"] == "play.example.org"
        assert (await passkey_sign_in(base, http, key)).status_code == 201
        # ...and a ceremony from the server's own address or the spoofed host fails.
        for origin in (base, "http://evil.example"):
            key.origin = origin
            r = await passkey_sign_in(base, http, key)
            assert (r.status_code, code_of(r)) == (400, "passkey/failed")

    serve(tmp_path, scenario, public_origin=SITE)


def test_passkey_settings_still_override_the_public_origin(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        r = await http.post(f"{base}/api/passkeys/sign-in/options")
        assert r.json()["options"]["rpId"] == "example.org"
        page = (await http.get(f"{base}/", headers=HTML)).text
        assert meta(page, "og:url") == f"{SITE}/"

    serve(tmp_path, scenario, public_origin=SITE, passkey_rp_id="example.org",
          passkey_origins=("https://example.org",))


# ---------------------------------------------------------------------------------------
# the origin, as written and as derived


@pytest.mark.parametrize(("text", "origin"), [
    ("https://play.example.org", "https://play.example.org"),
    ("HTTPS://Play.Example.ORG/", "https://play.example.org"),
    ("https://play.example.org:443", "https://play.example.org"),
    ("http://play.example.org:80/", "http://play.example.org"),
    ("https://play.example.org:8443", "https://play.example.org:8443"),
    ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
    ("http://[::1]:8000", "http://[::1]:8000"),
    ("https://xn--mgbh0fb.example", "https://xn--mgbh0fb.example"),
])
def test_an_origin_is_written_one_way(text: str, origin: str) -> None:
    assert parse_origin(text) == origin


@pytest.mark.parametrize("text", [
    "play.example.org", "ftp://play.example.org", "https://", "https://play.example.org/x",
    "https://play.example.org?x=1", "https://play.example.org/#x", "https://u:p@example.org",
    "https://play.example.org:99999", "https://bad_host.example", "https://exa mple.org",
    "https://مثال.example", "https://play.example.org;x",
])
def test_what_is_not_an_origin_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"origin|host name") as refused:
        parse_origin(text)
    assert "\n" not in str(refused.value)


def test_the_origin_of_a_bind() -> None:
    assert [is_loopback(h) for h in ("127.0.0.1", "127.0.0.2", "::1", "localhost",
                                     "0.0.0.0", "::", "192.168.1.20", "example.org")] == [
        True, True, True, True, False, False, False, False]
    assert bind_origin("127.0.0.1", 8000) == "http://localhost:8000"
    assert bind_origin("::1", 8000) == "http://localhost:8000"
    assert bind_origin("127.0.0.2", 8000) == "http://127.0.0.2:8000"
    plain = Settings()
    assert site_origin(plain, {"server": ("127.0.0.1", 9000)}) == "http://127.0.0.1:9000"
    assert site_origin(plain, {"server": ("::1", 9000)}) == "http://[::1]:9000"
    assert site_origin(plain, {}) == "http://localhost"
    assert site_origin(Settings(public_origin=SITE), {"server": ("::1", 9000)}) == SITE
    assert "connect-src 'self' ws://localhost:8000;" in content_security_policy(
        "http://localhost:8000")


# ---------------------------------------------------------------------------------------
# basra serve


@pytest.mark.parametrize(("args", "error"), [
    (["--host", "0.0.0.0"], "--host 0.0.0.0 is not loopback: add --public-origin "
                            "https://play.example.org (the address people open the site "
                            "at; its links and passkeys name it)"),
    (["--host", "192.168.1.20", "--port", "0"], "--host 192.168.1.20 is not loopback: add "
                                                "--public-origin https://play.example.org "
                                                "(the address people open the site at; "
                                                "its links and passkeys name it)"),
    (["--host", "0.0.0.0", "--public-origin", "play.example.org"],
     "argument --public-origin: 'play.example.org' is not an origin like "
     "https://play.example.org"),
    (["--public-origin", "https://play.example.org/basra"],
     "argument --public-origin: 'https://play.example.org/basra' is more than an origin: "
     "give the scheme, the host and the port only, like https://play.example.org"),
])
def test_serve_refuses_a_public_bind_without_its_origin(
        args: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"basra serve: error: {error}\n"


def test_serve_takes_the_public_origin_into_its_settings() -> None:
    args = build_parser().parse_args(["--host", "0.0.0.0",
                                      "--public-origin", "HTTPS://Play.Example.org/"])
    settings = settings_from(args)
    assert settings.public_origin == SITE
    assert (settings.passkey_rp_id, settings.passkey_origins) == (None, ())
    loopback = settings_from(build_parser().parse_args([]))
    assert loopback.public_origin is None  # named once the port is bound (main)


def test_serve_on_loopback_names_localhost_whatever_the_host_header(tmp_path: Path) -> None:
    """A real ``basra serve`` without ``--public-origin``: ``http://localhost:PORT``, the
    passkeys' relying party ``localhost`` (a browser takes no address as one)."""
    with database("sqlite", tmp_path) as store:
        port = free_port()
        process = ServeProcess(store.serve_args(), tmp_path / "serve.log", port=port)
        with process.running():
            origin = f"http://localhost:{port}"
            page = httpx.get(f"{process.base}/rules", headers=SPOOFED, timeout=10)
            assert meta(page.text, "og:url") == f"{origin}/rules"
            assert_secured(page, f"ws://localhost:{port}")
            r = httpx.post(f"{process.base}/api/passkeys/sign-in/options",
                           headers={"Host": "evil.example"}, timeout=10)
            assert r.json()["options"]["rpId"] == "localhost"

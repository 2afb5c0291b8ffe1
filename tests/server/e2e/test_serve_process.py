"""A real ``basra serve`` process: ``/health`` and ``/ready`` answer, a binary frame and a
request that is not HTTP at all are refused with no error logged, Ctrl-C shuts it down
cleanly, and every line it logs on standard error is one JSON object (uvicorn's too) with no
session token in it."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import httpx

from basra import __version__
from server_harness import ServeProcess, listens, new_guest, run


def test_basra_serve_health_readiness_and_json_logs(tmp_path: Path) -> None:
    serve = ServeProcess(["--data-dir", str(tmp_path / "data"), "--log-level", "info",
                          "--seed-window", "0", "--summary-window", "0", "--bot-delay", "0"],
                         tmp_path / "serve.log")

    async def scenario() -> str:
        base = serve.base
        async with httpx.AsyncClient() as http:
            health = await http.get(f"{base}/health")
            assert health.json() == {"status": "ok", "version": __version__, "memory": {
                "tables": 0, "tickets": 0, "sockets": 0, "evicted": 0, "kept": 0,
                "rebuilt": 0}}
            assert (await http.get(f"{base}/ready")).json() == {
                "ready": True, "database": True, "redis": None}
            amira = await new_guest(base, http, "Amira")
            r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                                json={"bot_level": "random"})
            await amira.connect(r.json()["table"]["id"])
            try:
                await amira.until(lambda s: s["view"]["turn"] is not None)
                await amira.send_raw(b"\xff\x00 not text")  # a binary frame
                answer = await amira.receive()
                while answer["type"] != "error":  # the bot may play meanwhile
                    answer = await amira.receive()
                assert answer["code"] == "protocol/bad_json"
                await amira.ping()
            finally:
                await amira.close()
        return amira.token

    with serve.running():
        token = run(scenario())
        with socket.create_connection(("127.0.0.1", serve.port)) as raw:  # not HTTP at all
            raw.sendall(b"\x16\x03\x01 garbage\r\n\r\n")
            raw.settimeout(5)
            raw.recv(100)
        assert httpx.get(f"{serve.base}/health").status_code == 200
        assert serve.stop() == 0  # Ctrl-C: a clean shutdown
    lines = serve.log_lines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    for entry in entries:
        assert {"time", "level", "logger", "message"} <= set(entry)
        assert entry["level"] != "error", entry
    messages = [e["message"] for e in entries]
    assert any(m.startswith("server ready") for m in messages)
    assert any("Invalid HTTP request" in m for m in messages)  # uvicorn's, as JSON too
    assert token not in "\n".join(lines)  # session tokens stay out of the log


def test_a_port_taken_before_the_server_binds_it_is_not_mistaken_for_it(tmp_path: Path) -> None:
    """The tests' servers: another process (another test's server, say) took the port chosen
    for this one before it could bind it; this one is started on another port, and only its
    own listening socket counts as its start."""
    with socket.socket() as thief:
        thief.bind(("127.0.0.1", 0))
        thief.listen()
        taken = thief.getsockname()[1]
        serve = ServeProcess(["--data-dir", str(tmp_path / "data"), "--log-level", "warning"],
                             tmp_path / "serve.log", port=taken)
        serve.own_port = True  # as if chosen by the harness, then taken
        assert listens(os.getpid(), taken)
        try:
            serve.start()
            assert serve.port != taken
            assert serve.proc is not None and listens(serve.proc.pid, serve.port)
            assert not listens(serve.proc.pid, taken)
            assert "Address already in use" in serve.log.read_text()
        finally:
            serve.kill()

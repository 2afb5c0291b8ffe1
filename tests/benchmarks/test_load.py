"""``benchmarks/load.py``'s spectators (``--spectators``, ``--slow-spectators``): what they
measure and count, and a tiny run of the whole benchmark against a real ``basra serve``
(its figures are the benchmark's business, not the test's: only that they are there and
hang together)."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import load_spectators
import pytest
from load_spectators import Plays, Spectators, SpectatorStats, close_frame_at

ROOT = Path(__file__).resolve().parents[2]
LOAD = ROOT / "benchmarks" / "load.py"


def test_the_examples_in_load_spectators() -> None:
    failed, tried = doctest.testmod(load_spectators)
    assert tried >= 4 and failed == 0


def frame(opcode: int, payload: bytes) -> bytes:
    """A server's (unmasked) websocket frame."""
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, n])
    elif n < 1 << 16:
        head = bytes([0x80 | opcode, 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 127]) + n.to_bytes(8, "big")
    return head + payload


def test_a_close_frame_is_found_behind_frames_of_every_length_and_not_before_it_is_whole(
        ) -> None:
    close = frame(8, (1013).to_bytes(2, "big") + b"not read for 5 s")
    # a payload byte that looks like a close frame's header must not fool it
    data = (frame(1, b"\x88\x02" * 30) + frame(1, b"x" * 300) + frame(1, b"y" * 70_000)
            + close)
    assert close_frame_at(data, 0)[0] == "1013 not read for 5 s"
    for cut in (1, 2, 5, len(close) - 1):  # not whole yet: not found, and the walk resumes
        how, at = close_frame_at(data[:-cut], 0)
        assert how is None and at == len(data) - len(close)
        assert close_frame_at(data, at)[0] == "1013 not read for 5 s"
    assert close_frame_at(frame(1, b"{}") * 3, 0) == (None, 12)


def test_a_spectators_place_measures_each_play_once_from_its_first_state_on() -> None:
    plays = Plays()
    plays.add(10, 1.0)
    place = plays.before(11)  # came after the play at version 10: not measured
    assert place == 1
    plays.add(12, 2.0)
    assert plays.shown(place, 12) == (1, [])  # the bot's play (12) shows nothing of its
    place, times = plays.shown(place, 13)
    assert (place, times) == (2, [2.0])
    plays.add(14, 3.0)
    plays.add(16, 4.0)
    assert plays.shown(place, 17) == (4, [3.0, 4.0])  # a lagging spectator sees both
    assert plays.shown(4, 30) == (4, [])


def spectators(reading: int, slow: int) -> Spectators:
    return Spectators("http://127.0.0.1:1", "T", reading, slow, SpectatorStats(),
                      lambda _at: True, lambda _m: None, deflate=False, timeout=1.0)


def test_the_servers_count_falling_times_the_let_go_once() -> None:
    watch = spectators(2, 1)
    watch.started = 100.0
    for counted, at in ((1, 100.5), (3, 101.0), (3, 102.0), (2, 127.0), (1, 128.0)):
        watch.told({"type": "played", "version": 1, "spectators": counted}, at)
    watch.told({"type": "state", "version": 2, "table": {"spectators": 3}}, 129.0)
    watch.told({"type": "pong"}, 130.0)
    assert watch.stats.slow_gone_s == [27.0]
    assert watch.stats.counted == {"1": 2, "3": 3, "2": 1}
    without_slow = spectators(2, 0)  # a reading spectator gone is not a slow one let go
    without_slow.told({"type": "played", "spectators": 2}, 1.0)
    without_slow.told({"type": "played", "spectators": 1}, 2.0)
    assert without_slow.stats.slow_gone_s == []


@pytest.mark.slow
def test_a_tiny_run_with_spectators_reports_them_and_keeps_its_old_fields() -> None:
    run = subprocess.run(
        [sys.executable, str(LOAD), "--matches", "3", "--seconds", "3", "--spectators", "2",
         "--slow-spectators", "1", "--watch-every", "2", "--json"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=True)
    report = json.loads(run.stdout)
    (r,) = report["steps"]
    for old in ("matches", "guest_plays", "p50_ms", "p99_ms", "max_ms", "bot_p50_s",
                "errors", "timeouts", "messages_by_type", "server_cpu_ms_per_play",
                "generator_cores", "held_in_memory", "under_target"):
        assert old in r, old
    assert report["max_matches_p99_under_100ms"] in (0, 3)
    assert r["errors"] == {} and r["timeouts"] == 0
    assert r["spectators_per_match"] == 2 and r["slow_spectators_per_match"] == 1
    # guests 0 and 2 have spectators, guest 1 not: their plays are told apart
    assert r["watch_every"] == 2
    guest_plays = r["watched_guest_plays"]
    assert guest_plays > 10 and r["unwatched_guest_plays"] > 5, r
    assert guest_plays + r["unwatched_guest_plays"] == r["guest_plays"]
    assert 0 < r["unwatched_p50_ms"] <= r["unwatched_p99_ms"] <= r["unwatched_max_ms"]
    assert r["watched_p99_ms"] <= r["watched_max_ms"] <= r["max_ms"]
    # every watched match opened (those begun in the ramp too) had its spectators
    assert r["spectators_opened"] >= 2 * 2 and r["spectator_connect_errors"] == 0
    assert r["slow_spectators_opened"] * 2 == r["spectators_opened"]
    assert r["slow_spectator_errors"] == 0
    # each reading spectator saw each of the guests' plays, but for those at a match's end
    # (the guest stops its spectators once it has seen the last one itself)
    ends = r["matches_finished"] + 2
    assert 2 * guest_plays - 2 * ends <= r["spectator_plays_seen"] <= 2 * guest_plays, r
    assert r["spectator_messages_by_type"].get("played", 0) >= r["spectator_plays_seen"] / 2
    assert r["spectator_messages"] == sum(r["spectator_messages_by_type"].values())
    assert 0 < r["spectator_p50_ms"] <= r["spectator_p99_ms"] <= r["spectator_max_ms"]
    assert r["spectators_closed_by_server"] == 0, r["spectator_closes_by_code"]
    # a fast match is over in seconds: its slow spectator is read out, open or closed
    assert (r["slow_spectators_closed_by_server"] + r["slow_spectators_open_at_end"]
            == r["slow_spectators_opened"])
    assert r["slow_spectator_mean_kib"] > 1  # it was sent the match, unread
    told = r["spectator_counts_told"]
    if told:  # the server counts them (contract section 2): 3 a match, once all are in
        assert "3" in told and all(int(k) <= 3 for k in told), told
    assert "2 spectators a match" not in run.stdout  # --json: one JSON value only

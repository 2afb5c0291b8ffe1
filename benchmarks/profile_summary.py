"""A short text summary of a py-spy profile in its raw (collapsed stacks) format: where the
sampled CPU time went, by part of the server, and the top functions by self and by
inclusive time. ``benchmarks/load.py --profile`` writes one; it also runs on its own:

    .venv/bin/py-spy record --pid PID --duration 30 --rate 100 --nonblocking \\
        --full-filenames --format raw -o /tmp/server.collapsed
    .venv/bin/python benchmarks/profile_summary.py /tmp/server.collapsed --seconds 30

Each line of the raw format is one stack (frames outermost first, ``;``-separated, each
``function (path:line)``) and how many samples saw it. py-spy samples only threads that
are running (not waiting in ``epoll`` or on a lock), so the samples are CPU time; but with
``--nonblocking`` a thread blocked in C (aiosqlite's worker waiting on its queue) can count
as running: with ``--full-filenames`` such samples are found by their line and left out.
C code (uvloop, the kernel's side of syscalls, the interpreter itself) shows as the self
time of the Python frame that called it: ``Runner.run`` for uvloop's own loop. ``perf`` (see
load.py ``--perf``) splits that part.
"""

from __future__ import annotations

import argparse
import linecache
import re
from collections import Counter
from collections.abc import Iterable

FRAME = re.compile(r"^(?P<func>.*) \((?P<path>[^()]*?)(?::(?P<line>\d+))?\)$")

ENTRY = ("<frozen runpy>", "basra/__main__.py", "basra/cli.py", "basra/server/main.py",
         "uvicorn/server.py", "uvicorn/_compat.py", "asyncio/runners.py", "threading.py",
         "bin/basra", "multiprocessing/spawn.py", "multiprocessing/process.py")
"""Frames every stack of a thread starts with: they say nothing of where the time goes. A
main-thread stack of nothing else is uvloop's own C code (polling, socket reads and writes,
timers, running callbacks)."""

STORE = "store (basra/store, SQLAlchemy, the driver and its thread)"
ENGINE = "engine (rules, legal plays, the driver)"
IO = "websockets and HTTP (uvicorn, websockets, httptools)"
LOOP = "event loop (uvloop in C, asyncio)"

BASRA_PARTS: tuple[tuple[str, str], ...] = (
    # (a path inside basra/, the part it belongs to); the first that matches wins
    ("basra/server/wire/server_messages.py", "encoding messages (to JSON text)"),
    ("basra/server/wire/client_messages.py", "parsing client messages"),
    ("basra/server/table/snapshot.py", "building views and table JSON"),
    ("basra/game/views.py", "building views and table JSON"),
    ("basra/server/table/outbox.py", "websocket send (outbox writer and below)"),
    ("basra/server/http/routes/play_socket.py", "websocket receive (reader and below)"),
    ("basra/server/http/routes/", "HTTP routes (guests, tables)"),
    ("basra/store/", STORE),
    ("basra/bots/", "bots"),
    ("basra/workers/", "bots"),
    ("basra/server/table/thinking.py", "bots"),
    ("basra/game/engine.py", ENGINE),
    ("basra/game/captures.py", ENGINE),
    ("basra/match/driver.py", ENGINE),
    ("basra/game/rules.py", ENGINE),
    ("basra/game/cards.py", ENGINE),
    ("basra/game/shuffle.py", ENGINE),
    ("basra/match/records.py", ENGINE),
    ("basra/server/", "table actor, lobby, cluster (basra/server, the rest)"),
    ("basra/", "basra, other"),
)
"""The part of the server a basra frame belongs to."""

LIBRARY_PARTS: tuple[tuple[str, str], ...] = (
    # for a stack with no basra frame: the innermost library frame that matches decides
    ("sqlalchemy/", STORE),
    ("aiosqlite/", STORE),
    ("asyncpg/", STORE),
    ("sqlite3/", STORE),
    ("redis/", "Redis client"),
    ("websockets/", IO),
    ("uvicorn/", IO),
    ("h11/", IO),
    ("httptools/", IO),
    ("starlette/", "FastAPI and Starlette"),
    ("fastapi/", "FastAPI and Starlette"),
    ("pydantic", "FastAPI and Starlette"),
    ("anyio/", "FastAPI and Starlette"),
    ("prometheus_client/", "metrics"),
    ("asyncio/", LOOP),
    ("uvloop/", LOOP),
    ("concurrent/", "bot workers' plumbing (concurrent.futures, multiprocessing)"),
    ("multiprocessing/", "bot workers' plumbing (concurrent.futures, multiprocessing)"),
    ("logging/", "logging"),
    ("json/", "JSON (outside basra)"),
)


def entry(path: str) -> bool:
    return any(e in path for e in ENTRY)


def parse(lines: Iterable[str]) -> list[tuple[list[str], int]]:
    """The stacks of a raw py-spy profile, each with its sample count."""
    stacks = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        text, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = [f for f in text.split(";") if f and not f.startswith("process ")]
        stacks.append((frames, int(count)))
    return stacks


WAITING = re.compile(r"\.(get|wait|acquire|join|recv|accept|select|poll)\(|\bsleep\(")
"""A source line where a thread blocks: with ``--nonblocking`` py-spy may count a thread
blocked in C there (``queue.get()`` in aiosqlite's worker thread) as running."""


def short(path: str) -> str:
    """A full file name as py-spy shortens it: from the package on."""
    for marker in ("site-packages/", "/src/", "/lib/python3.11/", "/lib/python3.12/",
                   "/lib/python3.13/"):
        if marker in path:
            return path.rsplit(marker, 1)[1]
    return path


def frame_path(frame: str) -> tuple[str, str]:
    """A frame's function and (shortened) path, without the line number."""
    m = FRAME.match(frame)
    if m is None:
        return frame, ""
    return m.group("func"), short(m.group("path"))


def waiting(frames: list[str]) -> bool:
    """Whether the innermost frame is a thread blocked on a line that waits (only known
    with py-spy's ``--full-filenames``, which lets the line be read)."""
    if not frames:
        return False
    m = FRAME.match(frames[-1])
    if m is None or not m.group("line") or not m.group("path").startswith("/"):
        return False
    if "basra/" in m.group("path"):
        return False
    return bool(WAITING.search(linecache.getline(m.group("path"), int(m.group("line")))))


def frame_name(frame: str) -> str:
    func, path = frame_path(frame)
    return f"{func} ({path})" if path else func


def _part(path: str, table: tuple[tuple[str, str], ...]) -> str | None:
    for prefix, part in table:
        if prefix in path:
            return part
    return None


def part_of(frames: list[str]) -> str:
    """The part of the server one stack's time goes to: the innermost basra frame's part,
    or, for a stack with no basra frame (a driver's thread, uvicorn's protocol, the loop),
    the innermost library frame's."""
    if not frames:
        return "no Python frame (a native thread)"
    paths = [p for p in (frame_path(f)[1] for f in frames) if not entry(p)]
    if not paths:
        return LOOP
    for path in reversed(paths):
        if "basra/" in path:
            part = _part(path, BASRA_PARTS)
            if part is not None:
                return part
    for path in reversed(paths):
        part = _part(path, LIBRARY_PARTS)
        if part is not None:
            return part
    return f"other Python ({paths[-1]})"


def summarize(stacks: list[tuple[list[str], int]], seconds: float | None = None,
              rate: float | None = None, top: int = 25) -> str:
    idle = sum(count for frames, count in stacks if waiting(frames))
    stacks = [(frames, count) for frames, count in stacks if not waiting(frames)]
    total = sum(count for _, count in stacks)
    if total == 0:
        return "no samples\n"
    parts: Counter[str] = Counter()
    self_time: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    for frames, count in stacks:
        parts[part_of(frames)] += count
        if frames:
            self_time[frame_name(frames[-1])] += count
        for name in {frame_name(f) for f in frames if not entry(frame_path(f)[1])}:
            inclusive[name] += count
    out = [f"{total} samples (CPU time of running threads only)"]
    if seconds and rate:
        out[0] += f", {total / (seconds * rate):.2f} cores over {seconds:g} s at {rate:g} Hz"
    if idle:
        out.append(f"(and {idle} samples of threads blocked on a waiting line, e.g. "
                   "aiosqlite's worker in queue.get(), left out: not CPU)")
    out.append("")
    out.append("where the time goes (each sample counted once: its innermost basra frame's "
               "part, else its innermost library's)")
    for part, count in parts.most_common():
        out.append(f"  {100 * count / total:5.1f}%  {part}")
    out.append("")
    out.append(f"top {top} functions by self time")
    for name, count in self_time.most_common(top):
        out.append(f"  {100 * count / total:5.1f}%  {name}")
    out.append("")
    out.append(f"top {top} functions by inclusive time (the function and what it calls; "
               "the entry frames left out)")
    for name, count in inclusive.most_common(top):
        out.append(f"  {100 * count / total:5.1f}%  {name}")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", help="a py-spy raw (collapsed) profile")
    parser.add_argument("--seconds", type=float, default=None,
                        help="how long it was recorded (to say how many cores)")
    parser.add_argument("--rate", type=float, default=100.0, help="samples a second")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    with open(args.profile, encoding="utf-8") as f:
        stacks = parse(f)
    print(summarize(stacks, args.seconds, args.rate, args.top), end="")


if __name__ == "__main__":
    main()

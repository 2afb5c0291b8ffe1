#!/usr/bin/env python3
"""A complete Basra engine in the standard library only: it plays a random legal play.

It speaks basra-engine/1 (docs/ENGINE_PROTOCOL.md) on standard input and output, and is
the smallest example of an external bot:

    basra arena --a medium --b cmd:"python3 examples/random_bot.py" --rounds 20

Copy it and replace ``choose`` with something cleverer: the view holds the seat's hand,
the floor, the public plays of the round, the scores and ``legal``, the plays allowed.
"""

import json
import random
import sys

PROTOCOL = "basra-engine/1"
rng = random.Random()


def choose(view):
    """Pick one of the legal plays (each is {"card": "5H", "take": ["4C", "AD"]})."""
    return rng.choice(view["legal"])


def reply(message, request):
    """Write one answer line, copying the request's id."""
    if isinstance(request, dict) and "id" in request:
        message = {"type": message["type"], "id": request["id"], **message}
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def error(code, text, request=None):
    reply({"type": "error", "code": code, "message": text}, request)


def main():
    greeted = False
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            error("protocol/bad_json", "not JSON")
            continue
        if not isinstance(request, dict):
            error("protocol/not_object", "each line must be one JSON object")
            continue
        kind = request.get("type")
        if kind == "quit":
            return
        if kind == "hello":
            if request.get("protocol") != PROTOCOL:
                error("protocol/unsupported_version", f"this engine speaks {PROTOCOL}", request)
                continue
            greeted = True
            reply({"type": "hello", "protocol": PROTOCOL, "name": "random_bot.py",
                   "version": "1", "options": [
                       {"name": "seed", "type": "seed", "default": None,
                        "help": "seed of the random choices"}]}, request)
        elif kind not in ("option", "ping", "play"):
            error("protocol/unknown_type", f"unknown message type {kind!r}", request)
        elif not greeted:
            error("protocol/no_hello", "send hello first", request)
        elif kind == "ping":
            reply({"type": "pong"}, request)
        elif kind == "option":
            if request.get("name") != "seed":
                error("option/unknown", "the only option is seed", request)
                continue
            rng.seed(request.get("value"))
            reply({"type": "ok", "name": "seed", "value": request.get("value")}, request)
        else:
            view = request.get("view")
            if not isinstance(view, dict) or not view.get("legal"):
                error("view/not_your_turn", "the view has no legal play", request)
                continue
            play = choose(view)
            reply({"type": "play", "card": play["card"], "take": play["take"]}, request)


if __name__ == "__main__":
    main()

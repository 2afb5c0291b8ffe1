"""basra-ws/2 on the wire: server messages are compact UTF-8 JSON written by orjson, client
messages are read by orjson with every refusal keeping its code, ``sync`` is a client
message, and nothing a player can send (a nickname, a part, a card, a type, any bytes) can
make a message fail to encode."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from basra.game.shuffle import part_problem
from basra.server.identity.guests import NicknameError, clean_nickname
from basra.server.wire.client_messages import (
    PlayMessage,
    ProtocolError,
    SeedMessage,
    SimpleMessage,
    error_message,
    parse_client_message,
)
from basra.server.wire.server_messages import (
    PROTOCOL,
    Closed,
    Error,
    Played,
    Pong,
    Requeued,
    State,
    Welcome,
    encode,
)

PLAYED = Played(version=8, round=1, seat=1, card="7D", take=["2C", "5H"], basra=10,
                by_bot=True, turn=0, deal=1, hand=["AH", "6C"], hand_counts=[2, 3],
                floor=["KS"], stock_count=40, pile_counts=[0, 3], basras=[0, 1],
                basra_points=[0, 10], last_taker=1, legal=[{"card": "AH", "take": []}],
                clock={"seat": 0, "seconds": 30, "remaining_ms": 30000}, spectators=2)


def test_messages_are_compact_utf8_json_in_field_order() -> None:
    assert PROTOCOL == "basra-ws/2"
    assert encode(Welcome("Xb3", 0)) == (
        '{"type":"welcome","protocol":"basra-ws/2","table":"Xb3","seat":0}')
    state = State(3, None, {"players": [{"name": "أحمد_77 Zoë"}]}, {"hand": []})
    text = encode(state)
    assert text == ('{"type":"state","version":3,"you":null,"table":{"players":'
                    '[{"name":"أحمد_77 Zoë"}]},"view":{"hand":[]}}')
    played = json.loads(encode(PLAYED))
    assert list(played) == ["type", "version", "round", "seat", "card", "take", "basra",
                            "by_bot", "turn", "deal", "hand", "hand_counts", "floor",
                            "stock_count", "pile_counts", "basras", "basra_points",
                            "last_taker", "legal", "clock", "spectators"]
    assert played["type"] == "played" and played["take"] == ["2C", "5H"]
    for message in (Pong(1), Error("a/b", "c"), Requeued("t", "egyptian"), Closed("finished"),
                    Welcome("t", None), state, PLAYED):
        text = encode(message)
        assert json.loads(text) == message.to_json()
        assert text == json.dumps(message.to_json(), separators=(",", ":"),
                                  ensure_ascii=False)


def test_a_lone_surrogate_never_breaks_a_send() -> None:
    for text in ("\ud800", "x\udfffy", "a\ud83d"):
        out = encode(Error("x/y", f"refused {text}"))
        assert json.loads(out) == {"type": "error", "code": "x/y", "message": f"refused {text}"}
        out = encode(State(1, 0, {"players": [{"name": text}]}, {}))
        assert json.loads(out)["table"]["players"][0]["name"] == text


SURROGATE_MESSAGES = [
    ('{"type": "\\ud800"}', "protocol/unknown_type"),
    ('{"type": "\\udfff\\ud800x"}', "protocol/unknown_type"),
    ('{"type": "play", "version": 1, "card": "\\ud800", "take": []}', "protocol/bad_card"),
    ('{"type": "play", "version": 1, "card": "5H", "take": ["4C", "A\\ud800"]}',
     "protocol/bad_card"),
    ('{"type": "seed", "round": 1, "client_seed": "\\ud800"}', "seed/bad"),
    ('{"type": "seed", "round": 1, "client_seed": "abc\\udfffdef"}', "seed/bad"),
    ('{"type": "play", "version": 1, "card": "5H", "take": [], "x": "\\ud800"}', None),
    ("{\"type\": \"\ud800\"}", "protocol/unknown_type"),  # the text itself holds one
    (b'{"type": "\xff\xfe"}', "protocol/bad_json"),  # not UTF-8
    (b'{"type": "play", "version": 1, "card": "\xed\xa0\x80", "take": []}',
     "protocol/bad_card"),  # a surrogate in UTF-8 bytes (read as json reads them)
    ('{"type": "play", "version": NaN, "card": "5H", "take": []}', "protocol/bad_message"),
    ('{"type": "play", "version": 1e400, "card": "5H", "take": []}', "protocol/bad_message"),
    ('{"type": "play", "version": 1.0, "card": "5H", "take": []}', "protocol/bad_message"),
    ("[" * 1500 + "]" * 1500, "protocol/bad_json"),
    ('{"type": "ping", "deep": ' + "[" * 1010 + "]" * 1010 + ', "x": 1.5}',
     "protocol/bad_json"),
]


@pytest.mark.parametrize(("raw", "code"), SURROGATE_MESSAGES)
def test_what_a_player_sends_keeps_its_code_and_encodes(raw: str | bytes,
                                                        code: str | None) -> None:
    try:
        parse_client_message(raw)
    except ProtocolError as exc:
        assert exc.code == code, (raw[:60], exc.code, exc.message)
        reply = error_message(exc).to_json()
        # The refusal needs no fallback: orjson itself writes it.
        assert json.loads(orjson.dumps(reply)) == reply
        assert "\n" not in exc.message
    else:
        assert code is None, raw[:60]


def test_numbers_read_as_the_standard_library_reads_them() -> None:
    """A whole number past 64 bits stays whole (a version far ahead is stale, not
    malformed); every other message reads the same as with ``json``."""
    far = parse_client_message('{"type": "play", "version": 1000000000000000000000000000000,'
                               ' "card": "5H", "take": ["4C", "AD"]}')
    assert isinstance(far, PlayMessage) and far.version == 10**30
    cases: list[tuple[str, Any]] = [
        ('{"type": "play", "version": 42, "card": "5h", "take": ["ad", "4C"]}',
         PlayMessage),
        ('{"type": "seed", "round": 2, "client_seed": "Amira’s ✨"}', SeedMessage),
        ('{"type": "sync"}', SimpleMessage), ('{"type": "ping", "pad": [1, 2.5]}',
                                              SimpleMessage),
    ]
    for raw, kind in cases:
        message = parse_client_message(raw)
        assert isinstance(message, kind)
        assert message == parse_client_message(raw.encode("utf-8"))
    assert parse_client_message('{"type": "sync"}') == SimpleMessage("sync")
    with pytest.raises(ProtocolError) as unknown:
        parse_client_message('{"type": "resync"}')
    assert unknown.value.code == "protocol/unknown_type"
    assert unknown.value.message == ("unknown message type 'resync' (play, seed, ready, "
                                     "rematch, ping, sync, resign, hint, cancel, move, say, "
                                     "react)")


def test_no_text_a_player_chooses_holds_a_lone_surrogate() -> None:
    """What a player names themselves, and the parts they send, are refused unless valid
    Unicode: no text of theirs that reaches a message can hold a lone surrogate."""
    for bad in ("\ud800ab", "Zo\udfffë"):
        with pytest.raises(NicknameError):
            clean_nickname(bad)
        assert part_problem(bad) == "a client seed must be valid Unicode text"
    assert clean_nickname("Zoë O'Neil") == "Zoë O'Neil"

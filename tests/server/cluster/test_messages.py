"""Cluster mode's node-to-node messages (basra.server.cluster.messages): every kind goes
through encode and decode unchanged, its JSON is pinned (the wire is the one the nodes
spoke before the types: a node of either code must read the other's), what the old code
published still decodes, and anything malformed is one ValueError of one line. Then the
relay's receiving side: a reply settles its call, every other message reaches the
node's handler, typed."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio import Redis

from basra.server.cluster.messages import (
    PARSERS,
    AttachMessage,
    CallMessage,
    CloseMessage,
    DetachMessage,
    FillBotCall,
    Handled,
    InMessage,
    JoinCall,
    NodeMessage,
    OutMessage,
    Refused,
    ReplyMessage,
    Seated,
    SignedOutMessage,
    answer_json,
    call_op,
    decode,
    encode,
    op_json,
)
from basra.server.cluster.relay import Relay

PONG = '{"type":"pong","version":3}'

WIRE: list[tuple[NodeMessage, bytes]] = [
    (AttachMessage("c1", "T1", "p1", "node-a", "203.0.113.0/24", True),
     b'{"k":"attach","conn":"c1","table":"T1","player":"p1","from":"node-a",'
     b'"address":"203.0.113.0/24","account":true}'),
    (AttachMessage("c2", "T1", None, "node-a", "", False),
     b'{"k":"attach","conn":"c2","table":"T1","player":null,"from":"node-a",'
     b'"address":"","account":false}'),
    (InMessage("c1", '{"type":"ping"}'),
     b'{"k":"in","conn":"c1","text":"{\\"type\\":\\"ping\\"}"}'),
    (DetachMessage("c1"),
     b'{"k":"detach","conn":"c1"}'),
    (OutMessage("c1", PONG),
     b'{"k":"out","conn":"c1","text":"{\\"type\\":\\"pong\\",\\"version\\":3}"}'),
    (CloseMessage("c1", 1012, "the table moved to another node"),
     b'{"k":"close","conn":"c1","code":1012,"reason":"the table moved to another node"}'),
    (SignedOutMessage("p1", "s1", None),
     b'{"k":"signed_out","player":"p1","session":"s1","keep":null}'),
    (SignedOutMessage("p1", None, "s2"),
     b'{"k":"signed_out","player":"p1","session":null,"keep":"s2"}'),
    (CallMessage("id1", "node-b", JoinCall("T1", "p2", "Dana", True, "dana")),
     b'{"k":"call","id":"id1","from":"node-b","op":"join","table":"T1","player":"p2",'
     b'"nickname":"Dana","account":true,"username":"dana"}'),
    (CallMessage("id2", "node-b", JoinCall("T1", "p3", "Swift Falcon 27", False, None)),
     b'{"k":"call","id":"id2","from":"node-b","op":"join","table":"T1","player":"p3",'
     b'"nickname":"Swift Falcon 27","account":false,"username":null}'),
    (CallMessage("id3", "node-b", FillBotCall("T1", 1, "hard", "p2")),
     b'{"k":"call","id":"id3","from":"node-b","op":"fill_bot","table":"T1","seat":1,'
     b'"level":"hard","player":"p2"}'),
    (CallMessage("id4", "node-b", FillBotCall("T1", None, "easy", "p2")),
     b'{"k":"call","id":"id4","from":"node-b","op":"fill_bot","table":"T1","seat":null,'
     b'"level":"easy","player":"p2"}'),
    (ReplyMessage("id1", Seated(2)),
     b'{"k":"reply","id":"id1","seat":2}'),
    (ReplyMessage("id2", Refused("table/full", "the table is full")),
     b'{"k":"reply","id":"id2","error":"table/full","message":"the table is full"}'),
]
"""One message (or more) of every kind, and its exact bytes on the wire."""


def test_every_kind_is_pinned() -> None:
    kinds = {orjson.loads(wire)["k"] for _, wire in WIRE}
    assert kinds == set(PARSERS) == {"attach", "in", "detach", "out", "close", "signed_out",
                                     "call", "reply"}


@pytest.mark.parametrize(("message", "wire"), WIRE)
def test_the_exact_json_of_each_kind(message: NodeMessage, wire: bytes) -> None:
    assert encode(message) == wire


@pytest.mark.parametrize(("message", "wire"), WIRE)
def test_each_kind_goes_through_encode_and_decode(message: NodeMessage, wire: bytes) -> None:
    assert decode(encode(message)) == message
    assert decode(wire) == message
    assert decode(wire.decode()) == message  # text as well as bytes


OLD_WIRE: list[tuple[bytes, NodeMessage]] = [
    # what the untyped code published: a call's keys after its operation's, a reply's
    # after its answer's ({**message, "k": "call", ...}), another order that means the same
    (b'{"op":"join","table":"T1","player":"p2","nickname":"Dana","account":true,'
     b'"username":"dana","k":"call","id":"id1","from":"node-b"}',
     CallMessage("id1", "node-b", JoinCall("T1", "p2", "Dana", True, "dana"))),
    (b'{"op":"fill_bot","table":"T1","seat":null,"level":"easy","player":"p2","k":"call",'
     b'"id":"id4","from":"node-b"}',
     CallMessage("id4", "node-b", FillBotCall("T1", None, "easy", "p2"))),
    (b'{"seat":0,"k":"reply","id":"id1"}', ReplyMessage("id1", Seated(0))),
    (b'{"error":"server/internal","message":"the server could not do that","k":"reply",'
     b'"id":"id2"}',
     ReplyMessage("id2", Refused("server/internal", "the server could not do that"))),
]


@pytest.mark.parametrize(("wire", "message"), OLD_WIRE)
def test_what_the_untyped_code_sent_is_read(wire: bytes, message: NodeMessage) -> None:
    assert decode(wire) == message
    assert orjson.loads(encode(message)) == orjson.loads(wire)  # the same keys and values


def test_a_success_reply_has_no_error_key() -> None:
    """The old code (Lobby._call) takes any reply with an ``error`` key for a refusal."""
    assert "error" not in orjson.loads(encode(ReplyMessage("x", Seated(1))))
    assert answer_json(Seated(1)) == {"seat": 1}
    assert answer_json(Refused("table/moved", "gone")) == {"error": "table/moved",
                                                           "message": "gone"}


def test_keys_a_reader_does_not_know_are_ignored() -> None:
    assert decode(b'{"k":"detach","conn":"c1","since":"v3"}') == DetachMessage("c1")


def test_a_call_operation_from_its_wire_keys() -> None:
    join = JoinCall("T1", "p2", "Dana", False, None)
    fill = FillBotCall("T1", 3, "medium", "p2")
    assert call_op(op_json(join)) == join
    assert call_op(op_json(fill)) == fill
    assert op_json(fill) == {"op": "fill_bot", "table": "T1", "seat": 3, "level": "medium",
                             "player": "p2"}
    with pytest.raises(ValueError, match="unknown op 'leave'"):
        call_op({"op": "leave", "table": "T1"})


MALFORMED: list[tuple[bytes, str]] = [
    (b"", "must be one JSON object"),
    (b"not json", "must be one JSON object"),
    (b'{"k":"detach","conn":"c1"', "must be one JSON object"),
    (b'["k","detach"]', "must be one JSON object"),
    (b"null", "must be one JSON object"),
    (b'{"conn":"c1"}', "must name its kind ('k')"),
    (b'{"k":null,"conn":"c1"}', "must name its kind ('k')"),
    (b'{"k":"leave","conn":"c1"}', "unknown node message kind 'leave'"),
    (b'{"k":["in"],"conn":"c1"}', "unknown node message kind"),
    (b'{"k":"in","conn":"c1"}', "'in': 'text' must be text"),
    (b'{"k":"in","conn":7,"text":"x"}', "'in': 'conn' must be text"),
    (b'{"k":"close","conn":"c1","code":"1012","reason":"r"}',
     "'close': 'code' must be a whole number"),
    (b'{"k":"close","conn":"c1","code":true,"reason":"r"}',
     "'close': 'code' must be a whole number"),
    (b'{"k":"close","conn":"c1","code":1012.5,"reason":"r"}',
     "'close': 'code' must be a whole number"),
    (b'{"k":"attach","conn":"c1","table":"T1","player":null,"from":"n","address":"",'
     b'"account":1}', "'attach': 'account' must be true or false"),
    (b'{"k":"attach","conn":"c1","table":"T1","from":"n","address":"","account":false}',
     "'attach': 'player' must be text or null"),
    (b'{"k":"attach","conn":"c1","table":"T1","player":5,"from":"n","address":"",'
     b'"account":false}', "'attach': 'player' must be text or null"),
    (b'{"k":"signed_out","player":"p1","session":null}',
     "'signed_out': 'keep' must be text or null"),
    (b'{"k":"call","id":"i","from":"n","table":"T1"}', "'call': 'op' must be text"),
    (b'{"k":"call","id":"i","from":"n","op":"resign","table":"T1"}',
     "'call': unknown op 'resign'"),
    (b'{"k":"call","id":"i","from":"n","op":"fill_bot","table":"T1","seat":"1",'
     b'"level":"easy","player":"p"}', "'call': 'seat' must be a whole number or null"),
    (b'{"k":"call","id":"i","from":"n","op":"fill_bot","table":"T1","level":"easy",'
     b'"player":"p"}', "'call': 'seat' must be a whole number or null"),
    (b'{"k":"call","from":"n","op":"join","table":"T1","player":"p","nickname":"N",'
     b'"account":false,"username":null}', "'call': 'id' must be text"),
    (b'{"k":"reply","id":"i"}', "'reply': 'seat' must be a whole number"),
    (b'{"k":"reply","id":"i","error":"table/full"}', "'reply': 'message' must be text"),
    (b'{"k":"reply","id":"i","error":null,"message":"m"}', "'reply': 'error' must be text"),
]


@pytest.mark.parametrize(("wire", "problem"), MALFORMED)
def test_malformed_messages_are_refused_in_one_line(wire: bytes, problem: str) -> None:
    with pytest.raises(ValueError) as caught:
        decode(wire)
    text = str(caught.value)
    assert problem in text
    assert "\n" not in text


# ---------------------------------------------------------------------------------------
# every message, any values


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)  # no surrogate
maybe_texts = st.none() | texts
whole = st.integers(-(2**63), 2**63 - 1)
ops = (st.builds(JoinCall, texts, texts, texts, st.booleans(), maybe_texts)
       | st.builds(FillBotCall, texts, st.none() | whole, texts, texts))
answers = st.builds(Seated, whole) | st.builds(Refused, texts, texts)
messages: st.SearchStrategy[NodeMessage] = st.one_of(
    st.builds(AttachMessage, texts, texts, maybe_texts, texts, texts, st.booleans()),
    st.builds(InMessage, texts, texts),
    st.builds(DetachMessage, texts),
    st.builds(OutMessage, texts, texts),
    st.builds(CloseMessage, texts, whole, texts),
    st.builds(SignedOutMessage, texts, maybe_texts, maybe_texts),
    st.builds(CallMessage, texts, texts, ops),
    st.builds(ReplyMessage, texts, answers),
)


@given(messages)
def test_any_message_goes_through_encode_and_decode(message: NodeMessage) -> None:
    assert decode(encode(message)) == message


# ---------------------------------------------------------------------------------------
# the relay's receiving side (no Redis: its queue and its dispatch)


def relay(received: list[Handled]) -> Relay:
    async def handler(message: Handled) -> None:
        received.append(message)

    return Relay(cast(Redis, None), "node-a", "test:", handler)


def test_the_relay_hands_every_message_but_a_reply_to_its_handler() -> None:
    async def scenario() -> None:
        received: list[Handled] = []
        node = relay(received)
        for message, wire in WIRE:
            await node._dispatch(decode(wire))
            if not isinstance(message, ReplyMessage):
                assert received[-1] == message
        assert len(received) == sum(not isinstance(m, ReplyMessage) for m, _ in WIRE)

    asyncio.run(scenario())


def test_a_call_is_published_typed_and_settled_by_its_reply() -> None:
    async def scenario() -> None:
        received: list[Handled] = []
        node = relay(received)
        op = FillBotCall("T1", None, "easy", "p2")
        asking = asyncio.create_task(node.call("node-b", op))
        channel, data = await node.outgoing.get()
        assert channel == "test:node:node-b"
        sent: Any = decode(data)
        assert sent == CallMessage(sent.id, "node-a", op)
        await node._dispatch(decode(encode(ReplyMessage("another id", Seated(0)))))
        assert not asking.done()
        await node._dispatch(decode(encode(ReplyMessage(sent.id, Seated(1)))))
        assert await asking == Seated(1)
        assert node.calls == {} and received == []

        node.reply("node-b", "id9", Refused("table/moved", "the table moved"))
        channel, data = node.outgoing.get_nowait()
        assert data == b'{"k":"reply","id":"id9","error":"table/moved",' \
                       b'"message":"the table moved"}'

    asyncio.run(scenario())

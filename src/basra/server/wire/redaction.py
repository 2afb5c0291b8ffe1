"""What of a match record may be sent to anyone, at any moment (docs/PROTOCOL.md,
``GET /api/tables/{id}/record``)."""

from __future__ import annotations

from typing import Any


def redact(record_json: dict[str, Any], in_round: bool) -> dict[str, Any]:
    """A record's JSON (``records.to_json``) as it may be sent: while a round is in play,
    that last round keeps its commitment, client seed and plays so far but loses its
    server seed and deck (either would give away every hand and the stock). Changes
    ``record_json`` and returns it.

    >>> redact({"rounds": [{"fairness": {"server_seed": "ab", "nonce": 1}}]}, True)
    {'rounds': [{'fairness': {'nonce': 1}}]}
    """
    rounds = record_json.get("rounds")
    if in_round and isinstance(rounds, list) and rounds:
        rounds[-1].pop("deck", None)
        fairness = rounds[-1].get("fairness")
        if isinstance(fairness, dict):
            fairness.pop("server_seed", None)
    return record_json

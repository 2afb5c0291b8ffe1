"""The server's VAPID key (basra.server.social.push.vapid_key): made once in the data folder,
whole, even when several nodes start together on one folder (a node once read the file
another had created but not yet written, and failed to start); ``BASRA_VAPID_KEY`` wins."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from basra.server.social.push import KEY_VARIABLE, public_key, vapid_key


def key_of(folder: str) -> str:
    return public_key(vapid_key(Path(folder)))


def test_nodes_starting_together_share_one_whole_key(tmp_path: Path) -> None:
    with multiprocessing.get_context("spawn").Pool(6) as pool:
        keys = pool.map(key_of, [str(tmp_path)] * 12)
    assert len(set(keys)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["vapid.pem"]
    assert key_of(str(tmp_path)) == keys[0]  # and it stays


def test_the_environment_key_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = vapid_key(None)
    monkeypatch.setenv(KEY_VARIABLE, made.private_pem().decode())
    assert public_key(vapid_key(tmp_path)) == public_key(made)
    assert list(tmp_path.iterdir()) == []

"""FAIRNESS.md: the fair shuffle basra-shuffle-v1, its normative vectors and bad inputs."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from basra.errors import BasraError, FairnessError
from basra.game.cards import NAMES
from basra.game.engine import deal_round
from basra.game.rules import find_variant
from basra.game.shuffle import (
    MAX_PART_BYTES,
    OWN_TEXT_BYTES,
    commitment,
    fresh_part,
    new_server_seed,
    part_problem,
    seat_part,
    shuffled_deck,
)
from conftest import M, names

SEED_1 = "0000000000000000000000000000000000000000000000000000000000000001"
SEED_F = "f" * 64
SEED_19 = "0000000000000000000000000000000000000000000000000000000000000019"

DECK_1 = (
    "7H QD 10C 2S 7D 4C 3H 4D 7S 4S AH QC 5S 2C KH JH 6S AS 3C 3S AD 8S 10S 2D JC 6D 2H QS "
    "9C 8D 6C 10D 7C 5C 3D KC 8H 6H JD 4H 5D 9D 10H QH 5H 8C KS 9H AC JS 9S KD"
)
DECK_F = (
    "10D 4S 5D QH 7H KC 4H 4C 6D 9D 2C 7S AC JC JS QS 10H QC 6C AD 9S KH 5S QD 9H 5H KD 6H "
    "JH 3C 2D JD 7C 10S 4D 8C KS AS 3D 3H 2S 3S AH 8D 10C 2H 8S 7D 6S 5C 8H 9C"
)
DECK_19 = (
    "10S AH 6H 6C AS 10C 6D 7H 7D 2S 9C KH JS 2C 4H 8C 2D 5S 3D KS JC 8D 4D 5C 9S 4S QH QS "
    "6S 8H 4C 2H 3H 3C KD 8S AC 7S AD QC 3S JD 5H QD 5D 9D JH 9H 10H KC 7C 10D"
)


def deck_text(deck) -> str:
    return " ".join(NAMES[c] for c in deck)


def reference_deck(server_seed: str, client_seed: str, nonce: int) -> list[int]:
    """FAIRNESS.md, written again from the page: HMAC stream, unbiased index, Fisher-Yates."""
    key = bytes.fromhex(server_seed)
    words: list[int] = []
    k = 0

    def u32() -> int:
        nonlocal k
        if not words:
            msg = f"basra-shuffle-v1|{client_seed}|{nonce}|{k}".encode()
            block = hmac.new(key, msg, hashlib.sha256).digest()
            words.extend(int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4))
            k += 1
        return words.pop(0)

    def below(n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            x = u32()
            if x < limit:
                return x % n

    deck = list(range(52))
    for i in range(51, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ------------------------------------------------------------------- vectors


def test_commitment_vector_1():
    assert commitment(SEED_1) == \
        "ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5"


def test_commitment_vector_2():
    assert commitment(SEED_F) == \
        "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051"


def test_commitment_is_sha256_of_the_raw_bytes():
    assert commitment(SEED_1) == hashlib.sha256(bytes.fromhex(SEED_1)).hexdigest()


def test_deck_vector_1():
    assert deck_text(shuffled_deck(SEED_1, "alice|bob", 1)) == DECK_1


def test_deck_vector_2_empty_client_seed():
    assert deck_text(shuffled_deck(SEED_F, "", 1)) == DECK_F


def test_burying_vector_deck():
    assert deck_text(shuffled_deck(SEED_19, "demo", 1)) == DECK_19


def test_burying_vector_deal():
    deck = shuffled_deck(SEED_19, "demo", 1)
    rnd = deal_round(find_variant("egyptian"), 2, 0, deck)
    assert names(rnd.hand(0)) == names(M("AH 6C 10C 7H"))
    assert names(rnd.hand(1)) == names(M("10S 6H AS 6D"))
    assert names(rnd.floor) == names(M("2S 9C KH 2C"))
    assert deck_text(rnd.setup.stock) == (
        "4H 8C 2D 5S 3D KS JC 8D 4D 5C 9S 4S QH QS 6S 8H 7D 4C 2H JS 3H 3C KD 8S AC 7S AD "
        "QC 3S JD 5H QD 5D 9D JH 9H 10H KC 7C 10D"
    )


def test_reference_reproduces_the_vectors():
    assert deck_text(reference_deck(SEED_1, "alice|bob", 1)) == DECK_1
    assert deck_text(reference_deck(SEED_F, "", 1)) == DECK_F


def test_shuffle_matches_the_written_algorithm_on_random_inputs():
    rng = random.Random(2024)
    for _ in range(40):
        seed = rng.randbytes(32).hex()
        client = "|".join(rng.choice(["", "alice", "bob", "ünïcødé", "x" * 20])
                          for _ in range(rng.randint(1, 4)))
        nonce = rng.randint(1, 10_000)
        assert list(shuffled_deck(seed, client, nonce)) == reference_deck(seed, client, nonce)


def test_the_deck_is_a_permutation_and_depends_on_every_input():
    base = shuffled_deck(SEED_1, "alice|bob", 1)
    assert sorted(base) == list(range(52))
    assert shuffled_deck(SEED_1, "alice|bob", 1) == base
    assert shuffled_deck(SEED_1, "alice|bob", 2) != base
    assert shuffled_deck(SEED_1, "alice|bob!", 1) != base
    assert shuffled_deck(SEED_F, "alice|bob", 1) != base


def test_new_server_seeds_are_64_hex_digits_and_fresh():
    a, b = new_server_seed(), new_server_seed()
    assert len(a) == 64
    assert int(a, 16) >= 0
    assert a != b
    assert len(shuffled_deck(a, "", 1)) == 52


def test_client_seed_of_256_bytes_is_allowed():
    assert len(shuffled_deck(SEED_1, "x" * 256, 1)) == 52


# ---------------------------------------------------------------- bad inputs


@pytest.mark.parametrize("seed", [
    "", "01", "0" * 63, "0" * 65, "g" * 64, "0x" + "0" * 62, " " + "0" * 63, None, 1,
])
def test_bad_server_seed_raises_fairness_error(seed):
    with pytest.raises(FairnessError) as err:
        shuffled_deck(seed, "", 1)
    assert err.value.code == "fairness/bad_input"
    with pytest.raises(FairnessError):
        commitment(seed)


@pytest.mark.parametrize("nonce", [0, -1, "1", 1.0, True, None])
def test_bad_nonce_raises_fairness_error(nonce):
    with pytest.raises(FairnessError):
        shuffled_deck(SEED_1, "", nonce)


def test_client_seed_over_256_bytes_raises_fairness_error():
    with pytest.raises(FairnessError):
        shuffled_deck(SEED_1, "x" * 257, 1)
    with pytest.raises(FairnessError):
        shuffled_deck(SEED_1, "é" * 129, 1)  # 258 bytes in UTF-8


def test_fairness_error_is_a_basra_error():
    with pytest.raises(BasraError):
        shuffled_deck("nope", "", 1)


# ---------------------------------------------------------------- seat parts

SEAT_PART_VECTORS = [  # FAIRNESS.md, "Vectors": (server seed, nonce, seat, part)
    (SEED_1, 1, 0, "325044ddfe5478f0"),
    (SEED_1, 1, 1, "8dcc8d99a2ec07c3"),
    (SEED_1, 2, 1, "7d9082400dc4c67d"),
    (SEED_1, 3, 3, "f102c21bed08b872"),
    (SEED_F, 1, 1, "5706e4a2b583475d"),
]


def reference_seat_part(server_seed: str, nonce: int, seat: int) -> str:
    """FAIRNESS.md's part(seat), written again from the page."""
    msg = ("basra-seat-seed-v1|" + str(nonce) + "|" + str(seat)).encode()
    return hmac.new(bytes.fromhex(server_seed), msg, hashlib.sha256).hexdigest()[:16]


@pytest.mark.parametrize(("seed", "nonce", "seat", "part"), SEAT_PART_VECTORS,
                         ids=[f"{s[:2]}-nonce{n}-seat{t}" for s, n, t, _ in SEAT_PART_VECTORS])
def test_seat_part_vectors(seed: str, nonce: int, seat: int, part: str) -> None:
    assert seat_part(seed, nonce, seat) == part
    assert reference_seat_part(seed, nonce, seat) == part


def test_seat_part_matches_the_page_on_random_inputs() -> None:
    rng = random.Random(7)
    for _ in range(40):
        seed, nonce, seat = rng.randbytes(32).hex(), rng.randint(1, 500), rng.randint(0, 3)
        assert seat_part(seed, nonce, seat) == reference_seat_part(seed, nonce, seat)
        assert seat_part(seed.upper(), nonce, seat) == seat_part(seed, nonce, seat)


def test_seat_parts_differ_by_seed_round_and_seat() -> None:
    parts = {seat_part(seed, nonce, seat) for seed in (SEED_1, SEED_F, SEED_19)
             for nonce in (1, 2, 3) for seat in range(4)}
    assert len(parts) == 36
    assert all(len(p) == 16 and set(p) <= set("0123456789abcdef") for p in parts)
    assert part_problem(seat_part(SEED_1, 1, 0)) is None


def test_seat_part_refuses_a_bad_seed_or_nonce() -> None:
    with pytest.raises(FairnessError):
        seat_part("01", 1, 0)
    with pytest.raises(FairnessError):
        seat_part(SEED_1, 0, 0)


@pytest.mark.parametrize(("part", "problem"), [
    ("", "a client seed may not be empty"),
    ("x" * (MAX_PART_BYTES + 1), f"a client seed may be at most {MAX_PART_BYTES} bytes"),
    ("é" * 31, f"a client seed may be at most {MAX_PART_BYTES} bytes"),  # 62 bytes
    ("a|b", "a client seed may not contain '|'"),
    ("tab\there", "a client seed may not contain control characters"),
    ("new\nline", "a client seed may not contain control characters"),
    ("del\x7f", "a client seed may not contain control characters"),
    ("c1\x85", "a client seed may not contain control characters"),
    ("\ud800", "a client seed must be valid Unicode text"),
    (42, "a client seed must be text"),
])
def test_part_problem_names_what_is_wrong(part: object, problem: str) -> None:
    assert part_problem(part) == problem


@pytest.mark.parametrize("part", ["a", "x" * MAX_PART_BYTES, "é" * 30, "ünïcødé ✓ with spaces",
                                  "amira.0123456789abcdef", "{\"json\": 1}"])
def test_part_problem_accepts_a_part(part: str) -> None:
    assert part_problem(part) is None


def test_a_fresh_part_without_own_text_is_16_random_bytes() -> None:
    parts = {fresh_part() for _ in range(20)}
    assert len(parts) == 20
    for part in parts:
        assert len(part) == 32 and set(part) <= set("0123456789abcdef")
        assert part_problem(part) is None


@pytest.mark.parametrize("own", ["amira", "x" * OWN_TEXT_BYTES, "x" * 300, "é" * 30,
                                 "ab" + "€" * 20, "🂡" * 20])
def test_a_fresh_part_is_the_own_text_cut_then_8_random_bytes(own: str) -> None:
    part = fresh_part(own)
    text, dot, noise = part.rpartition(".")
    assert dot == "." and len(noise) == 16 and set(noise) <= set("0123456789abcdef")
    assert own.startswith(text) and text
    raw = text.encode("utf-8")
    assert len(raw) <= OWN_TEXT_BYTES
    if len(own.encode("utf-8")) > OWN_TEXT_BYTES:  # cut at a character boundary, no shorter
        assert len(raw) + len(own[len(text)].encode("utf-8")) > OWN_TEXT_BYTES
    else:
        assert text == own
    assert part_problem(part) is None
    assert fresh_part(own) != part

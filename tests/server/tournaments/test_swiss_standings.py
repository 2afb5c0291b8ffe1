"""The Swiss standings (basra.server.tournaments.swiss.swiss_standings): score, then
Buchholz, then Sonneborn-Berger, then rating, then id, on hand-computed events; a bye
counts as a win against an opponent with the bye-taker's own score; the absent score 0."""

from __future__ import annotations

from basra.server.tournaments.games import Game
from basra.server.tournaments.swiss import SwissRow, swiss_standings

WIN, DRAW, LOSS = (1.0, 0.0), (0.5, 0.5), (0.0, 1.0)
EIGHT = dict.fromkeys("ABCDEFGH", 1500.0)
THREE_ROUNDS = [
    Game(1, ("A", "E"), WIN), Game(1, ("B", "F"), WIN), Game(1, ("C", "G"), DRAW),
    Game(1, ("D", "H"), LOSS),
    Game(2, ("A", "B"), WIN), Game(2, ("H", "C"), DRAW), Game(2, ("G", "D"), WIN),
    Game(2, ("E", "F"), LOSS),
    Game(3, ("A", "H"), LOSS), Game(3, ("G", "B"), DRAW), Game(3, ("C", "F"), WIN),
    Game(3, ("D", "E"), DRAW),
]


def by_entrant(rows: list[SwissRow]) -> dict[str, SwissRow]:
    return {r.entrant: r for r in rows}


def test_eight_players_three_rounds_by_hand() -> None:
    rows = swiss_standings(EIGHT, THREE_ROUNDS)
    # Scores: A 2 (W W L), B 1.5 (W L D), C 2 (D D W), D 0.5 (L L D), E 0.5 (L L D),
    # F 1 (L W L), G 2 (D W D), H 2.5 (W D W).
    # Buchholz, the opponents' scores: A = E .5 + B 1.5 + H 2.5 = 4.5; B = F 1 + A 2 + G 2
    # = 5; C = G 2 + H 2.5 + F 1 = 5.5; D = H 2.5 + G 2 + E .5 = 5; E = A 2 + F 1 + D .5
    # = 3.5; F = B 1.5 + E .5 + C 2 = 4; G = C 2 + D .5 + B 1.5 = 4; H = D .5 + C 2 + A 2
    # = 4.5.
    # Sonneborn-Berger, those beaten plus half those drawn: A = E .5 + B 1.5 = 2;
    # B = F 1 + G 2/2 = 2; C = G 2/2 + H 2.5/2 + F 1 = 3.25; D = E .5/2 = .25;
    # E = D .5/2 = .25; F = E .5; G = C 2/2 + D .5 + B 1.5/2 = 2.25; H = D .5 + C 2/2 + A 2
    # = 3.5.
    expected = {"A": (2, 4.5, 2), "B": (1.5, 5, 2), "C": (2, 5.5, 3.25), "D": (0.5, 5, 0.25),
                "E": (0.5, 3.5, 0.25), "F": (1, 4, 0.5), "G": (2, 4, 2.25),
                "H": (2.5, 4.5, 3.5)}
    got = {r.entrant: (r.score, r.buchholz, r.sonneborn_berger) for r in rows}
    assert got == expected
    # H on score; A, C, G on 2 by Buchholz (5.5, 4.5, 4); D before E by Buchholz.
    assert [r.entrant for r in rows] == ["H", "C", "A", "G", "B", "F", "D", "E"]
    assert [r.rank for r in rows] == list(range(1, 9))
    assert by_entrant(rows)["C"].sheet == (("G", 0.5), ("H", 0.5), ("F", 1.0))
    assert all(r.games == 3 and r.byes == 0 for r in rows)


def test_sonneborn_berger_breaks_a_tie_on_buchholz() -> None:
    # P beat Q and lost to R; S beat R and lost to Q; P drew S; Q beat R. P and S on 1.5,
    # Buchholz Q 2 + R 1 + 1.5 each; SB: P beat Q (2) and drew S (1.5 / 2), S beat R (1)
    # and drew P (1.5 / 2). S's higher rating comes after.
    games = [Game(1, ("P", "Q"), WIN), Game(1, ("S", "R"), WIN),
             Game(2, ("P", "R"), LOSS), Game(2, ("S", "Q"), LOSS),
             Game(3, ("Q", "R"), WIN), Game(3, ("P", "S"), DRAW)]
    rows = swiss_standings({"P": 1500.0, "Q": 1500.0, "R": 1500.0, "S": 1700.0}, games)
    assert [(r.entrant, r.score, r.buchholz, r.sonneborn_berger) for r in rows] == [
        ("Q", 2.0, 4.0, 2.5), ("P", 1.5, 4.5, 2.75), ("S", 1.5, 4.5, 1.75),
        ("R", 1.0, 5.0, 1.5)]


def test_rating_then_id_break_the_last_ties() -> None:
    # A beat B, C beat D, A drew D, C drew B: A and C level on everything, so are B and D.
    games = [Game(1, ("A", "B"), WIN), Game(1, ("C", "D"), WIN),
             Game(2, ("A", "D"), DRAW), Game(2, ("C", "B"), DRAW)]
    rows = swiss_standings({"A": 1500.0, "B": 1500.0, "C": 1600.0, "D": 1500.0}, games)
    assert [(r.entrant, r.score, r.buchholz, r.sonneborn_berger) for r in rows] == [
        ("C", 1.5, 1.0, 0.75), ("A", 1.5, 1.0, 0.75), ("B", 0.5, 3.0, 0.75),
        ("D", 0.5, 3.0, 0.75)]
    rows = swiss_standings({"A": 1500.0, "B": 1500.0, "C": 1500.0, "D": 1500.0}, games)
    assert [r.entrant for r in rows] == ["A", "C", "B", "D"]


def test_a_bye_counts_as_a_win_against_ones_own_score() -> None:
    games = [Game(1, ("A", "B"), WIN), Game(1, ("C",), (1.0,)),
             Game(2, ("C", "A"), DRAW), Game(2, ("B",), (1.0,))]
    rows = by_entrant(swiss_standings({"A": 1500.0, "B": 1500.0, "C": 1500.0}, games))
    # C: bye (1, its own final score 1.5) and a draw with A (1.5): Buchholz 1.5 + 1.5,
    # SB 1.5 + 1.5 / 2.
    assert (rows["C"].score, rows["C"].buchholz, rows["C"].sonneborn_berger) == (1.5, 3.0, 2.25)
    assert rows["C"].sheet == ((None, 1.0), ("A", 0.5))
    assert (rows["C"].games, rows["C"].byes) == (1, 1)
    # B: lost to A (1.5), bye with its own 1: Buchholz 2.5, SB 1 (the bye only).
    assert (rows["B"].buchholz, rows["B"].sonneborn_berger) == (2.5, 1.0)


def test_the_absent_score_nothing_and_the_unpaired_have_empty_rounds() -> None:
    games = [Game(1, ("A", "B"), WIN, absent=frozenset({"A"})),
             Game(2, ("B", "C"), DRAW)]
    rows = by_entrant(swiss_standings({"A": 1500.0, "B": 1500.0, "C": 1500.0}, games))
    assert rows["A"].score == 0 and rows["A"].games == 0
    assert rows["A"].sheet == ((None, 0.0), (None, 0.0))   # absent, then not paired
    # B played the bot in A's seat: the game stands as recorded for B.
    assert rows["B"].sheet == (("A", 0.0), ("C", 0.5))
    assert rows["C"].sheet == ((None, 0.0), ("B", 0.5))
    assert rows["A"].buchholz == 0 and rows["B"].buchholz == 0 + 0.5


def test_entrants_who_left_still_count_for_their_opponents() -> None:
    games = [Game(1, ("A", "X"), LOSS), Game(2, ("X", "B"), WIN)]
    rows = by_entrant(swiss_standings({"A": 1500.0, "B": 1500.0}, games))
    assert set(rows) == {"A", "B"}
    assert rows["A"].buchholz == 2 and rows["B"].buchholz == 2

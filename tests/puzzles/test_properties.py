"""Properties of the shipped trees: check() along any accepted path ends "solved", every
wrong play is called wrong with its cost, and the stored values are a fresh solve's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from basra.bots.endgame import Solver, margin_utility
from basra.game.engine import Play
from basra.puzzles import all_puzzles, check
from basra.puzzles.model import Node, Puzzle
from basra.puzzles.position import replay_line

PUZZLES = st.sampled_from(all_puzzles())


def fresh_values(puzzle: Puzzle, line: list[str]) -> list[tuple[str, int]]:
    """Every legal play after ``line`` with its value, solved now."""
    rnd = replay_line(puzzle.position, line)
    solver = Solver(rnd, puzzle.you, puzzle.position.carry, margin_utility(puzzle.you))
    return [(str(Play(*p)), int(v)) for p, v in solver.play_values()]


@settings(max_examples=60, deadline=None)
@given(PUZZLES, st.randoms(use_true_random=False))
def test_any_accepted_path_ends_solved(puzzle: Puzzle, rnd: object) -> None:
    mine: list[str] = []
    line: list[str] = []
    node: Node | None = puzzle.tree
    while node is not None:
        assert node.values == tuple(fresh_values(puzzle, line))
        branch = rnd.choice(node.branches)  # type: ignore[attr-defined]
        mine.append(branch.play)
        step = check(puzzle, mine)
        node = branch.after
        assert step.verdict == ("solved" if node is None else "right")
        assert branch.play in step.accepted and step.reply == branch.reply
        line = list(step.line)
        wrong = [p for p, v in step_values(puzzle, mine[:-1])
                 if p not in step.accepted]
        for play in wrong:
            bad = check(puzzle, [*mine[:-1], play])
            assert bad.verdict == "wrong" and bad.cost > 0
    assert len(mine) >= 1


def step_values(puzzle: Puzzle, mine: list[str]) -> tuple[tuple[str, int], ...]:
    """The values stored at the decision point reached by ``mine`` (all accepted)."""
    node: Node | None = puzzle.tree
    for play in mine:
        assert node is not None
        branch = node.branch_of(play)
        assert branch is not None
        node = branch.after
    assert node is not None
    return node.values

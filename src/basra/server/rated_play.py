"""What a rated result needs (issue 25: rating farming).

A rating must come from real play between players who play: a throwaway account that plays
one card and resigns must not hand its opponent points. A rated match's result counts only
when, at its end:

- **both sides played**: each player made a play of their own, the match saw at least
  ``least_rounds`` whole round(s) and lasted ``least_seconds`` from its table's opening
  (else it is **aborted**: ``"aborted": true`` in the result);
- **both players may play rated**: not banned from rated play by a moderator, an account
  at least ``account_age`` old that has
  finished ``first_games`` matches (against anyone, bots too), and that did not abort
  ``aborts_per_day`` rated matches in the last 24 hours;
- **no pair is farming**: each two players on opposite sides have finished fewer than
  ``pair_per_day`` rated matches together in the last 24 hours (partners may play
  together as often as they like; it is the opponents who would hand them points).

A match that fails the last two is finished **unrated** (``"unrated": REASON`` in the
result, the table no longer marked rated); one that fails the first is aborted, and aborts
are counted against each player. The thresholds are :class:`basra.server.config.RatedRules`
(``basra serve --open-rated`` lifts them, for trials and tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from basra.game.engine import Match
from basra.server.config import RatedRules
from basra.store.ports import Store

DAY = timedelta(days=1)


def too_short(match: Match, seconds: float, rules: RatedRules) -> str | None:
    """Why the decided ``match``, ``seconds`` long, is too short to be rated (None: it is
    not)."""
    if len(match.results) < rules.least_rounds:
        return "the match ended before a whole round was played"
    if seconds < rules.least_seconds:
        return f"the match lasted less than {rules.least_seconds:g} s"
    return None


async def not_eligible(store: Store, players: Sequence[str], now: datetime,
                       rules: RatedRules,
                       opponents: Sequence[tuple[str, str]] | None = None) -> str | None:
    """Why the result between ``players`` may not be rated (None: it may); ``opponents``:
    the pairs who played on opposite sides (by default, two players are the pair)."""
    for player_id in players:
        player = await store.player(player_id)
        if player is None or not player.account:
            return "a player's account is gone"
        name = player.nickname
        if (await store.standing(player_id)).rated_ban:
            return f"{name} is banned from rated play"
        if now - player.created_at < rules.account_age:
            return f"{name}'s account is new: rated play opens after a day"
        record = await store.play_record(player_id, now - DAY)
        if record.finished < rules.first_games:
            return (f"{name} has finished fewer than {rules.first_games} matches: rated play "
                    "opens after them")
        if record.aborted >= rules.aborts_per_day:
            return f"{name} aborted {record.aborted} rated matches in the last day"
    if opponents is None:
        opponents = [(players[0], players[1])] if len(players) == 2 else []
    for first, second in opponents:
        together = await store.rated_between(first, second, now - DAY)
        if together >= rules.pair_per_day:
            if len(players) == 2:
                return (f"these two players have played {together} rated matches against "
                        "each other today")
            return (f"two of these players have played {together} rated matches against "
                    "each other today")
    return None


__all__ = ["DAY", "not_eligible", "too_short"]

"""``basra admin``: what the operator does by hand, against the server's database
(docs/DEPLOY.md, "Moderators").

    basra admin grant NAME moderator     give the account NAME the moderator role
    basra admin revoke NAME moderator    take it back
    basra admin moderators               list the moderators

Each change is written to the moderators' log too (by ``operator``), like a moderator's
own actions. The server need not be stopped: the role is read from the database on every
moderator's request.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from basra.cliargs import OneLineParser, parse_or_status
from basra.store import StoreError, open_store
from basra.store.base import ModLogRow, StandingChange
from basra.store.ports import Store

ROLES = ("moderator",)
OPERATOR = "operator"
"""The name the log gives the operator's own changes."""


class AdminError(Exception):
    """Something the operator asked that cannot be done (one line)."""


async def _account(store: Store, name: str) -> tuple[str, str]:
    found = await store.account(name)
    if found is None or found.player.username is None:
        raise AdminError(f"no account is called {name!r}")
    return found.player.id, found.player.username


async def run(args: argparse.Namespace) -> str:
    """Do what ``args`` say; the line to print."""
    store = open_store(args.db, args.data_dir)
    await store.open()
    try:
        if args.action == "moderators":
            names = []
            for player_id in await store.moderators():
                player = await store.player(player_id)
                if player is not None:
                    names.append(player.username or player.nickname)
            return "\n".join(sorted(names)) if names else "no moderators"
        player_id, username = await _account(store, args.name)
        standing = await store.standing(player_id)
        role = args.role if args.action == "grant" else None
        if standing.role == role:
            return f"{username} {'is' if role else 'is not'} a {args.role} already"
        await store.change_standing(player_id, StandingChange(role=role,
                                                              clear_role=role is None))
        await store.append_mod_log(ModLogRow(
            datetime.now(UTC), OPERATOR, OPERATOR, player_id, username,
            f"{args.action}_{args.role}", "by the operator (basra admin)"))
        return f"{username} {'is now' if role else 'is no longer'} a {args.role}"
    finally:
        await store.close()


def main(argv: Sequence[str]) -> int:
    """Run ``basra admin``; returns the exit status."""
    parser = OneLineParser(prog="basra admin",
                           description="the operator's commands against the database")
    parser.add_argument("--db", metavar="URL", default=os.environ.get("BASRA_DB") or None,
                        help="database URL (default: $BASRA_DB, else SQLite in the data "
                             "directory)")
    parser.add_argument("--data-dir", type=Path, help="where SQLite keeps its file")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    for action, text in (("grant", "give an account a role"),
                         ("revoke", "take a role back")):
        cmd = actions.add_parser(action, help=text)
        cmd.add_argument("name", help="the account's username")
        cmd.add_argument("role", choices=ROLES)
    actions.add_parser("moderators", help="list the moderators")
    args = parse_or_status(parser, argv)
    if isinstance(args, int):
        return args
    try:
        print(asyncio.run(run(args)))
    except (AdminError, StoreError, OSError) as exc:
        print(f"basra admin: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["main", "run"]

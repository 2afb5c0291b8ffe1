#!/usr/bin/env bash
# The bot ladder on duplicate deals (basra arena): each level against the one below, and the
# example external engine against random (a smoke test of the engine protocol).
#
#   benchmarks/arena.sh [ROUNDS] [JOBS]     defaults: 200 deals, one worker per CPU
#
# Environment: PYTHON (default .venv/bin/python), HARD (the hard player, default "hard",
# i.e. 1500 iterations a play with no time cap; try HARD=hard/300 on a pure-Python build),
# SEED (default 1), ARENA_FLAGS (extra flags, e.g. "--json" or "--variant serbian").
# Every figure is reproducible given the seed and independent of JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-200}
jobs=${2:-$(nproc 2>/dev/null || echo 1)}
py=${PYTHON:-.venv/bin/python}
hard=${HARD:-hard}
seed=${SEED:-1}
read -r -a extra <<< "${ARENA_FLAGS:-}"

duel() {
    echo "== $1 vs $2 ($rounds deals, seed $seed)"
    "$py" -m basra.arena.command --a "$1" --b "$2" --rounds "$rounds" --seed "$seed" --jobs "$jobs" \
        ${extra[@]+"${extra[@]}"}
}

duel easy random
duel medium easy
duel "$hard" medium
duel "cmd:$py examples/random_bot.py" random

#!/usr/bin/env bash
# The expert's figures (issue 13), every run on the deals of benchmarks/openings.txt so runs
# of different players play the same cards; no time caps, so every figure is reproducible
# (think times are this machine's).
#
#   benchmarks/expert.sh [OUT] [JOBS]     OUT: folder for the JSON reports (default
#                                          benchmarks/results), JOBS default: one per CPU
#
# Environment: PYTHON (default .venv/bin/python), SEED (the bots' seed; default: a fresh one,
# reported in each JSON report, so a run is repeated by giving its seed), MATCHES (expert vs hard matches, 60),
# ROUNDS (expert vs the rival, 40), VARIANT_ROUNDS (each other variant, 24), TEAMS_ROUNDS
# (egyptian four in teams, 100), LADDER (level pairs below the expert, 100).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-benchmarks/results}
jobs=${2:-$(nproc 2>/dev/null || echo 1)}
py=${PYTHON:-.venv/bin/python}
openings=benchmarks/openings.txt
mkdir -p "$out"

duel() {  # NAME A B ARGS...
    local name=$1 a=$2 b=$3
    shift 3
    echo "== $name: $a vs $b $*" >&2
    "$py" -m basra.arena.command --a "$a" --b "$b" --openings "$openings" --jobs "$jobs" --json \
        ${SEED:+--seed "$SEED"} "$@" > "$out/$name.json"
}

duel expert-hard-matches expert hard --matches "${MATCHES:-60}"
duel expert-rival expert "cmd:$py benchmarks/rival_bot.py" --rounds "${ROUNDS:-40}"
for v in arabic101 lebanese serbian; do
    duel "expert-hard-$v" expert hard --variant "$v" --rounds "${VARIANT_ROUNDS:-24}"
done
duel expert-hard-egyptian-teams expert hard --players 4 --rounds "${TEAMS_ROUNDS:-100}"
duel hard-medium hard medium --rounds "${LADDER:-100}"
duel medium-easy medium easy --rounds "${LADDER:-100}"
duel easy-random easy random --rounds "${LADDER:-100}"

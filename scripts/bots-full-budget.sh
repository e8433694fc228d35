#!/usr/bin/env bash
# The computer players' full-budget figures (issue 36): hard at its real time limit of play
# (400 playouts within 900 ms a decision, `Budget::for_play`), in matches too long for
# `cargo bench --bench bots`. Each match is split by seed range into parts played by N
# processes at once (one core each: the time limit is wall-clock), and the parts' reports are
# merged into one table (`skymines simulate --merge`).
#
#   scripts/bots-full-budget.sh [N]      N processes (default: the machine's cores)
#
# Resumable: each part's report is kept in $OUT (default target/bots-full-budget) and a rerun
# plays only the parts that have none (delete the folder to start afresh). Other processes on
# the machine slow the clock-bound player down: run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-$(nproc)}
OUT=${OUT:-target/bots-full-budget}
cargo build --release --bin skymines
BIN=target/release/skymines
mkdir -p "$OUT"
FULL=(--playouts 400 --think-ms 900)

# play NAME GAMES FIRST_SEED SIMULATE-ARGS...: GAMES games (seeds FIRST_SEED…) in parts of an
# even number of games (players change seats every game), N at a time, then the merged table.
play() {
    local name=$1 games=$2 seed=$3
    shift 3
    local per=$(((games + N - 1) / N))
    per=$((per + per % 2))
    local files=()
    local first
    for ((first = 0; first < games; first += per)); do
        local count=$((games - first < per ? games - first : per))
        local file="$OUT/$name.seed$((seed + first)).games$count.json"
        files+=("$file")
        if [ ! -s "$file" ]; then
            ("$BIN" simulate "$@" --games "$count" --seed "$((seed + first))" --threads 1 --json \
                >"$file.part" && mv "$file.part" "$file") &
        fi
    done
    wait
    echo
    echo "== $name: $games games from seed $seed (simulate $*)"
    "$BIN" simulate --merge "${files[@]}"
}

started=$(date +%s)
# Against Luna: the booklet's standard level (2) and level 5, 100 solo games each.
play hard-full-vs-luna2 100 2000 --bots hard --players 1 --luna 2 "${FULL[@]}"
play hard-full-vs-luna5 100 2000 --bots hard --players 1 --luna 5 "${FULL[@]}"
# Time buys strength: hard at its full budget against hard at the tables' 12 playouts.
play hard-full-vs-hard12 200 1000 --bots hard,hard --players 2 --playouts 400,12 --think-ms 900,0
# Hard at its full budget against the other levels.
play hard-full-vs-normal 200 1000 --bots hard,normal --players 2 "${FULL[@]}"
play hard-full-vs-easy 200 1000 --bots hard,easy --players 2 "${FULL[@]}"
echo
echo "whole run: $(($(date +%s) - started)) s on $N processes"

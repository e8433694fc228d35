#!/usr/bin/env bash
# The computer players' big run (issue 36) on a many-core machine, from the release binary
# alone (it embeds assets/; nothing is built here): first the learned estimate trained at full
# size, then the strength tables played with that estimate. Everything goes under $OUT.
#
#   OUT=/some/folder scripts/device-bots.sh [BIN]      BIN: default target/release/skymines
#
# Sizes (environment, defaults for 16 cores and about 8 minutes):
#   THREADS (nproc)  TRAIN_GAMES (1000 a round)  TRAIN_ITERATIONS (3)  TRAIN_SEED (1)
#   TABLE_GAMES (200 two-player games a pairing)  LUNA_GAMES (100 solo games a level)
#   FULL_GAMES (32: the full-budget matches, hard at 400 playouts within 900 ms a decision)
#   DEADLINE (400 s: a table that would start later than this is skipped, and said so)
#   LIMIT (470 s: a full-budget wave is not started if one more, as long as the last, would
#   end later than this)
#
# The full-budget matches are played last, in waves of THREADS games, as many as fit.
# Outputs: estimate.toml (commit it as assets/estimate.toml), train.log, one NAME.txt and
# NAME.json per table, summary.txt (every table's text, in order) and timings.txt.
# The training's numbers do not depend on THREADS; the tables' results do not either (each
# game is seeded alone) except the full-budget ones, whose clock makes them machine-dependent.
set -uo pipefail
BIN=${1:-target/release/skymines}
OUT=${OUT:-target/device-bots}
THREADS=${THREADS:-$(nproc)}
TRAIN_GAMES=${TRAIN_GAMES:-1000}
TRAIN_ITERATIONS=${TRAIN_ITERATIONS:-3}
TRAIN_SEED=${TRAIN_SEED:-1}
TABLE_GAMES=${TABLE_GAMES:-200}
LUNA_GAMES=${LUNA_GAMES:-100}
FULL_GAMES=${FULL_GAMES:-32}
DEADLINE=${DEADLINE:-400}
LIMIT=${LIMIT:-470}
mkdir -p "$OUT"
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
: >"$OUT/summary.txt"
: >"$OUT/timings.txt"

echo "== training: $TRAIN_GAMES games a round, $TRAIN_ITERATIONS rounds, seed $TRAIN_SEED, $THREADS threads"
t0=$(date +%s)
if ! "$BIN" train --games "$TRAIN_GAMES" --iterations "$TRAIN_ITERATIONS" --seed "$TRAIN_SEED" \
    --threads "$THREADS" --out "$OUT/estimate.toml" 2>&1 | tee "$OUT/train.log"; then
    echo "training failed" | tee -a "$OUT/summary.txt"
    exit 1
fi
echo "train $(($(date +%s) - t0)) s" >>"$OUT/timings.txt"
{
    echo "== training ($TRAIN_GAMES games a round, $TRAIN_ITERATIONS rounds, seed $TRAIN_SEED)"
    cat "$OUT/train.log"
    echo
} >>"$OUT/summary.txt"
EST=(--estimate "$OUT/estimate.toml")

# table NAME SIMULATE-ARGS...: one match, its text and JSON reports.
table() {
    local name=$1
    shift
    if [ "$(elapsed)" -ge "$DEADLINE" ]; then
        echo "== $name: skipped at $(elapsed) s (DEADLINE $DEADLINE s)" | tee -a "$OUT/summary.txt"
        return
    fi
    local t0
    t0=$(date +%s)
    "$BIN" simulate "$@" "${EST[@]}" --threads "$THREADS" --json >"$OUT/$name.json" 2>"$OUT/$name.err"
    "$BIN" simulate --merge "$OUT/$name.json" >"$OUT/$name.txt" 2>>"$OUT/$name.err"
    {
        echo "== $name (simulate $*)"
        cat "$OUT/$name.txt" "$OUT/$name.err"
        echo
    } | tee -a "$OUT/summary.txt"
    echo "$name $(($(date +%s) - t0)) s" >>"$OUT/timings.txt"
}

T12=(--playouts 12)
# Against Luna: the booklet's standard level (2) and level 5 (hard at the tables' 12 playouts;
# normal too, for the points by category).
table hard12-vs-luna2 --bots hard --players 1 --luna 2 "${T12[@]}" --games "$LUNA_GAMES" --seed 2000
table hard12-vs-luna5 --bots hard --players 1 --luna 5 "${T12[@]}" --games "$LUNA_GAMES" --seed 2000
table normal-vs-luna2 --bots normal --players 1 --luna 2 --games "$LUNA_GAMES" --seed 2000
# The levels against each other (two-player games, seats changing every game).
table hard12-vs-normal --bots hard,normal --players 2 "${T12[@]}" --games "$TABLE_GAMES" --seed 1000
table normal-vs-easy --bots normal,easy --players 2 --games "$TABLE_GAMES" --seed 1000
table hard12-vs-easy --bots hard,easy --players 2 "${T12[@]}" --games "$TABLE_GAMES" --seed 1000
# The learned estimate against the hand-weighted one it replaced, both played by normal.
table normal-learned-vs-handmade --bots normal,normal --estimators learned,handmade --players 2 \
    --games "$TABLE_GAMES" --seed 1000
# parts NAME GAMES SEED SIMULATE-ARGS...: a clock-bound match in waves of THREADS games (one
# thread a core), each wave a seed range of its own, as many waves as the DEADLINE allows; the
# waves played are merged into one table.
parts() {
    local name=$1 games=$2 seed=$3
    shift 3
    local per=$((THREADS + THREADS % 2)) files=() first t0 wave=0 w0
    t0=$(date +%s)
    for ((first = 0; first < games; first += per)); do
        if [ $(($(elapsed) + wave)) -ge "$LIMIT" ]; then
            echo "== $name: stopped after $first games at $(elapsed) s (the next wave would end past LIMIT $LIMIT s)" | tee -a "$OUT/summary.txt"
            break
        fi
        w0=$(date +%s)
        local count=$((games - first < per ? games - first : per))
        local file="$OUT/$name.seed$((seed + first)).json"
        if "$BIN" simulate "$@" "${EST[@]}" --games "$count" --seed "$((seed + first))" \
            --threads "$THREADS" --json >"$file" 2>>"$OUT/$name.err"; then
            files+=("$file")
        fi
        wave=$(($(date +%s) - w0))
    done
    if [ ${#files[@]} -gt 0 ]; then
        "$BIN" simulate --merge "${files[@]}" >"$OUT/$name.txt" 2>>"$OUT/$name.err"
        "$BIN" simulate --merge "${files[@]}" --json >"$OUT/$name.json" 2>>"$OUT/$name.err"
    fi
    {
        echo "== $name (simulate $*, seeds from $seed)"
        cat "$OUT/$name.txt" "$OUT/$name.err" 2>/dev/null
        echo
    } | tee -a "$OUT/summary.txt"
    echo "$name $(($(date +%s) - t0)) s" >>"$OUT/timings.txt"
}

# Time buys strength: hard at its full budget of play (400 playouts within 900 ms a decision)
# against hard at 12 playouts, then hard at its full budget against Luna level 2.
parts hard-full-vs-hard12 "$FULL_GAMES" 1000 --bots hard,hard --players 2 --playouts 400,12 \
    --think-ms 900,0
parts hard-full-vs-luna2 "$FULL_GAMES" 2000 --bots hard --players 1 --luna 2 --playouts 400 \
    --think-ms 900
echo "whole run $(elapsed) s on $THREADS threads" | tee -a "$OUT/timings.txt"
cat "$OUT/timings.txt" >>"$OUT/summary.txt"

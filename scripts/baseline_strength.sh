#!/usr/bin/env bash
# Tenfold at a fixed time per move against the built-in `random` and `greedy` players in
# every built-in game (issue #9's sanity check of strength). Writes one PGN and one JSON
# summary per game into OUT and prints the score lines.
#
#   scripts/baseline_strength.sh [GAMES_PER_PAIRING] [SECONDS_PER_MOVE] [OUT]
set -euo pipefail
games=${1:-100}
st=${2:-0.1}
out=${3:-strength}
cd "$(dirname "$0")/.."
cargo build --release --quiet
mkdir -p "$out"
# The engines are started from a copy, so a rebuild during the run cannot pull the
# binary out from under them.
cp target/release/tenfold "$out/tenfold"
bin=$out/tenfold
for v in ${VARIANTS:-$("$bin" variants | awk '{print $1}')}; do
    rm -f "$out/$v.pgn"
    "$bin" match --variant "$v" \
        --engine name=Tenfold,threads=1,hash=16 \
        --engine name=random,player=random \
        --engine name=greedy,player=greedy \
        --each "st=$st" --games "$games" --concurrency 2 --maxmoves 300 \
        --seed 1 --pgnout "$out/$v.pgn" --json >"$out/$v.json"
    "$bin" pgn --check "$out/$v.pgn" >/dev/null
    python3 - "$v" "$out/$v.json" <<'PY'
import json, sys
v, path = sys.argv[1], sys.argv[2]
for r in json.load(open(path))["results"]:
    if r["engine"] == "Tenfold":
        print(f"{v:14} vs {r['opponent']:7} +{r['wins']} -{r['losses']} ={r['draws']}  "
              f"{100 * r['score']:.1f}%")
PY
done

#!/usr/bin/env bash
# Regenerates the pictures in docs/pictures/ (shown by README.md and docs/pictures.md):
# the start position of each seed game and one distinctive piece of each, made by
# `tenfold diagram` and `tenfold describe --svg` alone. With rsvg-convert installed
# (Debian: librsvg2-bin) it also checks that each one renders.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
t=target/release/tenfold
out=docs/pictures
mkdir -p "$out"

for game in wildeurasian archmage augsburg combined-arms; do
    "$t" diagram --variant "$game" --svg "$out/$game.svg"
done

# One piece each: a hopper, a bent rider, a leaper compound of the stacking game, and
# (in a position, since it is a path rather than an atom) the armor's killing path.
"$t" describe --variant wildeurasian C --svg "$out/wildeurasian-cannon.svg" > /dev/null
"$t" describe --variant archmage G --svg "$out/archmage-griffon.svg" > /dev/null
"$t" describe --variant augsburg L --svg "$out/augsburg-longbowman.svg" > /dev/null
"$t" describe --variant combined-arms --fen "4k3/8/3p4/2p5/3N1p2/8/3P4/4K3 w - - 0 1" \
    --from d4 --svg "$out/combined-arms-armor.svg" > /dev/null

if command -v rsvg-convert > /dev/null; then
    for f in "$out"/*.svg; do
        rsvg-convert "$f" > /dev/null
    done
    echo "rendered $(ls "$out"/*.svg | wc -l) pictures"
fi

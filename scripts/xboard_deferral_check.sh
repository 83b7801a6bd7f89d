#!/usr/bin/env bash
# A Grand Pawn that stays one on its 8th or 9th rank, through the real XBoard: XBoard 4.9
# gives a bare coordinate move onto a Pawn's last three ranks its default promotion
# (`d6e7` became `d6e7q`), so Tenfold writes the deferral with the Pawn's own letter
# (`d6e7p`). A game rarely reaches one, so a stub first engine plays it on purpose from a
# loaded position where White has lost nothing (no promotion is possible), with Tenfold
# second. Passes when XBoard relays `d6e7p`, Tenfold keeps a Pawn on e8 (its `# FEN`)
# and nobody reports an illegal move or an error. Log under target/xboard-deferral/.
# Needs: xboard, xvfb.
set -u
cd "$(dirname "$0")/.."
CHECK_NAME=xboard_deferral_check OUT_DIR=xboard-deferral DISPLAY_BASE=310
# shellcheck source=scripts/xboard_env.sh
source scripts/xboard_env.sh
log="$OUT/grand.log"
rm -f "$log"
# Before White's d7xe8 (Tenfold's ranks; XBoard's d6e7).
echo "r4r4/1nbqkca1n1/pp1ppp1ppp/2pP2p3/4b5/10/2N7/PPP1PPPPPP/2BQKCABN1/R8R w - - 0 5" >"$OUT/start.fen"
stub="$PWD/scripts/xboard_stub.sh $T d6e7p 0"
(cd "$OUT" && timeout 60 "${XBOARD_RUN[@]}" -fcp "$stub" -scp "$T xboard" -variant grand \
    -lpf "$OUT/start.fen" -mode TwoMachines -tc 0:05 -inc 0 -matchGames 1 \
    -debug -nameOfDebugFile "$log" -popupExitMessage false >"$OUT/xboard.out" 2>&1)
why=""
grep -qE ">second: .*d6e7p" "$log" || why="$why XBoard did not relay d6e7p;"
grep -qE "<second *: # FEN r4r4/1nbqkca1n1/pp1pPp1ppp/" "$log" || why="$why Tenfold has no Pawn on e8;"
bad=$(grep -E "[Ii]llegal move|<(first|second) *: *Error|Forfeit" "$log" | head -2)
[ -n "$bad" ] && why="$why $bad"
if [ -n "$why" ]; then
    echo "FAIL grand deferral:$why (log $log)"
    exit 1
fi
echo "ok   grand deferral: XBoard relayed d6e7p and Tenfold kept a Pawn on e8"

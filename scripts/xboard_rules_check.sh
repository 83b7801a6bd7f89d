#!/usr/bin/env bash
# En passant and castling in games XBoard learns from Tenfold's `setup` and `piece` lines,
# through the real XBoard with its move check on. XBoard moves a described piece by its
# Betza alone, so these rules must be in the descriptions (a pawn's `fmWfceF…`, Shako's
# king `KisjO2`); without them XBoard forfeited Tenfold for a legal `d4c3` in Embassy and
# a castling in Shako. The games seldom reach these moves by themselves, so two stub
# engines play them on purpose: the first describes the game exactly as `tenfold xboard`
# does, then each side plays its list and resigns when it runs out. Passes when the game
# ends by that resignation, the PGN shows the expected moves, and XBoard reports no
# invalid or illegal move. Logs under target/xboard-rules/.
# Needs: xboard, xvfb.
set -u
cd "$(dirname "$0")/.."
CHECK_NAME=xboard_rules_check OUT_DIR=xboard-rules DISPLAY_BASE=410
# shellcheck source=scripts/xboard_env.sh
source scripts/xboard_env.sh

stub="$PWD/scripts/xboard_stub.sh"

failed=0
# game | White's moves | Black's moves (XBoard's coordinates) | what the PGN must show
cases=(
    # Black's d-pawn takes c4 en passant (XBoard writes it as a capture only if it knows).
    "embassy|a2a3 b2b3 c2c4 h2h3|d7d5 d5d4 d4c3|3. c4 dxc3"
    # Shako's king stands on the second rank beside a rook one file in from the edge:
    # White castles long (f1d1, the rook b1 to e1), Black short (f8h8, i8 to g8), and
    # each castled rook then moves from its new square, which XBoard's board must agree on.
    "shako|c1b3 e2e4 d1e2 e2f3 e1e2 f1d1 e1f1 a2a3|h8g6 h7h6 g8h7 f8h8 g8f8 a7a6 a6a5|4. Bf3 Kh8 5. Qe2 Rf8 6. Kd1 a6 7. Rf1"
)
for c in "${cases[@]}"; do
    IFS='|' read -r g white black want <<<"$c"
    log="$OUT/$g.log"; pgn="$OUT/$g.pgn"
    rm -f "$log" "$pgn"
    (cd "$OUT" && timeout 60 "${XBOARD_RUN[@]}" -fcp "$stub $T '$white' 1" -scp "$stub $T '$black' 0" \
        -variant "$g" -testLegality true -tc 0:30 -inc 0 -matchGames 1 -debug -nameOfDebugFile "$log" \
        -saveGameFile "$pgn" -xponder -popupExitMessage false >"$OUT/$g.out" 2>&1)
    why=""
    bad=$(grep -E "Forfeit|[Ii]llegal move|invalid move|<(first|second) *: *Error" "$log" | head -2)
    [ -n "$bad" ] && why="$why $bad;"
    grep -qE "(White|Black) resigns" "$log" || why="$why the game did not end by the stub's resignation;"
    moves=$(grep -v '^\[' "$pgn" 2>/dev/null | tr '\n' ' ' | tr -s ' ')
    [[ $moves == *"$want"* ]] || why="$why PGN lacks '$want' (has: $moves);"
    if [ -n "$why" ]; then
        echo "FAIL $g:$why (log $log)"
        failed=$((failed + 1))
    else
        echo "ok   $g: XBoard took '$want'"
    fi
done
echo "xboard_rules_check: $(( ${#cases[@]} - failed )) passed, $failed failed"
[ $failed -eq 0 ]

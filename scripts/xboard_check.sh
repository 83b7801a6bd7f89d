#!/usr/bin/env bash
# XBoard plays every built-in game, Tenfold against Tenfold, in two-machine mode under
# Xvfb. Fails on any forfeit, illegal move or `Error` in XBoard's debug log, on a game
# shorter than MIN_PLIES that no engine ended by the rules, or when the two engines end
# on different positions (each prints `# FEN` after every move). A game XBoard forfeits
# for a move from a square its board emptied after a move Tenfold named as one it
# cannot show (`# XBoard cannot show`: an Augsburg split) is reported as LIMIT. Keeps
# the debug log, the PGN and a screenshot per game under target/xboard/.
# Needs: xboard, xvfb; screenshots also x11-apps (xwd) and imagemagick (convert).
# Usage: scripts/xboard_check.sh [GAME…]     (default: every built-in)
# Environment: TC, INC (XBoard's -tc and -inc), MIN_PLIES, XBOARD_ARGS (extra options).
set -u
cd "$(dirname "$0")/.."
MIN_PLIES=${MIN_PLIES:-40}
TC=${TC:-0:10}
INC=${INC:-0.2}
CHECK_NAME=xboard_check OUT_DIR=xboard DISPLAY_BASE=90
# shellcheck source=scripts/xboard_env.sh
source scripts/xboard_env.sh
games=("$@")
[ ${#games[@]} -eq 0 ] && mapfile -t games < <("$T" variants | awk '{print $1}')

# True when Tenfold finds the game over by the rules after the log's last move, played
# from the position its mover logged last (XBoard's own mate or stalemate adjudication).
rules_end_after_last_move() {
    local fen_move
    grep -qE 'GameEnds\([0-9]+, Xboard adjudication: (Checkmate|Stalemate)' "$2" || return 1
    fen_move=$(awk '/<(first|second) *: # FEN /{ split($2, a, ":"); sub(/.*# FEN /, ""); fen[a[1]] = $0; next }
        /<(first|second) *: move /{ split($2, a, ":"); last = fen[a[1]] "|" $NF }
        END { print last }' "$2")
    [ "${fen_move%|*}" != "" ] || return 1
    printf 'xboard\nprotover 2\nvariant %s\nforce\nsetboard %s\nusermove %s\nquit\n' \
        "$1" "${fen_move%|*}" "${fen_move##*|}" | "$T" xboard | grep -qE '^(1-0|0-1|1/2-1/2) \{'
}

failed=0
limited=0
for g in "${games[@]}"; do
    log="$OUT/$g.log"; pgn="$OUT/$g.pgn"; png="$OUT/$g.png"
    rm -f "$log" "$pgn" "$png"
    # XBoard calls FIDE chess "normal"; every other game goes by Tenfold's name.
    xv=$g; [ "$g" = chess ] && xv=normal
    # Games with a mechanism XBoard's move check has no form for: Tenfold says which
    # (a `# XBoard cannot check:` line after `setup`), and XBoard then only relays moves.
    legality="-testLegality true"
    unchecked=$(printf 'xboard\nprotover 2\nvariant %s\nquit\n' "$g" | "$T" xboard \
        | grep -m1 '^# XBoard cannot check:')
    [ -n "$unchecked" ] && legality="-testLegality false"
    (cd "$OUT" && timeout 300 "${XBOARD_RUN[@]}" -fcp "$T xboard" -scp "$T xboard" -variant "$xv" $legality ${XBOARD_ARGS:-} \
        -tc "$TC" -inc "$INC" -matchGames 1 -debug -nameOfDebugFile "$log" \
        -saveGameFile "$pgn" -xponder -popupExitMessage false -autoCallFlag true \
        >"$OUT/$g.out" 2>&1) &
    xb=$!
    # Screenshots while the game runs; the last one before the window closes is kept.
    while kill -0 $xb 2>/dev/null; do
        sleep 2
        if command -v xwd >/dev/null && command -v convert >/dev/null; then
            xwd -root -silent 2>/dev/null | convert xwd:- -trim "$png.tmp.png" 2>/dev/null \
                && kill -0 $xb 2>/dev/null && mv -f "$png.tmp.png" "$png"
        fi
    done
    rm -f "$png.tmp.png"
    wait $xb
    why=""
    bad=$(grep -E "Forfeit|[Ii]llegal move|<(first|second) *: *Error|invalid move" "$log" | head -3)
    [ -n "$bad" ] && why="$bad"
    plies=$(grep -cE "<(first|second) *: move " "$log")
    # Each engine logs `# FEN` after every move it makes or receives. The two lists must
    # agree, except that the game may end on a move the other engine never received.
    grep -E "<first *: # FEN" "$log" | sed 's/.*# FEN //' >"$OUT/$g.fens1"
    grep -E "<second *: # FEN" "$log" | sed 's/.*# FEN //' >"$OUT/$g.fens2"
    n1=$(wc -l <"$OUT/$g.fens1"); n2=$(wc -l <"$OUT/$g.fens2")
    n=$(( n1 < n2 ? n1 : n2 ))
    if [ "$n" -eq 0 ] || [ $(( n1 > n2 ? n1 - n2 : n2 - n1 )) -gt 1 ] \
        || ! cmp -s <(head -n "$n" "$OUT/$g.fens1") <(head -n "$n" "$OUT/$g.fens2"); then
        why="$why engines end on different positions ($n1 and $n2 positions logged:"
        why="$why $(tail -n1 "$OUT/$g.fens1") / $(tail -n1 "$OUT/$g.fens2"))"
    fi
    # A short game is a failure (something stopped it early) unless it ended by the
    # rules: an engine said so (`1-0 {White mates}` and the like), or XBoard, testing
    # legality, ended it at mate or stalemate itself. XBoard does that on the move that
    # mates, before it reads the mover's own `0-1 {Black mates}`, so Tenfold is asked
    # whether that move, from the mover's last logged position, ends the game.
    if [ "$plies" -lt "$MIN_PLIES" ] && ! grep -qE "<(first|second) *: (1-0|0-1|1/2-1/2) \{" "$log" \
        && ! rules_end_after_last_move "$g" "$log"; then
        ended=$(grep -oE 'GameEnds\([0-9]+, [^,]+' "$log" | grep -v '(null)' | tail -n1 | sed 's/GameEnds([0-9]*, //')
        why="$why only $plies plies (XBoard's end: ${ended:-none})"
    fi
    result=$(grep -E '^\[Result' "$pgn" 2>/dev/null | head -1)
    [ -n "$unchecked" ] && result="$result (legality testing off:${unchecked#\# XBoard cannot check:})"
    # A move XBoard cannot apply (Tenfold names it: `# XBoard cannot show MOVE: why`)
    # leaves XBoard's board a piece short; XBoard then refuses a later move from the
    # square it emptied as invalid. That is XBoard's limit, reported apart.
    unshown=$(grep -E "<(first|second) *: # XBoard cannot show" "$log" | tail -n1 | sed 's/.*# XBoard cannot show //')
    if [ -n "$why" ] && [ -n "$unshown" ] && grep -q "Forfeit due to invalid move" "$log" \
        && ! grep -qE "Forfeit due to illegal|<(first|second) *: (Illegal move|Error)" "$log"; then
        echo "LIMIT $g: after $unshown, XBoard refused: $(grep -m1 -o 'Forfeit due to invalid move: [^ ]*' "$log")"
        limited=$((limited + 1))
    elif [ -n "$why" ]; then
        echo "FAIL $g: $why"
        failed=$((failed + 1))
    else
        echo "ok   $g: $plies plies $result; screenshot $png"
    fi
done
echo "xboard_check: $(( ${#games[@]} - failed - limited )) passed, $failed failed, $limited beyond XBoard"
[ $failed -eq 0 ]

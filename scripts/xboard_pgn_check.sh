#!/usr/bin/env bash
# XBoard loads a PGN that Tenfold wrote and steps through every move. For each game:
# `tenfold match` (greedy against random, fixed seed) writes one game twice, as XBoard
# reads it (`--pgn-notation xboard`) and in Tenfold's coordinates; XBoard (under Xvfb)
# loads the first with `-lgf`, a Tenfold engine attached, and replays it move by move
# (`-timeDelay`), sending each move to the engine in force mode. Passes when the engine
# received every move (its `# FEN` lines in XBoard's debug log, one per move, none
# refused) and its last position is the one Tenfold reaches replaying the coordinates.
# Logs and PGNs go to target/xboard-pgn/.
# Needs: xboard, xvfb.
# Usage: scripts/xboard_pgn_check.sh [GAME…]   (default: every built-in with 10 ranks)
# Environment: PLIES (moves per side before the game is cut off, default 40), SEED.
set -u
cd "$(dirname "$0")/.."
PLIES=${PLIES:-40}
SEED=${SEED:-7}
CHECK_NAME=xboard_pgn_check OUT_DIR=xboard-pgn DISPLAY_BASE=200
# shellcheck source=scripts/xboard_env.sh
source scripts/xboard_env.sh
games=("$@")
[ ${#games[@]} -eq 0 ] && mapfile -t games < <("$T" variants | awk '$2 ~ /x10$/ {print $1}')

# The movetext of the first game of a PGN file, one move per line (tags, comments,
# move numbers and the result left out).
moves_of() {
    awk 'BEGIN{g=0} /^\[Event /{g++} g==1 && !/^\[/' "$1" | tr '\n' ' ' | sed 's/{[^}]*}//g' \
        | tr ' ' '\n' | grep -vE '^$|^[0-9]+\.+$|^(1-0|0-1|1/2-1/2|\*)$'
}

failed=0
for g in "${games[@]}"; do
    xpgn="$OUT/$g.pgn"; lan="$OUT/$g.lan.pgn"; log="$OUT/$g.log"
    rm -f "$xpgn" "$lan" "$log"
    for n in xboard lan; do
        f=$xpgn; [ $n = lan ] && f=$lan
        "$T" match --variant "$g" --engine name=greedy,player=greedy --engine name=random,player=random \
            --games 1 --maxmoves "$PLIES" --seed "$SEED" --pgn-notation $n --pgnout "$f" >/dev/null 2>&1
    done
    mapfile -t lanmoves < <(moves_of "$lan")
    n=${#lanmoves[@]}
    want=$("$T" fen --variant "$g" --moves "${lanmoves[*]}" 2>&1 | sed -n 1p)
    # XBoard reads the file before the engine's answer to `variant` arrives, so the
    # board that answer describes (`setup (LETTERS) WxH+HAND_…`) is given on the command
    # line; the start position is the file's FEN tag.
    desc=$(printf 'xboard\nprotover 2\nvariant %s\nquit\n' "$g" | "$T" xboard)
    board=()
    setup=$(grep -m1 '^setup ' <<<"$desc")
    if [[ $setup =~ ^setup\ \(([^\)]*)\)\ ([0-9]+)x([0-9]+)\+([0-9]+) ]]; then
        board=(-pieceToCharTable "${BASH_REMATCH[1]}" -boardWidth "${BASH_REMATCH[2]}"
            -boardHeight "${BASH_REMATCH[3]}" -holdingsSize "${BASH_REMATCH[4]}")
    fi
    legality="-testLegality true" note=""
    if grep -q '^# XBoard cannot check:' <<<"$desc"; then
        legality="-testLegality false" note=" (legality testing off)"
    fi
    (cd "$OUT" && exec "${XBOARD_RUN[@]}" -fcp "$T xboard" -variant "$g" "${board[@]}" $legality -lgf "$xpgn" -lgi 1 \
        -timeDelay 0.05 -debug -nameOfDebugFile "$log" -popupExitMessage false \
        >"$OUT/$g.out" 2>&1) &
    xb=$!
    # XBoard stays open after the last move: wait until the engine has logged every
    # move, or a minute.
    for _ in $(seq 1 120); do
        sleep 0.5
        got=$(grep -c "<first *: # FEN" "$log" 2>/dev/null)
        [ "${got:-0}" -ge "$n" ] && break
        kill -0 $xb 2>/dev/null || break
    done
    sleep 0.5
    kill $xb 2>/dev/null
    wait $xb 2>/dev/null
    got=$(grep -c "<first *: # FEN" "$log" 2>/dev/null)
    last=$(grep "<first *: # FEN" "$log" | tail -n1 | sed 's/.*# FEN //')
    why=""
    bad=$(grep -E "<first *: (Illegal move|Error)|Bad FEN|[Ii]llegal move \"" "$log" | head -2)
    [ -n "$bad" ] && why="$bad;"
    [ "${got:-0}" -ne "$n" ] && why="$why XBoard passed on ${got:-0} of $n moves;"
    [ "$last" != "$want" ] && why="$why engine ends on \"$last\", Tenfold's replay on \"$want\""
    if [ "$n" -eq 0 ]; then
        why="no game written"
    fi
    if [ -n "$why" ]; then
        echo "FAIL $g: $why"
        failed=$((failed + 1))
    else
        echo "ok   $g: XBoard read all $n moves of $xpgn$note"
    fi
done
echo "xboard_pgn_check: $(( ${#games[@]} - failed )) passed, $failed failed"
[ $failed -eq 0 ]

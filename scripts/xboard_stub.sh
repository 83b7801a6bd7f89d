#!/usr/bin/env bash
# A stub XBoard engine for the checks that play chosen moves on purpose:
#   xboard_stub.sh TENFOLD "MOVES" DESCRIBE
# Speaks just enough CECP to play MOVES (XBoard's coordinates) in turn, one each time it
# is on move, and resigns when they run out; with DESCRIBE=1 it answers `variant` with
# Tenfold's own `setup` and `piece` lines, so XBoard learns the game as from Tenfold.
T=$1
read -ra moves <<<"$2"
describe=$3
next=0
force=0
play() {
    if [ $next -lt ${#moves[@]} ]; then
        echo "move ${moves[$next]}"
        next=$((next + 1))
    else
        echo "resign"
    fi
}
while read -r line; do
    case "$line" in
        protover*) echo 'feature myname="stub" usermove=1 setboard=1 sigint=0 sigterm=0 done=1' ;;
        variant*) [ "$describe" = 1 ] && printf 'xboard\nprotover 2\n%s\nquit\n' "$line" \
            | "$T" xboard | grep -E '^(setup|piece) ' ;;
        force) force=1 ;;
        go) force=0; play ;;
        usermove*) [ $force = 0 ] && play ;;
        ping*) echo "pong ${line#ping }" ;;
        quit) exit 0 ;;
    esac
done

# Sourced by the XBoard scripts (run from the repository root): checks that XBoard and
# Xvfb are installed, builds Tenfold, and starts a private Xvfb display that is killed
# when the script exits.
# In: CHECK_NAME (for messages), OUT_DIR (a folder under target/), DISPLAY_BASE.
# Out: XBOARD, XBOARD_RUN (XBoard's command with the options every check needs), T (the
# tenfold binary), OUT, DISPLAY.
XBOARD=${XBOARD:-$(command -v xboard || echo /usr/games/xboard)}
for tool in "$XBOARD" Xvfb; do
    command -v "$tool" >/dev/null || { echo "$CHECK_NAME: $tool not installed"; exit 1; }
done
cargo build --release --quiet || exit 1
T="$PWD/target/release/tenfold"
OUT="$PWD/target/$OUT_DIR"
mkdir -p "$OUT"
# XBoard reads ~/.xboardrc and writes its settings back there on exit, so one game's
# `-testLegality false` would carry into every later game, here and in the user's own
# XBoard. Each check runs it with an empty home of its own and saves nothing.
mkdir -p "$OUT/home"
XBOARD_RUN=(env HOME="$OUT/home" "$XBOARD" -saveSettingsOnExit false)

DISPLAY_NUM=${DISPLAY_NUM:-$((DISPLAY_BASE + RANDOM % 100))}
Xvfb ":$DISPLAY_NUM" -screen 0 1280x1024x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null' EXIT
sleep 1
export DISPLAY=":$DISPLAY_NUM"

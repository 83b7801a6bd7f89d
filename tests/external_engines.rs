//! Tenfold against the engines and clients of the ecosystem, as Debian ships them:
//! `tenfold match` refereeing Fairy-Max and Fairy-Stockfish over XBoard, and
//! python-chess's XBoard client analysing with `tenfold xboard`. A test whose program
//! is missing fails under `CI=true` (CI installs them) and says why it skips otherwise.

use std::path::Path;
use std::process::Command;

/// The program if it is installed; None (after saying so) when it is not and this is
/// not CI, where it must be.
fn require(program: &str) -> Option<String> {
    let found = [program.to_string(), format!("/usr/games/{program}")]
        .into_iter()
        .find(|p| Path::new(p).is_file() || which(p));
    if found.is_none() {
        let why = format!("{program} is not installed (apt-get install -y {program})");
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("skipped: {why}");
    }
    found
}

fn which(p: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {p}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Plays `games` games of `variant` between Tenfold and the XBoard engine `cmd`; returns
/// the PGN, after checking the match ran and every game replays.
fn match_against(cmd: &str, variant: &str, games: u32) -> String {
    let pgn = std::env::temp_dir().join(format!(
        "tenfold-ext-{}-{variant}-{}.pgn",
        cmd.rsplit('/').next().unwrap_or(cmd),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args([
            "match",
            "--variant",
            variant,
            "--engine",
            "name=Tenfold",
            "--engine",
            &format!("name=Ext,cmd={cmd},proto=xboard"),
            "--each",
            "st=0.05",
            "--games",
            &games.to_string(),
            "--concurrency",
            "2",
            "--maxmoves",
            "30",
            // These games check the protocols and the referee, not a clock. Fairy-Max
            // reads `st 0.05` as whole seconds (none) and answers at depth 1 in its own
            // time, which on a loaded two-core machine sometimes passed the default
            // 100 ms margin; a hung engine still loses after this second.
            "--timemargin",
            "1000",
            "--pgnout",
            pgn.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let check = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(["pgn", "--check", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let _ = std::fs::remove_file(&pgn);
    text
}

/// No game ended by a fault: only the rules or the move cap end them.
fn assert_no_forfeit(text: &str, games: usize) {
    assert_eq!(text.matches("[Result ").count(), games, "{text}");
    for fault in [
        "rules infraction",
        "abandoned",
        "stalled connection",
        "time forfeit",
    ] {
        assert!(!text.contains(fault), "a game ended by {fault}:\n{text}");
    }
}

#[test]
fn fairy_max_plays_capablanca_and_chess_without_forfeit() {
    let Some(fm) = require("fairymax") else {
        return;
    };
    for variant in ["capablanca", "chess"] {
        assert_no_forfeit(&match_against(&fm, variant, 10), 10);
    }
}

#[test]
fn fairy_stockfish_in_xboard_mode_plays_chess_and_grand_without_forfeit() {
    let Some(fs) = require("fairy-stockfish") else {
        return;
    };
    for variant in ["chess", "grand"] {
        assert_no_forfeit(&match_against(&fs, variant, 10), 10);
    }
}

/// python3 with python-chess, or None (after saying why) outside CI.
fn python_chess() -> Option<String> {
    let py = require("python3")?;
    let has_chess = Command::new(&py)
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_chess {
        let why = "python-chess is not installed (pip install chess)";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("skipped: {why}");
        return None;
    }
    Some(py)
}

/// Runs a python-chess script with the tenfold binary as its argument; its stdout.
fn run_python(py: &str, script: &str) -> String {
    let out = Command::new(py)
        .args(["-c", script, env!("CARGO_BIN_EXE_tenfold")])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// python-chess's `analyse` sends `analyze`, reads thinking output, then `exit`.
#[test]
fn python_chess_analyses_with_tenfold_over_xboard() {
    let Some(py) = python_chess() else {
        return;
    };
    let script = r#"
import sys, chess, chess.engine
engine = chess.engine.SimpleEngine.popen_xboard([sys.argv[1], "xboard"], timeout=20)
board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
info = engine.analyse(board, chess.engine.Limit(time=1.0))
print("depth", info.get("depth"), "pv", " ".join(m.uci() for m in info.get("pv", [])))
print("score", info["score"].white().score(mate_score=100000))
engine.quit()
"#;
    let out = Command::new(&py)
        .args(["-c", script, env!("CARGO_BIN_EXE_tenfold")])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Scholar's mate is on the board: the analysis finds Qxf7#.
    assert!(text.contains("pv h5f7"), "{text}");
}

/// python-chess's MultiPV analysis over UCI: three lines, distinct legal first moves,
/// best first.
#[test]
fn python_chess_multipv_analysis_over_uci() {
    let Some(py) = python_chess() else {
        return;
    };
    let script = r#"
import sys, chess, chess.engine
engine = chess.engine.SimpleEngine.popen_uci([sys.argv[1], "uci"], timeout=20)
board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
infos = engine.analyse(board, chess.engine.Limit(depth=7), multipv=3)
assert len(infos) == 3, infos
firsts = [i["pv"][0] for i in infos]
assert len(set(firsts)) == 3, firsts
assert all(m in board.legal_moves for m in firsts), firsts
scores = [i["score"].relative.score(mate_score=100000) for i in infos]
assert scores == sorted(scores, reverse=True), scores
assert all(i["depth"] == 7 and i["seldepth"] >= 7 and "hashfull" in i for i in infos), infos
# MultiPV back to 1 for play: the move is line one's.
best = engine.analyse(board, chess.engine.Limit(depth=7))["pv"][0]
print("ok", [m.uci() for m in firsts], scores, best.uci())
engine.quit()
"#;
    let text = run_python(&py, script);
    assert!(text.starts_with("ok "), "{text}");
}

/// python-chess playing with `ponder=True` against a clock: `go ponder`, then
/// `ponderhit` when the predicted reply comes (the script plays it) and `stop` when it
/// does not; every move legal and in time.
#[test]
fn python_chess_plays_with_pondering_over_uci() {
    let Some(py) = python_chess() else {
        return;
    };
    let script = r#"
import sys, time, logging, io, chess, chess.engine
log = io.StringIO()
logging.basicConfig(stream=log, level=logging.DEBUG)
engine = chess.engine.SimpleEngine.popen_uci([sys.argv[1], "uci"], timeout=20)
board = chess.Board()
clock = [3.0, 3.0]
game = object()
for ply in range(12):
    if board.is_game_over():
        break
    side = 0 if board.turn == chess.WHITE else 1
    limit = chess.engine.Limit(white_clock=clock[0], black_clock=clock[1], white_inc=0.05, black_inc=0.05)
    t0 = time.perf_counter()
    r = engine.play(board, limit, ponder=True, game=game)
    used = time.perf_counter() - t0
    assert used < clock[side], (ply, used, clock[side])
    clock[side] += 0.05 - used
    assert r.move in board.legal_moves, (r.move, board.fen())
    board.push(r.move)
    # Every third reply is not the one predicted, so pondering must also be stopped.
    if r.ponder is not None and ply % 3 != 2 and r.ponder in board.legal_moves:
        board.push(r.ponder)
    elif not board.is_game_over():
        board.push(sorted(board.legal_moves, key=lambda m: m.uci())[0])
engine.quit()
text = log.getvalue()
print("go ponder", text.count("go ponder"), "ponderhit", text.count("<< ponderhit"), "stop", text.count("<< stop"))
"#;
    let text = run_python(&py, script);
    let count = |k: &str| -> usize {
        let w: Vec<&str> = text.split_whitespace().collect();
        let i = w.iter().position(|x| *x == k).unwrap();
        w[i + 1].parse().unwrap()
    };
    assert!(count("ponder") >= 6, "{text}");
    assert!(count("ponderhit") >= 2, "{text}");
    assert!(count("stop") >= 1, "{text}");
}

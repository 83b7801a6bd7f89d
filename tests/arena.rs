//! The arena against real external processes: a scripted UCI engine (bash around
//! `tenfold moves`) that plays, one that crashes mid-game and one that hangs. The match
//! must go on, record each loss with its reason, and leave no process behind.

mod common;

use common::{temp_path, tenfold};
use std::path::PathBuf;
use std::process::Command;

const SCRIPT: &str = r#"#!/usr/bin/env bash
# A minimal UCI engine: plays the first legal move that `tenfold moves` lists.
# $1 = tenfold binary, $2 = mode (play | crash | hang), $3 = moves before misbehaving;
# then words: score=CP (the score it reports, default 0), second=CP (a MultiPV line 2
# with that score after line 1), prefer=MOVE (played when legal; repeatable),
# sleep=SECS (thinks that long), and a file that receives the pid of each hang's nap.
T="$1"; MODE="$2"; AFTER="${3:-0}"; n=0; fen=""; moves=""
SCORE=0; SECOND=""; PREFER=""; NAP=""; PIDS=""
for w in "${@:4}"; do
  case "$w" in
    score=*) SCORE="${w#score=}" ;;
    second=*) SECOND="${w#second=}" ;;
    prefer=*) PREFER="$PREFER ${w#prefer=}" ;;
    sleep=*) NAP="${w#sleep=}" ;;
    *) PIDS="$w" ;;
  esac
done
while read -r line; do
  case "$line" in
    uci) echo "id name scripted-$MODE"; echo "uciok" ;;
    isready) echo "readyok" ;;
    "position startpos"*) fen=""; moves=""; [[ "$line" == *" moves "* ]] && moves="${line#* moves }" ;;
    "position fen "*) rest="${line#position fen }"; fen="${rest%% moves *}"; moves=""
                      [[ "$rest" == *" moves "* ]] && moves="${rest#* moves }" ;;
    go*) n=$((n+1))
         if [ "$MODE" != play ] && [ "$n" -gt "$AFTER" ]; then
           [ "$MODE" = crash ] && exit 3
           # Nap in a child process, recording its pid when asked to, so the test can
           # check that the engine's whole process group is killed.
           sleep 30 & nap=$!; [ -n "$PIDS" ] && echo "$nap" >> "$PIDS"; wait "$nap"
         fi
         if [ -n "$fen" ]; then all=$("$T" moves --fen "$fen" --moves "$moves")
         else all=$("$T" moves --moves "$moves"); fi
         m=$(printf '%s\n' "$all" | head -n 1)
         for p in $PREFER; do
           if printf '%s\n' "$all" | grep -qx "$p"; then m="$p"; break; fi
         done
         [ -n "$NAP" ] && sleep "$NAP"
         if [ -n "$SECOND" ]; then
           echo "info depth 1 multipv 1 score cp $SCORE pv $m"
           echo "info depth 1 multipv 2 score cp $SECOND pv $m"
         else
           echo "info depth 1 score cp $SCORE pv $m"
         fi
         echo "bestmove $m" ;;
    quit) exit 0 ;;
  esac
done
"#;

const XB_SCRIPT: &str = r#"#!/usr/bin/env bash
# A minimal XBoard engine that keeps its game as moves and checks each it hears with
# `tenfold fen` (answering "Illegal move" when it is not legal there).
# $1 = tenfold binary, $2 = mode: coord (plays the first move `tenfold moves` lists),
# san (plays, in SAN, the first of a few knight and pawn moves that is legal), nonps
# (as coord, answering nps as Fairy-Max does), nps0 (as coord, announcing nps=0),
# claimwin or claimloss (claims, instead of its first move, that it has won or lost);
# $3 = optional file every line it hears is appended to.
T="$1"; MODE="$2"; LOG="${3:-/dev/null}"; moves=""; force=0; nps=""
[ "$MODE" = nps0 ] && nps=" nps=0"
think() {
  m=""
  if [ "$MODE" = claimwin ] || [ "$MODE" = claimloss ]; then
    set -- $moves
    if [ $(( $# % 2 )) = 0 ]; then me=1-0; them=0-1; else me=0-1; them=1-0; fi
    if [ "$MODE" = claimwin ]; then echo "$me {mates}"; else echo "$them {resigns}"; fi
    return
  fi
  if [ "$MODE" = san ]; then
    for c in Nf3 Nc3 Nf6 Nc6 e3 e6 d3 d6 a3 a6 h3 h6; do
      if "$T" fen --moves "$moves $c" >/dev/null 2>&1; then m="$c"; break; fi
    done
  fi
  [ -z "$m" ] && m=$("$T" moves --moves "$moves" | head -n 1)
  moves="$moves $m"
  echo "1 0 1 10 $m"; echo "move $m"
}
while read -r line; do
  echo "$line" >> "$LOG"
  case "$line" in
    protover*) echo "feature ping=1 setboard=0 usermove=1$nps myname=\"scripted-$MODE\" done=1" ;;
    nps*) [ "$MODE" = nonps ] && echo "Error (unknown command): nps" ;;
    ping*) echo "pong ${line#ping }" ;;
    new) moves=""; force=0 ;;
    force) force=1 ;;
    "usermove "*) mv="${line#usermove }"
      if "$T" fen --moves "$moves $mv" >/dev/null 2>&1; then
        moves="$moves $mv"; [ "$force" = 0 ] && think
      else echo "Illegal move: $mv"; fi ;;
    go) force=0; think ;;
    quit) exit 0 ;;
  esac
done
"#;

/// `text` as an executable script `name`, written once for all the tests: a test that
/// wrote it again while another ran it failed on the busy file (ETXTBSY).
fn script_file(name: &str, text: &str, once: &'static std::sync::OnceLock<PathBuf>) -> PathBuf {
    once.get_or_init(|| {
        let path = temp_path(name);
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        path
    })
    .clone()
}

/// An XBoard engine running [`XB_SCRIPT`] in `mode`.
fn xb_engine(name: &str, mode: &str) -> String {
    static ONCE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    format!(
        "name={name},cmd={},arg={},arg={mode},proto=xboard",
        script_file("scripted-xb.sh", XB_SCRIPT, &ONCE).display(),
        env!("CARGO_BIN_EXE_tenfold")
    )
}

fn script() -> PathBuf {
    static ONCE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    script_file("scripted-uci.sh", SCRIPT, &ONCE)
}

fn engine(name: &str, mode: &str, after: u32) -> String {
    format!(
        "name={name},cmd={},arg={},arg={mode},arg={after},proto=uci",
        script().display(),
        env!("CARGO_BIN_EXE_tenfold")
    )
}

/// [`engine`] with the script's optional words (`score=-700`, `prefer=a4b5`, …).
fn engine_with(name: &str, mode: &str, after: u32, words: &[&str]) -> String {
    let mut e = engine(name, mode, after);
    for w in words {
        e += &format!(",arg={w}");
    }
    e
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// `tenfold match` of players `a` and `b` with `extra` options: exit code, stdout, stderr.
fn play(a: &str, b: &str, extra: &[&str]) -> (i32, String, String) {
    let mut list = vec!["match", "--engine", a, "--engine", b];
    list.extend_from_slice(extra);
    tenfold(&args(&list))
}

/// [`play`] with no book plies and the games written to a fresh PGN file `name`; the
/// match must succeed. Stdout and the PGN's text.
fn play_to_pgn(name: &str, a: &str, b: &str, extra: &[&str]) -> (String, String) {
    let pgn = temp_path(name);
    let _ = std::fs::remove_file(&pgn);
    let mut list = vec!["--plies", "0", "--pgnout", pgn.to_str().unwrap()];
    list.extend_from_slice(extra);
    let (code, out, err) = play(a, b, &list);
    assert_eq!(code, 0, "{out}{err}");
    (out, std::fs::read_to_string(&pgn).unwrap())
}

#[test]
fn an_external_uci_engine_plays_and_its_games_replay() {
    let pgn = temp_path("a.pgn");
    let _ = std::fs::remove_file(&pgn);
    let e = engine("S", "play", 0);
    let mut a = args(&[
        "match",
        "--engine",
        &e,
        "--engine",
        "name=R,player=random",
        "--each",
        "st=2",
    ]);
    a.extend(args(&[
        "--games",
        "2",
        "--concurrency",
        "2",
        "--maxmoves",
        "12",
        "--pgnout",
        pgn.to_str().unwrap(),
    ]));
    let (code, out, err) = tenfold(&a);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("2 games played"), "{out}");
    let (code, out, _) = tenfold(&args(&["pgn", "--check", pgn.to_str().unwrap()]));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 passed, 0 failed"));
}

#[test]
fn a_crashing_engine_loses_and_the_match_goes_on() {
    let e = engine("C", "crash", 2);
    let a = args(&[
        "match",
        "--engine",
        &e,
        "--engine",
        "name=R,player=random",
        "--each",
        "st=2",
        "--games",
        "4",
        "--json",
    ]);
    let (code, out, err) = tenfold(&a);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["games"], 4);
    // Every game the crashing engine did not win by move 3 is a loss for it.
    let losses = v["results"][0]["losses"].as_u64().unwrap();
    assert!(losses >= 3, "{out}");
}

#[test]
fn a_hanging_engine_forfeits_on_time_and_is_killed() {
    let pgn = temp_path("h.pgn");
    let _ = std::fs::remove_file(&pgn);
    let pids = temp_path("h.pids");
    let _ = std::fs::remove_file(&pids);
    let e = format!("{},arg={}", engine("H", "hang", 1), pids.display());
    let a = args(&[
        "match",
        "--engine",
        &e,
        "--engine",
        "name=R,player=random",
        "--each",
        "st=0.2",
        "--games",
        "2",
        "--timemargin",
        "100",
        "--pgnout",
        pgn.to_str().unwrap(),
    ]);
    let start = std::time::Instant::now();
    let (code, out, err) = tenfold(&a);
    assert_eq!(code, 0, "{out}{err}");
    // Two forfeits, each within its time plus margin — nowhere near the engine's 30 s nap.
    assert!(start.elapsed().as_secs() < 20);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"stalled connection\"]").count(),
        2,
        "{text}"
    );
    assert!(text.contains("H no move in time"));
    // The engine's own child died with it: no orphaned `sleep 30` outlives the match.
    let naps = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(naps.lines().count(), 2, "{naps}");
    for pid in naps.lines() {
        assert!(
            gone(pid.trim()),
            "the hung engine's child {pid} outlived the match"
        );
    }
}

/// True when the process has exited (no entry in /proc, or only a zombie awaiting its
/// reaper), waiting up to two seconds for the kill to land.
fn gone(pid: &str) -> bool {
    let stat = format!("/proc/{pid}/stat");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        match std::fs::read_to_string(&stat) {
            Err(_) => return true,
            Ok(s)
                if s.rsplit(')')
                    .next()
                    .is_some_and(|r| r.trim_start().starts_with('Z')) =>
            {
                return true
            }
            Ok(_) if std::time::Instant::now() > end => return false,
            Ok(_) => std::thread::sleep(std::time::Duration::from_millis(50)),
        }
    }
}

/// Tenfold itself over XBoard: a time per move, and a node limit sent through CECP's
/// `nps` (the protocol has no node limit of its own).
#[test]
fn an_xboard_engine_plays_by_time_and_by_nodes() {
    for each in ["st=0.05", "nodes=3000"] {
        let xb = format!(
            "name=X,cmd={},arg=xboard,proto=xboard",
            env!("CARGO_BIN_EXE_tenfold")
        );
        let a = args(&[
            "match",
            "--engine",
            &xb,
            "--engine",
            "name=R,player=random",
            "--each",
            each,
            "--games",
            "2",
            "--maxmoves",
            "20",
            "--json",
        ]);
        let (code, out, err) = tenfold(&a);
        assert_eq!(code, 0, "{each}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let r = &v["results"][0];
        assert_eq!(r["engine"], "X", "{out}");
        // Every game ends by the board (or the move cap), none by a fault of X.
        assert_eq!(r["losses"], 0, "{each}: {out}");
    }
}

/// The engines' process ids: every process whose parent is `pid`.
fn children_of(pid: u32) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{name}/stat")) {
            let after = stat.rsplit(')').next().unwrap_or("");
            if after.split_whitespace().nth(1) == Some(&pid.to_string()) {
                out.push(name);
            }
        }
    }
    out
}

/// SIGTERM to a match in the middle of a hundred million rounds (a schedule made game by
/// game costs nothing up front): it ends with 128 + 15 and takes its thinking engines
/// with it.
#[test]
fn a_signalled_match_ends_its_engines_and_a_huge_schedule_costs_nothing() {
    let xb = format!(
        "name=X,cmd={},arg=xboard,proto=xboard",
        env!("CARGO_BIN_EXE_tenfold")
    );
    let mut m = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args([
            "match",
            "--engine",
            &xb,
            "--engine",
            "name=T",
            "--each",
            "st=30",
            "--rounds",
            "100000000",
            "--plies",
            "0",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    let mut engines = Vec::new();
    while engines.len() < 2 && t0.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(200));
        engines = children_of(m.id());
    }
    assert_eq!(engines.len(), 2, "both engines start: {engines:?}");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(m.try_wait().unwrap().is_none(), "the match runs");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(m.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = m.wait().unwrap();
    assert_eq!(status.code(), Some(143));
    // README: every engine is killed and reaped. Not even a zombie is left: the referee
    // waits for its engines before it exits (once it has, they are its init's to reap,
    // and a container's init may never do it).
    for pid in engines {
        assert!(gone(&pid), "engine {pid} outlived the match");
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "engine {pid} is left a zombie"
        );
    }
}

/// `--plies 0` means no random plies: no game has a `{book}` move.
#[test]
fn plies_zero_plays_from_the_start_position() {
    let pgn = temp_path("p0.pgn");
    let _ = std::fs::remove_file(&pgn);
    let (code, out, err) = tenfold(&args(&[
        "match",
        "--engine",
        "name=A,player=random",
        "--engine",
        "name=B,player=random",
        "--plies",
        "0",
        "--games",
        "2",
        "--maxmoves",
        "5",
        "--pgnout",
        pgn.to_str().unwrap(),
    ]));
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Result").count(), 2);
    assert!(!text.contains("{book}") && !text.contains("[FEN"), "{text}");
}

/// Tenfold engines in a match play the referee's `--variant-file` game.
#[test]
fn tenfold_engines_load_the_referees_variant_file() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mini.toml");
    let pgn = temp_path("mini.pgn");
    let _ = std::fs::remove_file(&pgn);
    let (code, out, err) = tenfold(&args(&[
        "match",
        "--pgnout",
        pgn.to_str().unwrap(),
        "--variant-file",
        file,
        "--variant",
        "mini",
        "--engine",
        "name=A,depth=1",
        "--engine",
        "name=B,depth=1",
        "--games",
        "2",
        "--maxmoves",
        "10",
        "--json",
    ]));
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["games"], 2, "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    for fault in ["rules infraction", "abandoned"] {
        assert!(!text.contains(fault), "{text}");
    }
}

/// An engine that never finishes its handshake (no `uciok`) stops the match before its
/// first game, and is killed and reaped rather than dropped while still running.
#[test]
fn an_engine_without_a_handshake_is_killed() {
    let mut a = versus_random("chess", "name=S,cmd=/bin/sleep,arg=60,proto=uci");
    a.extend(args(&["--plies", "0"]));
    let mut m = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(&a)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut seen = Vec::new();
    while m.try_wait().unwrap().is_none() {
        for pid in children_of(m.id()) {
            if !seen.contains(&pid) {
                seen.push(pid);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(!seen.is_empty(), "the silent engine was started");
    for pid in seen {
        assert!(gone(&pid), "silent engine {pid} outlived its handshake");
    }
}

/// The arguments of a two-game match of `variant` between `engine` and a random player.
fn versus_random(variant: &str, engine: &str) -> Vec<String> {
    args(&[
        "match",
        "--variant",
        variant,
        "--engine",
        engine,
        "--engine",
        "name=R,player=random",
        "--each",
        "st=0.1",
        "--games",
        "2",
    ])
}

/// Runs [`versus_random`], which must stop before any game with exit 2; its error output.
fn refused_match(variant: &str, engine: &str) -> String {
    let (code, out, err) = tenfold(&versus_random(variant, engine));
    assert_eq!(code, 2, "{out}{err}");
    assert!(!out.contains("Finished game"), "{out}");
    err
}

/// cutechess-cli stops at an engine it cannot start; so does the referee, before any
/// game, instead of recording a forfeit in each: a path that is no program, and an
/// engine whose `UCI_Variant` (here: none at all) does not offer the match's game.
#[test]
fn an_engine_that_cannot_start_or_lacks_the_variant_stops_the_match_before_any_game() {
    let err = refused_match("chess", "name=Ghost,cmd=/no/such/engine,proto=uci");
    assert!(err.contains("engine Ghost: cannot start"), "{err}");
    assert!(err.contains("/no/such/engine"), "{err}");

    let err = refused_match("grand", &engine("S", "play", 0));
    assert!(
        err.contains("engine S: cannot start")
            && err.contains("UCI_Variant")
            && err.contains("grand"),
        "{err}"
    );
    // No game was played, so no `--pgnout` file is made (an empty one was).
    let pgn = temp_path("never-played.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mut args = versus_random("chess", "name=Ghost,cmd=/no/such/engine,proto=uci");
    args.extend(["--pgnout".to_string(), pgn.to_str().unwrap().to_string()]);
    let (code, _, err) = tenfold(&args);
    assert_eq!(code, 2, "{err}");
    assert!(!pgn.exists(), "an empty --pgnout was left behind");
}

/// Plays a two-game match between two scripted engines from the one position `fen`,
/// with `extra` options; the output's `Finished game 1` line.
fn first_game_from(fen: &str, white: &str, black: &str, extra: &[&str]) -> String {
    let book = temp_path(&format!("book-{}.epd", fen.len() + extra.len()));
    std::fs::write(&book, format!("{fen}\n")).unwrap();
    let mut a = args(&[
        "match",
        "--engine",
        white,
        "--engine",
        black,
        "--openings",
        book.to_str().unwrap(),
        "--each",
        "st=2",
        "--maxmoves",
        "10",
    ]);
    a.extend(args(extra));
    let (code, out, err) = tenfold(&a);
    assert_eq!(code, 0, "{out}{err}");
    out.lines()
        .find(|l| l.starts_with("Finished game 1 "))
        .unwrap_or_else(|| panic!("no game 1: {out}"))
        .to_string()
}

/// A game the rules have ended is scored by the rules before any score adjudication,
/// as cutechess-cli asks the board for its result before its adjudicator: White
/// stalemates while both engines' scores call for its resignation, and White mates
/// while both scores call for a draw.
#[test]
fn a_game_the_rules_end_is_scored_by_the_rules_not_by_adjudication() {
    for (fen, white, black, adjudication, ends) in [
        // Black's only move is Ka7; Kb5 then stalemates it.
        (
            "k1Q5/8/8/8/K7/8/8/8 b - - 0 1",
            ["prefer=a4b5", "score=-700"].as_slice(),
            ["score=700"].as_slice(),
            ["--resign", "movecount=1 score=600"],
            "1/2-1/2 {stalemate}",
        ),
        // Black's only move is Kg8; Ra8 then mates.
        (
            "7k/8/6K1/8/8/8/8/R7 b - - 0 1",
            ["prefer=a1a8"].as_slice(),
            [].as_slice(),
            ["--draw", "movenumber=1 movecount=1 score=10"],
            "1-0 {checkmate}",
        ),
    ] {
        let w = engine_with("W", "play", 0, white);
        let b = engine_with("Bl", "play", 0, black);
        let line = first_game_from(fen, &w, &b, &adjudication);
        assert_eq!(line, format!("Finished game 1 (W vs Bl): {ends}"));
    }
}

/// With `st=` a move that arrives later than the time per move plus `--timemargin`
/// loses on time, as under `tc=` and as cutechess-cli's `st` and `timemargin` have it
/// (README: "a time loss (`--timemargin MS`) loses the game").
#[test]
fn a_move_later_than_st_and_the_margin_loses_on_time() {
    let slow = engine_with("X", "play", 0, &["sleep=0.6"]);
    let (_, text) = play_to_pgn(
        "st-late.pgn",
        &slow,
        "name=R,player=random",
        &["--each", "st=0.1", "--timemargin", "100", "--maxmoves", "3"],
    );
    assert_eq!(
        text.matches("[Termination \"time forfeit\"]").count(),
        2,
        "{text}"
    );
    assert_eq!(text.matches("{X lost on time}").count(), 2, "{text}");
}

/// An XBoard engine's `move` in SAN is taken: the CECP spec has the engine's move "in
/// coordinate notation (e.g., e2e4, e7e8q) … or in Standard Algebraic Notation (SAN)".
/// The engine then hears the opponent's moves in step with the game (it answers any
/// move that is not legal in its own game with "Illegal move").
#[test]
fn an_xboard_engine_may_move_in_san() {
    let (_, text) = play_to_pgn(
        "xb-san.pgn",
        &xb_engine("X", "san"),
        "name=R,player=random",
        &["--each", "st=2", "--maxmoves", "4"],
    );
    assert_eq!(
        text.matches("{draw by the 4-move limit}").count(),
        2,
        "{text}"
    );
    // X's first move as White, read from its SAN.
    assert!(text.contains("1. Nf3 {"), "{text}");
}

/// Only the `multipv 1` line (or one with no `multipv`) gives a UCI engine's score, for
/// the PGN comment and for adjudication: the UCI spec says "for the best move/pv add
/// `multipv 1`", and cutechess-cli takes the evaluation from line 1. Here line 2 scores
/// −9.00 after line 1's +0.50, and the engine must neither show −9.00 nor resign on it.
#[test]
fn only_the_first_multipv_line_gives_the_score() {
    let (out, text) = play_to_pgn(
        "multipv.pgn",
        &engine_with("M", "play", 0, &["score=50", "second=-900"]),
        &engine_with("Z", "play", 0, &["score=700"]),
        &[
            "--each",
            "st=2",
            "--maxmoves",
            "4",
            "--resign",
            "movecount=2 score=600",
        ],
    );
    assert!(!text.contains("-9.00/"), "{text}");
    assert_eq!(text.matches("{+0.50/1 ").count(), 8, "{text}");
    assert!(!out.contains("resigns"), "{out}");
}

/// Plays a two-game match of a scripted engine `A` that scores −7.00 on every move
/// against the random player (which gives no score), with `--resign resign`; stdout.
fn losing_engine_against_random(resign: &str) -> String {
    let (code, out, err) = play(
        &engine_with("A", "play", 0, &["score=-700"]),
        "name=R,player=random",
        &[
            "--each",
            "st=2",
            "--plies",
            "0",
            "--maxmoves",
            "10",
            "--resign",
            resign,
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// `--resign movecount=N score=S` is cutechess-cli's: "if an engine's score is at least
/// SCORE centipawns below zero for at least COUNT consecutive moves", it loses, whatever
/// its opponent says; `twosided=true` also needs the opponent's agreement, which a
/// player giving no score never gives.
#[test]
fn an_engine_whose_own_score_stays_lost_resigns_unless_twosided() {
    let out = losing_engine_against_random("movecount=3 score=600");
    assert!(
        out.contains("Finished game 1 (A vs R): 0-1 {A resigns by score adjudication}")
            && out.contains("Finished game 2 (R vs A): 1-0 {A resigns by score adjudication}"),
        "{out}"
    );
    let out = losing_engine_against_random("movecount=3 score=600 twosided=true");
    assert_eq!(
        out.matches("{draw by the 10-move limit}").count(),
        2,
        "{out}"
    );
}

/// A `--resign` or `--draw` that would adjudicate on nothing (`movecount=0`: no moves at
/// all) or backwards (a negative score: an engine at 0.00 resigning) is refused before
/// any game, one line naming the key and value, exit 2 as other bad options are
/// (README: "exit status 2 means the input was wrong").
#[test]
fn adjudication_counts_below_one_and_negative_scores_are_refused() {
    for (option, spec, named) in [
        ("--resign", "movecount=0", "--resign: movecount=0"),
        ("--resign", "score=-600", "--resign: score=-600"),
        ("--draw", "movecount=0 movenumber=1", "--draw: movecount=0"),
        ("--draw", "score=-10", "--draw: score=-10"),
    ] {
        let (code, out, err) = play(
            "name=A,player=random",
            "name=B,player=random",
            &[option, spec],
        );
        assert_eq!(code, 2, "{spec}: {out}{err}");
        assert!(!out.contains("Finished game"), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(named) && err.contains("out of range"), "{err}");
    }
}

/// Draw adjudication waits until `movenumber` full moves have been played: cutechess-cli
/// adjudicates when `plyCount / 2 >= movenumber`, so with `movenumber=3` the earliest is
/// after Black's third move, ply 6.
#[test]
fn draw_adjudication_waits_for_movenumber_full_moves() {
    let (_, text) = play_to_pgn(
        "draw-after.pgn",
        &engine("A", "play", 0),
        &engine("Z", "play", 0),
        &[
            "--each",
            "st=2",
            "--draw",
            "movenumber=3 movecount=1 score=10",
        ],
    );
    assert_eq!(text.matches("[PlyCount \"6\"]").count(), 2, "{text}");
    assert_eq!(
        text.matches("{draw by score adjudication}").count(),
        2,
        "{text}"
    );
}

/// `nodes=` reaches an XBoard engine as `nps`, which the CECP spec leaves "sent, to try
/// it out" when the engine does not announce it: one that answers `Error (unknown
/// command): nps` (Fairy-Max does) or announced `nps=0` cannot be given a node limit,
/// and is refused with that reason before any game (README: "others are refused with
/// that reason"), exit 2.
#[test]
fn an_xboard_engine_without_nps_is_refused_a_node_limit_before_any_game() {
    const NODES_2000: &[&str] = &["--each", "nodes=2000", "--plies", "0", "--maxmoves", "2"];
    for (mode, why) in [
        ("nonps", "it answered `Error (unknown command): nps`"),
        ("nps0", "it announced nps=0"),
    ] {
        let (code, out, err) = play(&xb_engine("X", mode), "name=R,player=random", NODES_2000);
        assert_eq!(code, 2, "{mode}: {out}{err}");
        assert!(!out.contains("Finished game"), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("engine X: nodes= needs an XBoard engine that takes nps")
                && err.contains(why),
            "{mode}: {err}"
        );
    }
    // The same engine plays a node-limited match when it takes nps.
    let (code, out, err) = play(&xb_engine("X", "coord"), "name=R,player=random", NODES_2000);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.matches("{draw by the 2-move limit}").count(),
        2,
        "{out}"
    );
}

/// XBoard's `level` carries the period's length: the CECP spec's `level MPS BASE INC`
/// has MPS "moves per time control", so `tc=4/10` is `level 4 0:10 0` even when book
/// moves have already used one of the period's moves.
#[test]
fn xboard_level_carries_the_moves_per_period() {
    let log = temp_path("xb-level.log");
    let _ = std::fs::remove_file(&log);
    let x = format!("{},arg={}", xb_engine("X", "coord"), log.display());
    let (code, out, err) = play(
        &x,
        "name=R,player=random",
        &["--each", "tc=4/10", "--plies", "2", "--maxmoves", "3"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let heard = std::fs::read_to_string(&log).unwrap();
    let levels: Vec<&str> = heard.lines().filter(|l| l.starts_with("level")).collect();
    assert_eq!(levels, ["level 4 0:10 0", "level 4 0:10 0"], "{heard}");
}

/// `--sprt` judges two engines ("SPRT for two players", `--help`); a match of three is
/// refused it before any game, one line, exit 2 (README: "a match of other than two
/// engines is refused it"), rather than playing its whole schedule with the option
/// silently dropped.
#[test]
fn sprt_with_other_than_two_engines_is_refused() {
    let (code, out, err) = play(
        "name=A,player=random",
        "name=B,player=random",
        &[
            "--engine",
            "name=C,player=random",
            "--maxmoves",
            "2",
            "--sprt",
            "elo0=0 elo1=10",
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(!out.contains("Finished game"), "{out}");
    assert_eq!(
        err, "tenfold: --sprt needs exactly two engines, not 3\n",
        "{err}"
    );
}

/// DESIGN: bad input is refused with one line and exit 2. A limit of zero (`nodes=0`
/// played junk moves, `tc=0+0` a clock with no time), a count of zero (`--games 0`
/// played 2 games), a key said twice or two that contradict (the last one won, silently),
/// and a thread count or table size the built-in engine refuses (it was told, refused it
/// in an `info string` and played on its defaults) were all accepted before.
#[test]
fn a_match_that_says_nothing_or_two_things_is_refused_before_any_game() {
    let out = temp_path("refused-match.pgn");
    let _ = std::fs::remove_file(&out);
    for (extra, why) in [
        (&["--each", "nodes=0"][..], "nodes=0"),
        (&["--each", "tc=0+0"], "tc=0"),
        (&["--each", "st=0"], "st=0"),
        (&["--each", "depth=0"], "depth=0"),
        (&["--each", "st=1", "--games", "0"], "--games"),
        (&["--each", "st=1", "--rounds", "0"], "--rounds"),
        (&["--each", "st=1", "--concurrency", "0"], "--concurrency"),
        (&["--each", "st=0.1 tc=1+0"], "tc and st"),
        (&["--each", "st=0.1 st=0.2"], "st given twice"),
    ] {
        let (code, _, err) = play("name=A", "name=B,player=greedy", extra);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(why), "{extra:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    for (spec, why) in [
        ("name=A,threads=100000", "threads=100000"),
        ("name=A,threads=0", "threads=0"),
        ("name=A,hash=99999999", "hash=99999999"),
        ("name=A,name=C", "name given twice"),
        ("name=", "name= is empty"),
        (
            "cmd=/usr/games/fairy-stockfish,player=random",
            "player= and cmd=",
        ),
    ] {
        let (code, _, err) = play(
            spec,
            "name=B,player=greedy",
            &["--each", "st=1", "--pgnout", out.to_str().unwrap()],
        );
        assert_eq!(code, 2, "{spec}: {err}");
        assert!(err.contains(why), "{spec}: {err}");
        assert!(!out.exists(), "{spec}: the PGN file was made");
    }
}

/// CECP: `RESULT {COMMENT}` from an engine is a claim. On its move the game is not over
/// (the referee ends a game the rules end first), so a claimed win or draw is false and
/// loses as a rules infraction, as XBoard's `-testClaims` scores it, and a claimed loss
/// is a resignation. Both were taken for silence: a hang, after the grace period.
#[test]
fn an_xboard_engines_false_claim_loses_and_its_claimed_loss_resigns() {
    for (mode, termination, reason) in [
        ("claimwin", "[Termination \"rules infraction\"]", "falsely"),
        ("claimloss", "", "X resigns"),
    ] {
        let t0 = std::time::Instant::now();
        let (_, pgn) = play_to_pgn(
            &format!("claim-{mode}.pgn"),
            "name=T,depth=1",
            &xb_engine("X", mode),
            &["--each", "st=5"],
        );
        assert!(t0.elapsed().as_secs() < 5, "{mode}: waited for a move");
        assert_eq!(pgn.matches("[Result ").count(), 2, "{pgn}");
        assert!(
            pgn.contains("[White \"T\"]") && pgn.contains("[Result \"1-0\"]"),
            "{pgn}"
        );
        assert!(
            pgn.contains("[White \"X\"]") && pgn.contains("[Result \"0-1\"]"),
            "{pgn}"
        );
        assert_eq!(pgn.matches(reason).count(), 2, "{mode}: {pgn}");
        if !termination.is_empty() {
            assert_eq!(pgn.matches(termination).count(), 2, "{pgn}");
        }
        assert!(!pgn.contains("stalled"), "{pgn}");
    }
}

/// A command's exit code, stdout and stderr.
type Run = (i32, String, String);

/// A fresh PGN path `name`, and a runner of four-game matches of `a` against `b` into it
/// with `--each` limits and more options.
fn four_games_into(
    name: &str,
    a: &'static str,
    b: &'static str,
) -> (std::path::PathBuf, impl Fn(&str, &[&str]) -> Run) {
    let pgn = temp_path(name);
    let _ = std::fs::remove_file(&pgn);
    let out = pgn.to_str().unwrap().to_string();
    let run = move |each: &str, more: &[&str]| {
        let mut extra = vec!["--each", each, "--games", "4", "--pgnout", &out];
        extra.extend_from_slice(more);
        play(a, b, &extra)
    };
    (pgn, run)
}

/// README: `--resume` keeps the games of this match and refuses one the schedule would
/// not have played. A game at another time per move is another match's (it was kept,
/// and the file mixed two time controls under one result).
#[test]
fn resume_refuses_games_played_at_another_time_control() {
    let (pgn, run) = four_games_into(
        "resume-other-tc.pgn",
        "name=A,depth=1",
        "name=B,player=greedy",
    );
    assert_eq!(run("st=0.02", &["--pairs", "0..1"]).0, 0);
    let (code, _, err) = run("st=0.5", &["--resume"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("TimeControl *0.02") && err.contains("*0.5"),
        "{err}"
    );
    let (code, _, err) = run("st=0.02", &["--resume"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[TimeControl \"*0.02\"]").count(), 4, "{text}");
}

/// README: `--resume` refuses a game the schedule would not have played. Depth and nodes
/// per move are no time control, and games searched to depth 1 were resumed into a
/// match at depth 2 as its own; the Limits tag now records them.
#[test]
fn resume_refuses_games_played_to_another_depth_or_node_count() {
    let (pgn, run) = four_games_into("resume-other-depth.pgn", "name=A", "name=B");
    assert_eq!(run("depth=1", &["--pairs", "0..1"]).0, 0);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Limits \"depth=1\"]").count(), 2, "{text}");
    let (code, _, err) = run("depth=2", &["--resume"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("limits depth=1") && err.contains("depth=2"),
        "{err}"
    );
    let (code, _, err) = run("nodes=300", &["--resume"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nodes=300"), "{err}");
    let (code, _, err) = run("depth=1", &["--resume"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Limits \"depth=1\"]").count(), 4, "{text}");
}

//! The CLI contract of DESIGN.md: commands, JSON shapes, one-line errors and exit codes.

mod common;

use common::{temp_path, tenfold};
use std::process::Command;

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

#[test]
fn variants_lists_chess() {
    let (code, out, _) = tenfold(&["variants"]);
    assert_eq!(code, 0);
    assert!(out
        .lines()
        .any(|l| l.starts_with("chess") && l.contains("8x8")));
}

/// `variants` lists the tables loaded after the built-ins, `--variant` names one game
/// (an unknown one is refused), and the description column starts at one place.
#[test]
fn variants_lists_loaded_tables_and_one_named_game() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/grasshopper.toml");
    let (code, out, err) = tenfold(&["variants", "--variant-file", file]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("grasshopper-chess "), "{out}");
    // Where the third field (the description) starts.
    let column = |l: &str| {
        let size = l.split_whitespace().nth(1).unwrap();
        let at = l.find(&format!(" {size} ")).unwrap() + size.len() + 2;
        at + l[at..].len() - l[at..].trim_start().len()
    };
    let first = column(out.lines().next().unwrap());
    assert!(out.lines().all(|l| column(l) == first), "{out}");
    let (code, out, _) = tenfold(&["variants", "--variant", "grand"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("grand "), "{out}");
    let (code, _, err) = tenfold(&["variants", "--variant", "nosuch"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nosuch"), "{err}");
}

#[test]
fn moves_are_sorted_and_json_shaped() {
    let (code, out, _) = tenfold(&["moves"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    let (_, out, _) = tenfold(&["moves", "--json", "--moves", "e2e4 e7e5"]);
    assert_eq!(json(&out)["moves"].as_array().unwrap().len(), 29);
}

#[test]
fn fen_reports_the_result_of_a_finished_game() {
    let (code, out, _) = tenfold(&["fen", "--json", "--moves", "f2f3 e7e5 g2g4 d8h4"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["reason"], "checkmate");
    let (_, out, _) = tenfold(&["fen", "--json"]);
    assert!(json(&out).get("result").is_none());
}

#[test]
fn moves_may_be_given_as_a_pgn_writes_them() {
    // A game copied from a PGN (SAN) reaches the same position as its coordinates, on
    // 10x10 too; an unreadable move still names itself and the notation.
    let (code, coord, _) = tenfold(&["fen", "--moves", "f2f3 e7e5 g2g4 d8h4"]);
    assert_eq!(code, 0);
    let (_, san, _) = tenfold(&["fen", "--moves", "f3 e5 g4 Qh4#"]);
    assert_eq!(san, coord);
    let (code, out, _) = tenfold(&["fen", "--variant", "grand", "--moves", "Nc4 Nc7 d4"]);
    assert_eq!(code, 0, "{out}");
    let (_, coord, _) = tenfold(&["fen", "--variant", "grand", "--moves", "b2c4 b9c7 d3d4"]);
    assert_eq!(out, coord);
    let (code, _, err) = tenfold(&["fen", "--moves", "e4 Qh5x"]);
    assert_eq!(code, 2);
    assert!(err.contains("\"Qh5x\""), "{err}");
}

#[test]
fn eval_splits_the_evaluation_into_terms_that_add_up() {
    // The start position is symmetric: every term cancels but the side to move's tempo.
    let (code, out, _) = tenfold(&["eval", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    let terms = v["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 1, "{out}");
    assert_eq!(terms[0]["name"], "tempo");
    assert_eq!(v["white"], v["side_to_move"]);
    // After 1.e4 d5 2.exd5 White is a pawn up and its pawn on d5 hangs (the queen takes
    // it); the terms add up to the evaluation, which Black sees negated.
    let (_, out, _) = tenfold(&["eval", "--json", "--moves", "e4 d5 exd5"]);
    let v = json(&out);
    let terms = v["terms"].as_array().unwrap();
    let term = |n: &str| {
        terms
            .iter()
            .find(|t| t["name"] == n)
            .map(|t| t["total"].as_f64().unwrap())
    };
    assert!(term("material").unwrap() > 50.0, "{out}");
    assert!(term("hanging").unwrap() < 0.0, "{out}");
    let sum: f64 = terms.iter().map(|t| t["total"].as_f64().unwrap()).sum();
    let white = v["white"].as_i64().unwrap();
    assert!((sum - white as f64).abs() <= 2.0, "{out}");
    assert_eq!(v["side_to_move"].as_i64().unwrap(), -white);
    // The text form on a 10x10 board, and a bad FEN is a one-line usage error.
    let (code, out, _) = tenfold(&["eval", "--variant", "grand", "--moves", "e4"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("placement") && out.contains("for the side to move"),
        "{out}"
    );
    let (code, _, err) = tenfold(&["eval", "--fen", "8/8 w"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn perft_json_and_divide() {
    let (code, out, _) = tenfold(&[
        "perft",
        "--depth",
        "3",
        "--divide",
        "--json",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["nodes"], 8902);
    assert_eq!(v["divide"]["e2e4"], 600);
    assert_eq!(v["divide"].as_object().unwrap().len(), 20);
    assert!(v["nps"].is_u64() && v["ms"].is_u64());
}

#[test]
fn suite_mismatch_fails_with_status_1() {
    let good = temp_path("good.epd");
    let bad = temp_path("bad.epd");
    std::fs::write(
        &good,
        "# ok\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n",
    )
    .unwrap();
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n").unwrap();
    let (code, out, _) = tenfold(&["perft", "--suite", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 passed, 0 failed"));
    let (code, out, err) = tenfold(&["perft", "--suite", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAIL") && out.contains("expected 67 got 66"),
        "{out}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn bad_input_is_one_line_on_stderr_with_status_2() {
    for args in [
        vec!["moves", "--variant", "nosuchgame"],
        vec![
            "moves",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        ],
        vec!["fen", "--moves", "e2e4 e7e6 e4e6"],
        vec!["fen", "--moves", "castle"],
        vec!["perft"],
        vec!["perft", "--suite", "/no/such/file.epd"],
        vec!["moves", "--variant-file", "/no/such/table.toml"],
    ] {
        let (code, out, err) = tenfold(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("tenfold: "), "{args:?}: {err}");
    }
    let (_, _, err) = tenfold(&["moves", "--variant", "nosuchgame"]);
    assert!(err.contains("unknown variant \"nosuchgame\"") && err.contains("chess"));
    let (_, _, err) = tenfold(&["fen", "--moves", "e2e4 e7e6 e4e6"]);
    assert!(err.contains("illegal move \"e4e6\""));
}

#[test]
fn a_users_variant_file_is_loaded_and_named() {
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tenten.toml");
    let (code, out, err) = tenfold(&[
        "perft",
        "--variant-file",
        table,
        "--variant",
        "tenten",
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["nodes"], 28 * 28);
}

#[test]
fn a_malformed_variant_file_names_file_and_key() {
    let f = temp_path("bad.toml");
    let text = include_str!("data/tenten.toml").replace("betza = \"BN\"", "betza = \"BX\"");
    std::fs::write(&f, text).unwrap();
    let (code, _, err) = tenfold(&["moves", "--variant-file", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.toml") && err.contains("piece[5].betza"),
        "{err}"
    );
    std::fs::write(&f, "name = \"x\"\nfiles = 11\n").unwrap();
    let (code, _, err) = tenfold(&["moves", "--variant-file", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.toml"), "{err}");
}

#[test]
fn a_closed_pipe_ends_the_process_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(["perft", "--depth", "6", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read nothing: close our end at once, as `| head -0` would (the first root move's
    // count takes milliseconds, so the reader is gone before it).
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.is_empty(), "{err}");
    // Quietly, with the status of a program ended by SIGPIPE (README).
    assert_eq!(status.code(), Some(141), "{status:?}");
}

#[test]
fn a_variant_file_may_extend_a_built_in_and_override_keys() {
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess-plus.toml");
    let (code, out, err) = tenfold(&[
        "moves",
        "--variant-file",
        table,
        "--variant",
        "chess-plus",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    // 16 pawn moves, 8 nightrider moves (b1a3 b1c3 b1d5 b1e7, g1h3 g1f3 g1e5 g1d7: the
    // lines through c3 and f3 run on to the black pawns) and the Cardinal's leaps c1b3 c1d3.
    let moves = json(&out)["moves"].as_array().unwrap().len();
    assert_eq!(moves, 26, "{out}");
    assert!(out.contains("b1e7") && out.contains("c1d3"));
    // Castling and promotion still come from chess.toml; the promotion list is chess's.
    let (code, _, _) = tenfold(&[
        "fen",
        "--variant-file",
        table,
        "--variant",
        "chess-plus",
        "--moves",
        "c1d3",
    ]);
    assert_eq!(code, 0);
    let bad = temp_path("extends.toml");
    std::fs::write(&bad, "extends = \"nosuch\"\nname = \"x\"\n").unwrap();
    let (code, _, err) = tenfold(&["moves", "--variant-file", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("extends") && err.contains("nosuch"), "{err}");
}

#[test]
fn search_prints_info_lines_then_bestmove_and_json_shaped() {
    let (code, out, _) = tenfold(&["search", "--depth", "4"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("info depth 1 "), "{out}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
    let (code, out, _) = tenfold(&[
        "search",
        "--nodes",
        "2000",
        "--json",
        "--fen",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    ]);
    assert_eq!(code, 0);
    let j = json(&out);
    assert_eq!(j["bestmove"], "a1a8");
    assert_eq!(j["pv"][0], "a1a8");
    for key in ["score_cp", "depth", "nodes", "ms"] {
        assert!(j[key].is_number(), "{key} in {out}");
    }
    let (code, _, err) = tenfold(&["search"]);
    assert_eq!(code, 2);
    assert!(err.contains("--depth"), "{err}");
}

#[test]
fn search_multipv_and_elo_reach_the_command_line() {
    let (code, out, _) = tenfold(&["search", "--depth", "4", "--multipv", "3"]);
    assert_eq!(code, 0);
    let at4: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    // Three lines, then the final line (line 1 again).
    assert_eq!(at4.len(), 4, "{out}");
    for (k, l) in at4.iter().take(3).enumerate() {
        assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
    }
    let (code, out, _) = tenfold(&["search", "--depth", "30", "--elo", "500", "--json"]);
    assert_eq!(code, 0);
    assert!(json(&out)["nodes"].as_u64().unwrap() <= 200, "{out}");
    for bad in [["--multipv", "0"], ["--elo", "100"]] {
        let (code, _, err) = tenfold(&["search", "--depth", "2", bad[0], bad[1]]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(bad[0]), "{err}");
    }
}

#[test]
fn bench_prints_the_node_signature_last_and_json_shaped() {
    let (code, out, _) = tenfold(&["bench", "--variant", "chess", "--depth", "5"]);
    assert_eq!(code, 0);
    let last = out.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (4, "nodes", "nps"),
        "{last}"
    );
    let (code, out2, _) = tenfold(&["bench", "--variant", "chess", "--depth", "5", "--json"]);
    assert_eq!(code, 0);
    let j = json(&out2);
    assert_eq!(j["nodes"].as_u64().unwrap().to_string(), words[0]);
    assert!(j["ms"].is_number() && j["nps"].is_number());
}

/// Runs tenfold with `input` on stdin.
fn tenfold_with_input(args: &[&str], input: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tenfold");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn search_movetime_100_answers_within_half_a_second_in_a_crowded_position() {
    let fen = "BnRRBnQR/P1NnNQ1R/Bkp2Nqq/NrRbQNb1/b2ppNBB/rpQnNPPK/p1qP3B/nnqb1BQN w - - 0 1";
    let t0 = std::time::Instant::now();
    let (code, out, err) = tenfold(&["search", "--movetime", "100", "--fen", fen]);
    let dt = t0.elapsed();
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
    assert!(dt < std::time::Duration::from_millis(500), "took {dt:?}");
}

#[test]
fn thread_counts_past_the_machine_are_usage_errors() {
    for args in [
        &["perft", "--depth", "3", "--threads", "10000"][..],
        &["search", "--depth", "1", "--threads", "10000"][..],
        &["bench", "--threads", "10000"][..],
    ] {
        let (code, _, err) = tenfold(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("threads") && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn a_hash_size_that_cannot_be_represented_is_a_usage_error() {
    let (code, _, err) = tenfold(&["search", "--depth", "1", "--hash", "17592186044416"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("hash"), "{err}");
}

#[test]
fn a_closed_pipe_ends_search_and_bench_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    for args in [&["search", "--depth", "30"][..], &["bench"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tenfold"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The reader is gone (as with `| head -1`): the next write must not panic, and
        // ends the process as SIGPIPE would (README).
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn errors_quoting_a_multi_line_fen_stay_on_one_line() {
    let (code, _, err) = tenfold(&["fen", "--fen", "8/8\n/8 w"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("\\n"), "{err}");
}

#[test]
fn a_fen_starting_with_a_hyphen_is_a_fen_not_an_option() {
    let (code, _, err) = tenfold(&["fen", "--fen", "- w - - 0 1"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("tenfold: bad FEN"), "{err}");
    assert!(!err.contains("Usage"), "{err}");
}

#[test]
fn a_non_utf8_line_is_answered_and_the_session_goes_on() {
    for cmd in ["uci", "xboard"] {
        let (code, out, _) = tenfold_with_input(&[cmd], b"\xff\xfe\nping 7\nisready\nquit\n");
        assert_eq!(code, 0, "{cmd}: {out}");
        let answered = if cmd == "uci" { "readyok" } else { "pong 7" };
        assert!(out.lines().any(|l| l == answered), "{cmd}: {out}");
        assert!(out.lines().any(|l| l.contains("rror")), "{cmd}: {out}");
    }
}

#[test]
fn end_of_input_stops_a_long_search_and_still_prints_its_move() {
    let t0 = std::time::Instant::now();
    let (code, out, _) = tenfold_with_input(&["uci"], b"position startpos\ngo depth 60\n");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    assert!(t0.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn an_endless_variant_path_is_refused_and_the_session_goes_on() {
    let (code, out, _) = tenfold_with_input(
        &["uci"],
        b"setoption name VariantPath value /dev/zero\nisready\nquit\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("info string error") && out.contains("larger than"),
        "{out}"
    );
    assert!(out.lines().any(|l| l == "readyok"), "{out}");
}

#[test]
fn a_castling_right_needs_a_rook_on_the_rooks_square() {
    let (code, _, err) = tenfold(&[
        "fen",
        "--fen",
        "4k3/8/8/8/8/8/8/4K2N w K - 0 1",
        "--moves",
        "e1g1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("illegal move \"e1g1\""), "{err}");
}

/// Issue 20: input files are capped in size, so an endless file is an error, not a read
/// until memory runs out.
#[test]
fn an_endless_pgn_or_openings_file_is_refused() {
    let (code, _, err) = tenfold(&["pgn", "--check", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/dev/zero") && err.contains("larger than"),
        "{err}"
    );
    let (code, _, err) = tenfold(&[
        "match",
        "--engine",
        "name=R,player=random",
        "--engine",
        "name=G,player=greedy",
        "--openings",
        "/dev/zero",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("openings") && err.contains("larger than"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// `bench --fen` times the position given, not the variant's set: one line for it, and
/// with one thread the same nodes as a fresh `search` to that depth.
#[test]
fn bench_with_a_fen_searches_that_position_only() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, err) = tenfold(&["bench", "--depth", "5", "--fen", fen]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("chess")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].ends_with(fen), "{out}");
    let (_, bench, _) = tenfold(&["bench", "--depth", "5", "--fen", fen, "--json"]);
    let (_, search, _) = tenfold(&["search", "--depth", "5", "--fen", fen, "--json"]);
    assert_eq!(json(&bench)["nodes"], json(&search)["nodes"]);
    // --moves alone starts from the variant's start position.
    let (code, out, err) = tenfold(&["bench", "--depth", "3", "--moves", "e2e4"]);
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.starts_with("chess")).unwrap();
    assert!(line.contains("/4P3/8/PPPP1PPP/RNBQKBNR b KQkq "), "{out}");
}

/// Bad input is refused, not dropped: a command that starts from no position says so
/// when given --fen or --moves.
#[test]
fn commands_without_a_position_refuse_fen_and_moves() {
    for args in [
        vec!["variants", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"],
        vec!["uci", "--moves", "e2e4"],
        vec!["perft", "--suite", "x.epd", "--moves", "e2e4"],
        vec![
            "match",
            "--engine",
            "name=a,cmd=/bin/true",
            "--moves",
            "e2e4",
        ],
        vec!["describe", "N", "--moves", "e2e4"],
    ] {
        let (code, out, err) = tenfold(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("do not apply to"), "{args:?}: {err}");
    }
}

/// `pgn --check` replays a game with no Variant tag as the `--variant` given (README:
/// every command takes `--variant`), a `--variant-file` game included; a Variant tag
/// still names the game it is.
#[test]
fn pgn_check_plays_an_untagged_game_as_the_variant_given() {
    let grand = temp_path("untagged-grand.pgn");
    // Grand's pawns start on the third rank: `e5` is a double step there, none in chess.
    std::fs::write(&grand, "[Event \"t\"]\n[Result \"*\"]\n\n1. e5 e6 *\n").unwrap();
    let file = grand.to_str().unwrap();
    let (code, out, _) = tenfold(&["pgn", "--check", file, "--variant", "grand"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("1 passed, 0 failed\n"), "{out}");
    let (code, out, _) = tenfold(&["pgn", "--check", file]);
    assert_eq!(code, 1, "without --variant the game is chess: {out}");
    let (code, _, err) = tenfold(&["pgn", "--check", file, "--variant", "nosuch"]);
    assert_eq!(code, 2, "{err}");

    let tagged = temp_path("tagged-chess.pgn");
    let text = "[Event \"t\"]\n[Variant \"chess\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    std::fs::write(&tagged, text).unwrap();
    let (code, out, _) = tenfold(&[
        "pgn",
        "--check",
        tagged.to_str().unwrap(),
        "--variant",
        "grand",
    ]);
    assert_eq!(code, 0, "the tag names chess: {out}");

    let mini = temp_path("untagged-mini.pgn");
    // Los Alamos pawns have no double step: b2b3 is a move, b2b4 is not.
    std::fs::write(&mini, "[Result \"*\"]\n\n1. b2b3 b5b4 *\n").unwrap();
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mini.toml");
    let (code, out, err) = tenfold(&[
        "pgn",
        "--check",
        mini.to_str().unwrap(),
        "--variant-file",
        table,
        "--variant",
        "mini",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// README: "Errors are one line on stderr; exit status 2 means the input was wrong" —
/// the command line's own usage errors too (a negative depth, an unknown command, a
/// shard past its count, a missing required option, `--split-ply` without the `--shard`
/// it cuts for), while --help and --version print their pages as before, with status 0.
/// A negative number is a bad value of the option it follows, named, not an unknown
/// option of its own.
#[test]
fn usage_errors_are_one_line_with_status_2() {
    for (args, says) in [
        (&["perft", "--depth", "-1"][..], "'-1' for '--depth"),
        (&["search", "--depth", "-1"][..], "'-1' for '--depth"),
        (&["search", "--movetime", "-5"][..], "'-5' for '--movetime"),
        (&["bench", "--threads", "-2"][..], "'-2' for '--threads"),
        (&["bogus"][..], "'bogus'"),
        (&["perft", "--depth", "1", "--shard", "3/3"][..], "'3/3'"),
        (
            &["perft", "--depth", "3", "--split-ply", "2"][..],
            "--shard",
        ),
        (&["tune"][..], "--data"),
    ] {
        let (code, out, err) = tenfold(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("tenfold: ") && err.contains(says),
            "{args:?}: {err}"
        );
    }
    let (code, out, _) = tenfold(&["perft", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage:") && out.lines().count() > 5, "{out}");
    let (code, out, _) = tenfold(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("tenfold "), "{out}");
}

/// README: perft counts at most 64 plies. A deeper `--depth` (1000 overflowed the stack
/// and aborted the process, exit 134) is one line, exit 2, however the count would have
/// run, and so is a suite line asking for one, named by file and line; 64 itself counts.
#[test]
fn perft_depths_above_64_are_refused() {
    for extra in [
        &[][..],
        &["--hash", "16"],
        &["--threads", "2"],
        &["--divide"],
        &["--shard", "0/2"],
    ] {
        for depth in ["65", "1000", "999999999"] {
            let mut args = vec!["perft", "--depth", depth, "--json"];
            args.extend_from_slice(extra);
            let (code, out, err) = tenfold(&args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(out.is_empty(), "{args:?}: {out}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.contains(&format!("perft depth {depth} is above the maximum of 64")),
                "{args:?}: {err}"
            );
        }
    }
    // Fool's mate: White has no move, so the deepest count allowed is 0 at once.
    let mated = ["--moves", "f2f3 e7e5 g2g4 d8h4"];
    let (code, out, err) = tenfold(&[&["perft", "--depth", "64", "--json"][..], &mated].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["nodes"], 0);
    let suite = temp_path("too-deep.epd");
    std::fs::write(
        &suite,
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D999999999 20\n",
    )
    .unwrap();
    let file = suite.to_str().unwrap();
    let (code, out, err) = tenfold(&["perft", "--suite", file]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("{file}:2: \"D999999999 20\" is deeper")),
        "{err}"
    );
}

/// README: depth 0 counts the position itself, 1, and `--divide` then lists no root move
/// (it used to count depth 1 when divided: 20 nodes where the plain count said 1).
#[test]
fn perft_depth_0_is_one_node_divided_or_not() {
    for divide in [&[][..], &["--divide"]] {
        let args = [&["perft", "--depth", "0", "--json"][..], divide].concat();
        let (code, out, err) = tenfold(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let v = json(&out);
        assert_eq!(v["nodes"], 1, "{args:?}: {out}");
        if divide.is_empty() {
            assert!(v.get("divide").is_none(), "{out}");
        } else {
            assert_eq!(v["divide"], serde_json::json!({}), "{out}");
        }
    }
}

/// The text of a divided depth-0 count starts with its totals: no root move is listed,
/// so no blank line stands before them (it did, as after a list of moves).
#[test]
fn perft_depth_0_divided_text_starts_with_the_count() {
    let (code, out, err) = tenfold(&["perft", "--depth", "0", "--divide"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("nodes 1\n"), "{out:?}");
}

/// A suite written by an editor that starts files with a UTF-8 byte order mark is read
/// as the same suite: the mark was taken for part of the first FEN (exit 2).
#[test]
fn a_suite_with_a_byte_order_mark_is_read_as_without() {
    let suite = temp_path("bom.epd");
    let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n";
    std::fs::write(&suite, [&b"\xEF\xBB\xBF"[..], line.as_bytes()].concat()).unwrap();
    let (code, out, err) = tenfold(&["perft", "--suite", suite.to_str().unwrap()]);
    let _ = std::fs::remove_file(&suite);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}

/// `perft --threads 0` and `--hash 0` are refused as `search`, `bench` and `datagen`
/// refuse them ("must be at least 1"), whether counting, checking a suite or sharding;
/// perft accepted both (0 threads counted on one, 0 MB meant no table).
#[test]
fn perft_refuses_zero_threads_or_hash_as_search_does() {
    let suite = temp_path("zero.epd");
    std::fs::write(&suite, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n").unwrap();
    let suite = suite.to_str().unwrap();
    for zero in [["--threads", "0"], ["--hash", "0"]] {
        for run in [
            &["perft", "--depth", "2"][..],
            &["perft", "--suite", suite],
            &["perft", "--depth", "2", "--shard", "0/2"],
            &["search", "--depth", "1"],
        ] {
            let args = [run, &zero[..]].concat();
            let (code, out, err) = tenfold(&args);
            assert_eq!(code, 2, "{args:?}: {out}");
            assert_eq!(
                err, "tenfold: --threads and --hash must be at least 1\n",
                "{args:?}"
            );
        }
    }
    let (code, out, err) = tenfold(&["perft", "--depth", "2", "--threads", "1", "--hash", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("nodes 400\n"), "{out}");
}

/// A suite line with a FEN but no `;D<depth> <nodes>` checks nothing: it is refused like
/// any other malformed line, exit 2 naming file and line (it counted as passed).
#[test]
fn a_suite_line_without_depths_is_refused_by_file_and_line() {
    let suite = temp_path("no-depths.epd");
    std::fs::write(
        &suite,
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n\n4k3/8/8/8/8/8/8/4K2R w K - 0 1\n",
    )
    .unwrap();
    let file = suite.to_str().unwrap();
    let (code, out, err) = tenfold(&["perft", "--suite", file]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        format!("tenfold: {file}:3: no ;D<depth> <nodes> after the FEN\n")
    );
}

/// README: output that cannot be written is an error (status 2), and a reader that has
/// gone stops the command with status 141, as SIGPIPE would. Both ended with status 0,
/// so a perft suite whose report went nowhere passed a `set -o pipefail` script.
#[test]
fn output_that_cannot_be_written_is_not_a_success() {
    if std::path::Path::new("/dev/full").exists() {
        let out = Command::new(env!("CARGO_BIN_EXE_tenfold"))
            .args(["moves"])
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with("tenfold: cannot write to standard output"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(["perft", "--depth", "6"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes before the count (a tenth of a second of work) is printed.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `pgn --check` refuses a move after the game has ended by the rules; `--moves` played
/// it, and `fen` printed `1-0 checkmate` for a game drawn by threefold repetition four
/// plies before. The same moves without the last still show the draw.
#[test]
fn moves_after_the_game_has_ended_are_refused() {
    let fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";
    let shuffle = "a1b1 h8g8 b1a1 g8h8 a1b1 h8g8 b1a1 g8h8";
    let (code, out, _) = tenfold(&["fen", "--fen", fen, "--moves", shuffle]);
    assert_eq!(code, 0);
    assert!(out.contains("1/2-1/2 threefold repetition"), "{out}");
    let mate = format!("{shuffle} a1a8");
    for cmd in [
        &["fen"][..],
        &["moves"],
        &["eval"],
        &["search", "--depth", "2"],
    ] {
        let mut args = cmd.to_vec();
        args.extend_from_slice(&["--fen", fen, "--moves", &mate]);
        let (code, out, err) = tenfold(&args);
        assert_eq!(code, 2, "{cmd:?}: {out}{err}");
        assert_eq!(
            err.trim(),
            "tenfold: --moves: move 9 \"a1a8\" comes after the game ended: threefold repetition",
            "{cmd:?}"
        );
    }
    let fifty = "7k/8/6K1/8/8/8/8/R7 w - - 100 80";
    let (code, _, err) = tenfold(&["fen", "--fen", fifty, "--moves", "a1a8"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("move 1 \"a1a8\"") && err.contains("50-move rule"),
        "{err}"
    );
}

/// README: `tenfold search (--depth N | --movetime MS | --nodes N)`; a zero was taken and
/// meant three things (depth 1, the first legal move unsearched with a score of 0, depth
/// 3). And every search ends with an info line, also with no move to search, as UCI's.
#[test]
fn search_refuses_zero_limits_and_reports_a_mate_on_the_board() {
    for limit in ["--depth", "--nodes", "--movetime"] {
        let (code, out, err) = tenfold(&["search", limit, "0"]);
        assert_eq!(code, 2, "{limit}: {out}");
        assert!(err.contains(limit) && err.lines().count() == 1, "{err}");
    }
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let (code, out, _) = tenfold(&["search", "--depth", "3", "--fen", mated]);
    assert_eq!(code, 0);
    assert_eq!(out, "info depth 0 score mate 0\nbestmove (none)\n");
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let (_, out, _) = tenfold(&["search", "--depth", "3", "--fen", stalemate]);
    assert_eq!(out, "info depth 0 score cp 0\nbestmove (none)\n");
}

/// README: options a command would drop are refused rather than dropped. A suite line
/// gives its own depths, so `perft --suite F --depth 3` counted the suite's and `--depth`
/// went unused; so did `--divide` and `--shard` with `--suite`, `--divide` with
/// `--shard`, and `--max-depth` without `--suite`.
#[test]
fn perft_refuses_options_it_would_drop() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess.epd");
    for (args, named) in [
        (&["--suite", suite, "--depth", "3"][..], "--depth"),
        (&["--suite", suite, "--divide"], "--divide"),
        (&["--suite", suite, "--shard", "0/2"], "--shard"),
        (&["--depth", "3", "--divide", "--shard", "0/2"], "--divide"),
        (&["--depth", "1", "--max-depth", "3"], "--max-depth"),
    ] {
        let mut all = vec!["perft"];
        all.extend_from_slice(args);
        let (code, out, err) = tenfold(&all);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(named) && err.lines().count() == 1, "{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// README: errors name what was wrong and where. An argument that is not UTF-8 is named
/// by its place and the argument before it, or by its option in `--option=value` (clap's
/// own error names no argument).
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    for (args, says) in [
        (
            &[&b"perft"[..], b"--fen", b"8/8/\xff", b"--depth", b"1"][..],
            r#"argument 3, "8/8/\xff" after --fen, is not UTF-8"#,
        ),
        (
            &[&b"perft"[..], b"--depth", b"1", b"--variant=ch\xffss"][..],
            r#"the value of --variant, "ch\xffss", is not UTF-8"#,
        ),
        (
            &[&b"describe"[..], b"Kn\xffght"][..],
            r#"argument 2, "Kn\xffght" after describe, is not UTF-8"#,
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tenfold"))
            .args(args.iter().map(|a| OsStr::from_bytes(a)))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end(), format!("tenfold: {says}"));
    }
}

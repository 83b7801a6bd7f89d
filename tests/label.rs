//! `tenfold label`: datagen positions scored again by a reference engine, for `tune` to
//! fit the evaluation to that engine's judgement. Each line keeps its FEN and result and
//! gets the engine's score from White's side; bad input gets one-line errors. The
//! Fairy-Stockfish test fails under `CI=true` when the engine is missing (CI installs it)
//! and says why it skips otherwise.

mod common;

use common::{temp_path, tenfold};
use std::path::Path;

/// Chess with Black's queen gone, White to move and Black to move: White is ahead either way.
const CHESS_UP: [&str; 2] = [
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnb1kbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
];

/// A datagen file of `fens`, each with score 0 and the result `1/2-1/2`.
fn data(name: &str, fens: &[&str]) -> std::path::PathBuf {
    let path = temp_path(name);
    let text: String = fens
        .iter()
        .map(|f| format!("{f} | 0 | 1/2-1/2\n"))
        .collect();
    std::fs::write(&path, format!("# made by the test\n{text}")).unwrap();
    path
}

/// Runs `tenfold label` on `input`; returns the output file's data lines as
/// (FEN, score, result).
fn label(variant: &str, engine: &str, input: &Path, out: &str) -> Vec<(String, i32, String)> {
    let out = temp_path(out);
    let (code, stdout, err) = tenfold(&[
        "label",
        "--variant",
        variant,
        "--engine",
        engine,
        "--depth",
        "5",
        "--threads",
        "2",
        "--data",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "label failed: {err}");
    assert!(stdout.contains("positions scored"), "{stdout}");
    std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(" | ").collect();
            assert_eq!(f.len(), 3, "{l}");
            (f[0].to_string(), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

#[test]
fn each_position_keeps_its_fen_and_result_and_gets_the_engines_score_from_whites_side() {
    // Tenfold itself (an engine spec without `cmd`) as the reference engine.
    let input = data("label-in.txt", &CHESS_UP);
    let lines = label("chess", "name=tf", &input, "label-tf.txt");
    assert_eq!(lines.len(), 2);
    for ((fen, score, result), want) in lines.iter().zip(CHESS_UP) {
        assert_eq!(fen, want);
        assert_eq!(result, "1/2-1/2");
        // A queen up is worth several pawns to White, whoever is to move.
        assert!(*score > 500, "{fen}: {score}");
    }
}

/// Fairy-Stockfish if installed; None (after saying why) when it is not and this is not CI.
fn fairy_stockfish() -> Option<&'static str> {
    let path = "/usr/games/fairy-stockfish";
    if Path::new(path).is_file() {
        return Some(path);
    }
    let why = "fairy-stockfish is not installed (apt-get install -y fairy-stockfish)";
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("skipped: {why}");
    None
}

/// README: "written as the same `FEN | score | result` line": a result given as a
/// number (`tune` reads any from 0 to 1) is not rounded to a game's result.
#[test]
fn a_result_written_as_a_number_stays_that_number() {
    let path = temp_path("fraction.txt");
    std::fs::write(
        &path,
        format!("{} | 10 | 0.9\n{} | 10 | 0.5\n", CHESS_UP[0], CHESS_UP[1]),
    )
    .unwrap();
    let lines = label("chess", "name=T", &path, "fraction-out.txt");
    let results: Vec<&str> = lines.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(results, ["0.9", "1/2-1/2"]);
}

#[test]
fn fairy_stockfish_scores_chess_and_grand_positions() {
    let Some(fs) = fairy_stockfish() else {
        return;
    };
    let engine = format!("cmd={fs},option.Hash=16");
    let input = data("label-fs-chess.txt", &CHESS_UP);
    for (fen, score, _) in label("chess", &engine, &input, "label-fs-chess-out.txt") {
        assert!(score > 500, "{fen}: {score}");
    }
    // Over XBoard each position is set up as a game of its own (`setboard`).
    let xboard = format!("cmd={fs},proto=xboard");
    let lines = label("chess", &xboard, &input, "label-fs-xboard-out.txt");
    assert_eq!(lines.len(), 2);
    for (fen, score, _) in lines {
        assert!(score > 500, "{fen}: {score}");
    }
    // Grand with Black's queen gone (the engine is told the variant by name).
    let grand = ["r8r/1nb1kcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R b - - 0 1"];
    let input = data("label-fs-grand.txt", &grand);
    let lines = label("grand", &engine, &input, "label-fs-grand-out.txt");
    assert_eq!(lines.len(), 1);
    assert!(lines[0].1 > 500, "{:?}", lines[0]);
}

#[test]
fn bad_input_gets_one_line_errors() {
    let input = data("label-bad-in.txt", &CHESS_UP[..1]);
    let out = temp_path("label-bad-out.txt");
    // `label --engine ENGINE --out OUT` and `extra`: exit 2 and one line on stderr.
    let run = |engine: &str, extra: &[&str]| {
        let mut args = vec!["label", "--engine", engine, "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (code, _, err) = tenfold(&args);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        err
    };
    let err = run("name=tf", &["--data", input.to_str().unwrap()]);
    assert!(err.contains("--depth"), "{err}");
    let err = run(
        "name=tf",
        &["--data", input.to_str().unwrap(), "--depth", "0"],
    );
    assert!(err.contains("at least 1"), "{err}");
    let broken = temp_path("label-broken.txt");
    std::fs::write(&broken, "# header\nnot a fen at all | 0 | 1-0\n").unwrap();
    let err = run(
        "name=tf",
        &["--data", broken.to_str().unwrap(), "--depth", "2"],
    );
    assert!(err.contains("label-broken.txt:2:"), "{err}");
    let err = run(
        "cmd=/nonexistent/engine",
        &["--depth", "2", "--data", input.to_str().unwrap()],
    );
    assert!(err.contains("/nonexistent/engine"), "{err}");
}

/// A UCI engine (a shell script) answering every search with `score cp SCORE`.
fn stub_engine(name: &str, score: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = temp_path(name);
    let script = format!(
        "#!/bin/sh\nwhile read l; do case \"$l\" in\n\
         uci) echo uciok;; isready) echo readyok;;\n\
         go*) echo \"info depth 1 score cp {score}\"; echo \"bestmove e2e4\";;\n\
         quit) exit;; esac; done\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn scores_beyond_3000_are_left_out_even_the_most_negative_i32() {
    let input = data("label-min-in.txt", &CHESS_UP[..1]);
    for (score, kept) in [("-2147483648", 0), ("-3000", 0), ("2999", 1)] {
        let engine = stub_engine(&format!("label-min-{score}.sh"), score);
        let spec = format!("name=S,cmd={},proto=uci", engine.display());
        let lines = label("chess", &spec, &input, "label-min-out.txt");
        assert_eq!(lines.len(), kept, "score {score}: {lines:?}");
    }
}

#[test]
fn out_is_replaced_only_when_the_run_succeeds_so_it_may_be_the_data_file() {
    let input = data("label-same.txt", &CHESS_UP);
    let before = std::fs::read_to_string(&input).unwrap();
    let path = input.to_str().unwrap();
    let (code, _, err) = tenfold(&[
        "label",
        "--data",
        path,
        "--engine",
        "name=X,cmd=/nonexistent,proto=uci",
        "--depth",
        "2",
        "--out",
        path,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        !err.contains("position:") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), before);
    let (code, _, err) = tenfold(&[
        "label", "--data", path, "--engine", "name=tf", "--depth", "2", "--out", path,
    ]);
    assert_eq!(code, 0, "{err}");
    let after = std::fs::read_to_string(&input).unwrap();
    assert_eq!(after.lines().filter(|l| !l.starts_with('#')).count(), 2);
    assert!(after.starts_with("# tenfold label"), "{after}");
}

#[test]
fn thread_counts_past_four_per_hardware_thread_are_refused_as_datagen_refuses_them() {
    let input = data("label-threads.txt", &CHESS_UP[..1]);
    let out = temp_path("label-threads-out.txt");
    let (code, _, err) = tenfold(&[
        "label",
        "--data",
        input.to_str().unwrap(),
        "--engine",
        "name=tf",
        "--depth",
        "1",
        "--threads",
        "100000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("threads") && err.lines().count() == 1, "{err}");
    assert!(!out.exists());
}

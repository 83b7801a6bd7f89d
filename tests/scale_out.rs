//! Scale-out (issue 18): a match or perft cut into slices adds up to exactly the
//! unsharded run, `merge` names a missing or repeated slice, neighbouring seeds play
//! different games, and a match interrupted by SIGINT mid-game resumes to the result of
//! an uninterrupted one. The Slurm job arrays themselves run in `scripts/slurm/ci.sh`.

mod common;

use common::{temp_path, tenfold, tenfold_within};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tenfold::arena::player::EngineSpec;
use tenfold::arena::{run_match, Adjudication, MatchConfig, TimeControl};
use tenfold::core::shard::Shard;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Random against greedy from generated openings: every game depends on the seed alone.
fn random_vs_greedy(games: u32, seed: u64) -> MatchConfig {
    MatchConfig {
        variant: "chess".into(),
        engines: vec![
            EngineSpec::parse("name=R,player=random").unwrap(),
            EngineSpec::parse("name=G,player=greedy").unwrap(),
        ],
        each: TimeControl::default(),
        openings: vec![],
        plies: 4,
        random_order: false,
        rounds: 1,
        games,
        concurrency: 2,
        round_robin: false,
        sprt: None,
        adjudication: Adjudication {
            max_moves: Some(60),
            ..Default::default()
        },
        margin: Duration::from_millis(50),
        seed,
        event: "t".into(),
        variant_files: vec![],
        pairs: None,
        shard: None,
    }
}

/// Each game by number: who played it, its moves and its result.
fn games_of(cfg: &MatchConfig) -> BTreeMap<usize, (usize, usize, Vec<String>, &'static str)> {
    let r = run_match(cfg, &|_, _| {}).unwrap();
    r.games
        .iter()
        .map(|g| {
            let rec = &g.record;
            (
                g.number,
                (g.white, g.black, rec.moves.clone(), rec.result_token()),
            )
        })
        .collect()
}

#[test]
fn neighbouring_seeds_play_different_games() {
    // Shards once started with --seed base+i: seeds 2k and 2k+1 played the same games.
    for s in [1000u64, 1001, 2, 7] {
        let (a, b) = (
            games_of(&random_vs_greedy(4, s)),
            games_of(&random_vs_greedy(4, s + 1)),
        );
        assert_eq!(a.len(), 4);
        for n in 1..=4 {
            assert_ne!(a[&n].2, b[&n].2, "game {n} of seeds {s} and {}", s + 1);
        }
        // Partner games of a pair share their opening, not their baselines' dice.
        assert_eq!(a[&1].2[..4], a[&2].2[..4], "seed {s}: one opening per pair");
    }
}

#[test]
fn the_union_of_shards_is_the_unsharded_match() {
    let whole = games_of(&random_vs_greedy(16, 11));
    assert_eq!(whole.len(), 16);
    for n in [1, 2, 3, 4, 5, 8] {
        let mut union = BTreeMap::new();
        for index in 0..n {
            let mut cfg = random_vs_greedy(16, 11);
            let shard = Shard { index, count: n };
            cfg.pairs = Some(shard.range(cfg.total_pairs()));
            cfg.shard = Some(shard);
            for (k, g) in games_of(&cfg) {
                assert!(
                    union.insert(k, g).is_none(),
                    "game {k} in two of {n} shards"
                );
            }
        }
        assert_eq!(union, whole, "{n} shards");
    }
}

const MATCH: &[&str] = &[
    "match",
    "--engine",
    "name=R,player=random",
    "--engine",
    "name=G,player=greedy",
    "--games",
    "16",
    "--maxmoves",
    "60",
    "--seed",
    "9",
    "--json",
];

/// The match of `MATCH` (with another `--seed` if given) played as `n` shards.
fn sharded_match(dir: &str, n: usize, seed: Option<&str>) -> Vec<String> {
    (0..n)
        .map(|i| {
            let (shard, pgn) = (format!("{i}/{n}"), format!("{dir}-{i}.pgn"));
            let _ = std::fs::remove_file(&pgn);
            let mut args = MATCH.to_vec();
            if let Some(seed) = seed {
                let at = args.iter().position(|a| *a == "--seed").unwrap();
                args[at + 1] = seed;
            }
            args.extend(["--shard", &shard, "--pgnout", &pgn]);
            let (code, out, err) = tenfold(&args);
            assert_eq!(code, 0, "{err}");
            let file = format!("{dir}-{i}.json");
            std::fs::write(&file, out).unwrap();
            file
        })
        .collect()
}

#[test]
fn merged_match_shards_print_the_unsharded_summary() {
    let (code, whole, err) = tenfold(MATCH);
    assert_eq!(code, 0, "{err}");
    let dir = temp_path("m").to_string_lossy().into_owned();
    let files = sharded_match(&dir, 4, None);
    let merged_pgn = format!("{dir}-all.pgn");
    let plot = format!("{dir}.svg");
    let mut args: Vec<&str> = vec!["merge", "--json", "--pgnout", &merged_pgn, "--plot", &plot];
    args.extend(files.iter().map(String::as_str));
    let (code, merged, err) = tenfold(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&merged), json(&whole));
    assert_eq!(
        json(&merged)["results"][0]["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum::<u64>(),
        8
    );
    // The slices' PGNs, concatenated, are 16 games that replay.
    let (code, out, err) = tenfold(&["pgn", "--check", &merged_pgn]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("16 passed, 0 failed\n"), "{out}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("R vs G (chess)"),
        "{svg}"
    );

    // One shard left out, one given twice, one of another seed.
    let (code, _, err) = tenfold(&["merge", &files[0], &files[1], &files[3]]);
    assert_eq!((code, err.as_str()), (1, "tenfold: shard 2/4 missing\n"));
    let (code, _, err) = tenfold(&[
        "merge", &files[0], &files[1], &files[2], &files[3], &files[1],
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("shard 1/4 given 2 times"), "{err}");
    let other = sharded_match(&format!("{dir}-seed"), 4, Some("10"));
    let (code, _, err) = tenfold(&["merge", &files[0], &files[1], &files[2], &other[3]]);
    assert_eq!(code, 1);
    assert!(
        err.contains("seed 10 differs from") && err.contains("'s 9"),
        "{err}"
    );
}

#[test]
fn pair_ranges_are_slices_too() {
    let (_, whole, _) = tenfold(MATCH);
    let dir = temp_path("p").to_string_lossy().into_owned();
    let mut files = Vec::new();
    for (i, range) in ["0..3", "3..4", "4..8"].iter().enumerate() {
        let mut args = MATCH.to_vec();
        args.extend(["--pairs", range]);
        let (code, out, err) = tenfold(&args);
        assert_eq!(code, 0, "{err}");
        files.push(format!("{dir}-{i}.json"));
        std::fs::write(&files[i], out).unwrap();
    }
    let (code, merged, err) = tenfold(&["merge", "--json", &files[0], &files[1], &files[2]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&merged), json(&whole));
    let (code, _, err) = tenfold(&["merge", &files[0], &files[2]]);
    assert_eq!((code, err.as_str()), (1, "tenfold: pairs 3..4 missing\n"));
    let mut args = MATCH.to_vec();
    args.extend(["--pairs", "6..9"]);
    let (code, _, err) = tenfold(&args);
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "tenfold: --pairs: 6..9 ends past the schedule's 8 pairs\n"
        )
    );
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perft_shards_merge_to_the_total_and_the_divide() {
    let (code, whole, err) = tenfold(&[
        "perft", "--fen", KIWIPETE, "--depth", "4", "--divide", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let dir = temp_path("perft").to_string_lossy().into_owned();
    for (n, ply) in [(5, "2"), (3, "3")] {
        let files: Vec<String> = (0..n)
            .map(|i| {
                let shard = format!("{i}/{n}");
                let args = [
                    "perft",
                    "--fen",
                    KIWIPETE,
                    "--depth",
                    "4",
                    "--shard",
                    &shard,
                    "--split-ply",
                    ply,
                    "--json",
                ];
                let (code, out, err) = tenfold(&args);
                assert_eq!(code, 0, "{err}");
                let file = format!("{dir}-{ply}-{i}.json");
                std::fs::write(&file, out).unwrap();
                file
            })
            .collect();
        let mut args = vec!["merge", "--json"];
        args.extend(files.iter().map(String::as_str));
        let (code, merged, err) = tenfold(&args);
        assert_eq!(code, 0, "{err}");
        let (m, w) = (json(&merged), json(&whole));
        assert_eq!(m["nodes"], 4_085_603);
        assert_eq!(m["divide"], w["divide"], "{n} shards split at ply {ply}");
        // The text is `perft --divide`'s: move lines, a blank line, the total.
        let (_, text, _) = tenfold(
            &args[..1]
                .iter()
                .chain(&args[2..])
                .copied()
                .collect::<Vec<_>>(),
        );
        assert!(
            text.starts_with("a1b1: 83348\n") && text.contains("\n\nnodes 4085603\n"),
            "{text}"
        );
        let (code, _, err) = tenfold(&["merge", &files[0], &files[2]]);
        assert_eq!(code, 1);
        assert!(
            err.starts_with("tenfold: shard") && err.contains("missing"),
            "{err}"
        );
    }
    let (code, _, err) = tenfold(&["perft", "--depth", "3", "--shard", "4/4"]);
    assert_eq!(code, 2);
    assert!(err.contains("4/4 needs 0 <= I < N"), "{err}");
    // A file that is no slice is bad input, not a failed check.
    std::fs::write(format!("{dir}-junk.json"), "{\"nodes\": 1}").unwrap();
    let (code, _, err) = tenfold(&["merge", &format!("{dir}-junk.json")]);
    assert_eq!(code, 2, "{err}");
}

/// `tenfold merge` of `files` with `edit` applied to each slice first, given 20 seconds.
fn merge_edited(files: &[String], name: &str, edit: impl Fn(&mut Value)) -> (i32, String) {
    let edited: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut v = json(&std::fs::read_to_string(f).unwrap());
            edit(&mut v);
            let out = temp_path(&format!("{name}-{i}.json"));
            std::fs::write(&out, v.to_string()).unwrap();
            out.to_string_lossy().into_owned()
        })
        .collect();
    let mut args = vec!["merge"];
    args.extend(edited.iter().map(String::as_str));
    let (code, _, err) = tenfold_within(&args, 20).unwrap_or_else(|| panic!("{name}: merge hangs"));
    (code, err)
}

#[test]
fn merge_takes_no_count_from_a_slice_on_trust() {
    let files: Vec<String> = (0..3)
        .map(|i| {
            let shard = format!("{i}/3");
            let (code, out, err) = tenfold(&["perft", "--depth", "3", "--shard", &shard, "--json"]);
            assert_eq!(code, 0, "{err}");
            let file = temp_path(&format!("trust-{i}.json"));
            std::fs::write(&file, out).unwrap();
            file.to_string_lossy().into_owned()
        })
        .collect();
    // A shard count of 10^12 leaves 999999999997 shards missing: a few are named.
    let (code, err) = merge_edited(&files, "count", |v| {
        v["shard"]["count"] = 1_000_000_000_000u64.into()
    });
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("shards 3/1000000000000, 4/1000000000000")
            && err.contains("and 999999999989 more missing")
            && err.lines().count() == 1,
        "{err}"
    );
    // 10^15 positions in all: each slice is far short of its share, and says so.
    let (code, err) = merge_edited(&files, "total", |v| {
        v["items_total"] = 1_000_000_000_000_000u64.into()
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("of its 333333333333334 positions"), "{err}");
    // A match slice whose pairs would hold 2^64 games is refused, not taken as empty.
    let mut args = MATCH.to_vec();
    args.extend(["--shard", "0/1"]);
    let (code, out, err) = tenfold(&args);
    assert_eq!(code, 0, "{err}");
    let file = temp_path("trust-match.json");
    std::fs::write(&file, out).unwrap();
    let files = [file.to_string_lossy().into_owned()];
    let (code, err) = merge_edited(&files, "pairs", |v| {
        v["pairs"] = serde_json::json!([0u64, 1u64 << 63]);
        v["total_pairs"] = serde_json::json!(1u64 << 63);
    });
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("0..9223372036854775808"), "{err}");
    let (code, err) = merge_edited(&files, "shard", |v| {
        v["shard"] = serde_json::json!({"index": 0, "count": 1_000_000_000_000u64});
    });
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("and 999999999991 more missing"), "{err}");
}

/// Games whose PGN is complete so far.
fn whole_games(pgn: &str) -> usize {
    std::fs::read_to_string(pgn)
        .map(|t| t.matches("[Event ").count())
        .unwrap_or(0)
}

#[test]
fn a_match_stopped_by_sigint_mid_game_resumes_to_the_same_result() {
    // A node-limited Tenfold engine plays the same game every time, slowly enough to be
    // interrupted in the middle of one.
    let dir = temp_path("resume").to_string_lossy().into_owned();
    let (through, stopped) = (format!("{dir}-through.pgn"), format!("{dir}-stopped.pgn"));
    let args = |pgn: &str| {
        let mut a: Vec<String> = [
            "match",
            "--engine",
            "name=T,nodes=4000",
            "--engine",
            "name=G,player=greedy",
            "--games",
            "8",
            "--maxmoves",
            "40",
            "--seed",
            "4",
            "--json",
            "--pgnout",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(pgn.to_string());
        a
    };
    let exe = env!("CARGO_BIN_EXE_tenfold");
    let run = |a: &[String]| {
        let out = Command::new(exe).args(a).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        json(&String::from_utf8_lossy(&out.stdout))
    };
    let whole = run(&args(&through));
    let mut child = Command::new(exe)
        .args(args(&stopped))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while whole_games(&stopped) < 2 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no games written");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(60));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(130),
        "SIGINT ends the match with 128 + 2"
    );
    let kept = whole_games(&stopped);
    assert!((2..8).contains(&kept), "stopped after {kept} games");
    let (code, out, err) = tenfold(&["pgn", "--check", &stopped]);
    assert_eq!(
        code, 0,
        "the interrupted PGN holds whole games only: {out}{err}"
    );

    let mut again = args(&stopped);
    again.push("--resume".into());
    assert_eq!(run(&again), whole);
    assert_eq!(whole_games(&stopped), 8, "each game once");
    let (code, out, err) = tenfold(&["pgn", "--check", &stopped]);
    assert_eq!(code, 0, "{out}{err}");
    // Resuming a finished match plays nothing and reports the same.
    assert_eq!(run(&again), whole);
    assert_eq!(whole_games(&stopped), 8);
}

#[test]
fn resume_refuses_a_pgn_of_another_match() {
    let pgn = temp_path("foreign.pgn").to_string_lossy().into_owned();
    let _ = std::fs::remove_file(&pgn);
    let mut args = MATCH.to_vec();
    args.extend(["--pgnout", &pgn]);
    assert_eq!(tenfold(&args).0, 0);
    let mut other: Vec<&str> = MATCH.to_vec();
    other[2] = "name=X,player=random";
    other.extend(["--pgnout", &pgn, "--resume"]);
    let (code, _, err) = tenfold(&other);
    assert_eq!(code, 2);
    assert!(
        err.contains("game 1 was X vs G") || err.contains("was R vs G"),
        "{err}"
    );
    let (code, _, err) = tenfold(&[
        "match",
        "--engine",
        "name=A,player=random",
        "--engine",
        "name=B,player=random",
        "--resume",
    ]);
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "tenfold: --resume needs --pgnout FILE: the match's PGN is its state\n"
        )
    );
}

/// `list` as owned arguments.
fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The arguments of a short random-vs-random match with `--seed seed`, `--plies plies`
/// and `--pgnout pgn`.
fn short_match(pgn: &str, seed: &str, plies: &str) -> Vec<String> {
    strings(&[
        "match",
        "--engine",
        "name=A,player=random",
        "--engine",
        "name=B,player=random",
        "--games",
        "4",
        "--maxmoves",
        "10",
        "--seed",
        seed,
        "--plies",
        plies,
        "--pgnout",
        pgn,
    ])
}

/// `--resume` keeps only this match's games ("resumes to the same result", README): a
/// game whose book moves are not the ones the schedule gives its pair (another
/// `--seed`), whose moves do not replay under the rules, or whose Result the rules
/// contradict is refused, one line naming file, line and why, exit 2, before any game.
#[test]
fn resume_refuses_games_this_match_did_not_play() {
    let pgn = temp_path("other-seed.pgn").to_string_lossy().into_owned();
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(tenfold(&short_match(&pgn, "1", "2")).0, 0);
    let mut again = short_match(&pgn, "2", "2");
    again.push("--resume".into());
    let (code, out, err) = tenfold(&again);
    assert_eq!(code, 2, "{out}{err}");
    assert!(!out.contains("Finished game"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("game at line 1: game 1 opens ") && err.contains("the schedule's book is"),
        "{err}"
    );

    for (moves, why) in [
        ("1. e4 e5 2. Ke3 1-0", "game 1 does not replay: ply 3: "),
        (
            "1. f3 e5 2. g4 Qh4# 1-0",
            "game 1 does not replay: the game ends by checkmate (0-1) but Result is \"1-0\"",
        ),
    ] {
        let hand = temp_path("hand-made.pgn").to_string_lossy().into_owned();
        std::fs::write(
            &hand,
            format!(
                "[Event \"m\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\
                 [Result \"1-0\"]\n\n{moves}\n\n"
            ),
        )
        .unwrap();
        let mut resumed = short_match(&hand, "1", "0");
        resumed.push("--resume".into());
        let (code, out, err) = tenfold(&resumed);
        assert_eq!(code, 2, "{moves}: {out}{err}");
        assert!(!out.contains("Finished game"), "{out}");
        assert!(err.contains(why), "{moves}: {err}");
    }
}

/// The arguments of a 4-game node-limited match in `variant` (Tenfold against greedy,
/// deterministic), its moves written in `notation` to `pgn`.
fn xboard_match(variant: &str, notation: &str, pgn: &str) -> Vec<String> {
    strings(&[
        "match",
        "--variant",
        variant,
        "--engine",
        "name=A",
        "--engine",
        "name=B,player=greedy",
        "--each",
        "nodes=1000",
        "--games",
        "4",
        "--maxmoves",
        "30",
        "--json",
        "--pgn-notation",
        notation,
        "--pgnout",
        pgn,
    ])
}

/// "`--pgn-notation xboard` ... marks each game `[Notation \"xboard\"]`, and the reader
/// (`--resume`, `pgn --check`) reads that game's moves and FEN as XBoard's" (README): a
/// match stopped after its first pair in Shako (10 ranks: ranks from 0) and Combined
/// Arms (kills as comma legs) resumes to the uninterrupted result and checks clean;
/// resumed with another `--pgn-notation` it is refused in one line, exit 2.
#[test]
fn an_xboard_notation_match_resumes_and_checks_on_ten_ranks_and_comma_legs() {
    for (variant, sign) in [("shako", "0"), ("combined-arms", ",")] {
        let whole = temp_path(&format!("{variant}-whole.pgn"))
            .to_string_lossy()
            .into_owned();
        let pgn = temp_path(&format!("{variant}-xb.pgn"))
            .to_string_lossy()
            .into_owned();
        let _ = std::fs::remove_file(&whole);
        let _ = std::fs::remove_file(&pgn);
        let (code, through, err) = tenfold(&xboard_match(variant, "xboard", &whole));
        assert_eq!(code, 0, "{err}");
        let mut first = xboard_match(variant, "xboard", &pgn);
        first.extend(["--pairs".into(), "0..1".into()]);
        assert_eq!(tenfold(&first).0, 0);
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Notation \"xboard\"]").count(), 2, "{text}");
        // The movetext is XBoard's: a rank 0 (Shako) or a comma leg (Combined Arms).
        let games = tenfold::arena::pgn::parse_pgn(&text).unwrap();
        let xboard_moves = games
            .iter()
            .flat_map(|g| &g.moves)
            .filter(|m| match sign {
                "0" => m
                    .as_bytes()
                    .windows(2)
                    .any(|p| p[0].is_ascii_lowercase() && p[1] == b'0'),
                _ => m.contains(sign),
            })
            .count();
        assert!(xboard_moves > 0, "{variant}: no XBoard-only move in {text}");

        let mut other = xboard_match(variant, "san", &pgn);
        other.push("--resume".into());
        let (code, out, err) = tenfold(&other);
        assert_eq!(code, 2, "{out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("game at line 1: game 1 is in XBoard's notation")
                && err.contains("--pgn-notation is san"),
            "{err}"
        );

        let mut again = xboard_match(variant, "xboard", &pgn);
        again.push("--resume".into());
        let (code, out, err) = tenfold(&again);
        assert_eq!(code, 0, "{variant}: {err}");
        assert_eq!(json(&out), json(&through), "{variant}");
        assert_eq!(whole_games(&pgn), 4);
        for file in [&pgn, &whole] {
            let (code, out, err) = tenfold(&["pgn", "--check", file]);
            assert_eq!(code, 0, "{variant}: {out}{err}");
            assert!(out.contains("4 passed, 0 failed"), "{out}");
        }
    }
}

/// `merge` adds up checked: a slice whose counts take the total past `u64::MAX` (edited
/// by hand: no count that runs comes near it) is bad input naming its file, exit 2; the
/// sum wrapped to a small total and passed with exit 0.
#[test]
fn a_slice_whose_counts_overflow_the_total_is_refused_by_name() {
    let dir = temp_path("overflow").to_string_lossy().into_owned();
    let files: Vec<String> = (0..2)
        .map(|i| {
            let shard = format!("{i}/2");
            let args = ["perft", "--depth", "2", "--shard", &shard, "--json"];
            let (code, out, err) = tenfold(&args);
            assert_eq!(code, 0, "{err}");
            let file = format!("{dir}-{i}.json");
            std::fs::write(&file, out).unwrap();
            file
        })
        .collect();
    let (code, out, err) = tenfold(&["merge", "--json", &files[0], &files[1]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["nodes"], 400);
    let mut edited = json(&std::fs::read_to_string(&files[1]).unwrap());
    edited["items"][0]["nodes"] = Value::from(u64::MAX);
    std::fs::write(&files[1], edited.to_string()).unwrap();
    let (code, out, err) = tenfold(&["merge", "--json", &files[0], &files[1]]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        format!(
            "tenfold: {}: its node counts take the total past 2^64 - 1\n",
            files[1]
        )
    );
}

//! The evaluation as table data, `tenfold datagen` and `tenfold tune` (issue 15):
//! data is deterministic for a seed and well formed, the Texel fit recovers weights
//! that made synthetic labels, a tune lowers the loss and writes a section that loads
//! back, and bad input gets one-line errors naming the file and line.

mod common;

use common::{temp_path, tenfold, Rng};
use tenfold::eval::trace::{Offsets, Tracer};
use tenfold::eval::{Eval, Weights};
use tenfold::perft::perft;
use tenfold::tune::fit::{self, FitOptions, Sample};
use tenfold::{registry, Color, MoveList, Position, Variant};

fn datagen(game: &str, games: &str, seed: &str, threads: &str, out: &str) -> String {
    let (code, stdout, err) = tenfold(&[
        "datagen",
        "--variant",
        game,
        "--games",
        games,
        "--nodes",
        "400",
        "--seed",
        seed,
        "--threads",
        threads,
        "--out",
        out,
    ]);
    assert_eq!(code, 0, "datagen failed: {err}");
    assert!(stdout.contains("positions"), "{stdout}");
    std::fs::read_to_string(out).unwrap()
}

/// `tenfold tune --variant chess --data DATA --holdout 0` followed by `rest`.
fn tune_chess(data: &std::path::Path, rest: &[&str]) -> (i32, String, String) {
    let mut args = vec!["--holdout", "0"];
    args.extend_from_slice(rest);
    tune_chess_split(data, &args)
}

/// `tenfold tune --variant chess --data DATA` with `rest`, which names the held-out share.
fn tune_chess_split(data: &std::path::Path, rest: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "tune",
        "--variant",
        "chess",
        "--data",
        data.to_str().unwrap(),
    ];
    args.extend_from_slice(rest);
    tenfold(&args)
}

#[test]
fn datagen_is_deterministic_for_a_seed_whatever_the_thread_count() {
    let a = temp_path("dg-a.txt");
    let b = temp_path("dg-b.txt");
    let c = temp_path("dg-c.txt");
    let one = datagen("chess", "4", "7", "1", a.to_str().unwrap());
    let two = datagen("chess", "4", "7", "2", b.to_str().unwrap());
    assert_eq!(one, two, "same seed, same file, one thread or two");
    let other = datagen("chess", "4", "8", "1", c.to_str().unwrap());
    assert_ne!(one, other, "another seed plays other games");
}

#[test]
fn datagen_lines_are_quiet_positions_with_score_and_result() {
    let path = temp_path("dg-format.txt");
    let text = datagen("grand", "2", "3", "1", path.to_str().unwrap());
    let v = registry::get("grand").unwrap();
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        let pos = Position::from_fen(&v, parts[0]).unwrap();
        assert!(!pos.in_check(), "a position in check was kept: {line}");
        let score: i32 = parts[1].parse().unwrap();
        assert!(score.abs() < 3000, "{line}");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&parts[2]), "{line}");
        // The opening (8 plies) and the skipped plies (8) are never kept.
        assert!(pos.fullmove() > 8, "{line}");
        lines += 1;
    }
    assert!(lines > 10, "only {lines} positions kept");
}

/// Positions from pseudo-random games of a game, for synthetic fits.
fn random_positions(v: &std::sync::Arc<Variant>, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos(v);
        for _ in 0..80 {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if list.is_empty() || pos.game_result().is_some() {
                break;
            }
            pos.make_move(*rng.pick(list.as_slice()));
            out.push(pos.clone());
        }
    }
    out.truncate(n);
    out
}

#[test]
fn the_fit_recovers_weights_that_made_the_labels() {
    let v = registry::get("chess").unwrap();
    let start = Weights::of(&v);
    let l = start.layout;
    let knight = v.type_of_letter('N').unwrap() as usize;
    let rook = v.type_of_letter('R').unwrap() as usize;
    // The truth differs from the defaults in a few well-seen weights.
    let mut truth = start.clone();
    truth.mg[l.material(knight)] += 120;
    truth.eg[l.material(knight)] += 120;
    truth.mg[l.material(rook)] -= 100;
    truth.eg[l.material(rook)] -= 100;
    let t = l.scalar(tenfold::eval::weights::TEMPO_TERM);
    truth.mg[t] = 40;
    truth.eg[t] = 40;
    let eval = Eval::new(&v);
    let mut tracer = Tracer::new(&eval);
    let o = Offsets::of(&l);
    let (k, p_true) = (1.0, truth.to_vec());
    let samples: Vec<Sample> = random_positions(&v, 6000, 0x9E37_79B9)
        .iter()
        .map(|pos| {
            let trace = tracer.trace(pos);
            // The label is the expected score under the true weights, so the truth is
            // the loss's minimum.
            let result = fit::expected(k, trace.score(&p_true, &o)) as f32;
            Sample { trace, result }
        })
        .collect();
    let (train, held) = samples.split_at(5400);
    let p0 = start.to_vec();
    let before = fit::loss(train, &p0, &o, k, 2);
    let opt = FitOptions {
        epochs: 60,
        lr: 3.0,
        batch: 1024,
        reg: 0.0,
        patience: 60,
        threads: 2,
        seed: 1,
        trainable: Vec::new(),
    };
    let mut losses = Vec::new();
    let (best, _) = fit::adam(train, held, &p0, &o, k, &opt, |e| losses.push(e.train));
    let after = fit::loss(train, &best, &o, k, 2);
    assert!(after < before / 4.0, "loss {before} -> {after}");
    let fitted = start.from_vec(&best);
    // Material, placement and the king steps from the own royal of a type are only
    // identified together (a constant may move between them): what is recovered is a
    // piece's worth where pieces stood.
    let worth = |w: &Weights, t: usize| {
        let (mut sum, mut n) = (0i64, 0i64);
        for pos in &random_positions(&v, 600, 0x51_7CC1) {
            for c in [Color::White, Color::Black] {
                let king = pos.royals(c).iter().next();
                for sq in pos.pieces(t as u8, c).iter() {
                    let rel = eval.relative(c.idx(), sq);
                    let d = king.map_or(0, |k| v.board.distance(sq, k));
                    let rd = l.royal_distance(t);
                    sum += (w.mg[l.material(t)] + w.mg[l.pst(t, rel)] + w.mg[rd] * d) as i64;
                    sum += (w.eg[l.material(t)] + w.eg[l.pst(t, rel)] + w.eg[rd] * d) as i64;
                    n += 2;
                }
            }
        }
        sum / n.max(1)
    };
    for (name, t) in [("N", knight), ("R", rook)] {
        let (got, want, was) = (worth(&fitted, t), worth(&truth, t), worth(&start, t));
        assert!(
            (got - want).abs() <= 20,
            "{name}: worth fitted {got}, truth {want}, start {was}"
        );
    }
    // And every held-out score is close to the truth's.
    let err: f64 = held
        .iter()
        .map(|x| (x.trace.score(&best, &o) - x.trace.score(&p_true, &o)).abs())
        .sum::<f64>()
        / held.len() as f64;
    assert!(err < 20.0, "mean held-out score error {err}");
    let tempo = fitted.mg[t];
    assert!((tempo - 40).abs() <= 15, "tempo fitted {tempo}, truth 40");
}

#[test]
fn tune_lowers_the_loss_and_writes_a_section_that_loads_back() {
    let data = temp_path("tune-data.txt");
    datagen("chess", "12", "11", "2", data.to_str().unwrap());
    let section = temp_path("tune-eval.toml");
    let table = temp_path("tuned-chess.toml");
    std::fs::write(&table, "extends = \"chess\"\nname = \"chess-tuned\"\n").unwrap();
    let (code, out, err) = tune_chess(
        &data,
        &[
            "--epochs",
            "6",
            "--lr",
            "2",
            "--out",
            section.to_str().unwrap(),
            "--into",
            table.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let before: f64 = out
        .lines()
        .find_map(|l| l.split("loss before: train ").nth(1))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no starting loss in {out}"));
    let epochs: Vec<f64> = out
        .lines()
        .filter(|l| l.starts_with("epoch"))
        .filter_map(|l| {
            l.split("train ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(epochs.len(), 6, "one loss line per epoch: {out}");
    assert!(epochs[5] < before, "loss {before} -> {epochs:?}");
    let text = std::fs::read_to_string(&section).unwrap();
    assert!(text.starts_with("[eval]\n") && text.contains("[eval.piece.N]"));
    // Chess's weights were fitted with the endgame scale, and the section says so.
    assert!(text.contains("\nendgame_scale = true\n"), "{text}");
    // The table file now carries the section, loads, plays the same game (perft) and
    // evaluates with the tuned weights.
    let tuned = registry::load_file(table.to_str().unwrap()).unwrap();
    let chess = registry::get("chess").unwrap();
    assert_eq!(
        perft(&mut Position::startpos(&tuned), 3),
        perft(&mut Position::startpos(&chess), 3)
    );
    assert_ne!(Weights::of(&tuned), Weights::of(&chess));
    let again = Variant::from_toml(
        &format!("extends = \"chess\"\nname = \"again\"\n{text}"),
        "again",
    )
    .unwrap();
    assert_eq!(Weights::of(&again), Weights::of(&tuned));
    assert!(again.eval().endgame_scale && tuned.eval().endgame_scale);
    // A second round into the same table replaces the section the first one wrote.
    let (code, _, err) = tune_chess(&data, &["--epochs", "1", "--into", table.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&table).unwrap();
    assert_eq!(text.matches("[eval]").count(), 1, "{text}");
    registry::load_file(table.to_str().unwrap()).unwrap();
}

/// `tune --into` a table that already holds fitted weights (square tables written as
/// rows that start with `[`) replaces the whole old section: a second round of tuning
/// once failed with "invalid table header" on the first leftover row.
#[test]
fn a_written_eval_section_is_replaced_whole() {
    let grand = std::fs::read_to_string("tables/grand.toml").unwrap();
    assert!(
        grand.contains("pst_mg = [\n  ["),
        "grand.toml has written square tables"
    );
    let new = tenfold::tune::with_eval_section(&grand, "[eval]\ntempo = [1, 2]\n");
    assert!(!new.contains("pst_mg"), "{new}");
    assert!(new.contains("[[piece]]") && new.ends_with("[eval]\ntempo = [1, 2]\n"));
    // A bracket inside a string (behind an escaped quote) opens nothing.
    let quoted = grand.replacen(
        "\n[[piece]]",
        "\nnote = \"a \\\"[quoted\\\" bracket\"\n\n[[piece]]",
        1,
    );
    let replaced = tenfold::tune::with_eval_section(&quoted, "[eval]\ntempo = [1, 2]\n");
    assert!(!replaced.contains("pst_mg"), "{replaced}");
    let v = Variant::from_toml(&new, "grand-replaced").unwrap();
    let w = Weights::of(&v);
    let t = w.layout.scalar(tenfold::eval::weights::TEMPO_TERM);
    assert_eq!((w.mg[t], w.eg[t]), (1, 2));
}

#[test]
fn malformed_data_lines_are_refused_with_file_and_line() {
    let v = registry::get("chess").unwrap();
    let start = Position::startpos(&v).fen();
    for (bad, what) in [
        (format!("{start} | 12"), "found 2 field"),
        (format!("{start} | x | 1-0"), "score \"x\""),
        (format!("{start} | 5 | 2-0"), "result \"2-0\""),
        ("rnbqkbnr/pppppppp/8 w - - 0 1 | 5 | 1-0".to_string(), ":3:"),
    ] {
        let path = temp_path("bad-data.txt");
        std::fs::write(
            &path,
            format!("# made by hand\n{start} | 0 | 1/2-1/2\n{bad}\n"),
        )
        .unwrap();
        let p = path.to_str().unwrap();
        let (code, _, err) = tenfold(&["tune", "--data", p, "--epochs", "1"]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(&format!("{p}:3:")), "{err}");
        assert!(err.contains(what), "{what} not in {err}");
    }
}

/// Capablanca's positions fit Embassy's board and letters; the header `datagen` wrote
/// says whose they are, and fitting Embassy's weights to them is refused.
#[test]
fn data_made_for_another_game_is_refused_by_its_header() {
    let path = temp_path("capablanca-data.txt");
    let p = path.to_str().unwrap();
    let text = datagen("capablanca", "1", "5", "1", p);
    assert!(
        text.starts_with("# tenfold datagen --variant capablanca "),
        "{text}"
    );
    let (code, _, err) = tenfold(&["tune", "--variant", "embassy", "--data", p, "--epochs", "1"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(&format!("{p}:1:")), "{err}");
    assert!(
        err.contains("made for capablanca, not for embassy"),
        "{err}"
    );
}

#[test]
fn eval_sections_override_the_derived_weights_and_bad_ones_name_the_key() {
    let chess = registry::get("chess").unwrap();
    let base = Weights::of(&chess);
    let over = Variant::from_toml(
        "extends = \"chess\"\nname = \"x\"\n[eval]\ntempo = [30, 20]\n[eval.piece.N]\nmaterial = [400, 410]\n",
        "x",
    )
    .unwrap();
    let w = Weights::of(&over);
    let l = w.layout;
    let n = chess.type_of_letter('N').unwrap() as usize;
    assert_eq!((w.mg[l.material(n)], w.eg[l.material(n)]), (400, 410));
    assert_eq!(w.mg[l.scalar(0)], 30);
    // Everything not named keeps its default.
    assert_eq!(w.mg[l.pst(n, 10)], base.mg[l.pst(n, 10)]);
    // A knight more is now worth 400 to 410: the start position with White's b1 knight
    // gone is that much worse, tempo aside.
    let e = Eval::new(&over);
    let p = Position::from_fen(
        &over,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
    )
    .unwrap();
    let base_e = Eval::new(&chess);
    let knight_worth = |e: &Eval| e.evaluate(&Position::startpos(&over)) - e.evaluate(&p);
    // The knight's weight rose from chess's own (the table's fitted material) to 400
    // (middlegame) and 410 (endgame): the b1 knight's worth rose by that much, tapered
    // (the tempo is the same on both sides of the difference).
    let (was_mg, was_eg) = (base.mg[l.material(n)], base.eg[l.material(n)]);
    let (lo, hi) = (
        (400 - was_mg).min(410 - was_eg),
        (400 - was_mg).max(410 - was_eg),
    );
    let rise = knight_worth(&e) - knight_worth(&base_e);
    assert!(
        (lo - 2..=hi + 2).contains(&rise),
        "rise {rise} for a knight that weighed {was_mg}/{was_eg}"
    );
    assert_eq!(Position::startpos(&over).side_to_move(), Color::White);
    for (section, key) in [
        ("[eval.piece.Z]\nmaterial = [1, 1]", "eval.piece.Z"),
        ("[eval.piece.N]\npst_mg = [[1, 2]]", "eval.piece.N.pst_mg"),
        ("[eval]\npassed = [[1, 2]]", "eval.passed"),
        ("[eval]\ntempo = [99999, 0]", "eval.tempo"),
        ("[eval]\nroyal_danger = [-1, 5]", "eval.royal_danger"),
        ("[eval]\nroyal_weak = -2", "eval.royal_weak"),
        ("[eval]\npassed_blocked = [0, 99999]", "eval.passed_blocked"),
    ] {
        let err = Variant::from_toml(
            &format!("extends = \"chess\"\nname = \"x\"\n{section}\n"),
            "x",
        )
        .err()
        .unwrap_or_else(|| panic!("{section} was accepted"))
        .to_string();
        assert!(err.contains(key), "{key} not in {err}");
    }
    // A table on another board does not inherit placement written for this one.
    let rows = ["[1, 2, 3, 4, 5, 6, 7, 8]"; 8].join(", ");
    registry::load_text(
        &format!(
            "extends = \"chess\"\nname = \"tune-pst-base\"\n[eval.piece.N]\npst_mg = [{rows}]\n"
        ),
        "tune-pst-base.toml",
    )
    .unwrap();
    let tall = Variant::from_toml(
        "extends = \"tune-pst-base\"\nname = \"tall\"\nranks = 10\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"\n",
        "tall",
    );
    assert!(tall.is_ok(), "{:?}", tall.err().map(|e| e.to_string()));
}

/// A data file of `n` random chess positions, every game drawn, each scored by the
/// table's weights with the knight worth 150 more (what another engine might say).
fn stronger_knight_data(name: &str, n: usize, seed: u64) -> std::path::PathBuf {
    let v = registry::get("chess").unwrap();
    let mut truth = Weights::of(&v);
    let l = truth.layout;
    let knight = v.type_of_letter('N').unwrap() as usize;
    truth.mg[l.material(knight)] += 150;
    truth.eg[l.material(knight)] += 150;
    drawn_data(name, n, seed, &truth)
}

/// `n` random chess positions, every game drawn, each scored by the `truth` weights.
fn drawn_data(name: &str, n: usize, seed: u64, truth: &Weights) -> std::path::PathBuf {
    let v = registry::get("chess").unwrap();
    let eval = Eval::new(&v);
    let mut tracer = Tracer::new(&eval);
    let (o, p_true) = (Offsets::of(&truth.layout), truth.to_vec());
    let mut text = String::from("# synthetic: all draws, scores from other weights\n");
    for pos in random_positions(&v, n, seed) {
        let score = tracer.trace(&pos).score(&p_true, &o).round() as i32;
        text.push_str(&format!("{} | {score} | 1/2-1/2\n", pos.fen()));
    }
    let data = temp_path(name);
    std::fs::write(&data, text).unwrap();
    data
}

/// The chess weights with a written `[eval]` section laid over them.
fn weights_in(section: &std::path::Path) -> Weights {
    let section = std::fs::read_to_string(section).unwrap();
    let tuned = Variant::from_toml(
        &format!("extends = \"chess\"\nname = \"tuned\"\n{section}"),
        "tuned",
    )
    .unwrap();
    Weights::of(&tuned)
}

/// The Knight's middlegame material after a chess fit of `data` written to `out_name`:
/// K fixed at 1, 40 epochs at a learning rate of 4 in batches of 256, with `rest`
/// (held-out share, lambda, frozen terms) saying what else the test varies.
fn fit_knight(data: &std::path::Path, out_name: &str, rest: &[&str]) -> i32 {
    let knight = registry::get("chess").unwrap().type_of_letter('N').unwrap() as usize;
    let w = fit_chess(data, out_name, rest);
    w.mg[w.layout.material(knight)]
}

/// The chess weights after a fit of `data` as [`fit_knight`] runs it.
fn fit_chess(data: &std::path::Path, out_name: &str, rest: &[&str]) -> Weights {
    let out = temp_path(out_name);
    let mut args = vec![
        "--k",
        "1",
        "--epochs",
        "40",
        "--lr",
        "4",
        "--batch",
        "256",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(rest);
    let (code, _, err) = tune_chess_split(data, &args);
    assert_eq!(code, 0, "{err}");
    weights_in(&out)
}

/// The chess table's middlegame knight before any fit.
fn knight_before() -> i32 {
    let v = registry::get("chess").unwrap();
    let w = Weights::of(&v);
    w.mg[w.layout.material(v.type_of_letter('N').unwrap() as usize)]
}

#[test]
fn lambda_zero_learns_from_the_search_scores_where_results_say_nothing() {
    // Every game drawn, but the scores say a knight is worth 150 more than the table
    // thinks: the scores (λ 0) teach that, results alone (λ 1) teach the opposite.
    let data = stronger_knight_data("lambda-data.txt", 3000, 0xC0FFEE);
    let knight_after = |lambda: &str| {
        fit_knight(
            &data,
            &format!("lambda-{lambda}.toml"),
            &[
                "--holdout",
                "0",
                "--lambda",
                lambda,
                "--freeze",
                "pst,mobility,passed,danger,scalars,hand",
            ],
        )
    };
    let was = knight_before();
    let from_scores = knight_after("0");
    assert!(
        (from_scores - (was + 150)).abs() <= 25,
        "λ 0: knight {was} -> {from_scores}, the scores say {}",
        was + 150
    );
    // Results alone say every position is level, so material is pulled toward nothing.
    let from_results = knight_after("1");
    assert!(
        from_results < was - 100,
        "λ 1: knight {was} -> {from_results}; all draws should pull it down"
    );
    let (code, _, err) = tenfold(&["tune", "--data", data.to_str().unwrap(), "--lambda", "1.5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--lambda"), "{err}");
}

#[test]
fn score_k_fit_finds_the_scale_of_another_engines_scores() {
    // An engine whose scores run at twice the evaluation's scale: results drawn with
    // probability σ(0.45·score/400) are best predicted by K 0.45, which `--score-k fit`
    // finds and reports; a K that is no number is refused before the data is read.
    let v = registry::get("chess").unwrap();
    let mut rng = Rng(0x5C07E);
    let mut text = String::new();
    for pos in random_positions(&v, 4000, 0xBEEF) {
        let score = rng.below(1601) as i32 - 800;
        let p = fit::expected(0.45, score as f64);
        let result = if (rng.next() % 1_000_000) as f64 / 1e6 < p {
            "1-0"
        } else {
            "0-1"
        };
        text.push_str(&format!("{} | {score} | {result}\n", pos.fen()));
    }
    let data = temp_path("score-k-data.txt");
    std::fs::write(&data, text).unwrap();
    let out = temp_path("score-k.toml");
    let (code, stdout, err) = tune_chess(
        &data,
        &[
            "--lambda",
            "0.5",
            "--score-k",
            "fit",
            "--epochs",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let k: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("score K "))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no score K line in {stdout}"));
    assert!(
        (k - 0.45).abs() < 0.08,
        "score K {k}, the labels were drawn at 0.45"
    );
    for bad in ["zero", "0", "-1.5"] {
        let (code, _, err) = tune_chess(&data, &["--lambda", "0.5", &format!("--score-k={bad}")]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("--score-k"), "{err}");
    }
}

#[test]
fn judged_by_target_the_held_out_games_let_a_fit_learn_another_engines_scores() {
    // All games drawn, but the scores (another engine's) say a knight is worth 150 more:
    // judged by results alone, every step toward the scores looks worse on the held-out
    // games and the best epoch is the first; judged by the same target, the fit learns.
    let data = stronger_knight_data("judge-data.txt", 4000, 0xFACE);
    let knight_after = |judge: bool| {
        let mut args = vec![
            "--holdout",
            "4",
            "--patience",
            "3",
            "--lambda",
            "0",
            "--freeze",
            "pst,mobility,passed,danger,scalars,hand,checks",
        ];
        if judge {
            args.push("--judge-by-target");
        }
        fit_knight(&data, &format!("judge-{judge}.toml"), &args)
    };
    let was = knight_before();
    let judged_by_target = knight_after(true);
    assert!(
        (judged_by_target - (was + 150)).abs() <= 30,
        "judged by target: knight {was} -> {judged_by_target}, the scores say {}",
        was + 150
    );
    let judged_by_results = knight_after(false);
    assert!(
        judged_by_results < was + 50,
        "judged by results: knight {was} -> {judged_by_results}; draws should stop the fit early"
    );
}

#[test]
fn a_scalar_term_frozen_by_name_keeps_its_weight_while_the_others_move() {
    // The scores say tempo and shelter are both worth 40 more than the table thinks;
    // with `tempo` frozen by name only shelter follows them. An unknown name is refused.
    let v = registry::get("chess").unwrap();
    let start = Weights::of(&v);
    let l = start.layout;
    let (tempo, shelter) = (
        l.scalar(tenfold::eval::weights::TEMPO_TERM),
        l.scalar(tenfold::eval::weights::SHELTER),
    );
    let mut truth = start.clone();
    for f in [tempo, shelter] {
        truth.mg[f] += 40;
        truth.eg[f] += 40;
    }
    let data = drawn_data("freeze-by-name.txt", 3000, 0x7E3F0, &truth);
    let w = fit_chess(
        &data,
        "freeze-by-name.toml",
        &[
            "--holdout",
            "0",
            "--lambda",
            "0",
            "--freeze",
            "material,hand,mobility,pst,passed,danger,checks,tempo",
        ],
    );
    assert_eq!(w.mg[tempo], start.mg[tempo], "tempo was frozen by name");
    assert!(
        w.mg[shelter] > start.mg[shelter] + 15,
        "shelter {} -> {}, the scores say {}",
        start.mg[shelter],
        w.mg[shelter],
        start.mg[shelter] + 40
    );
    let (code, _, err) = tune_chess(&data, &["--freeze", "pst,tempi"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--freeze") && err.contains("tempi"), "{err}");
}

/// DESIGN.md: "`--json` prints one JSON object on stdout instead of the human text" — for
/// `tune`, the fit summed up (positions, K, the loss before and per epoch, the epoch
/// kept, where the section went) instead of its progress lines.
#[test]
fn tune_json_is_one_object_summing_up_the_fit() {
    let data = temp_path("tune-json-data.txt");
    std::fs::write(
        &data,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 20 | 1/2-1/2\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1 | -900 | 0-1\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1 | -900 | 0-1\n\
         rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 900 | 1-0\n\
         r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 300 | 1-0\n",
    )
    .unwrap();
    let section = temp_path("tune-json.toml");
    let out = section.to_str().unwrap();
    let (code, stdout, err) = tune_chess(&data, &["--epochs", "3", "--out", out, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not one object ({e}): {stdout}"));
    assert_eq!(v["train_positions"], 5, "{stdout}");
    assert_eq!(v["held_out_positions"], 0, "{stdout}");
    assert!(v["k"].as_f64().is_some_and(|k| k > 0.0), "{stdout}");
    assert!(v["loss_before"]["train"].is_f64(), "{stdout}");
    // Nothing held out, no held-out loss (it was 0 before the fit, then the training
    // loss that judged the epochs).
    assert!(v["loss_before"]["held_out"].is_null(), "{stdout}");
    let epochs = v["epochs"].as_array().unwrap();
    assert_eq!(epochs.len(), 3, "no held-out positions: every epoch runs");
    for (i, e) in epochs.iter().enumerate() {
        assert_eq!(e["epoch"], i + 1);
        assert!(e["train"].is_f64() && e["held_out"].is_null(), "{e}");
    }
    assert!(v["best_epoch"].as_u64().is_some_and(|b| b <= 3), "{stdout}");
    assert_eq!(v["out"], out);
    assert!(std::fs::read_to_string(&section)
        .unwrap()
        .starts_with("[eval]\n"));
}

#[test]
fn datagen_refuses_a_hash_it_cannot_allocate_before_touching_the_file() {
    let out = temp_path("datagen-hash.txt");
    std::fs::write(&out, "kept\n").unwrap();
    let (code, _, err) = tenfold(&[
        "datagen",
        "--games",
        "1",
        "--nodes",
        "100",
        "--hash",
        "8796093022207",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("hash") && err.lines().count() == 1, "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept\n");
}

#[test]
fn datagen_refuses_options_that_can_keep_no_position() {
    let out = temp_path("datagen-none.txt");
    for (option, value, extra) in [
        ("--skip", "8", ["--max-plies", "8"]),
        ("--skip", "4294967295", ["--plies", "8"]),
        ("--quiet-margin", "-1", ["--plies", "8"]),
    ] {
        let (code, _, err) = tenfold(&[
            "datagen",
            "--positions",
            "10",
            "--nodes",
            "100",
            option,
            value,
            extra[0],
            extra[1],
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{option} {value}: {err}");
        assert!(err.contains(option) && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn datagen_gives_up_after_a_thousand_games_in_a_row_keep_nothing() {
    // Every game starts in check and ends after its first ply: no position can be kept,
    // though no option says so.
    let table = temp_path("datagen-check.toml");
    std::fs::write(
        &table,
        "extends = \"chess\"\nname = \"check-start\"\nstart = \"4k3/8/8/8/8/8/8/4K2r w - - 0 1\"\n",
    )
    .unwrap();
    let out = temp_path("datagen-barren.txt");
    let (code, _, err) = tenfold(&[
        "datagen",
        "--variant-file",
        table.to_str().unwrap(),
        "--variant",
        "check-start",
        "--positions",
        "1",
        "--nodes",
        "1",
        "--plies",
        "0",
        "--skip",
        "0",
        "--max-plies",
        "1",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("1000 games") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn tune_refuses_another_games_table_and_an_unwritable_out_before_fitting() {
    let data = temp_path("tune-other-data.txt");
    std::fs::write(
        &data,
        "# made by the test\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 1-0\n\
         rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 900 | 1-0\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1 | -900 | 0-1\n",
    )
    .unwrap();
    let table = temp_path("tune-combined-arms.toml");
    let original = concat!(env!("CARGO_MANIFEST_DIR"), "/tables/combined-arms.toml");
    std::fs::copy(original, &table).unwrap();
    let (code, out, err) = tune_chess(&data, &["--epochs", "1", "--into", table.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("combined-arms") && err.lines().count() == 1,
        "{err}"
    );
    assert!(out.is_empty(), "fitted before refusing: {out}");
    assert_eq!(
        std::fs::read_to_string(&table).unwrap(),
        std::fs::read_to_string(original).unwrap()
    );
    let (code, out, err) = tune_chess(&data, &["--epochs", "1", "--out", "/nonexistent/x.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent"), "{err}");
    assert!(out.is_empty(), "fitted before refusing: {out}");
}

/// An unknown `--freeze` group is refused before the data are read (and traced and
/// fitted): the data file here does not even exist, and the error names the group.
#[test]
fn an_unknown_freeze_group_is_refused_before_the_data_are_read() {
    let missing = temp_path("tune-freeze-no-such-data.txt");
    let (code, _, err) = tune_chess(&missing, &["--freeze", "material,nosuch"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--freeze") && err.contains("nosuch"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

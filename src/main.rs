//! The `tenfold` command line: parses arguments and dispatches into the library.

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;
use tenfold::core::moves::MoveList;
use tenfold::perft::{self, suite};
use tenfold::registry;
use tenfold::search::{Engine, Event, Limits};
use tenfold::{bench, Position, Variant};

/// Prints a line on stdout; when the reader has gone (`tenfold moves | head -1`) the
/// process ends quietly instead of panicking on the broken pipe.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

#[derive(Parser)]
#[command(
    name = "tenfold",
    version,
    about = "Perft, search and play large-board chess variants"
)]
struct Cli {
    #[command(flatten)]
    common: Common,
    /// With no subcommand, speaks UCI or XBoard, whichever the first command asks for.
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Args, Clone)]
struct Common {
    /// Variant name (see `tenfold variants`).
    #[arg(long, global = true, default_value = "chess")]
    variant: String,
    /// Load a variant table (TOML) from this file; its name can then be used with --variant.
    #[arg(long, global = true)]
    variant_file: Option<String>,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long, global = true)]
    fen: Option<String>,
    /// Moves played from the FEN first, space separated.
    #[arg(long, global = true, allow_hyphen_values = true)]
    moves: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Subcommand)]
enum Cmd {
    /// List the built-in variants.
    Variants,
    /// List the legal moves, sorted.
    Moves,
    /// Print the FEN after --moves (and the result if the game is over).
    Fen,
    /// Count leaf nodes of the move tree, or check a perft suite.
    Perft(PerftArgs),
    /// Show a piece's movement: Betza, Locomotive Taxonomy name and a diagram.
    Describe {
        /// A piece letter of --variant, a Betza string or a taxonomy name (quoted).
        piece: String,
    },
    /// Play engine-vs-engine matches and tournaments, refereed by Tenfold's rules.
    Match(Box<MatchArgs>),
    /// Check PGN files: every game replayed under Tenfold's rules.
    Pgn(PgnArgs),
    /// Search the position: UCI-style info lines, then the best move.
    Search(SearchArgs),
    /// Search a fixed position set to a fixed depth; prints `<nodes> nodes <nps> nps` last.
    Bench(BenchArgs),
    /// Speak UCI on stdin/stdout.
    Uci,
    /// Speak XBoard/CECP on stdin/stdout.
    Xboard,
}

#[derive(Args)]
struct MatchArgs {
    /// A player: `name=A,threads=1,hash=16,depth=6` (a Tenfold engine), `name=B,cmd=PATH,proto=uci|xboard`, or `name=R,player=random|greedy`; repeat for each player.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Limits for every engine that sets none itself: `tc=40/60+0.6`, `st=0.1`, `depth=6`, `nodes=10000` (space or comma separated).
    #[arg(long, default_value = "")]
    each: String,
    /// Opening file: one FEN/EPD per line, each played with both colours.
    #[arg(long)]
    openings: Option<String>,
    /// Random plies played from each opening (default 8 when no file is given, else 0).
    #[arg(long, default_value_t = 0)]
    plies: u32,
    /// Opening order: sequential or random.
    #[arg(long, default_value = "sequential")]
    order: String,
    /// Rounds.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// Games per pairing per round (played in colour-swapped pairs).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// gauntlet (first engine against the rest) or round-robin.
    #[arg(long, default_value = "gauntlet")]
    tournament: String,
    /// SPRT for two players: `elo0=0 elo1=5 alpha=0.05 beta=0.05`; stops at a decision.
    #[arg(long)]
    sprt: Option<String>,
    /// Draw adjudication: `movenumber=40 movecount=8 score=10`.
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication: `movecount=3 score=600`.
    #[arg(long)]
    resign: Option<String>,
    /// Draw a game after this many moves.
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Append the games as PGN to this file.
    #[arg(long)]
    pgnout: Option<String>,
    /// Seed for openings and the built-in baselines.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds an engine may overstep its clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// PGN Event tag.
    #[arg(long, default_value = "tenfold match")]
    event: String,
}

#[derive(Args)]
struct PgnArgs {
    /// Replay every game and report illegal moves or wrong results.
    #[arg(long)]
    check: String,
}

#[derive(Args)]
struct SearchArgs {
    /// Search this many plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Search this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search about this many nodes (exact with one thread).
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads (lazy SMP).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

#[derive(Args)]
struct BenchArgs {
    /// Depth of every search.
    #[arg(long, default_value_t = tenfold::bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Search threads (lazy SMP); with 1 the node count is deterministic.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

#[derive(Args)]
struct PerftArgs {
    /// Depth in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Print the count of each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (root moves are shared out).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// EPD suite file (`FEN ;D1 n ;D2 n …`, optional `variant | ` prefix per line).
    #[arg(long)]
    suite: Option<String>,
    /// With --suite: skip depths above this.
    #[arg(long)]
    max_depth: Option<u32>,
}

/// A failure with its exit status: 2 for what the user typed, 1 for a failed check.
struct Fail(u8, String);

fn usage(msg: impl std::fmt::Display) -> Fail {
    Fail(2, msg.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            eprintln!("tenfold: {msg}");
            ExitCode::from(code)
        }
    }
}

fn run(cli: Cli) -> Result<(), Fail> {
    if let Some(path) = &cli.common.variant_file {
        registry::load_file(path).map_err(usage)?;
    }
    let Some(cmd) = cli.cmd else {
        tenfold::protocol::auto();
        return Ok(());
    };
    match cmd {
        Cmd::Search(a) => search(&cli.common, &a),
        Cmd::Bench(a) => bench(&cli.common, &a),
        Cmd::Uci => {
            let (tx, rx) = tenfold::protocol::queue();
            tenfold::protocol::read_stdin(None, tx.clone());
            tenfold::protocol::uci::run(rx, tx, tenfold::protocol::Out::stdout());
            Ok(())
        }
        Cmd::Xboard => {
            let (tx, rx) = tenfold::protocol::queue();
            tenfold::protocol::read_stdin(None, tx.clone());
            tenfold::protocol::xboard::run(rx, tx, tenfold::protocol::Out::stdout());
            Ok(())
        }
        Cmd::Variants => variants(&cli.common),
        Cmd::Moves => moves(&cli.common),
        Cmd::Fen => fen(&cli.common),
        Cmd::Describe { piece } => describe(&cli.common, &piece),
        Cmd::Match(a) => run_match(&cli.common, &a),
        Cmd::Pgn(a) => pgn_check(&cli.common, &a),
        Cmd::Perft(a) => {
            if let Some(file) = &a.suite {
                perft_suite(&cli.common, &a, file)
            } else {
                perft_depth(&cli.common, &a)
            }
        }
    }
}

fn variant(c: &Common) -> Result<Arc<Variant>, Fail> {
    registry::get(&c.variant).map_err(usage)
}

/// The position the common options describe.
fn position(c: &Common) -> Result<Position, Fail> {
    let v = variant(c)?;
    let mut pos = match &c.fen {
        Some(f) => Position::from_fen(&v, f).map_err(usage)?,
        None => Position::startpos(&v),
    };
    if let Some(m) = &c.moves {
        pos.play_moves(m).map_err(usage)?;
    }
    Ok(pos)
}

fn variants(c: &Common) -> Result<(), Fail> {
    let mut rows = Vec::new();
    for name in registry::names() {
        let v = registry::get(name).map_err(|e| Fail(1, e.to_string()))?;
        rows.push((
            v.name.clone(),
            v.board.files,
            v.board.ranks,
            v.description.clone(),
        ));
    }
    if c.json {
        let list: Vec<_> = rows
            .iter()
            .map(|(n, f, r, d)| json!({"name": n, "files": f, "ranks": r, "description": d}))
            .collect();
        out!("{}", json!({ "variants": list }));
    } else {
        for (n, f, r, d) in rows {
            out!("{n:<16} {f}x{r:<4} {d}");
        }
    }
    Ok(())
}

fn moves(c: &Common) -> Result<(), Fail> {
    let pos = position(c)?;
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut names: Vec<String> = list.iter().map(|&m| pos.move_to_string(m)).collect();
    names.sort();
    if c.json {
        out!("{}", json!({ "moves": names }));
    } else {
        for n in names {
            out!("{n}");
        }
    }
    Ok(())
}

fn fen(c: &Common) -> Result<(), Fail> {
    let pos = position(c)?;
    let fen = pos.fen();
    let over = pos.game_result();
    if c.json {
        let mut o = json!({ "fen": fen });
        if let Some((r, why)) = over {
            o["result"] = json!(r.pgn());
            o["reason"] = json!(why);
        }
        out!("{o}");
    } else {
        out!("{fen}");
        if let Some((r, why)) = over {
            out!("{} {}", r.pgn(), why);
        }
    }
    Ok(())
}

fn describe(c: &Common, piece: &str) -> Result<(), Fail> {
    let v = variant(c)?;
    let d = tenfold::describe::describe(piece, &v).map_err(usage)?;
    if c.json {
        out!(
            "{}",
            json!({"betza": d.betza, "taxonomy": d.taxonomy, "diagram": d.diagram, "note": d.note})
        );
    } else {
        out!("{}", d.source);
        out!("betza     {}", d.betza);
        out!(
            "taxonomy  {}",
            d.taxonomy.as_deref().unwrap_or("(no taxonomy name)")
        );
        out!();
        let n = d.diagram.len();
        for (i, row) in d.diagram.iter().enumerate() {
            out!("{:>2} {row}", n - i);
        }
        let files: Vec<String> = (0..n)
            .map(|f| ((b'a' + f as u8) as char).to_string())
            .collect();
        out!("   {}", files.join(" "));
        out!();
        out!("{}", tenfold::describe::LEGEND);
        if let Some(n) = &d.note {
            out!("{n}");
        }
    }
    Ok(())
}

fn perft_depth(c: &Common, a: &PerftArgs) -> Result<(), Fail> {
    let depth = a
        .depth
        .ok_or_else(|| usage("perft needs --depth N or --suite FILE"))?;
    let threads = a.threads.max(1);
    let pos = position(c)?;
    let start = Instant::now();
    let (nodes, divide) = if a.divide {
        let d = perft::divide(&pos, depth, threads);
        (d.iter().map(|(_, n)| n).sum(), Some(d))
    } else {
        (perft::perft_threads(&pos, depth, threads), None)
    };
    let secs = start.elapsed().as_secs_f64();
    let ms = (secs * 1000.0).round() as u64;
    let nps = (nodes as f64 / secs.max(1e-9)) as u64;
    if c.json {
        let mut o = json!({ "nodes": nodes, "ms": ms, "nps": nps });
        if let Some(d) = &divide {
            let map: serde_json::Map<String, serde_json::Value> =
                d.iter().map(|(m, n)| (m.clone(), json!(n))).collect();
            o["divide"] = serde_json::Value::Object(map);
        }
        out!("{o}");
    } else {
        if let Some(d) = &divide {
            for (m, n) in d {
                out!("{m}: {n}");
            }
            out!();
        }
        out!("nodes {nodes}");
        out!("time {ms} ms");
        out!("nps {nps}");
    }
    Ok(())
}

fn perft_suite(c: &Common, a: &PerftArgs, file: &str) -> Result<(), Fail> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| usage(format!("cannot read suite {file}: {e}")))?;
    let lines = suite::parse_suite(&text, file).map_err(usage)?;
    let max_depth = a.max_depth.unwrap_or(u32::MAX);
    let threads = a.threads.max(1);
    let bar = if std::io::stdout().is_terminal() && !c.json {
        let b = ProgressBar::new(lines.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} lines {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(b)
    } else {
        None
    };
    let start = Instant::now();
    let (mut passed, mut failed, mut total_nodes) = (0usize, 0usize, 0u64);
    let mut results = Vec::new();
    for line in &lines {
        let verdicts = match &c.variant_file {
            Some(_) if line.variant.is_none() => {
                suite::run_line_in(&variant(c)?, line, max_depth, threads)
            }
            _ => suite::run_line(line, &c.variant, max_depth, threads),
        }
        .map_err(|e| usage(format!("{file}: {e}")))?;
        let bad: Vec<_> = verdicts.iter().filter(|v| v.got != v.expected).collect();
        total_nodes += verdicts.iter().map(|v| v.got).sum::<u64>();
        let depths: Vec<String> = verdicts.iter().map(|v| format!("D{}", v.depth)).collect();
        let text = if bad.is_empty() {
            passed += 1;
            format!(
                "ok   line {:>3} {:<18} {}",
                line.line,
                depths.join(","),
                line.fen
            )
        } else {
            failed += 1;
            let why: Vec<String> = bad
                .iter()
                .map(|v| format!("D{} expected {} got {}", v.depth, v.expected, v.got))
                .collect();
            format!("FAIL line {:>3} {} {}", line.line, why.join(", "), line.fen)
        };
        results.push(json!({
            "line": line.line, "fen": line.fen, "ok": bad.is_empty(),
            "depths": verdicts.iter().map(|v| json!({"depth": v.depth, "expected": v.expected, "got": v.got})).collect::<Vec<_>>(),
        }));
        match &bar {
            Some(b) => {
                b.println(text);
                b.inc(1);
            }
            None if !c.json => out!("{text}"),
            None => {}
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    if c.json {
        out!(
            "{}",
            json!({"passed": passed, "failed": failed, "nodes": total_nodes,
                   "ms": (secs * 1000.0) as u64, "lines": results})
        );
    } else {
        out!(
            "{passed} passed, {failed} failed ({total_nodes} nodes in {:.1} s)",
            secs
        );
    }
    if failed > 0 {
        Err(Fail(1, format!("{failed} suite line(s) failed")))
    } else {
        Ok(())
    }
}

fn search(c: &Common, a: &SearchArgs) -> Result<(), Fail> {
    if a.depth.is_none() && a.movetime.is_none() && a.nodes.is_none() {
        return Err(usage("search needs --depth N, --movetime MS or --nodes N"));
    }
    if a.threads == 0 || a.hash == 0 {
        return Err(usage("--threads and --hash must be at least 1"));
    }
    let pos = position(c)?;
    let limits = Limits {
        depth: a.depth,
        movetime: a.movetime,
        nodes: a.nodes,
        ..Limits::default()
    };
    let engine = Engine::try_new(a.threads, a.hash).map_err(|e| Fail(1, e.to_string()))?;
    let json = c.json;
    let r = engine.search(
        &pos,
        limits,
        Box::new(move |ev| {
            if let Event::Info(i) = ev {
                if !json {
                    println!(
                        "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {} pv {}",
                        i.depth,
                        i.seldepth,
                        i.uci_score(),
                        i.nodes,
                        i.nps,
                        i.hashfull,
                        i.ms,
                        i.pv.join(" ")
                    );
                }
            }
        }),
    );
    let best = r.best.map(|m| pos.move_to_string(m));
    if c.json {
        let mut o = json!({
            "bestmove": best, "score_cp": r.score, "depth": r.depth,
            "nodes": r.nodes, "ms": r.ms, "pv": r.pv_text,
        });
        if r.score.abs() >= tenfold::search::MATE_BOUND {
            o["mate"] = json!(tenfold::search::uci_score(r.score)[5..]
                .parse::<i32>()
                .unwrap_or(0));
        }
        println!("{o}");
    } else {
        println!("bestmove {}", best.as_deref().unwrap_or("(none)"));
    }
    Ok(())
}

fn bench(c: &Common, a: &BenchArgs) -> Result<(), Fail> {
    if a.threads == 0 || a.hash == 0 || a.depth == 0 {
        return Err(usage("--depth, --threads and --hash must be at least 1"));
    }
    // Every built-in unless a variant was named.
    let named = std::env::args().any(|x| x == "--variant" || x.starts_with("--variant="));
    let list: Vec<Arc<Variant>> = if named {
        vec![variant(c)?]
    } else {
        registry::names()
            .iter()
            .map(|n| registry::get(n).map_err(|e| Fail(1, e.to_string())))
            .collect::<Result<_, _>>()?
    };
    let json = c.json;
    let r = bench::run(&list, a.depth, a.threads, a.hash, |l| {
        if !json {
            println!(
                "{:<10} {:>10} nodes {:>6} ms  bestmove {:<6} score {:>6}  {}",
                l.variant, l.nodes, l.ms, l.bestmove, l.score, l.fen
            );
        }
    })
    .map_err(|e| Fail(1, e.to_string()))?;
    if c.json {
        println!("{}", json!({"nodes": r.nodes, "ms": r.ms, "nps": r.nps}));
    } else {
        println!("time {} ms", r.ms);
        println!("{} nodes {} nps", r.nodes, r.nps);
    }
    Ok(())
}

/// Parses `key=value` words (space or comma separated) into pairs.
fn key_values(text: &str, what: &str) -> Result<Vec<(String, String)>, Fail> {
    text.split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| usage(format!("{what}: \"{w}\" is not key=value")))
        })
        .collect()
}

fn number<T: std::str::FromStr>(v: &str, what: &str) -> Result<T, Fail> {
    v.parse()
        .map_err(|_| usage(format!("{what}: \"{v}\" is not a number")))
}

fn run_match(c: &Common, a: &MatchArgs) -> Result<(), Fail> {
    use tenfold::arena::{
        self, player::EngineSpec, stats::Sprt, Adjudication, MatchConfig, TimeControl,
    };
    let v = variant(c)?;
    let engines = a
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e).map_err(usage))
        .collect::<Result<Vec<_>, _>>()?;
    let mut each = TimeControl::default();
    for (k, val) in key_values(&a.each, "--each")? {
        each.apply(&k, &val)
            .map_err(|m| usage(format!("--each: {m}")))?;
    }
    let openings = match &a.openings {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| usage(format!("cannot read openings {f}: {e}")))?;
            arena::read_openings(&v, &text, f).map_err(usage)?
        }
        None => Vec::new(),
    };
    let random_order = match a.order.as_str() {
        "random" => true,
        "sequential" => false,
        o => {
            return Err(usage(format!(
                "--order: \"{o}\" is not random or sequential"
            )))
        }
    };
    let round_robin = match a.tournament.as_str() {
        "round-robin" | "roundrobin" => true,
        "gauntlet" => false,
        t => {
            return Err(usage(format!(
                "--tournament: \"{t}\" is not gauntlet or round-robin"
            )))
        }
    };
    let sprt = match &a.sprt {
        Some(s) => Some(Sprt::parse(s).map_err(usage)?),
        None => None,
    };
    let mut adjudication = Adjudication {
        max_moves: a.maxmoves,
        ..Default::default()
    };
    if let Some(d) = &a.draw {
        let (mut after, mut count, mut score) = (40, 8, 10);
        for (k, val) in key_values(d, "--draw")? {
            match k.as_str() {
                "movenumber" => after = number(&val, "--draw")?,
                "movecount" => count = number(&val, "--draw")?,
                "score" => score = number(&val, "--draw")?,
                _ => {
                    return Err(usage(format!(
                        "--draw: unknown key \"{k}\" (movenumber, movecount, score)"
                    )))
                }
            }
        }
        adjudication.draw = Some((after, count, score));
    }
    if let Some(r) = &a.resign {
        let (mut count, mut score) = (3, 600);
        for (k, val) in key_values(r, "--resign")? {
            match k.as_str() {
                "movecount" => count = number(&val, "--resign")?,
                "score" => score = number(&val, "--resign")?,
                _ => {
                    return Err(usage(format!(
                        "--resign: unknown key \"{k}\" (movecount, score)"
                    )))
                }
            }
        }
        adjudication.resign = Some((count, score));
    }
    let cfg = MatchConfig {
        variant: v.name.clone(),
        engines,
        each,
        openings,
        plies: a.plies,
        random_order,
        rounds: a.rounds,
        games: a.games,
        concurrency: a.concurrency,
        round_robin,
        sprt,
        adjudication,
        margin: std::time::Duration::from_millis(a.timemargin),
        seed: a.seed,
        event: a.event.clone(),
    };
    let total = (cfg.rounds.max(1) as usize)
        * cfg.games.div_ceil(2).max(1) as usize
        * 2
        * if round_robin {
            cfg.engines.len() * (cfg.engines.len() - 1) / 2
        } else {
            cfg.engines.len() - 1
        };
    let bar = if std::io::stderr().is_terminal() && !c.json {
        let b = ProgressBar::new(total as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(b)
    } else {
        None
    };
    let pgn_file = match &a.pgnout {
        Some(p) => Some(std::sync::Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| usage(format!("cannot open {p}: {e}")))?,
        )),
        None => None,
    };
    let json = c.json;
    let event = a.event.clone();
    let on_game = |g: &arena::Finished, r: &arena::MatchResult| {
        if let Some(f) = &pgn_file {
            use std::io::Write;
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            let _ = f.write_all(g.record.to_pgn(&event).as_bytes());
        }
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            g.number,
            g.record.white,
            g.record.black,
            g.record.result_token(),
            g.record.reason
        );
        let status = progress_line(r);
        match &bar {
            Some(b) => {
                b.println(line);
                b.set_message(status);
                b.inc(1);
            }
            None if !json => out!("{line}\n{status}"),
            None => {}
        }
    };
    let result = arena::run_match(&cfg, &on_game).map_err(usage)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    print_match_summary(&result, json);
    Ok(())
}

/// `games W-L-D Elo ± LOS LLR` of the first engine against the others.
fn progress_line(r: &tenfold::arena::MatchResult) -> String {
    let mut w = tenfold::arena::stats::Wld::default();
    for b in 1..r.names.len() {
        let x = r.wld(0, b);
        w.wins += x.wins;
        w.losses += x.losses;
        w.draws += x.draws;
    }
    let (elo, err) = w.elo();
    let mut s = format!(
        "{}: {} games +{} -{} ={}  Elo {:+.1} ± {:.1}  LOS {:.1}%",
        r.names[0],
        w.games(),
        w.wins,
        w.losses,
        w.draws,
        elo,
        err,
        w.los() * 100.0
    );
    if let Some((llr, _)) = r.sprt {
        s += &format!("  LLR {llr:.2}");
    }
    s
}

fn print_match_summary(r: &tenfold::arena::MatchResult, json: bool) {
    let n = r.names.len();
    let mut rows = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            let w = r.wld(a, b);
            if w.games() == 0 || (a > b && r.wld(b, a).games() > 0 && n == 2) {
                continue;
            }
            let (elo, err) = w.elo();
            rows.push((a, b, w, elo, err, r.penta(a, b)));
        }
    }
    if json {
        let pairs: Vec<_> = rows
            .iter()
            .map(|(a, b, w, elo, err, p)| {
                json!({"engine": r.names[*a], "opponent": r.names[*b], "wins": w.wins, "losses": w.losses,
                       "draws": w.draws, "score": w.score(), "elo": elo, "elo_error95": err,
                       "los": w.los(), "pentanomial": p.0})
            })
            .collect();
        let mut o = json!({"games": r.games.len(), "results": pairs});
        if let Some((llr, verdict)) = r.sprt {
            o["sprt"] = json!({"llr": llr, "verdict": format!("{verdict:?}")});
        }
        out!("{o}");
        return;
    }
    out!();
    for (a, b, w, elo, err, p) in &rows {
        out!(
            "{} vs {}: +{} -{} ={}  score {:.1}%  Elo {:+.1} ± {:.1}  LOS {:.1}%  pairs {:?}",
            r.names[*a],
            r.names[*b],
            w.wins,
            w.losses,
            w.draws,
            w.score() * 100.0,
            elo,
            err,
            w.los() * 100.0,
            p.0
        );
    }
    if n > 2 {
        out!("\ncrosstable (points scored by the row engine against the column engine)");
        print!("{:<16}", "");
        for name in &r.names {
            print!("{name:>10}");
        }
        out!("{:>10}", "total");
        for a in 0..n {
            print!("{:<16}", r.names[a]);
            let mut total = 0.0;
            for b in 0..n {
                if a == b {
                    print!("{:>10}", "-");
                    continue;
                }
                let w = r.wld(a, b);
                let pts = w.wins as f64 + 0.5 * w.draws as f64;
                total += pts;
                if w.games() == 0 {
                    print!("{:>10}", "");
                } else {
                    print!("{:>10}", format!("{pts}/{}", w.games()));
                }
            }
            out!("{total:>10}");
        }
    }
    if let Some((llr, verdict)) = r.sprt {
        out!("SPRT: LLR {llr:.2} — {verdict:?}");
    }
    out!("{} games played", r.games.len());
}

fn pgn_check(c: &Common, a: &PgnArgs) -> Result<(), Fail> {
    use tenfold::arena::pgn;
    let text = std::fs::read_to_string(&a.check)
        .map_err(|e| usage(format!("cannot read {}: {e}", a.check)))?;
    let games = pgn::parse_pgn(&text).map_err(|e| usage(format!("{}: {e}", a.check)))?;
    let mut bad = 0;
    let mut results = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let verdict = pgn::check_game(g);
        if verdict.is_err() {
            bad += 1;
        }
        if !c.json {
            match &verdict {
                Ok(n) => out!(
                    "ok   game {} (line {}): {n} moves, {}",
                    i + 1,
                    g.line,
                    g.tag("Result").unwrap_or("*")
                ),
                Err(e) => out!("FAIL game {} (line {}): {e}", i + 1, g.line),
            }
        }
        results.push(json!({"game": i + 1, "line": g.line, "ok": verdict.is_ok(),
                            "error": verdict.err()}));
    }
    if c.json {
        out!(
            "{}",
            json!({"games": games.len(), "failed": bad, "results": results})
        );
    } else {
        out!("{} passed, {} failed", games.len() - bad, bad);
    }
    if bad > 0 {
        Err(Fail(1, format!("{bad} game(s) failed the check")))
    } else {
        Ok(())
    }
}

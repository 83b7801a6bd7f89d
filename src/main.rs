//! The `tenfold` command line: parses arguments and dispatches into the library.

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use tenfold::arena::{config, pgn, report, MatchConfig};
use tenfold::core::moves::MoveList;
use tenfold::perft::{self, suite};
use tenfold::protocol::{Msg, Out};
use tenfold::search::{Engine, Event, Limits};
use tenfold::variant::registry;
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

/// Prints text whose lines already end in `\n`, as quietly on a broken pipe as `out!`.
fn put(text: &str) {
    use std::io::Write as _;
    if std::io::stdout().write_all(text.as_bytes()).is_err() {
        std::process::exit(0);
    }
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
    /// Whether --variant was typed rather than left at its default.
    #[arg(skip)]
    variant_typed: bool,
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

/// A library error reaching `?` here is about what the user typed; failed checks and
/// broken built-in tables build their [`Fail`] with status 1 explicitly.
impl<E: std::error::Error> From<E> for Fail {
    fn from(e: E) -> Fail {
        Fail(2, e.to_string())
    }
}

fn usage(msg: impl std::fmt::Display) -> Fail {
    Fail(2, msg.to_string())
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cli.common.variant_typed = typed(&matches, "variant");
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            eprintln!("tenfold: {msg}");
            ExitCode::from(code)
        }
    }
}

/// True when the argument was given on the command line, before or after the subcommand.
fn typed(m: &ArgMatches, id: &str) -> bool {
    m.value_source(id) == Some(ValueSource::CommandLine)
        || m.subcommand().is_some_and(|(_, sub)| typed(sub, id))
}

fn run(cli: Cli) -> Result<(), Fail> {
    let c = &cli.common;
    if let Some(path) = &c.variant_file {
        registry::load_file(path)?;
    }
    let Some(cmd) = cli.cmd else {
        tenfold::protocol::auto();
        return Ok(());
    };
    match cmd {
        Cmd::Search(a) => search(c, &a),
        Cmd::Bench(a) => bench(c, &a),
        Cmd::Uci => speak(tenfold::protocol::uci::run),
        Cmd::Xboard => speak(tenfold::protocol::xboard::run),
        Cmd::Variants => variants(c),
        Cmd::Moves => moves(c),
        Cmd::Fen => fen(c),
        Cmd::Describe { piece } => describe(c, &piece),
        Cmd::Match(a) => run_match(c, &a),
        Cmd::Pgn(a) => pgn_check(c, &a),
        Cmd::Perft(a) => match &a.suite {
            Some(file) => perft_suite(c, &a, file),
            None => perft_depth(c, &a),
        },
    }
}

type Protocol = fn(Receiver<Msg>, Sender<Msg>, Out);

fn speak(protocol: Protocol) -> Result<(), Fail> {
    let (tx, rx) = tenfold::protocol::queue();
    tenfold::protocol::read_stdin(None, tx.clone());
    protocol(rx, tx, Out::stdout());
    Ok(())
}

fn variant(c: &Common) -> Result<Arc<Variant>, Fail> {
    Ok(registry::get(&c.variant)?)
}

/// Every built-in variant; one that fails to load is a broken build, not a usage error.
fn builtins() -> Result<Vec<Arc<Variant>>, Fail> {
    registry::names()
        .iter()
        .map(|n| registry::get(n).map_err(|e| Fail(1, e.to_string())))
        .collect()
}

/// The position the common options describe.
fn position(c: &Common) -> Result<Position, Fail> {
    let v = variant(c)?;
    let mut pos = match &c.fen {
        Some(f) => Position::from_fen(&v, f)?,
        None => Position::startpos(&v),
    };
    if let Some(m) = &c.moves {
        pos.play_moves(m)?;
    }
    Ok(pos)
}

fn variants(c: &Common) -> Result<(), Fail> {
    let list = builtins()?;
    if c.json {
        let list: Vec<_> = list
            .iter()
            .map(|v| json!({"name": v.name, "files": v.board.files, "ranks": v.board.ranks, "description": v.description}))
            .collect();
        out!("{}", json!({ "variants": list }));
    } else {
        for v in list {
            let (n, f, r, d) = (&v.name, v.board.files, v.board.ranks, &v.description);
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
    let d = tenfold::describe::describe(piece, &*variant(c)?).map_err(usage)?;
    if c.json {
        out!("{}", d.to_json());
    } else {
        put(&d.text());
    }
    Ok(())
}

fn perft_depth(c: &Common, a: &PerftArgs) -> Result<(), Fail> {
    let depth = a
        .depth
        .ok_or_else(|| usage("perft needs --depth N or --suite FILE"))?;
    let count = perft::Count::run(&position(c)?, depth, a.divide, a.threads.max(1));
    if c.json {
        out!("{}", count.to_json());
    } else {
        put(&count.text());
    }
    Ok(())
}

/// A progress bar on a terminal, none when output is piped or JSON.
fn progress(show: bool, len: usize, template: &str) -> Option<ProgressBar> {
    show.then(|| {
        ProgressBar::new(len as u64).with_style(
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    })
}

fn perft_suite(c: &Common, a: &PerftArgs, file: &str) -> Result<(), Fail> {
    let lines = suite::read_suite(file)?;
    let bar = progress(
        std::io::stdout().is_terminal() && !c.json,
        lines.len(),
        "{bar:40} {pos}/{len} lines {elapsed_precise} {msg}",
    );
    let run = suite::SuiteRun {
        variant: c.variant.clone(),
        variant_from_file: c.variant_file.is_some(),
        max_depth: a.max_depth.unwrap_or(u32::MAX),
        threads: a.threads.max(1),
    };
    let r = suite::run_suite(&lines, file, &run, |line| match &bar {
        Some(b) => {
            b.println(line.text());
            b.inc(1);
        }
        None if !c.json => out!("{}", line.text()),
        None => {}
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if c.json {
        out!("{}", r.to_json());
    } else {
        out!("{}", r.summary_text());
    }
    match r.failed() {
        0 => Ok(()),
        n => Err(Fail(1, format!("{n} suite line(s) failed"))),
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
    let engine = Engine::try_new(a.threads, a.hash).map_err(|e| Fail(1, e))?;
    let json = c.json;
    let r = engine.search(
        &pos,
        limits,
        Box::new(move |ev| match ev {
            Event::Info(i) if !json => println!(
                "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {} pv {}",
                i.depth,
                i.seldepth,
                i.uci_score(),
                i.nodes,
                i.nps,
                i.hashfull,
                i.ms,
                i.pv.join(" ")
            ),
            _ => {}
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
    let list = if c.variant_typed {
        vec![variant(c)?]
    } else {
        builtins()?
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
    .map_err(|e| Fail(1, e))?;
    if c.json {
        println!("{}", json!({"nodes": r.nodes, "ms": r.ms, "nps": r.nps}));
    } else {
        println!("time {} ms", r.ms);
        println!("{} nodes {} nps", r.nodes, r.nps);
    }
    Ok(())
}

fn run_match(c: &Common, a: &MatchArgs) -> Result<(), Fail> {
    let v = variant(c)?;
    // Fields in this order so that of several bad options the first is reported.
    let cfg = MatchConfig {
        variant: v.name.clone(),
        engines: config::engines(&a.engines)?,
        each: config::time_control(&a.each)?,
        openings: config::openings(&v, a.openings.as_deref())?,
        plies: a.plies,
        random_order: config::random_order(&a.order)?,
        rounds: a.rounds,
        games: a.games,
        concurrency: a.concurrency,
        round_robin: config::round_robin(&a.tournament)?,
        sprt: config::sprt(a.sprt.as_deref())?,
        adjudication: config::adjudication(a.draw.as_deref(), a.resign.as_deref(), a.maxmoves)?,
        margin: std::time::Duration::from_millis(a.timemargin),
        seed: a.seed,
        event: a.event.clone(),
    };
    let pgn_out = a
        .pgnout
        .as_deref()
        .map(pgn::PgnAppender::open)
        .transpose()?;
    let bar = progress(
        std::io::stderr().is_terminal() && !c.json,
        cfg.total_games(),
        "{bar:30} {pos}/{len} games {elapsed_precise} {msg}",
    );
    let on_game = |g: &tenfold::arena::Finished, r: &tenfold::arena::MatchResult| {
        if let Some(f) = &pgn_out {
            f.append(&g.record, &a.event);
        }
        let (line, status) = (report::game_line(g), report::progress_line(r));
        match &bar {
            Some(b) => {
                b.println(line);
                b.set_message(status);
                b.inc(1);
            }
            None if !c.json => out!("{line}\n{status}"),
            None => {}
        }
    };
    let result = tenfold::arena::run_match(&cfg, &on_game)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if c.json {
        out!("{}", report::summary_json(&result));
    } else {
        put(&report::summary_text(&result));
    }
    Ok(())
}

fn pgn_check(c: &Common, a: &PgnArgs) -> Result<(), Fail> {
    let checks = pgn::check_games(&pgn::read_pgn_file(&a.check)?);
    if c.json {
        out!("{}", pgn::summary_json(&checks));
    } else {
        for check in &checks {
            out!("{}", check.text());
        }
        out!("{}", pgn::summary_text(&checks));
    }
    match pgn::failed(&checks) {
        0 => Ok(()),
        bad => Err(Fail(1, format!("{bad} game(s) failed the check"))),
    }
}

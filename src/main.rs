//! The `tenfold` command line: parses arguments and dispatches into the library.

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use tenfold::arena::{config, pgn, report, Finished, MatchResult};
use tenfold::diagram::{self, PlotFile};
use tenfold::inspect::{self, EvalReport, FenReport, LegalMoves, VariantList};
use tenfold::perft::{self, suite};
use tenfold::protocol::{Msg, Out};
use tenfold::registry;
use tenfold::report::{LineBar, Report};
use tenfold::search::{self, Engine, Event};
use tenfold::{bench, Position, Variant};

/// Prints a line on stdout, quietly ending the process when the reader has gone.
macro_rules! out {
    ($($arg:tt)*) => {
        tenfold::report::say(&format!($($arg)*))
    };
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
    /// Start from this FEN instead of the variant's start position (`-` for an empty
    /// board rank is a value here, not an option).
    #[arg(long, global = true, allow_hyphen_values = true)]
    fen: Option<String>,
    /// Moves played from the FEN first, space separated (coordinates or SAN).
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
    /// Show the static evaluation of the position, term by term.
    Eval,
    /// Count leaf nodes of the move tree, or check a perft suite.
    Perft(perft::PerftArgs),
    /// Show a piece's movement: Betza, Locomotive Taxonomy name and a diagram.
    Describe(diagram::DescribeArgs),
    /// Draw the position as SVG (to stdout without --svg).
    Diagram(diagram::DiagramArgs),
    /// Play engine-vs-engine matches and tournaments, refereed by Tenfold's rules.
    Match(Box<config::MatchArgs>),
    /// Check PGN files: every game replayed under Tenfold's rules.
    Pgn(pgn::PgnArgs),
    /// Add up the slices of a sharded perft or match (their --json files).
    Merge(tenfold::merge::MergeArgs),
    /// Search the position: UCI-style info lines, then the best move.
    Search(search::report::SearchArgs),
    /// Search a fixed position set (or the --fen position) to a fixed depth; prints
    /// `<nodes> nodes <nps> nps` last.
    Bench(bench::BenchArgs),
    /// Self-play games for tuning: one `FEN | score | result` line per quiet position.
    Datagen(tenfold::datagen::DatagenArgs),
    /// Score datagen positions with another engine (`tune` can then fit to its judgement).
    Label(tenfold::label::LabelArgs),
    /// Fit the evaluation weights to datagen files; writes the table's `[eval]` section.
    Tune(tenfold::tune::TuneArgs),
    /// Speak UCI on stdin/stdout.
    Uci,
    /// Speak XBoard/CECP on stdin/stdout.
    Xboard,
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
    let matches = tenfold::report::negative_values(Cli::command())
        .try_get_matches()
        .unwrap_or_else(|e| tenfold::report::exit_on_usage_error(e));
    let mut cli =
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| tenfold::report::exit_on_usage_error(e));
    cli.common.variant_typed = typed(&matches, "variant");
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            // Errors are one line, whatever text of the user's they quote.
            let msg = msg.lines().collect::<Vec<_>>().join(" ");
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
    if c.fen.is_some() || c.moves.is_some() {
        if let Some(name) = ignores_position(cli.cmd.as_ref()) {
            return Err(usage(format!("--fen and --moves do not apply to {name}")));
        }
    }
    let Some(cmd) = cli.cmd else {
        tenfold::protocol::auto();
        return Ok(());
    };
    match cmd {
        Cmd::Search(a) => search(c, &a),
        Cmd::Bench(a) => bench(c, &a),
        Cmd::Datagen(a) => show(c, &a.run(&variant(c)?)?),
        Cmd::Label(a) => show(c, &a.run(&variant(c)?, &absolute_files(c))?),
        Cmd::Tune(a) => {
            // With --json the summary alone is printed: one object.
            let progress = |p: tenfold::tune::Progress| {
                if !c.json {
                    out!("{}", p.text())
                }
            };
            show(c, &a.run(&variant(c)?, progress)?)
        }
        Cmd::Uci => speak(tenfold::protocol::uci::run),
        Cmd::Xboard => speak(tenfold::protocol::xboard::run),
        // One named game, or every known one: the built-ins, then the tables loaded.
        Cmd::Variants if c.variant_typed => show(c, &VariantList(vec![variant(c)?])),
        Cmd::Variants => show(
            c,
            &VariantList(inspect::known().map_err(|e| Fail(1, e.to_string()))?),
        ),
        Cmd::Moves => show(c, &LegalMoves::of(&position(c)?)),
        Cmd::Fen => show(c, &FenReport::of(&position(c)?)),
        Cmd::Describe(a) => {
            let pos = a.from.as_ref().map(|_| position(c)).transpose()?;
            show(c, &a.run(&*variant(c)?, pos.as_ref())?)
        }
        Cmd::Diagram(a) => show(c, &a.run(&position(c)?)?),
        Cmd::Match(a) => run_match(c, &a),
        Cmd::Merge(a) => show(c, &a.run().map_err(|e| Fail(e.exit_code(), e.to_string()))?),
        Cmd::Eval => show(c, &EvalReport::of(&position(c)?)),
        Cmd::Pgn(a) => {
            let report = pgn::CheckReport::of(&pgn::read_pgn_file(&a.check)?, &variant(c)?);
            show(c, &report)?;
            match report.failed() {
                0 => Ok(()),
                bad => Err(Fail(1, format!("{bad} game(s) failed the check"))),
            }
        }
        Cmd::Perft(a) => match (&a.suite, a.depth, a.shard) {
            (Some(file), _, _) => perft_suite(c, &a, file),
            // clap lets `requires = "suite"` pass when an argument that conflicts with
            // --suite (--depth) is given.
            (None, ..) if a.max_depth.is_some() => Err(usage(
                "the argument '--max-depth <MAX_DEPTH>' applies only with '--suite <SUITE>'",
            )),
            (None, Some(depth), Some(shard)) => {
                let (pos, how) = (position(c)?, a.counting()?);
                show(
                    c,
                    &perft::shard::PerftShard::run(&pos, depth, a.split_ply, shard, &how)?,
                )
            }
            (None, Some(depth), None) => {
                let how = a.counting()?;
                let bar = perft::progress::CountBar::new(!c.json);
                let tick = |d, t, n| bar.update(d, t, n);
                let on = bar.active().then_some(&tick as perft::Progress);
                let count = perft::Count::run(&position(c)?, depth, a.divide, &how, on);
                bar.finish();
                show(c, &count)
            }
            (None, None, _) => Err(usage("perft needs --depth N or --suite FILE")),
        },
    }
}

/// Prints the JSON form with --json, else the text.
fn show(c: &Common, r: &impl Report) -> Result<(), Fail> {
    if c.json {
        out!("{}", r.to_json());
    } else {
        tenfold::report::put(&r.text());
    }
    Ok(())
}

fn speak(protocol: fn(Receiver<Msg>, Sender<Msg>, Out)) -> Result<(), Fail> {
    let (tx, rx) = tenfold::protocol::queue();
    tenfold::protocol::read_stdin(None, tx.clone());
    protocol(rx, tx, Out::stdout());
    Ok(())
}

fn variant(c: &Common) -> Result<Arc<Variant>, Fail> {
    Ok(registry::get(&c.variant)?)
}

/// A built-in that fails to load is a broken build, not a usage error.
fn builtins() -> Result<Vec<Arc<Variant>>, Fail> {
    inspect::builtins().map_err(|e| Fail(1, e.to_string()))
}

/// The command's name (and where its positions come from instead, if anywhere) when it
/// has no position to start from: --fen or --moves given to it would be dropped without
/// a word, so they are refused instead.
fn ignores_position(cmd: Option<&Cmd>) -> Option<&'static str> {
    Some(match cmd {
        None => "the protocol loop",
        Some(Cmd::Uci) => "`uci`",
        Some(Cmd::Xboard) => "`xboard`",
        Some(Cmd::Variants) => "`variants`",
        Some(Cmd::Match(_)) => "`match` (its games start from --openings FILE)",
        Some(Cmd::Merge(_)) => "`merge`",
        Some(Cmd::Pgn(_)) => "`pgn`",
        Some(Cmd::Datagen(_)) => "`datagen`",
        Some(Cmd::Label(_)) => "`label`",
        Some(Cmd::Tune(_)) => "`tune`",
        Some(Cmd::Perft(a)) if a.suite.is_some() => "`perft --suite`",
        Some(Cmd::Describe(a)) if a.from.is_none() => "`describe` without --from",
        Some(_) => return None,
    })
}

/// The position the common options describe.
fn position(c: &Common) -> Result<Position, Fail> {
    Ok(inspect::position(
        &variant(c)?,
        c.fen.as_deref(),
        c.moves.as_deref(),
    )?)
}

fn perft_suite(c: &Common, a: &perft::PerftArgs, file: &str) -> Result<(), Fail> {
    let lines = suite::read_suite(file)?;
    let template = "{bar:40} {pos}/{len} lines {elapsed_precise} {msg}";
    let bar = LineBar::new(
        std::io::stdout().is_terminal(),
        c.json,
        lines.len(),
        template,
    );
    let run = suite::SuiteRun {
        variant: c.variant.clone(),
        variant_from_file: c.variant_file.is_some(),
        max_depth: a.max_depth.unwrap_or(u32::MAX),
        counting: a.counting()?,
    };
    let r = suite::run_suite(&lines, file, &run, |line| bar.item(&line.text(), None))?;
    bar.finish();
    show(c, &r)?;
    match r.failed() {
        0 => Ok(()),
        n => Err(Fail(1, format!("{n} suite line(s) failed"))),
    }
}

fn search(c: &Common, a: &search::report::SearchArgs) -> Result<(), Fail> {
    let limits = search::report::limits_of(a)?;
    search::smp::check_threads(a.threads)?;
    let pos = position(c)?;
    let mut engine = Engine::try_new(a.threads, a.hash)?;
    engine.set_strength(a.elo);
    let json = c.json;
    let r = engine.search(
        &pos,
        limits,
        Box::new(move |ev| match (ev, json) {
            (Event::Info(i), false) => out!("{}", search::report::info_line(i)),
            (Event::Final(i), false) => out!("{}", search::report::final_line(i)),
            _ => {}
        }),
    );
    // No move to search (mate or stalemate on the board): the line UCI gives then, so
    // that every search ends with an info line.
    if r.best.is_none() && !json {
        out!("info depth 0 score {}", search::uci_score(r.score));
    }
    let error = r.error.clone();
    show(c, &search::report::Outcome::new(&pos, r))?;
    match error {
        Some(e) => Err(Fail(1, e)),
        None => Ok(()),
    }
}

fn bench(c: &Common, a: &bench::BenchArgs) -> Result<(), Fail> {
    let each = |l: &bench::BenchLine| {
        if !c.json {
            out!("{}", l.text());
        }
    };
    // The position given, or the bench set of every built-in unless a variant was named.
    let r = if c.fen.is_some() || c.moves.is_some() {
        bench::run_positions(&[position(c)?], a.depth, a.threads, a.hash, each)
    } else if c.variant_typed {
        bench::run(&[variant(c)?], a.depth, a.threads, a.hash, each)
    } else {
        bench::run(&builtins()?, a.depth, a.threads, a.hash, each)
    }
    .map_err(|e| match e {
        // A bench FEN that fails is a broken table; the rest is what the user typed.
        bench::BenchError::Position { .. } => Fail(1, e.to_string()),
        _ => usage(e),
    })?;
    show(c, &r)
}

/// The `--variant-file`, absolute: engines may not share the referee's working directory.
fn absolute_files(c: &Common) -> Vec<String> {
    c.variant_file.iter().map(|f| config::absolute(f)).collect()
}

fn run_match(c: &Common, a: &config::MatchArgs) -> Result<(), Fail> {
    tenfold::arena::engine::kill_engines_on_signals();
    let v = variant(c)?;
    let mut cfg = a.config(&v)?;
    cfg.variant_files = absolute_files(c);
    let notation: pgn::Notation = a
        .pgn_notation
        .parse()
        .map_err(|e: pgn::NotationError| Fail(2, e.to_string()))?;
    let prior = match (&a.pgnout, a.resume) {
        (Some(file), true) => tenfold::arena::resume::load(file, &cfg, &v, notation)?,
        _ => Vec::new(),
    };
    let pgn_out = a
        .pgnout
        .as_deref()
        .map(pgn::PgnAppender::open)
        .transpose()?;
    let plot = PlotFile::open(a.plot.as_deref(), &cfg)?;
    let template = "{bar:30} {pos}/{len} games {elapsed_precise} {msg}";
    let games = cfg.pair_range().len() * 2;
    let bar = LineBar::new(std::io::stderr().is_terminal(), c.json, games, template);
    let on_game = |g: &Finished, r: &MatchResult| {
        if let Some(f) = &pgn_out {
            f.append(&g.record, &a.event, notation);
        }
        if let Err(e) = plot.update(r) {
            eprintln!("tenfold: {e}");
        }
        bar.item(&report::game_line(g), Some(&report::progress_line(r)));
    };
    let mut result = tenfold::arena::run_match_from(&cfg, prior, &on_game)?;
    if let Some(s) = &mut result.slice {
        s.pgn = a.pgnout.as_deref().map(config::absolute);
    }
    bar.finish();
    show(c, &result)
}

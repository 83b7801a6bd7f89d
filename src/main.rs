//! The `tenfold` command line: parses arguments and dispatches into the library.

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;
use tenfold::moves::MoveList;
use tenfold::{builtin, perft, suite, Position, Variant};

#[derive(Parser)]
#[command(
    name = "tenfold",
    version,
    about = "Perft, search and play large-board chess variants"
)]
struct Cli {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    cmd: Cmd,
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
        builtin::load_file(path).map_err(usage)?;
    }
    match cli.cmd {
        Cmd::Variants => variants(&cli.common),
        Cmd::Moves => moves(&cli.common),
        Cmd::Fen => fen(&cli.common),
        Cmd::Describe { piece } => describe(&cli.common, &piece),
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
    builtin::get(&c.variant).map_err(usage)
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
    for name in builtin::names() {
        let v = builtin::get(name).map_err(|e| Fail(1, e.to_string()))?;
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
        println!("{}", json!({ "variants": list }));
    } else {
        for (n, f, r, d) in rows {
            println!("{n:<16} {f}x{r:<4} {d}");
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
        println!("{}", json!({ "moves": names }));
    } else {
        for n in names {
            println!("{n}");
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
        println!("{o}");
    } else {
        println!("{fen}");
        if let Some((r, why)) = over {
            println!("{} {}", r.pgn(), why);
        }
    }
    Ok(())
}

fn describe(c: &Common, piece: &str) -> Result<(), Fail> {
    let v = variant(c)?;
    let d = tenfold::describe::describe(piece, &v).map_err(usage)?;
    if c.json {
        println!(
            "{}",
            json!({"betza": d.betza, "taxonomy": d.taxonomy, "diagram": d.diagram})
        );
    } else {
        println!("{}", d.source);
        println!("betza     {}", d.betza);
        println!(
            "taxonomy  {}",
            d.taxonomy.as_deref().unwrap_or("(no taxonomy name)")
        );
        println!();
        let n = d.diagram.len();
        for (i, row) in d.diagram.iter().enumerate() {
            println!("{:>2} {row}", n - i);
        }
        let files: Vec<String> = (0..n)
            .map(|f| ((b'a' + f as u8) as char).to_string())
            .collect();
        println!("   {}", files.join(" "));
        println!();
        println!("{}", tenfold::describe::LEGEND);
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
        println!("{o}");
    } else {
        if let Some(d) = &divide {
            for (m, n) in d {
                println!("{m}: {n}");
            }
            println!();
        }
        println!("nodes {nodes}");
        println!("time {ms} ms");
        println!("nps {nps}");
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
            None if !c.json => println!("{text}"),
            None => {}
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    if c.json {
        println!(
            "{}",
            json!({"passed": passed, "failed": failed, "nodes": total_nodes,
                   "ms": (secs * 1000.0) as u64, "lines": results})
        );
    } else {
        println!(
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

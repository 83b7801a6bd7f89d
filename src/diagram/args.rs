//! The picture options as the command line spells them, and the steps from them to an
//! SVG, so that `main.rs` only parses and prints.

use super::board::{parse_arrows, position_svg, BoardOptions};
use super::moves::moves_svg;
use super::plot::MatchPlot;
use super::{write_svg, DiagramError};
use crate::arena::{MatchConfig, MatchResult};
use crate::core::moves::Color;
use crate::describe::{self, DescribeError, Described};
use crate::position::Position;
use crate::report::Report;
use crate::variant::Variant;
use serde_json::{json, Value};
use std::sync::Mutex;

/// `tenfold diagram` options.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DiagramArgs {
    /// Write the SVG to this file (default: stdout).
    #[arg(long)]
    pub svg: Option<String>,
    /// Draw the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// Arrows to draw, e.g. "e2e4 g1f3".
    #[arg(long, default_value = "")]
    pub arrows: String,
}

/// What `tenfold diagram` made: the SVG itself, or the file it went into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// The SVG text, for stdout.
    Svg(String),
    /// The `--svg` file written.
    File(String),
}

impl Report for Drawn {
    /// The SVG, or nothing once it is in its file.
    fn text(&self) -> String {
        match self {
            Drawn::Svg(svg) => svg.clone(),
            Drawn::File(_) => String::new(),
        }
    }

    /// `{"svg": "<svg …>"}`, or `{"file": PATH}` once it is in its file.
    fn to_json(&self) -> Value {
        match self {
            Drawn::Svg(svg) => json!({ "svg": svg }),
            Drawn::File(path) => json!({ "file": path }),
        }
    }
}

impl DiagramArgs {
    /// Draws the position: into the `--svg` file, else as the SVG text.
    pub fn run(&self, pos: &Position) -> Result<Drawn, DiagramError> {
        let svg = self.render(pos)?;
        match &self.svg {
            Some(path) => write_svg(path, &svg).map(|()| Drawn::File(path.clone())),
            None => Ok(Drawn::Svg(svg)),
        }
    }

    /// The position as SVG with these options.
    pub fn render(&self, pos: &Position) -> Result<String, DiagramError> {
        let opts = BoardOptions {
            flip: self.flip,
            arrows: parse_arrows(&pos.variant().board, &self.arrows)?,
        };
        Ok(position_svg(pos, &opts))
    }
}

/// `tenfold describe` options.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DescribeArgs {
    /// A piece letter of --variant, a Betza string or a taxonomy name (quoted).
    #[arg(required_unless_present = "from")]
    pub piece: Option<String>,
    /// Instead: the legal moves of the piece on this square of the position (--fen, --moves).
    #[arg(long)]
    pub from: Option<String>,
    /// Also draw the diagram as SVG into this file.
    #[arg(long)]
    pub svg: Option<String>,
}

impl DescribeArgs {
    /// Describes the piece (in `pos` when `--from` is given) and writes the picture if asked.
    pub fn run(&self, v: &Variant, pos: Option<&Position>) -> Result<Described, DiagramError> {
        let from = pos.zip(self.from.as_deref());
        let (mut d, svg) = describe_with_picture(self.piece.as_deref(), from, v)?;
        if let Some(path) = &self.svg {
            write_svg(path, &svg)?;
            d.file = Some(path.clone());
        }
        Ok(d)
    }
}

/// `tenfold describe [PIECE] [--from SQ] [--svg FILE]`: what `describe` lists and its
/// picture. Without `from`, PIECE on the empty 9x9 board, with the atoms' geometry
/// drawn (exact there); with `from` (a position and a square), the legal moves of the
/// piece on that square, PIECE if given naming that piece's letter.
pub fn describe_with_picture(
    piece: Option<&str>,
    from: Option<(&Position, &str)>,
    v: &Variant,
) -> Result<(Described, String), DescribeError> {
    match (piece, from) {
        (_, Some((pos, sq))) => {
            let d = describe::describe_from(pos, sq)?;
            let at = v.board.parse_square(sq.trim());
            let p = at.map(|s| pos.piece_on(s)).filter(|p| !p.is_none());
            let Some(p) = p else {
                return Err(DescribeError(format!("--from: there is no piece on {sq}")));
            };
            let def = &v.pieces[p.kind() as usize];
            if let Some(name) =
                piece.filter(|n| !n.trim().eq_ignore_ascii_case(&def.letter.to_string()))
            {
                return Err(DescribeError(format!(
                    "--from: {sq} holds {} ({}), not \"{}\"",
                    def.letter,
                    def.name,
                    name.trim()
                )));
            }
            let svg = moves_svg(&d, Some((def, p.color())), Some(pos));
            Ok((d, svg))
        }
        (Some(name), None) => {
            let d = describe::describe(name, v)?;
            let mut chars = name.trim().chars();
            let def = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => v.type_of_letter(c),
                _ => None,
            }
            .map(|t| (&v.pieces[t as usize], Color::White));
            let svg = moves_svg(&d, def, None);
            Ok((d, svg))
        }
        (None, None) => Err(DescribeError(
            "describe needs PIECE or --from SQ".to_string(),
        )),
    }
}

/// A match plot kept in a file, rewritten after every game (nothing without a file).
pub struct PlotFile {
    path: Option<String>,
    plot: Mutex<MatchPlot>,
}

impl PlotFile {
    /// Writes the empty plot at once, so that an unwritable path is refused before
    /// the first game rather than after it.
    pub fn open(path: Option<&str>, cfg: &MatchConfig) -> Result<PlotFile, DiagramError> {
        let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
        let title = match names.split_first() {
            Some((first, rest)) => format!("{first} vs {} ({})", rest.join(", "), cfg.variant),
            None => cfg.variant.clone(),
        };
        let plot = MatchPlot::new(&title, cfg.sprt.as_ref());
        if let Some(path) = path {
            write_svg(path, &plot.svg())?;
        }
        Ok(PlotFile {
            path: path.map(str::to_string),
            plot: Mutex::new(plot),
        })
    }

    /// Records the match after a game and rewrites the file.
    pub fn update(&self, r: &MatchResult) -> Result<(), DiagramError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut p = self.plot.lock().unwrap_or_else(|e| e.into_inner());
        p.record(r);
        write_svg(path, &p.svg())
    }
}

//! Pictures as self-contained SVG: a position on its own board (`board`), a piece's
//! moves marked by kind (`moves`), and a match's Elo and SPRT against games played
//! (`plot`). Everything is drawn from the variant's data (movement atoms, zones,
//! regions, compositions); no game is known by name.

pub mod args;
pub mod board;
pub mod frame;
pub mod glyph;
pub mod moves;
pub mod plot;
pub mod svg;

pub use args::{describe_with_picture, DescribeArgs, DiagramArgs, Drawn, PlotFile};
pub use board::{parse_arrows, position_svg, BoardOptions};
pub use moves::moves_svg;
pub use plot::MatchPlot;

/// Why a picture could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum DiagramError {
    /// An `--arrows` word that is not two squares.
    #[error("--arrows: \"{0}\" is not two squares of the board (e.g. e2e4)")]
    Arrow(String),
    /// PIECE or `--from` refused.
    #[error(transparent)]
    Describe(#[from] crate::describe::DescribeError),
    /// The SVG file cannot be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Writes `svg` to `path` whole, so that a viewer watching the file (a match plot
/// redrawn after each game) never reads half; a link is followed and a device written
/// in place.
pub fn write_svg(path: &str, svg: &str) -> Result<(), DiagramError> {
    crate::core::output::write_whole(path, svg.as_bytes()).map_err(|source| DiagramError::Write {
        path: path.to_string(),
        source,
    })
}

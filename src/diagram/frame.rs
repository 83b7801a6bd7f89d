//! The board in a picture: where each square is drawn (either way up), the checkered
//! squares with coordinates, and what is drawn on squares — shading, region borders,
//! kill crosses and arrows. Shared by position diagrams and piece diagrams.

use super::svg::Svg;
use crate::core::geometry::{Bitboard, Board, Square};

/// Side of a square in pixels.
pub const SQ: f64 = 52.0;
/// Room left of and below the board for coordinates.
pub const MARGIN: f64 = 26.0;

const LIGHT: &str = "#eeddbb";
const DARK: &str = "#b98b5e";
/// A region border (confinement, the River).
pub const BORDER: &str = "stroke:#1f6fd0;stroke-width:5;stroke-linecap:round";
/// A square killed without being occupied.
pub const KILL: &str = "fill:none;stroke:#d0201a;stroke-width:4;stroke-linecap:round";
const ARROW: &str = "fill:#1c7c3c;fill-opacity:0.75;stroke:none";

/// Pixel geometry of the board in the picture.
pub struct Frame {
    /// The board drawn.
    pub board: Board,
    /// Black at the bottom.
    pub flip: bool,
    /// Pixel x of the board's left edge.
    pub left: f64,
    /// Pixel y of the board's top edge.
    pub top: f64,
}

impl Frame {
    /// Top-left corner of a square.
    pub fn corner(&self, sq: Square) -> (f64, f64) {
        let (f, r) = (self.board.file_of(sq), self.board.rank_of(sq));
        let (col, row) = if self.flip {
            (self.board.files as i32 - 1 - f, r)
        } else {
            (f, self.board.ranks as i32 - 1 - r)
        };
        (self.left + col as f64 * SQ, self.top + row as f64 * SQ)
    }

    /// Centre of a square.
    pub fn centre(&self, sq: Square) -> (f64, f64) {
        let (x, y) = self.corner(sq);
        (x + SQ / 2.0, y + SQ / 2.0)
    }

    /// Pixel width and height of the board.
    pub fn size(&self) -> (f64, f64) {
        (self.board.files as f64 * SQ, self.board.ranks as f64 * SQ)
    }

    /// Draws the checkered squares and the coordinates around them.
    pub fn squares(&self, svg: &mut Svg) {
        let (w, h) = self.size();
        svg.rect(self.left, self.top, w, h, &format!("fill:{LIGHT}"));
        for sq in self.board.all.iter() {
            if (self.board.file_of(sq) + self.board.rank_of(sq)) % 2 == 0 {
                let (x, y) = self.corner(sq);
                svg.rect(x, y, SQ, SQ, &format!("fill:{DARK}"));
            }
        }
        svg.rect(
            self.left,
            self.top,
            w,
            h,
            "fill:none;stroke:#4a3520;stroke-width:2",
        );
        let style = "fill:#333";
        for f in 0..self.board.files as i32 {
            if let Some(sq) = self.board.square(f, 0) {
                let x = self.centre(sq).0;
                let name = ((b'a' + f as u8) as char).to_string();
                svg.text(x, self.top + h + MARGIN / 2.0, 14.0, style, &name);
            }
        }
        for r in 0..self.board.ranks as i32 {
            if let Some(sq) = self.board.square(0, r) {
                let y = self.centre(sq).1;
                svg.text(
                    self.left - MARGIN / 2.0,
                    y,
                    14.0,
                    style,
                    &(r + 1).to_string(),
                );
            }
        }
    }

    /// Overlays every square of `bb` with `style`.
    pub fn shade(&self, svg: &mut Svg, bb: Bitboard, style: &str) {
        for sq in bb.iter() {
            let (x, y) = self.corner(sq);
            svg.rect(x, y, SQ, SQ, style);
        }
    }

    /// Draws the edges between squares inside and outside each region (not the board's
    /// own edge), each edge once however many regions share it.
    pub fn borders(&self, svg: &mut Svg, regions: &[Bitboard]) {
        let mut edges: Vec<(Square, Square)> = Vec::new();
        for &region in regions {
            for sq in region.iter() {
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if let Some(n) = self.board.offset(sq, dx, dy) {
                        let e = (sq.min(n), sq.max(n));
                        if !region.has(n) && !edges.contains(&e) {
                            edges.push(e);
                        }
                    }
                }
            }
        }
        for (a, b) in edges {
            let ((ax, ay), (bx, by)) = (self.centre(a), self.centre(b));
            let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
            // The shared edge is perpendicular to the line joining the two centres.
            let (hx, hy) = ((by - ay) / 2.0, (ax - bx) / 2.0);
            svg.line((mx - hx, my - hy), (mx + hx, my + hy), BORDER);
        }
    }

    /// A red cross in a square.
    pub fn kill(&self, svg: &mut Svg, sq: Square) {
        let (x, y) = self.corner(sq);
        let (a, b) = (SQ * 0.2, SQ * 0.8);
        svg.line((x + a, y + a), (x + b, y + b), KILL);
        svg.line((x + b, y + a), (x + a, y + b), KILL);
    }

    /// An arrow between two square centres.
    pub fn arrow(&self, svg: &mut Svg, from: Square, to: Square) {
        let ((x0, y0), (x1, y1)) = (self.centre(from), self.centre(to));
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let (px, py) = (-uy, ux);
        let (shaft, head, head_len) = (SQ * 0.08, SQ * 0.22, SQ * 0.38);
        let (bx, by) = (x1 - ux * head_len, y1 - uy * head_len);
        let pts = [
            (x0 + px * shaft, y0 + py * shaft),
            (bx + px * shaft, by + py * shaft),
            (bx + px * head, by + py * head),
            (x1, y1),
            (bx - px * head, by - py * head),
            (bx - px * shaft, by - py * shaft),
            (x0 - px * shaft, y0 - py * shaft),
        ];
        svg.poly(true, &pts, ARROW);
    }
}

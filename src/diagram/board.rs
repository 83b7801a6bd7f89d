//! `tenfold diagram`: a position as SVG on its own board — squares, shaded zones,
//! region borders, pieces, hands, stack badges, the last move, kills, arrows and
//! coordinates.

use super::frame::{Frame, BORDER, KILL, MARGIN, SQ};
use super::glyph::{draw_piece, glyph_of};
use super::svg::{num, Svg};
use super::DiagramError;
use crate::core::geometry::{Bitboard, Board, Square};
use crate::core::moves::{Color, MoveKind, Piece};
use crate::position::Position;
use crate::variant::Variant;

/// Side of a piece in hand.
const HAND_SQ: f64 = 36.0;
/// Width of one column of the hand panel.
const HAND_COL: f64 = 62.0;

const PROMOTION: &str = "fill:#f2c12e;fill-opacity:0.45";
const CASTLING: &str = "fill:none;stroke:#2f8f4f;stroke-width:3";
const LAST_MOVE: &str = "fill:#fff36b;fill-opacity:0.55";

/// How to draw a position.
#[derive(Clone, Debug, Default)]
pub struct BoardOptions {
    /// Black at the bottom.
    pub flip: bool,
    /// Arrows to draw, from and to.
    pub arrows: Vec<(Square, Square)>,
}

/// Reads `--arrows "e2e4 a10b9"`: each word is exactly two squares of the board.
pub fn parse_arrows(board: &Board, text: &str) -> Result<Vec<(Square, Square)>, DiagramError> {
    text.split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| match squares_in(board, w).as_slice() {
            [a, b] => Ok((*a, *b)),
            _ => Err(DiagramError::Arrow(w.to_string())),
        })
        .collect()
}

/// The squares a word spells one after another (`e2e4` → e2, e4); empty if any part
/// is not a square, so that a typo is refused rather than half read.
fn squares_in(board: &Board, word: &str) -> Vec<Square> {
    let bytes = word.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        match word.get(start..i).and_then(|s| board.parse_square(s)) {
            Some(sq) => out.push(sq),
            None => return Vec::new(),
        }
    }
    out
}

/// Promotion zones, castling zones and region borders of a variant.
struct Zones {
    promotion: Bitboard,
    castling: Bitboard,
    borders: Vec<Bitboard>,
}

fn zones(v: &Variant) -> Zones {
    let mut z = Zones {
        promotion: Bitboard::EMPTY,
        castling: Bitboard::EMPTY,
        borders: Vec::new(),
    };
    for p in &v.pieces {
        if let Some(pr) = &p.promotion {
            z.promotion = z.promotion | pr.zone[0] | pr.zone[1];
        }
        // A confinement or transformation region is a line across the board (the
        // River), so it is drawn as its border rather than shaded over half the board.
        let regions = p.confine.iter().chain(p.becomes.iter().map(|b| &b.region));
        for r in regions.flatten() {
            if !z.borders.contains(r) && *r != v.board.all {
                z.borders.push(*r);
            }
        }
    }
    if let Some(zc) = &v.zone_castling {
        z.castling = zc.king_zone[0] | zc.king_zone[1];
        for s in &zc.sides {
            z.castling = z.castling | s.rook_zone[0] | s.rook_zone[1];
        }
    }
    z
}

/// The composition on a square as badge text, e.g. `1F 1W` (atom initials upper case).
fn badge_text(pos: &Position, sq: Square) -> Option<String> {
    let st = pos.variant().stacking.as_ref()?;
    let counts = pos.stack_counts(sq);
    let parts: Vec<String> = st
        .atoms
        .iter()
        .zip(counts.iter())
        .filter(|(_, &n)| n > 0)
        .map(|(a, n)| {
            format!(
                "{n}{}",
                a.chars().next().unwrap_or('?').to_ascii_uppercase()
            )
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Draws badge text in the bottom-right corner of the square at (x, y).
fn badge(svg: &mut Svg, x: f64, y: f64, text: &str) {
    let w = 6.2 * text.chars().count() as f64 + 5.0;
    let (bx, by) = (x + SQ - w - 1.0, y + SQ - 15.0);
    svg.el(
        "rect",
        &[
            ("x", num(bx)),
            ("y", num(by)),
            ("width", num(w)),
            ("height", "14".to_string()),
            ("rx", "4".to_string()),
            (
                "style",
                "fill:#1f4f8f;stroke:#fff;stroke-width:1".to_string(),
            ),
        ],
    );
    svg.text(
        bx + w / 2.0,
        by + 7.0,
        10.0,
        "fill:#fff;font-weight:bold",
        text,
    );
}

/// Draws one side's hand as a grid of small pieces with their counts, starting at
/// (x, y) and going down.
fn hand(svg: &mut Svg, pos: &Position, c: Color, x: f64, y: f64) {
    let v = pos.variant();
    let mut i = 0;
    for (t, def) in v.pieces.iter().enumerate() {
        let n = pos.hand(c, t as u8);
        if n == 0 {
            continue;
        }
        let (cx, cy) = (
            x + (i % 2) as f64 * HAND_COL,
            y + (i / 2) as f64 * (HAND_SQ + 6.0),
        );
        draw_piece(svg, cx, cy, HAND_SQ, glyph_of(def), def.letter, c);
        let style = "fill:#222;font-weight:bold";
        svg.text_anchored(
            cx + HAND_SQ + 1.0,
            cy + HAND_SQ / 2.0,
            13.0,
            "start",
            style,
            &format!("×{n}"),
        );
        i += 1;
    }
}

/// The legend row: a swatch and a label for each kind of mark the picture uses.
fn legend(svg: &mut Svg, x: f64, y: f64, items: &[(&str, &str)]) {
    let mut cx = x;
    for (style, label) in items {
        if style.contains("stroke-width:5") || style.contains("stroke:#d0201a") {
            svg.line((cx, y + 6.0), (cx + 14.0, y + 6.0), style);
        } else {
            svg.rect(
                cx,
                y,
                14.0,
                12.0,
                &format!("{style};stroke:#555;stroke-width:0.5"),
            );
        }
        svg.text_anchored(cx + 18.0, y + 6.0, 11.0, "start", "fill:#333", label);
        cx += 26.0 + 6.2 * label.len() as f64;
    }
}

/// The position as a standalone SVG document.
pub fn position_svg(pos: &Position, opts: &BoardOptions) -> String {
    let v = pos.variant();
    let hands = v.uses_hands();
    let frame = Frame {
        board: v.board.clone(),
        flip: opts.flip,
        left: MARGIN,
        top: 10.0,
    };
    let (w, h) = frame.size();
    let hand_w = if hands { 2.0 * HAND_COL + 16.0 } else { 10.0 };
    let mut svg = Svg::new(MARGIN + w + hand_w, frame.top + h + MARGIN + 24.0);
    svg.rect(
        0.0,
        0.0,
        MARGIN + w + hand_w,
        frame.top + h + MARGIN + 24.0,
        "fill:#fafafa",
    );
    frame.squares(&mut svg);

    let z = zones(v);
    let mut items: Vec<(&str, &str)> = Vec::new();
    if z.promotion.any() {
        frame.shade(&mut svg, z.promotion, PROMOTION);
        items.push((PROMOTION, "promotion zone"));
    }
    if z.castling.any() {
        // An inset outline, so it reads where it overlaps a shaded promotion rank.
        for sq in z.castling.iter() {
            let (x, y) = frame.corner(sq);
            svg.rect(x + 3.0, y + 3.0, SQ - 6.0, SQ - 6.0, CASTLING);
        }
        items.push((CASTLING, "castling zone"));
    }
    let last = pos.history().last();
    if let Some(m) = last {
        let mut marked = m.to().bb();
        if m.kind() != MoveKind::Drop {
            marked.set(m.from());
        }
        frame.shade(&mut svg, marked, LAST_MOVE);
        items.push((LAST_MOVE, "last move"));
    }
    if !z.borders.is_empty() {
        frame.borders(&mut svg, &z.borders);
        items.push((BORDER, "region border"));
    }

    for sq in v.board.all.iter() {
        let p: Piece = pos.piece_on(sq);
        if p.is_none() {
            continue;
        }
        piece_on(&mut svg, &frame, v, p, sq);
        let (x, y) = frame.corner(sq);
        if let Some(t) = badge_text(pos, sq) {
            badge(&mut svg, x, y, &t);
        }
    }
    if let Some(m) = last.filter(|m| m.has_kills()) {
        m.kills().for_each(|k| frame.kill(&mut svg, k));
        items.push((KILL, "killed"));
    }
    for &(a, b) in &opts.arrows {
        frame.arrow(&mut svg, a, b);
    }
    if hands {
        // The far side's hand at the top, the near side's at the bottom.
        let (top, bottom) = if opts.flip {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let x = MARGIN + w + 12.0;
        hand(&mut svg, pos, top, x, frame.top);
        hand(&mut svg, pos, bottom, x, frame.top + h / 2.0 + 6.0);
    }
    legend(&mut svg, MARGIN, frame.top + h + MARGIN + 4.0, &items);
    svg.finish()
}

/// Draws piece `p` on its square `sq`, inset from the square's edge.
pub(super) fn piece_on(svg: &mut Svg, frame: &Frame, v: &Variant, p: Piece, sq: Square) {
    let def = &v.pieces[p.kind() as usize];
    let (x, y) = frame.corner(sq);
    let glyph = glyph_of(def);
    draw_piece(
        svg,
        x + 2.0,
        y + 2.0,
        SQ - 4.0,
        glyph,
        def.letter,
        p.color(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn arrows_are_pairs_of_squares() {
        let b = Board::new(10, 10).unwrap();
        let a = parse_arrows(&b, "e2e4 a10b9").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(b.square_name(a[1].0), "a10");
        for bad in ["e2", "e2e4e5", "k1a1", "e2-e4", "e2e0"] {
            assert!(parse_arrows(&b, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_river_is_one_border_line() {
        let v = registry::get("wildeurasian").unwrap();
        let z = zones(&v);
        assert!(z.castling.any() && z.promotion.any());
        // The Pawn's region and the confinement of Queen, Gnu, Tank and King: one line
        // of ten square edges, and its legend swatch.
        let svg = position_svg(&Position::startpos(&v), &BoardOptions::default());
        assert_eq!(svg.matches(BORDER).count(), 10 + 1);
    }
}

//! `tenfold describe PIECE --svg`: the squares `describe` lists, each marked by kind
//! (move, capture, both, initial-only, killed), on the same board, with the atoms'
//! geometry drawn over them — rides, hops, grasshops, bent continuations and lame
//! paths — and a legend naming only what the picture shows.

use super::frame::{Frame, SQ};
use super::glyph::{draw_piece, glyph_of, glyph_of_movement};
use super::svg::Svg;
use crate::core::geometry::{Board, Square};
use crate::core::moves::Color;
use crate::describe::Described;
use crate::movement::atoms::{Atom, AtomKind, Offset};
use crate::position::Position;
use crate::variant::PieceDef;

const RIDE: &str = "stroke:#4b4b4b;stroke-width:2.5;stroke-opacity:0.7;fill:none";
const HOP: &str = "stroke:#e07b00;stroke-width:3;stroke-dasharray:7,5;fill:none";
const GRASSHOP: &str = "stroke:#00897b;stroke-width:3;stroke-dasharray:2,4;fill:none";
const BENT: &str = "stroke:#8e24aa;stroke-width:3;fill:none;stroke-linejoin:round";
const LAME: &str = "stroke:#1f6fd0;stroke-width:2.5;stroke-dasharray:3,3;fill:none";
const MOVE: &str = "fill:#2e8b3a;stroke:#0f3d16;stroke-width:1.5";
const CAPTURE: &str = "fill:none;stroke:#d0201a;stroke-width:4";
const INITIAL: &str = "fill:#bfe8c4;stroke:#2e8b3a;stroke-width:2.5;stroke-dasharray:4,3";
const KILL: &str = "stroke:#d0201a;stroke-width:4;stroke-linecap:round";

/// What a diagram mark means, for the legend: on the empty board (`empty`) a mark
/// says what the piece may do there; in a position, what it can do now.
fn mark_label(mark: char, empty: bool) -> Option<&'static str> {
    Some(match (mark, empty) {
        ('*', true) => "move or capture",
        ('m', true) => "move only",
        ('c', true) => "capture only",
        ('*', false) => "move and capture",
        ('m', false) => "move",
        ('c', false) => "capture",
        ('i', _) => "initial move only",
        ('x', _) => "killed without being occupied",
        _ => return None,
    })
}

/// The marks of a described diagram as (square, mark) on its board, and the board.
fn read_marks(d: &Described) -> Option<(Board, Vec<(Square, char)>)> {
    let rows: Vec<Vec<char>> = d
        .diagram
        .iter()
        .map(|r| r.split(' ').filter_map(|m| m.chars().next()).collect())
        .collect();
    let ranks = rows.len() as u32;
    let files = rows.first()?.len() as u32;
    let board = Board::new(files, ranks).ok()?;
    let mut marks = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for (f, &m) in row.iter().enumerate() {
            marks.push((board.square(f as i32, (ranks as usize - 1 - i) as i32)?, m));
        }
    }
    Some((board, marks))
}

/// The squares a ride along `step` passes from `from` within `range` (0: unlimited).
fn walk(board: &Board, from: Square, step: Offset, range: u8) -> Vec<Square> {
    let mut out = Vec::new();
    let mut at = from;
    while range == 0 || out.len() < range as usize {
        match board.offset(at, step.dx as i32, step.dy as i32) {
            Some(n) => {
                out.push(n);
                at = n;
            }
            None => break,
        }
    }
    out
}

/// Draws one atom's geometry from `from`; returns the legend entry it needs.
fn overlay(
    svg: &mut Svg,
    f: &Frame,
    from: Square,
    a: &Atom,
) -> Option<(&'static str, &'static str)> {
    let c = |sq: Square| f.centre(sq);
    match a.kind {
        AtomKind::Leap => None,
        AtomKind::Ride { range } | AtomKind::Hop { range } | AtomKind::Grasshopper { range } => {
            let path = walk(&f.board, from, a.step, range);
            let end = *path.last()?;
            let (style, label) = match a.kind {
                AtomKind::Hop { .. } => (HOP, "hop: captures beyond one screen"),
                AtomKind::Grasshopper { .. } => {
                    (GRASSHOP, "grasshop: lands just past the first piece")
                }
                _ => (RIDE, "ride (blocked by the first piece)"),
            };
            let (a, b) = (c(from), c(end));
            // A hop is drawn beside the ride it shares a line with, so both show.
            let shift = if style == RIDE { 0.0 } else { 4.0 };
            let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1.0);
            let (px, py) = ((a.1 - b.1) / len * shift, (b.0 - a.0) / len * shift);
            svg.line((a.0 + px, a.1 + py), (b.0 + px, b.1 + py), style);
            Some((style, label))
        }
        AtomKind::Bent { then, range } => {
            let first = f.board.offset(from, a.step.dx as i32, a.step.dy as i32)?;
            let mut pts = vec![c(from), c(first)];
            pts.extend(walk(&f.board, first, then, range).into_iter().map(c));
            svg.poly(false, &pts, BENT);
            Some((BENT, "bent: one step, then a ride outward"))
        }
        AtomKind::Lame { via } => {
            let mid = f.board.offset(from, via.dx as i32, via.dy as i32)?;
            let to = f.board.offset(from, a.step.dx as i32, a.step.dy as i32)?;
            svg.poly(false, &[c(from), c(mid), c(to)], LAME);
            Some((LAME, "lame: the square passed must be empty"))
        }
    }
}

/// Draws a mark centred on (x, y) for a square of side `side`.
fn mark(svg: &mut Svg, (x, y): (f64, f64), side: f64, m: char) {
    match m {
        'm' => svg.circle(x, y, side * 0.17, MOVE),
        'c' => svg.circle(x, y, side * 0.32, CAPTURE),
        '*' => {
            svg.circle(x, y, side * 0.32, CAPTURE);
            svg.circle(x, y, side * 0.17, MOVE);
        }
        'i' => svg.circle(x, y, side * 0.17, INITIAL),
        'x' => {
            let a = side * 0.28;
            svg.line((x - a, y - a), (x + a, y + a), KILL);
            svg.line((x + a, y - a), (x - a, y + a), KILL);
        }
        _ => {}
    }
}

/// A legend entry: a square mark or a line style.
#[derive(Clone, Copy, PartialEq)]
enum Swatch {
    Mark(char),
    Line(&'static str),
}

/// The squares of `d.diagram` marked by kind on its board, the piece at its centre
/// (`piece`: its definition and colour, when it is a variant's piece), the atoms'
/// geometry (on the empty board, where it is exact; not in a position) and a legend.
/// In a position (`--from`), the other pieces are drawn too.
pub fn moves_svg(
    d: &Described,
    piece: Option<(&PieceDef, Color)>,
    pos: Option<&Position>,
) -> String {
    let lines = pos.is_none();
    let Some((board, marks)) = read_marks(d) else {
        return Svg::new(1.0, 1.0).finish();
    };
    let frame = Frame {
        board,
        flip: false,
        left: 26.0,
        top: 40.0,
    };
    let (w, h) = frame.size();
    let mut items: Vec<(Swatch, &str)> = Vec::new();
    for m in ['*', 'm', 'c', 'i', 'x'] {
        if let (true, Some(l)) = (marks.iter().any(|&(_, x)| x == m), mark_label(m, lines)) {
            items.push((Swatch::Mark(m), l));
        }
    }
    let centre = marks.iter().find(|&&(_, m)| m == 'O').map(|&(s, _)| s);
    let mut body = Svg::new(0.0, 0.0);
    if let (Some(c), true) = (centre, lines) {
        for a in &d.atoms {
            if let Some((style, label)) = overlay(&mut body, &frame, c, a) {
                let item = (Swatch::Line(style), label);
                if !items.contains(&item) {
                    items.push(item);
                }
            }
        }
    }
    let note_h = if d.note.is_some() { 20.0 } else { 0.0 };
    let (width, height) = (
        w + 40.0,
        frame.top + h + 34.0 + 20.0 * items.len() as f64 + note_h,
    );
    let mut svg = Svg::new(width.max(360.0), height);
    svg.rect(0.0, 0.0, width.max(360.0), height, "fill:#fafafa");
    let title = match d.betza.as_str() {
        "" => d.source.clone(),
        b => format!("{} — {b}", d.source),
    };
    svg.text_anchored(
        frame.left,
        18.0,
        14.0,
        "start",
        "fill:#222;font-weight:bold",
        &title,
    );
    if let Some(t) = &d.taxonomy {
        svg.text_anchored(frame.left, 33.0, 11.0, "start", "fill:#555", t);
    }
    frame.squares(&mut svg);
    svg.raw(&body.into_body());
    if let Some(pos) = pos {
        let v = pos.variant();
        for sq in v.board.all.iter().filter(|&s| Some(s) != centre) {
            let p = pos.piece_on(sq);
            if !p.is_none() {
                super::board::piece_on(&mut svg, &frame, v, p, sq);
            }
        }
    }
    for &(sq, m) in marks
        .iter()
        .filter(|&&(_, m)| mark_label(m, true).is_some())
    {
        // Named, so that a test (or a reader of the file) finds which square holds what.
        let name = frame.board.square_name(sq);
        svg.open("g", &[("data-square", name), ("data-mark", m.to_string())]);
        mark(&mut svg, frame.centre(sq), SQ, m);
        svg.close("g");
    }
    if let Some(c) = centre {
        let (x, y) = frame.corner(c);
        let (glyph, letter, colour) = match piece {
            Some((def, col)) => (glyph_of(def), def.letter, col),
            None => (glyph_of_movement(&d.atoms, false, false), ' ', Color::White),
        };
        svg.rect(x, y, SQ, SQ, "fill:#fff36b;fill-opacity:0.6");
        draw_piece(&mut svg, x + 2.0, y + 2.0, SQ - 4.0, glyph, letter, colour);
    }
    let mut y = frame.top + h + 36.0;
    for (sw, label) in &items {
        match *sw {
            Swatch::Mark(m) => mark(&mut svg, (frame.left + 9.0, y), 26.0, m),
            Swatch::Line(style) => svg.line((frame.left, y), (frame.left + 18.0, y), style),
        }
        svg.text_anchored(frame.left + 26.0, y, 12.0, "start", "fill:#333", label);
        y += 20.0;
    }
    if let Some(n) = &d.note {
        svg.text_anchored(frame.left, y, 12.0, "start", "fill:#a33", n);
    }
    svg.finish()
}

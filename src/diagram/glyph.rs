//! Piece pictures: a standard glyph when a piece moves exactly like a FIDE piece (by
//! its atoms, never by its letter or its game), otherwise a disc with its letter.
//! Glyphs are plain vector shapes so that no font needs to hold chess symbols.

use super::svg::{escape, num, Svg};
use crate::core::moves::Color;
use crate::movement::atoms::Atom;
use crate::movement::betza;
use crate::variant::PieceDef;

/// The standard glyphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    /// A royal piece moving one step in any direction.
    King,
    /// Rook plus bishop.
    Queen,
    /// Orthogonal rider.
    Rook,
    /// Diagonal rider.
    Bishop,
    /// The (2,1) leaper.
    Knight,
    /// A piece under pawn rules.
    Pawn,
}

/// True when both lists hold the same atoms, in any order.
fn same_atoms(a: &[Atom], b: &[Atom]) -> bool {
    a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
}

/// The glyph that fits a piece's movement class, if one does. A piece with moves beyond
/// its atoms (paths, shots, flights) is never drawn as a FIDE piece: it is not one.
pub fn glyph_of(def: &PieceDef) -> Option<Glyph> {
    if !def.extra_moves.is_empty() {
        return None;
    }
    glyph_of_movement(&def.atoms, def.royal, def.pawn)
}

/// The glyph for a movement: its atoms, whether it is royal and under pawn rules.
pub fn glyph_of_movement(atoms: &[Atom], royal: bool, pawn: bool) -> Option<Glyph> {
    if pawn {
        return Some(Glyph::Pawn);
    }
    let classes = [
        ("K", Glyph::King),
        ("Q", Glyph::Queen),
        ("R", Glyph::Rook),
        ("B", Glyph::Bishop),
        ("N", Glyph::Knight),
    ];
    classes.into_iter().find_map(|(b, g)| {
        let parsed = betza::parse(b).ok()?;
        // A non-royal one-stepper (a Commoner) is no King.
        (same_atoms(atoms, &parsed) && (g == Glyph::King) == royal).then_some(g)
    })
}

/// Shapes in a 100x100 box: (SVG path data, filled with the piece colour or the detail colour).
fn shapes(g: Glyph) -> &'static [(&'static str, bool)] {
    const BASE: (&str, bool) = ("M24,78 H76 V88 H24 Z", true);
    match g {
        Glyph::Pawn => &[
            ("M36,78 C38,64 42,56 46,50 H54 C58,56 62,64 64,78 Z", true),
            ("M50,18 A13,13 0 1 1 49.9,18 Z", true),
            ("M40,46 H60 V52 H40 Z", true),
            BASE,
        ],
        Glyph::Rook => &[
            ("M34,78 L37,42 H63 L66,78 Z", true),
            ("M28,42 V20 H37 V28 H45 V20 H55 V28 H63 V20 H72 V42 Z", true),
            ("M36,42 H64", false),
            BASE,
        ],
        Glyph::Bishop => &[
            ("M38,78 L42,58 H58 L62,78 Z", true),
            ("M50,16 C38,28 32,40 37,52 H63 C68,40 62,28 50,16 Z", true),
            ("M37,52 H63 V58 H37 Z", true),
            ("M50,8 A5,5 0 1 1 49.9,8 Z", true),
            ("M56,28 L47,40", false),
            BASE,
        ],
        Glyph::Knight => &[
            (
                "M32,78 H72 C74,60 70,40 62,28 C57,21 51,17 45,17 L42,9 L36,20 \
                 C29,25 22,36 18,46 C16,53 21,58 27,55 C32,52 36,50 42,48 \
                 C36,58 31,66 32,78 Z",
                true,
            ),
            ("M41,29 A3,3 0 1 1 40.9,29 Z", false),
            BASE,
        ],
        Glyph::Queen => &[
            (
                "M26,78 L16,34 L30,56 L34,24 L43,52 L50,18 L57,52 L66,24 L70,56 L84,34 L74,78 Z",
                true,
            ),
            ("M16,29 A5,5 0 1 1 15.9,29 Z", true),
            ("M34,19 A5,5 0 1 1 33.9,19 Z", true),
            ("M50,13 A5,5 0 1 1 49.9,13 Z", true),
            ("M66,19 A5,5 0 1 1 65.9,19 Z", true),
            ("M84,29 A5,5 0 1 1 83.9,29 Z", true),
            ("M30,70 H70", false),
            BASE,
        ],
        Glyph::King => &[
            ("M28,78 L20,44 L38,54 L50,36 L62,54 L80,44 L72,78 Z", true),
            ("M47,8 H53 V15 H60 V21 H53 V36 H47 V21 H40 V15 H47 Z", true),
            ("M30,70 H70", false),
            BASE,
        ],
    }
}

/// Fill and outline colours of a side's pieces: (body, outline and details).
fn colours(c: Color) -> (&'static str, &'static str) {
    match c {
        Color::White => ("#fdfdf8", "#1b1b1b"),
        Color::Black => ("#2a2a2a", "#f2f2ea"),
    }
}

/// Draws a piece in the square whose top-left corner is (x, y) and side `size`: its
/// glyph if it has one, else a disc with `letter`.
pub fn draw_piece(
    svg: &mut Svg,
    x: f64,
    y: f64,
    size: f64,
    glyph: Option<Glyph>,
    letter: char,
    c: Color,
) {
    let (body, detail) = colours(c);
    let s = size / 100.0;
    let mut g = format!(
        "<g transform=\"translate({} {}) scale({})\">\n",
        num(x),
        num(y),
        num(s)
    );
    match glyph {
        Some(gl) => {
            for (d, filled) in shapes(gl) {
                // Black pieces get a black outline too, so they read on light squares.
                let style = if *filled {
                    format!("fill:{body};stroke:#1b1b1b;stroke-width:3;stroke-linejoin:round")
                } else {
                    format!("fill:none;stroke:{detail};stroke-width:3;stroke-linecap:round")
                };
                g += &format!("<path d=\"{d}\" style=\"{style}\"/>\n");
            }
        }
        None => {
            g += &format!(
                "<circle cx=\"50\" cy=\"50\" r=\"38\" style=\"fill:{body};stroke:#1b1b1b;stroke-width:4\"/>\n\
                 <circle cx=\"50\" cy=\"50\" r=\"32\" style=\"fill:none;stroke:{detail};stroke-width:2\"/>\n\
                 <text x=\"50\" y=\"66\" font-size=\"44\" font-weight=\"bold\" \
                 font-family=\"DejaVu Sans, Verdana, sans-serif\" text-anchor=\"middle\" \
                 style=\"fill:{detail}\">{}</text>\n",
                escape(&letter.to_string())
            );
        }
    }
    g += "</g>\n";
    svg.raw(&g);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    fn glyph(game: &str, letter: char) -> Option<Glyph> {
        let v = registry::get(game).unwrap();
        let t = v.type_of_letter(letter).unwrap();
        glyph_of(&v.pieces[t as usize])
    }

    #[test]
    fn glyphs_follow_movement_not_letters() {
        assert_eq!(glyph("chess", 'K'), Some(Glyph::King));
        assert_eq!(glyph("chess", 'N'), Some(Glyph::Knight));
        assert_eq!(glyph("chess", 'P'), Some(Glyph::Pawn));
        // Same letters, other movement: shooting artillery, an armor path.
        assert_eq!(glyph("combined-arms", 'R'), None);
        assert_eq!(glyph("combined-arms", 'N'), None);
        // A cannon is no rook; a wazir-compound letter is no glyph.
        assert_eq!(glyph("wildeurasian", 'C'), None);
        assert_eq!(glyph("wildeurasian", 'R'), Some(Glyph::Rook));
    }
}

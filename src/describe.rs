//! `tenfold describe`: a piece's movement as Betza, as a Locomotive Taxonomy name, and as
//! a diagram of its moves from the centre of an empty board (`--from SQ` shows a piece's
//! legal moves in a position instead; `--svg` draws either, see `diagram/`).
//!
//! The diagram is computed through the same attack tables move generation uses
//! ([`PieceAttacks::compile`] and [`PieceAttacks::targets`]), never separately.

use crate::core::geometry::{Bitboard, Board, Square, SQUARE_SLOTS};
use crate::core::moves::{MoveKind, MoveList};
use crate::movement::atoms::Atom;
use crate::movement::attacks::{PieceAttacks, Rays};
use crate::movement::betza;
use crate::movement::taxonomy;
use crate::position::Position;
use crate::report::Report;
use crate::variant::Variant;

/// Files and ranks of the diagram board: room for a 4-square leap in every direction.
pub const DIAGRAM_SIZE: u32 = 9;

/// What the diagram marks mean, in the order of the marks.
pub const LEGEND: &str =
    "O piece, * move or capture, m move only, c capture only, i initial move only, . none";

/// What the marks of a diagram drawn in a position (`--from`) mean.
pub const LEGEND_FROM: &str =
    "O piece, * move and capture, m move, c capture, x killed without being occupied, . none";

/// A piece's movement in every form `describe` shows.
#[derive(Clone, Debug)]
pub struct Described {
    /// Where the movement came from (a variant's piece, a Betza string, a taxonomy name).
    pub source: String,
    /// White's atoms.
    pub atoms: Vec<Atom>,
    /// Canonical Betza spelling.
    pub betza: String,
    /// Taxonomy name, if the movement has one.
    pub taxonomy: Option<String>,
    /// Diagram rows, top rank first, marks separated by spaces (see `legend`).
    pub diagram: Vec<String>,
    /// What the marks mean: [`LEGEND`] on the empty 9x9 board, [`LEGEND_FROM`] in a position.
    pub legend: &'static str,
    /// What the diagram leaves out: movement that is no atom (a variant piece's path,
    /// rifle shot or flight), named so that the drawing is never taken for all of it.
    pub note: Option<String>,
    /// The `--svg` file the diagram was drawn into, if any (named in the JSON as
    /// `diagram --svg --json` names its file).
    pub file: Option<String>,
}

/// PIECE could be read neither as a piece letter nor as Betza nor as a taxonomy name;
/// the text says why each reading failed, on one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DescribeError(pub String);

impl Report for Described {
    fn text(&self) -> String {
        let mut s = format!(
            "{}\nbetza     {}\ntaxonomy  {}\n\n",
            self.source,
            self.betza,
            self.taxonomy.as_deref().unwrap_or("(no taxonomy name)")
        );
        let n = self.diagram.len();
        for (i, row) in self.diagram.iter().enumerate() {
            s += &format!("{:>2} {row}\n", n - i);
        }
        let width = self.diagram.first().map_or(0, |r| r.split(' ').count());
        let files: Vec<String> = (0..width)
            .map(|f| ((b'a' + f as u8) as char).to_string())
            .collect();
        s += &format!("   {}\n\n{}\n", files.join(" "), self.legend);
        if let Some(note) = &self.note {
            s += &format!("{note}\n");
        }
        s
    }

    fn to_json(&self) -> serde_json::Value {
        let mut o = serde_json::json!({"betza": self.betza, "taxonomy": self.taxonomy,
                                       "diagram": self.diagram, "note": self.note});
        if let Some(f) = &self.file {
            o["file"] = f.as_str().into();
        }
        o
    }
}

/// Reads PIECE: a single upper-case letter the variant defines, else Betza, else a
/// taxonomy name; the error lists why each reading failed, on one line.
pub fn resolve(piece: &str, variant: &Variant) -> Result<(String, Vec<Atom>), DescribeError> {
    let p = piece.trim();
    let mut why = Vec::new();
    let mut chars = p.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c.is_ascii_uppercase() {
            if let Some(t) = variant.type_of_letter(c) {
                let def = &variant.pieces[t as usize];
                return Ok((
                    format!("piece {} ({}) of {}", def.letter, def.name, variant.name),
                    def.atoms.clone(),
                ));
            }
            why.push(format!("{} has no piece '{c}'", variant.name));
        }
    }
    match betza::parse(p) {
        Ok(a) => return Ok(("Betza".to_string(), a)),
        Err(e) => why.push(e.to_string()),
    }
    match taxonomy::parse(p) {
        Ok(a) => return Ok(("taxonomy name".to_string(), a)),
        // A path mover (T5's armor) is no set of atoms; tables take it as `path`.
        Err(_) if taxonomy::path_of(p).is_some() => {
            return Ok(("taxonomy name (a path mover)".to_string(), Vec::new()))
        }
        Err(e) => why.push(e.to_string()),
    }
    Err(DescribeError(
        format!("cannot describe \"{p}\": {}", why.join("; ")).replace(['\n', '\r'], " "),
    ))
}

/// Describes PIECE (see [`resolve`]).
pub fn describe(piece: &str, variant: &Variant) -> Result<Described, DescribeError> {
    let (source, atoms) = resolve(piece, variant)?;
    let mut d = describe_atoms(source, atoms);
    let p = piece.trim();
    if let Some((steps, betza)) = d.atoms.is_empty().then(|| taxonomy::path_of(p)).flatten() {
        d.taxonomy = Some(p.to_string());
        d.note = Some(format!(
            "moves as a path mover (table key `path = {{ steps = {steps}, betza = \"{betza}\" }}`): exactly {steps} steps of {betza}, turning freely, killing every enemy piece it passes; not drawn"
        ));
        return Ok(d);
    }
    let mut chars = p.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if let Some(t) = variant.type_of_letter(c).filter(|_| c.is_ascii_uppercase()) {
            let def = &variant.pieces[t as usize];
            let extra = &def.extra_moves;
            if !extra.is_empty() {
                // A built-in's table is in the repository; a loaded one is the user's.
                let table = if crate::registry::names().contains(&variant.name.as_str()) {
                    format!("tables/{}.toml", variant.name)
                } else {
                    format!("the table of {}", variant.name)
                };
                d.note = Some(format!(
                    "also moves by {} (see {table}); not drawn",
                    extra.join(" and "),
                ));
            }
            // A piece that moves by its path alone has the path's name (T6).
            let path = variant
                .occupy
                .as_ref()
                .and_then(|o| o.paths.get(t as usize))
                .and_then(|p| p.as_ref());
            if let (true, [_], Some(path)) = (d.atoms.is_empty(), extra.as_slice(), path) {
                d.taxonomy = taxonomy::path_name(path.steps as u32, &path.dirs);
            }
        }
    }
    Ok(d)
}

/// Describes a movement given as atoms.
pub fn describe_atoms(source: String, atoms: Vec<Atom>) -> Described {
    Described {
        source,
        betza: betza::to_betza(&atoms),
        taxonomy: taxonomy::name_of(&atoms),
        diagram: diagram(&atoms),
        legend: LEGEND,
        atoms,
        note: None,
        file: None,
    }
}

/// The legal moves of the piece on square `from` of `pos` (the side not to move is
/// given the move to show its own), marked on the position's board: where it moves,
/// where it captures, and what it kills without occupying (shots, paths).
pub fn describe_from(pos: &Position, from: &str) -> Result<Described, DescribeError> {
    let v = pos.variant();
    let sq = v
        .board
        .parse_square(from.trim())
        .ok_or_else(|| DescribeError(format!("--from: \"{from}\" is not a square of the board")))?;
    let piece = pos.piece_on(sq);
    if piece.is_none() {
        return Err(DescribeError(format!(
            "--from: there is no piece on {}",
            from.trim()
        )));
    }
    let mut p = pos.clone();
    if p.side_to_move() != piece.color() {
        p.make_null();
    }
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut marks = vec!['.'; SQUARE_SLOTS];
    let mut put = |at: Square, m: char| {
        let old = &mut marks[at.idx()];
        *old = match (*old, m) {
            ('.' | 'x', m) => m,
            ('m', 'c') | ('c', 'm') => '*',
            (o, _) => o,
        };
    };
    for m in list
        .iter()
        .filter(|m| m.kind() != MoveKind::Drop && m.from() == sq)
    {
        if m.to() != sq {
            let target = p.piece_on(m.to());
            let takes = m.kind() == MoveKind::EnPassant
                || (!target.is_none() && target.color() != piece.color());
            put(m.to(), if takes { 'c' } else { 'm' });
        }
        m.kills().for_each(|k| put(k, 'x'));
    }
    marks[sq.idx()] = 'O';
    let b = &v.board;
    let diagram = (0..b.ranks as i32)
        .rev()
        .map(|r| {
            let row: Vec<String> = (0..b.files as i32)
                .filter_map(|f| b.square(f, r))
                .map(|s| marks[s.idx()].to_string())
                .collect();
            row.join(" ")
        })
        .collect();
    let def = &v.pieces[piece.kind() as usize];
    let mut d = describe_atoms(
        format!(
            "piece {} ({}) on {} of {}",
            pos.letter(piece),
            def.name,
            b.square_name(sq),
            v.name
        ),
        def.atoms.clone(),
    );
    d.diagram = diagram;
    d.legend = LEGEND_FROM;
    Ok(d)
}

/// The moves of `atoms` (White's view) from the centre of an empty 9x9 board: a square
/// is a move if the piece may go there with the board empty, a capture if it may take
/// an enemy standing there alone; initial-only moves count as if the centre were a start
/// square.
pub fn diagram(atoms: &[Atom]) -> Vec<String> {
    let Ok(board) = Board::new(DIAGRAM_SIZE, DIAGRAM_SIZE) else {
        return Vec::new();
    };
    let mid = (DIAGRAM_SIZE / 2) as i32;
    let Some(centre) = board.square(mid, mid) else {
        return Vec::new();
    };
    let mut rays = Rays::default();
    let plain = PieceAttacks::compile(&board, &mut rays, atoms, Bitboard::EMPTY);
    let initial = PieceAttacks::compile(&board, &mut rays, atoms, centre.bb());
    let reach = |pa: &PieceAttacks, sq: Square| {
        let quiet = pa.targets(&rays, centre, centre.bb::<u128>()).quiet.has(sq);
        let capture = pa
            .targets(&rays, centre, centre.bb::<u128>() | sq.bb())
            .capture
            .has(sq);
        (quiet, capture)
    };
    let mut rows = Vec::new();
    for rank in (0..board.ranks as i32).rev() {
        let mut marks = Vec::new();
        for file in 0..board.files as i32 {
            let Some(sq) = board.square(file, rank) else {
                continue;
            };
            let mark = if sq == centre {
                'O'
            } else {
                match (reach(&plain, sq), reach(&initial, sq)) {
                    ((true, true), _) => '*',
                    ((true, false), _) => 'm',
                    ((false, true), _) => 'c',
                    (_, (true, _) | (_, true)) => 'i',
                    _ => '.',
                }
            };
            marks.push(mark.to_string());
        }
        rows.push(marks.join(" "));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::atoms::Offset;

    #[test]
    fn text_and_json_show_every_form() {
        let v = crate::registry::get("chess").unwrap();
        let d = describe("N", &v).unwrap();
        let text = d.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], d.source);
        assert_eq!(lines[1], format!("betza     {}", d.betza));
        assert!(lines[2].starts_with("taxonomy  "));
        assert_eq!(lines[3], "");
        assert_eq!(lines[4], format!(" 9 {}", d.diagram[0]));
        assert_eq!(lines[13], "   a b c d e f g h i");
        assert_eq!(lines[15], LEGEND);
        assert!(text.ends_with(&format!("{LEGEND}\n")));
        let j = d.to_json();
        assert_eq!(j["betza"], d.betza.as_str());
        assert_eq!(j["diagram"].as_array().unwrap().len(), 9);
        assert!(j["note"].is_null());
    }

    /// T5: "fire 3-step fell Bent Wazir Rider" = Combined Arms armor, which a table
    /// takes as its `path`; T6: the armor is named back by that name.
    #[test]
    fn the_armor_name_describes_a_path_mover_and_the_armor_is_named_by_it() {
        let chess = crate::registry::get("chess").unwrap();
        let d = describe("fire 3-step fell Bent Wazir Rider", &chess).unwrap();
        assert_eq!(d.betza, "");
        assert_eq!(
            d.taxonomy.as_deref(),
            Some("fire 3-step fell Bent Wazir Rider")
        );
        let note = d.note.unwrap();
        assert!(note.contains("steps = 3, betza = \"W\""), "{note}");
        let ca = crate::registry::get("combined-arms").unwrap();
        let armor = describe("N", &ca).unwrap();
        assert_eq!(
            armor.taxonomy.as_deref(),
            Some("fire 3-step fell Bent Wazir Rider")
        );
        assert!(armor.note.unwrap().contains("tables/combined-arms.toml"));
        // Four steps are no piece of any table here, but still a path the name gives.
        assert_eq!(
            taxonomy::path_name(
                4,
                &[
                    Offset::new(1, 1),
                    Offset::new(-1, 1),
                    Offset::new(1, -1),
                    Offset::new(-1, -1)
                ]
            )
            .as_deref(),
            Some("fire 4-step fell Bent Ferz Rider")
        );
        // A step set no block has is no name.
        assert_eq!(taxonomy::path_name(3, &[Offset::new(1, 0)]), None);
    }

    /// A loaded table's note points at no file of the repository.
    #[test]
    fn a_user_pieces_note_names_its_table_not_a_built_in_file() {
        let v = crate::registry::load_text(
            "name = \"armor-test\"\nextends = \"chess\"\nstart = \"k7/8/8/8/3Z4/8/8/7K w - - 0 1\"\n[[piece]]\nletter = \"Z\"\nname = \"Armor\"\ntaxonomy = \"fire 3-step fell Bent Wazir Rider\"\n",
            "armor.toml",
        )
        .unwrap();
        let d = describe("Z", &v).unwrap();
        let note = d.note.unwrap();
        assert!(note.contains("the table of armor-test"), "{note}");
        assert_eq!(
            d.taxonomy.as_deref(),
            Some("fire 3-step fell Bent Wazir Rider")
        );
    }

    #[test]
    fn knight_diagram() {
        let d = diagram(&betza::parse("N").unwrap());
        assert_eq!(d.len(), 9);
        assert_eq!(d[2], ". . . * . * . . .");
        assert_eq!(d[3], ". . * . . . * . .");
        assert_eq!(d[4], ". . . . O . . . .");
    }

    #[test]
    fn pawn_diagram_marks_modes_and_initial_moves() {
        let d = diagram(&betza::parse("fmWfcFifmnD").unwrap());
        assert_eq!(d[2], ". . . . i . . . .");
        assert_eq!(d[3], ". . . c m c . . .");
        assert_eq!(d[5], ". . . . . . . . .");
    }
}

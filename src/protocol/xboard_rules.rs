//! What XBoard's move check needs written into the `piece` lines beyond a piece's own
//! Betza: en passant and castling, which Tenfold's tables keep as rules (`en_passant`,
//! `[castling]`) rather than as moves of a piece.
//!
//! XBoard 4.9 (moves.c) generates a Betza-described piece's moves from its description
//! alone: a pawn takes en passant only through a capture marked `e` (its own pawn is
//! `fmWfceFifmnD`), and once the royal is described, castling comes either from XBoard's
//! built-in rule (royal on the back rank at the middle file, rooks in the corners, a step
//! of `(files + 2) / 4`) or from an `O<n>` atom in the royal's description. Without these
//! XBoard forfeits a legal en passant capture or castling as an invalid move.

use crate::movement::betza;
use crate::rules::castling::CastleRule;
use crate::variant::Variant;

/// Direction letters of XBoard's Betza reader (`dirType` in moves.c).
const DIRECTIONS: &str = "fbhlrsv";
/// Mode letters of moves that take nothing en passant: hops and multi-leg moves.
const FOREIGN_MODES: &str = "agpty";

/// Piece `t`'s Betza with every capture marked as also taking en passant when the game
/// has en passant and the piece takes by pawn rules (Tenfold's en passant is a
/// pawn-rule piece's capturing leap onto a square an enemy pawn skipped).
///
/// The Betza is the one Tenfold writes for the piece's moves, not the table's text:
/// readers differ on some spellings (XBoard takes `fK` for the one step forward, Tenfold
/// and Fairy-Stockfish for three moves), and the written form avoids them (`fWfF`).
pub fn with_en_passant(v: &Variant, t: usize) -> String {
    let def = &v.pieces[t];
    // Moves Betza cannot write are left out here and named by
    // `xboard::unchecked_mechanisms`: a `?` would be no piece line XBoard can read.
    let own = if def.atoms.is_empty() {
        def.betza.clone()
    } else {
        betza::to_betza_parts(&def.atoms).0
    };
    if v.en_passant && def.pawn {
        mark_captures(&own)
    } else {
        own
    }
}

/// Adds `e` to each group (`[a-z]*[A-Z][0-9]*`) that can capture: after its `c` (and a
/// following `d`), or as `mce` where the group names no mode (XBoard's default is `mc`);
/// a group that only moves, or only takes friends, stays as it is.
/// Groups with hops, legs or an `e` already are kept; so is text this reading does not
/// cover.
fn mark_captures(betza: &str) -> String {
    let mut out = String::with_capacity(betza.len() + 4);
    let mut rest = betza;
    while !rest.is_empty() {
        let pre = rest
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(rest.len());
        let Some(atom) = rest[pre..].chars().next().filter(char::is_ascii_uppercase) else {
            out.push_str(rest);
            break;
        };
        let digits = rest[pre + 1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |d| pre + 1 + d);
        let prefix = &rest[..pre];
        let tail = &rest[pre + 1..digits];
        if prefix.contains('e') || prefix.contains(|c| FOREIGN_MODES.contains(c)) {
            out.push_str(prefix);
        } else if let Some(c) = prefix.find('c') {
            // XBoard reads the modes in the order m c d e.
            let at = if prefix[c + 1..].starts_with('d') {
                c + 2
            } else {
                c + 1
            };
            out.push_str(&prefix[..at]);
            out.push('e');
            out.push_str(&prefix[at..]);
        } else if prefix.contains(['m', 'd']) {
            out.push_str(prefix);
        } else {
            let initial = prefix.len() - prefix.trim_start_matches('i').len();
            let dirs = prefix[initial..]
                .find(|c: char| !DIRECTIONS.contains(c))
                .map_or(prefix.len(), |d| initial + d);
            out.push_str(&prefix[..dirs]);
            out.push_str("mce");
            out.push_str(&prefix[dirs..]);
        }
        out.push(atom);
        out.push_str(tail);
        rest = &rest[digits..];
    }
    out
}

/// How XBoard can be told a game's classic castling.
#[derive(Debug, PartialEq, Eq)]
pub enum CastlingForm {
    /// No castling, or castling XBoard's built-in rule already makes.
    BuiltIn,
    /// An atom for the royal's description (`isjO2`: the royal's first move, sideways,
    /// two squares, towards the first piece, which stands one file in from the edge).
    Atom(String),
    /// A castling no `O` atom describes (uneven steps, a rook away from its king's line,
    /// a rook that does not land beside the king).
    Unsayable,
}

/// The castling form for the game's royal (see [`CastlingForm`]).
pub fn castling_form(v: &Variant) -> CastlingForm {
    let Some(c) = &v.castling else {
        return CastlingForm::BuiltIn;
    };
    let files = v.board.files as i32;
    let (k, q) = (Side::of(v, &c.rules[0]), Side::of(v, &c.rules[1]));
    // XBoard's own castling (GenLegal in moves.c) needs FEN rights, the royal on the
    // first rank on one of the two middle files, the rooks in the corners and a step of
    // (files + 2) / 4 each way.
    let step = (files + 2) >> 2;
    let built_in = c.rights
        && k.rank == 0
        && q.rank == 0
        && (k.king == files >> 1 || k.king == (files - 1) >> 1)
        && k.is(k.king + step, files - 1)
        && q.is(q.king - step, 0);
    if built_in {
        return CastlingForm::BuiltIn;
    }
    // The `O` atom (MovesFromString): the royal slides each way to the first piece it
    // meets and castles with it when it stands `skip` files from the edge on its start
    // square; XBoard's board then puts that piece on the square the royal crossed last.
    let n = k.king_to - k.king;
    let skip = files - 1 - k.rook;
    if n >= 2
        && k.rank == q.rank
        && k.king == q.king
        && k.is(k.king + n, files - 1 - skip)
        && q.is(q.king - n, skip)
    {
        CastlingForm::Atom(format!("is{}O{n}", "j".repeat(skip as usize)))
    } else {
        CastlingForm::Unsayable
    }
}

/// One white castling in files and ranks (0-based).
struct Side {
    rank: i32,
    king: i32,
    king_to: i32,
    rook: i32,
    rook_to: i32,
}

impl Side {
    fn of(v: &Variant, r: &CastleRule) -> Side {
        let b = &v.board;
        Side {
            rank: b.rank_of(r.king_from),
            king: b.file_of(r.king_from),
            king_to: b.file_of(r.king_to),
            rook: b.file_of(r.rook_from),
            rook_to: b.file_of(r.rook_to),
        }
    }

    /// Whether this is the castling XBoard makes when the royal goes to `king_to` with
    /// the piece on file `rook`: that piece lands beside the royal, on the side it came
    /// from.
    fn is(&self, king_to: i32, rook: i32) -> bool {
        let rook_to = if rook > self.king {
            king_to - 1
        } else {
            king_to + 1
        };
        (self.king_to, self.rook, self.rook_to) == (king_to, rook, rook_to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_are_marked_en_passant_as_xboard_writes_its_pawn() {
        assert_eq!(mark_captures("fmWfcFifmnD"), "fmWfceFifmnD");
        assert_eq!(mark_captures("fmWfceFifmnD"), "fmWfceFifmnD");
        assert_eq!(mark_captures("fWfF"), "fmceWfmceF");
        assert_eq!(mark_captures("ifW2"), "ifmceW2");
        assert_eq!(mark_captures("fcdF"), "fcdeF");
        assert_eq!(mark_captures("fdF"), "fdF");
        assert_eq!(mark_captures("mRcpR"), "mRcpR");
        // A grasshop takes what stands behind its hurdle, never en passant.
        assert_eq!(mark_captures("fmWcgR"), "fmWcgR");
        assert_eq!(mark_captures("fmWfcFgB"), "fmWfceFgB");
        assert_eq!(mark_captures("fmW(x)"), "fmW(x)");
    }
}

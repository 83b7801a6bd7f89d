//! FEN in and out for any board size: ranks top to bottom, multi-digit empty runs,
//! pieces in hand in `[...]` after the placement.

use crate::core::fen::read_placement;
use crate::core::geometry::Bitboard;
use crate::core::moves::{Color, Piece, PieceType};
use crate::position::Position;
use crate::variant::Variant;
use std::sync::Arc;

/// Why a FEN was refused; the message names the field and the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad FEN {fen:?}: {msg}")]
pub struct FenError {
    /// The FEN as given.
    pub fen: String,
    /// What is wrong and where.
    pub msg: String,
}

impl Position {
    /// The variant's start position.
    pub fn startpos(v: &Arc<Variant>) -> Position {
        Position::from_fen(v, &v.start_fen).expect("a variant's start FEN is checked when it loads")
    }

    /// Parses a FEN of this variant.
    pub fn from_fen(v: &Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        let fail = |msg: String| FenError {
            fen: fen.to_string(),
            msg,
        };
        let mut pos = Position::empty(Arc::clone(v));
        let bd = &v.board;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (placement, used) = read_placement(&fields, &v.board, |c| v.type_of_letter(c))
            .map_err(|e| fail(format!("{} ({})", e.0, v.name)))?;
        for &(sq, t, c) in &placement.pieces {
            pos.put(Piece::new(t, c), sq);
        }
        if !placement.hand.is_empty() && !v.uses_hands() {
            // A hand the game cannot use would be invisible in its FEN yet counted.
            return Err(fail(format!("{} has no pieces in hand", v.name)));
        }
        for &(c, t, n) in &placement.hand {
            if v.royal_mask >> t & 1 != 0 {
                return Err(fail(format!(
                    "hand: '{}' is royal and cannot be in hand",
                    pos.letter(Piece::new(t, c))
                )));
            }
            if !v.can_hold(t as usize) {
                return Err(fail(format!(
                    "hand: '{}' never goes to a hand in {} (neither at the start nor by capture)",
                    pos.letter(Piece::new(t, c)),
                    v.name
                )));
            }
            pos.add_to_hand(c, t, n as i32);
        }
        let mut fields = fields[used..].iter().copied();
        let next = fields.next();
        pos.side = match next {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(s) => return Err(fail(format!("side to move \"{s}\" is not w or b"))),
        };
        let castling = fields.next().unwrap_or("-");
        if v.zone_castling.is_some() {
            pos.castle_rooks = parse_zone_castling(&pos, castling).map_err(fail)?;
        } else {
            pos.castling = parse_castling(&pos, castling).map_err(fail)?;
        }
        let ep = fields.next().unwrap_or("-");
        // Without en passant the field means nothing and is ignored.
        if ep != "-" && v.en_passant {
            let sq = bd
                .parse_square(ep)
                .ok_or_else(|| fail(format!("en passant square \"{ep}\" is not on the board")))?;
            // The victim stands beyond the skipped squares, seen from the mover: walk
            // from the named square over empty squares to it (a multi-step of more than
            // two skips them all).
            let dy = if pos.side == Color::White { -1 } else { 1 };
            let mut skipped = Bitboard::EMPTY;
            let mut at = Some(sq);
            while let Some(s) = at.filter(|s| pos.board[s.idx()].is_none()) {
                skipped.set(s);
                at = bd.offset(s, 0, dy);
            }
            // The square the victim left: next to the named square, away from it. The
            // field counts only if the victim's own multi-step goes from there to where
            // it stands (a square named a rank off would otherwise invent a skip).
            let origin = bd.offset(sq, 0, -dy);
            if let (Some(victim), Some(origin)) = (at, origin) {
                let p = pos.board[victim.idx()];
                if skipped.any()
                    && !p.is_none()
                    && p.color() != pos.side
                    && v.pawn_mask >> p.kind() & 1 != 0
                    && pos.board[origin.idx()].is_none()
                    && v.long_pushes[p.color().idx()][origin.idx()].has(victim)
                    && v.attacks[p.color().idx()][p.kind() as usize]
                        .targets(&v.rays, origin, pos.occupied() ^ victim.bb())
                        .quiet
                        .has(victim)
                {
                    pos.ep = skipped;
                    pos.ep_victim = victim;
                }
            }
        }
        pos.halfmove = match fields.next() {
            None => 0,
            Some(s) => s
                .parse()
                .map_err(|_| fail(format!("halfmove clock \"{s}\" is not a number")))?,
        };
        pos.fullmove = match fields.next() {
            None => 1,
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| fail(format!("fullmove number \"{s}\" is not a number")))?
                .max(1)
                .into(),
        };
        if let Some(extra) = fields.next() {
            return Err(fail(format!(
                "unexpected text \"{extra}\" after the move number"
            )));
        }
        pos.key = pos.compute_key();
        pos.material = pos.compute_material();
        pos.validate().map_err(fail)?;
        Ok(pos)
    }

    /// Refuses positions no game can reach in ways that would break move generation.
    fn validate(&self) -> Result<(), String> {
        let v = &self.v;
        let bd = &v.board;
        for sq in self.occupied().iter() {
            let p = self.board[sq.idx()];
            let def = &v.pieces[p.kind() as usize];
            let c = p.color().idx();
            if def.confine.is_some_and(|r| !r[c].has(sq)) {
                return Err(format!(
                    "{} on {} stands outside the region it may not leave",
                    self.letter(p),
                    bd.square_name(sq)
                ));
            }
            if let Some(b) = def.becomes.filter(|b| b.region[c].has(sq)) {
                let to = Piece::new(b.to, p.color());
                return Err(format!(
                    "{} on {} would have become {} on arriving there",
                    self.letter(p),
                    bd.square_name(sq),
                    self.letter(to)
                ));
            }
        }
        if self.v.royal_mask != 0 {
            for c in Color::BOTH {
                let n = self.royals(c).count();
                if n != 1 {
                    let name = if c == Color::White { "White" } else { "Black" };
                    return Err(format!(
                        "{name} has {n} royal pieces, the game needs exactly 1"
                    ));
                }
            }
            let (wk, bk) = (self.royals(Color::White), self.royals(Color::Black));
            if wk
                .iter()
                .any(|k| self.facing_royals(k, self.occupied(), bk).any())
            {
                return Err("the kings face each other with nothing between them".into());
            }
            if self.is_attacked_royal(self.side.flip()) {
                return Err("the side not to move is in check".into());
            }
        }
        Ok(())
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        let v = &self.v;
        let bd = &v.board;
        let mut s = String::new();
        for rank in (0..bd.ranks as i32).rev() {
            let mut empty = 0;
            for file in 0..bd.files as i32 {
                let p = self.board[bd.square(file, rank).unwrap().idx()];
                if p.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(self.letter(p));
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        if v.uses_hands() {
            s.push('[');
            for c in Color::BOTH {
                for t in 0..v.pieces.len() {
                    for _ in 0..self.hands[c.idx()][t] {
                        s.push(self.letter(Piece::new(t as PieceType, c)));
                    }
                }
            }
            s.push(']');
        }
        s.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut cs = String::new();
        for (bit, ch) in [(0, 'K'), (1, 'Q'), (2, 'k'), (3, 'q')] {
            if self.castling & (1 << bit) != 0 {
                cs.push(ch);
            }
        }
        if let Some(zc) = &v.zone_castling {
            for c in Color::BOTH {
                for side in &zc.sides {
                    for sq in (self.castle_rooks & side.rook_zone[c.idx()]).iter() {
                        let name = bd.square_name(sq);
                        cs.push_str(&if c == Color::White {
                            name.to_ascii_uppercase()
                        } else {
                            name
                        });
                    }
                }
            }
        }
        s.push_str(if cs.is_empty() { "-" } else { &cs });
        s.push(' ');
        if self.ep.any() {
            // The skipped square nearest the mover's start: the reader walks from it
            // to the pawn, so a longer multi-step's squares all come back.
            let first = if self.side == Color::Black {
                self.ep.lsb()
            } else {
                self.ep.msb()
            };
            s.push_str(&bd.square_name(first));
        } else {
            s.push('-');
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove()));
        s
    }

    /// The FEN letter of a piece.
    pub fn letter(&self, p: Piece) -> char {
        let l = self.v.pieces[p.kind() as usize].letter;
        if p.color() == Color::White {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }
}

/// Reads `KQkq`/`-` against the variant's castling rules, keeping only rights whose
/// king and rook stand on their squares.
fn parse_castling(pos: &Position, field: &str) -> Result<u8, String> {
    // Castling without rights ignores the field.
    if field == "-" || !pos.v.castling_rights() {
        return Ok(0);
    }
    let mut bits = 0u8;
    for ch in field.chars() {
        let bit = match ch {
            'K' => 0,
            'Q' => 1,
            'k' => 2,
            'q' => 3,
            _ => {
                return Err(format!(
                    "castling field \"{field}\": '{ch}' is not one of K Q k q"
                ))
            }
        };
        if bits & (1 << bit) != 0 {
            return Err(format!("castling field \"{field}\": '{ch}' appears twice"));
        }
        bits |= 1 << bit;
    }
    let Some(rules) = pos.v.castling.as_ref().map(|c| &c.rules) else {
        return Ok(0);
    };
    let mut valid = 0u8;
    for (i, r) in rules.iter().enumerate() {
        if bits & (1 << i) == 0 {
            continue;
        }
        let c = if i < 2 { Color::White } else { Color::Black };
        let king = pos.board[r.king_from.idx()];
        let rook = pos.board[r.rook_from.idx()];
        // A right needs the very pieces that castle: the types the start position has
        // on these squares (a knight on the rook's square must not castle), or without
        // them any royal and non-royal piece.
        let ok = !king.is_none()
            && king.color() == c
            && pos.v.royal_mask >> king.kind() & 1 != 0
            && !rook.is_none()
            && rook.color() == c
            && pos.v.royal_mask >> rook.kind() & 1 == 0
            && r.pieces
                .is_none_or(|(k, rk)| king.kind() == k && rook.kind() == rk);
        if ok {
            valid |= 1 << i;
        }
    }
    Ok(valid)
}

/// Reads a zone-castling field: the squares of rooks that still hold a right
/// (`A1J1a10j10`, upper case for White), or `-`. Every listed square must hold a rook of
/// that colour inside one of its zones, one per zone, with its king in the king's zone.
fn parse_zone_castling(
    pos: &Position,
    field: &str,
) -> Result<crate::core::geometry::Bitboard, String> {
    let mut rights = crate::core::geometry::Bitboard::EMPTY;
    if field == "-" {
        return Ok(rights);
    }
    let v = &pos.v;
    let Some(zc) = v.zone_castling.as_ref() else {
        return Ok(rights);
    };
    let bad = |msg: String| format!("castling field \"{field}\": {msg}");
    let chars: Vec<char> = field.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let f = chars[i];
        if !f.is_ascii_alphabetic() {
            return Err(bad(format!(
                "expected rook squares such as A1J1a10j10 or -, found '{f}'"
            )));
        }
        let mut j = i + 1;
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
        }
        let token: String = chars[i..j].iter().collect();
        let c = if f.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let name = if c == Color::White { "White" } else { "Black" };
        let sq = v
            .board
            .parse_square(&token.to_ascii_lowercase())
            .ok_or_else(|| {
                bad(format!(
                    "\"{token}\" is not a square (expected rook squares such as A1J1a10j10, or -)"
                ))
            })?;
        let p = pos.board[sq.idx()];
        if p.is_none() || p.color() != c || p.kind() != zc.rook {
            return Err(bad(format!(
                "no {name} {} on {token}",
                v.pieces[zc.rook as usize].letter
            )));
        }
        let Some(side) = zc.sides.iter().find(|s| s.rook_zone[c.idx()].has(sq)) else {
            return Err(bad(format!("{token} is outside {name}'s castling zones")));
        };
        if (rights & side.rook_zone[c.idx()]).any() {
            return Err(bad(format!("two {name} rights in the zone of {token}")));
        }
        if !pos.royals(c).iter().any(|k| zc.king_zone[c.idx()].has(k)) {
            return Err(bad(format!(
                "{name}'s king has left its zone, so {name} has no rights"
            )));
        }
        rights.set(sq);
        i = j;
    }
    Ok(rights)
}

impl Variant {
    /// True when this game has hands, so that its FEN shows them.
    pub fn uses_hands(&self) -> bool {
        // Drops need a hand even when the game starts with it empty.
        self.start_fen.contains('[') || self.drops.is_some()
    }

    /// True when a piece of type `t` can be in a hand: it is there at the start, or a
    /// capture puts it there. A FEN's hand holds no other.
    pub fn can_hold(&self, t: usize) -> bool {
        let letter = self.pieces[t].letter;
        let start_hand = self.start_fen.split(['[', ']']).nth(1).unwrap_or("");
        !self.pieces[t].royal
            && (crate::rules::drops::DropRule::feeds_hand(self.drops.as_ref(), t as u8)
                || start_hand.contains(letter.to_ascii_uppercase())
                || start_hand.contains(letter.to_ascii_lowercase()))
    }
}

//! Castling, both kinds: the classic rule (table key `castling`: fixed files, FEN rights
//! `KQkq`, or no rights at all with `rights = false`) and zone castling (`zone_castling`:
//! history-based rights that follow the king and rooks inside their zones; the FEN lists
//! the squares of rooks that still hold one). Both are one move kind, `Castle`, written
//! as the king's move; `movegen/castling.rs` generates them.

use super::{confine, Ctx, RuleError};
use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Color, PieceType};
use serde::Deserialize;

/// Table key `castling`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CastlingFile {
    /// File of the king (letter).
    pub king_file: char,
    /// Rank of king and rooks, counted from the own side (1 = first rank).
    #[serde(default = "first_rank")]
    pub rank: i32,
    /// Castling towards the h/j side (`K`/`k`).
    pub kingside: CastleSideFile,
    /// Castling towards the a side (`Q`/`q`).
    pub queenside: CastleSideFile,
    /// True (default): castling needs FEN rights, lost when the king or rook moves.
    /// False: allowed whenever king and rook stand on their start squares; the FEN
    /// castling field is ignored on input and written `-`.
    #[serde(default = "default_true")]
    pub rights: bool,
}

fn default_true() -> bool {
    true
}

fn first_rank() -> i32 {
    1
}

/// One castling's files.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CastleSideFile {
    /// Where the king ends.
    pub king_to: char,
    /// Where the rook starts.
    pub rook_from: char,
    /// Where the rook ends.
    pub rook_to: char,
}

/// Table key `zone_castling`: the king and each rook keep their right while they stay
/// in their zone; castling brings them together on a shared rank.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ZoneCastlingFile {
    /// Letter of the castling partner (the rook).
    pub rook: char,
    /// Region (White's view) the king must not leave to keep its right.
    pub king_zone: String,
    /// The castlings, each with its rook's zone.
    pub side: Vec<ZoneSideFile>,
}

/// One zone castling: where its rook lives and where king and rook land.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ZoneSideFile {
    /// Region (White's view) the rook must not leave to keep its right.
    pub rook_zone: String,
    /// File the king lands on, on the rank where it castles.
    pub king_to: char,
    /// File the rook lands on.
    pub rook_to: char,
}

/// One classic castling, per colour, as squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleRule {
    /// King start.
    pub king_from: Square,
    /// King end.
    pub king_to: Square,
    /// Rook start.
    pub rook_from: Square,
    /// Rook end.
    pub rook_to: Square,
    /// Squares that must be empty (apart from the king and the rook themselves).
    pub must_be_empty: Bitboard,
    /// Squares the king stands on or crosses, which must not be attacked.
    pub king_path: Bitboard,
    /// Types of the king and rook in the start position (what castling without rights
    /// looks for on their squares), if they stand there.
    pub pieces: Option<(PieceType, PieceType)>,
}

/// Compiled classic castling.
#[derive(Clone, Debug)]
pub struct Castling {
    /// The four castlings: index `color * 2 + side` (0 = kingside, 1 = queenside).
    pub rules: [CastleRule; 4],
    /// Per square: the castling rights lost when a move starts or ends there.
    pub mask: Vec<u8>,
    /// Castling needs rights (false: only king and rook on their start squares).
    pub rights: bool,
}

/// Compiled zone castling.
#[derive(Clone, Debug)]
pub struct ZoneCastling {
    /// The partner type.
    pub rook: PieceType,
    /// Per colour: the king's zone.
    pub king_zone: [Bitboard; 2],
    /// The castlings (index = side).
    pub sides: Vec<ZoneSide>,
}

/// One compiled zone castling.
#[derive(Clone, Copy, Debug)]
pub struct ZoneSide {
    /// Per colour: the rook's zone.
    pub rook_zone: [Bitboard; 2],
    /// 0-based file the king lands on.
    pub king_to: i32,
    /// 0-based file the rook lands on.
    pub rook_to: i32,
}

/// Compiles `[castling]`; `start` is the start position's placement (castling without
/// rights remembers which types stand on the king's and rooks' squares).
pub fn compile(
    ctx: &Ctx,
    cf: &CastlingFile,
    start: &[(Square, PieceType, Color)],
) -> Result<Castling, RuleError> {
    let board = ctx.board;
    let kf = ctx.file(cf.king_file, "castling.king_file")?;
    if cf.rank < 1 || cf.rank > board.ranks as i32 {
        return Err(RuleError::new(
            "castling.rank",
            format!("rank {} is off the board", cf.rank),
        ));
    }
    let mut mask = vec![0u8; board.squares()];
    let mut rules = [None; 4];
    for c in Color::BOTH {
        let rank = if c == Color::White {
            cf.rank - 1
        } else {
            board.ranks as i32 - cf.rank
        };
        for (side, s) in [&cf.kingside, &cf.queenside].into_iter().enumerate() {
            let key = if side == 0 {
                "castling.kingside"
            } else {
                "castling.queenside"
            };
            let sq = |file: i32| board.square(file, rank).expect("file and rank checked");
            let (kt, rf, rt) = (
                ctx.file(s.king_to, key)?,
                ctx.file(s.rook_from, key)?,
                ctx.file(s.rook_to, key)?,
            );
            // King and rook are lifted and set down as two pieces: sharing a start or
            // a landing square would put one on top of the other and delete it.
            if rf == kf {
                return Err(RuleError::new(
                    key,
                    "the rook must not start on the king's file",
                ));
            }
            if rt == kt {
                return Err(RuleError::new(
                    key,
                    "the rook must not land where the king lands",
                ));
            }
            let span = |a: i32, b: i32| {
                let mut bb = Bitboard::EMPTY;
                for x in a.min(b)..=a.max(b) {
                    bb.set(sq(x));
                }
                bb
            };
            let king_path = span(kf, kt);
            let must_be_empty =
                (span(kf, kt) | span(rf, rt) | span(kf, rf)) & !sq(kf).bb() & !sq(rf).bb();
            let idx = c.idx() * 2 + side;
            let at = |f: i32| {
                start
                    .iter()
                    .find(|(s, _, col)| *s == sq(f) && *col == c)
                    .map(|(_, t, _)| *t)
            };
            let pieces = at(kf).zip(at(rf));
            if !cf.rights && pieces.is_none() {
                return Err(RuleError::new(
                    key,
                    "castling without rights needs the king and rook in the start position",
                ));
            }
            mask[sq(kf).idx()] |= 0b11 << (c.idx() * 2);
            mask[sq(rf).idx()] |= 1 << idx;
            rules[idx] = Some(CastleRule {
                king_from: sq(kf),
                king_to: sq(kt),
                rook_from: sq(rf),
                rook_to: sq(rt),
                must_be_empty,
                king_path,
                pieces,
            });
        }
    }
    Ok(Castling {
        rules: rules.map(|r| r.expect("every castling compiled")),
        mask,
        rights: cf.rights,
    })
}

/// Compiles `[zone_castling]`.
pub fn compile_zone(ctx: &Ctx, zc: &ZoneCastlingFile) -> Result<ZoneCastling, RuleError> {
    let board = ctx.board;
    let rook = ctx.type_at(zc.rook, "zone_castling.rook")?;
    if ctx.royal_mask == 0 || ctx.royal_mask >> rook & 1 != 0 {
        return Err(RuleError::new(
            "zone_castling.rook",
            "castling needs a royal king and a non-royal rook",
        ));
    }
    let king_zone = confine::region(board, &zc.king_zone, "zone_castling.king_zone")?;
    if zc.side.is_empty() || zc.side.len() > 2 {
        return Err(RuleError::new("zone_castling.side", "one or two castlings"));
    }
    let mut sides = Vec::new();
    let mut seen = Bitboard::EMPTY;
    for (i, sd) in zc.side.iter().enumerate() {
        let key = format!("zone_castling.side[{i}]");
        let rook_zone = confine::region(board, &sd.rook_zone, &format!("{key}.rook_zone"))?;
        if (rook_zone[0] & (seen | king_zone[0])).any() {
            return Err(RuleError::new(
                format!("{key}.rook_zone"),
                "rook zones may not overlap each other or the king's",
            ));
        }
        seen |= rook_zone[0];
        let king_to = ctx.file(sd.king_to, &format!("{key}.king_to"))?;
        let rook_to = ctx.file(sd.rook_to, &format!("{key}.rook_to"))?;
        // The castling king always leaves its zone, so a castling is never a plain step.
        if (0..board.ranks as i32).any(|r| {
            board
                .square(king_to, r)
                .is_some_and(|s| king_zone[0].has(s))
        }) {
            return Err(RuleError::new(
                format!("{key}.king_to"),
                "the king must land outside its zone",
            ));
        }
        if rook_to == king_to {
            return Err(RuleError::new(
                format!("{key}.rook_to"),
                "the rook must not land where the king lands",
            ));
        }
        sides.push(ZoneSide {
            rook_zone,
            king_to,
            rook_to,
        });
    }
    Ok(ZoneCastling {
        rook,
        king_zone,
        sides,
    })
}

impl ZoneCastling {
    /// King from, king to, rook from, rook to of `c`'s castling from `from` to `to`,
    /// given the rook rights `rooks` in force before it; None if no castling matches.
    pub fn squares<W: Word>(
        &self,
        board: &crate::core::geometry::Board,
        from: Square,
        to: Square,
        c: Color,
        rooks: Bitboard<W>,
    ) -> Option<(Square, Square, Square, Square)> {
        let rank = board.rank_of(from);
        let side = self.sides.iter().find(|s| s.king_to == board.file_of(to))?;
        let rf = rooks & (side.rook_zone[c.idx()] & board.rank_mask(rank)).narrow();
        if rf.is_empty() {
            return None;
        }
        Some((from, to, rf.lsb(), board.square(side.rook_to, rank)?))
    }

    /// The rights after a move by `us` from `from` to `to`: a right follows its rook
    /// inside its zone and is lost when the rook leaves it or is captured; a king that
    /// leaves its zone (castling included) takes its side's rights with it. `castle` and
    /// `drop` name those move kinds; `royal` says whether the mover is royal.
    pub fn rights_after<W: Word>(
        &self,
        before: Bitboard<W>,
        us: Color,
        (from, to): (Square, Square),
        (castle, drop, royal): (bool, bool, bool),
    ) -> Bitboard<W> {
        let mut rights = before;
        // A side's rights all lie in its rook zones (the FEN reader makes sure).
        let ours = self
            .sides
            .iter()
            .fold(Bitboard::EMPTY, |b, s| b | s.rook_zone[us.idx()].narrow());
        if castle {
            rights &= !ours;
        } else if !drop {
            rights.clear(to);
            if rights.has(from) {
                rights.clear(from);
                if self
                    .sides
                    .iter()
                    .any(|s| s.rook_zone[us.idx()].has(from) && s.rook_zone[us.idx()].has(to))
                {
                    rights.set(to);
                }
            }
            if royal && !self.king_zone[us.idx()].has(to) {
                rights &= !ours;
            }
        }
        rights
    }
}

//! Which moves may give check, found once per node: the squares from which each type of
//! the side to move would attack an enemy royal, and the pieces whose leaving uncovers
//! one of its riders. The search asks this of most late moves near the leaves; per move
//! it is then a lookup where [`Position::may_give_check`] walks the royal's lines.

use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Move, MoveKind, MAX_PIECE_TYPES};
use crate::position::Position;

/// Most pieces that can each uncover a check at once; a position with more (none in
/// play) takes the walk per move.
const MAX_UNCOVERING: usize = 8;

/// What makes a move of the side to move check, in one position.
pub struct CheckSquares<W: Word> {
    /// False where the variant's attacks are not all leaps and plain rides (hops,
    /// bent rides, lame leaps, facing, initial-only rides), or an enemy royal is
    /// attacked already: every question then goes to [`Position::may_give_check`].
    exact: bool,
    /// The types answered here (not royal, not changing type on arrival): the others
    /// go to [`Position::may_give_check`].
    plain: u32,
    /// Per type: the squares from which one of its pieces would attack an enemy royal.
    direct: [Bitboard<W>; MAX_PIECE_TYPES],
    /// The pieces that stand alone between an enemy royal and a rider of their own side.
    uncovering: Bitboard<W>,
    /// Per such piece: its square, and the line it closes (from the royal to the rider).
    lines: [(Square, Bitboard<W>); MAX_UNCOVERING],
    n: usize,
}

impl<W: Word> Position<W> {
    /// The check squares of this position for the side to move.
    pub fn check_squares(&self) -> CheckSquares<W> {
        let mut cs = CheckSquares {
            exact: false,
            plain: 0,
            direct: [Bitboard::EMPTY; MAX_PIECE_TYPES],
            uncovering: Bitboard::EMPTY,
            lines: [(Square(0), Bitboard::EMPTY); MAX_UNCOVERING],
            n: 0,
        };
        cs.exact = self.fill_check_squares(&mut cs);
        cs
    }

    /// Fills `cs`; false where it cannot be exact (see `CheckSquares::exact`).
    fn fill_check_squares(&self, cs: &mut CheckSquares<W>) -> bool {
        let v = &*self.v;
        let us = self.side;
        let map = &v.attackers[us.idx()];
        if v.lines.is_none()
            || v.occupy.is_some()
            || v.stacking.is_some()
            || map.along.is_empty()
            || !map.hops.is_empty()
            || !map.bents.is_empty()
            || !map.lames.is_empty()
            || !map.facing.is_empty()
        {
            return false;
        }
        for (t, def) in v.pieces.iter().enumerate() {
            if v.royal_mask >> t & 1 == 0 && def.becomes.is_none() {
                cs.plain |= 1 << t;
            }
        }
        let occ = self.occupied();
        let ours = self.by_color[us.idx()];
        let kind = |s: Square| self.board[s.idx()].kind() as u32;
        for k in self.royals(us.flip()).iter() {
            let reach = map.reach[k.idx()];
            for t in 0..v.pieces.len() {
                if reach >> t & 1 == 0 {
                    continue;
                }
                let leaps = v.attacks[us.idx()][t].leap_capture_rev[k.idx()].narrow::<W>();
                // Checking already: a move away along its own line would be missed below.
                if (leaps & self.pieces(t as u8, us)).any() {
                    return false;
                }
                cs.direct[t] |= leaps;
            }
            for g in &map.rays {
                let types = g.types & reach;
                if types == 0 {
                    continue;
                }
                if g.from != v.board.all {
                    return false;
                }
                let ray = v.rays.get(g.ray);
                let seg = ray.attacks(k, occ);
                let mut each = types;
                while each != 0 {
                    cs.direct[each.trailing_zeros() as usize] |= seg;
                    each &= each - 1;
                }
                let Some(b1) = ray.first_blocker(k, occ) else {
                    continue;
                };
                if !ours.has(b1) {
                    continue;
                }
                if types >> kind(b1) & 1 != 0 {
                    return false;
                }
                let open = occ ^ b1.bb();
                match ray.first_blocker(k, open) {
                    Some(b2) if ours.has(b2) && types >> kind(b2) & 1 != 0 => {
                        if cs.n == MAX_UNCOVERING {
                            return false;
                        }
                        cs.lines[cs.n] = (b1, ray.attacks(k, open));
                        cs.n += 1;
                        cs.uncovering.set(b1);
                    }
                    _ => {}
                }
            }
        }
        true
    }
}

impl<W: Word> CheckSquares<W> {
    /// Whether questions are answered by lookup (else by [`Position::may_give_check`]).
    pub fn by_lookup(&self) -> bool {
        self.exact
    }

    /// [`Position::may_give_check`] for the move `m` of `pos` (the position these
    /// squares were found in): the same answer, by lookup where it can be.
    #[inline]
    pub fn may_give_check(&self, pos: &Position<W>, m: Move) -> bool {
        if !self.exact {
            return pos.may_give_check(m);
        }
        if !matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
            || m.has_kills()
            || m.promotion().is_some()
        {
            return true;
        }
        let (from, to) = (m.from(), m.to());
        let t = pos.piece_on(from).kind() as usize;
        if self.plain >> t & 1 == 0 {
            return pos.may_give_check(m);
        }
        if self.direct[t].has(to) {
            return true;
        }
        // Leaving a rider's line uncovers it, unless the piece lands on the same line
        // between the royal and the rider.
        self.uncovering.has(from)
            && self.lines[..self.n]
                .iter()
                .any(|&(s, line)| s == from && !line.has(to))
    }
}

//! Legal move generation by mechanism.
//!
//! Two ways to legality, chosen per variant from its pieces (not its name):
//! - when every capture is a leap or a straight ride, checks and pins are read off the
//!   rays from the king, so ordinary moves need no test at all;
//! - otherwise (hoppers, whose screens make any move a possible discovered attack; bent
//!   riders; lame captures) each pseudo-legal move is tested by asking whether the king
//!   would be attacked on the board it leaves behind — still bitboards only, no make.

pub mod castling;
pub mod check;
pub mod check_squares;
pub mod drops;
pub mod en_passant;
pub mod occupy;
pub mod pseudo;
pub mod rays;
pub mod single;
pub mod stacking;
pub mod switch;
pub mod verify;

use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Move, MoveKind, MoveList, PieceType};
use crate::position::Position;
use crate::variant::Legality;

/// Pieces pinned to the king and the ray each is pinned along. The line a pinned piece
/// may still move along is recomputed when asked (rarely: most nodes have no pin), so
/// that every node's pin record stays small enough to build and return cheaply.
struct Pins<W: Word> {
    bb: Bitboard<W>,
    sq: [Square; 32],
    ray: [crate::movement::attacks::RayId; 32],
    n: usize,
    /// The royal square the rays start from.
    ksq: Square,
    /// The occupancy the pins were read on.
    occ: Bitboard<W>,
}

impl<W: Word> Pins<W> {
    /// No pins.
    fn none() -> Pins<W> {
        Pins {
            bb: Bitboard::EMPTY,
            sq: [Square(0); 32],
            ray: [0; 32],
            n: 0,
            ksq: Square(0),
            occ: Bitboard::EMPTY,
        }
    }

    /// The squares the pinned piece on `s` may move to: its pin rays from the royal
    /// square out to the pinner, the pinner included.
    #[inline(always)]
    fn line(&self, rays: &crate::movement::attacks::Rays, s: Square) -> Bitboard<W> {
        let mut l = Bitboard::FULL;
        for i in 0..self.n {
            if self.sq[i] == s {
                l &= rays.get(self.ray[i]).attacks(self.ksq, self.occ ^ s.bb());
            }
        }
        l
    }
}

impl<W: Word> Position<W> {
    /// Every legal move of the side to move, by the variant's legality strategy.
    pub fn legal_moves(&self, list: &mut MoveList) {
        let v = &*self.v;
        let royals = self.royals(self.side);
        match (v.legality, v.occupy.as_deref()) {
            (Legality::OccupyCapture, Some(x)) => self.legal_moves_ext(x, list),
            (Legality::Rays, _) if royals.count() == 1 => {
                list.clear();
                self.gen_ray_legal(list, royals.lsb(), false);
            }
            _ => {
                list.clear();
                self.gen_verified(list, royals);
            }
        }
    }

    /// Out of check, the legal moves that can capture or promote, in the order
    /// [`Position::legal_moves`] lists them, possibly with others (quiescence filters
    /// them again); None when there is no legal move at all. Where the legality strategy
    /// has no cheaper way, every legal move.
    pub fn tactical_candidates(&self, list: &mut MoveList) -> bool {
        let royals = self.royals(self.side);
        match (self.v.legality, self.v.occupy.as_deref()) {
            (Legality::Rays, _) if royals.count() == 1 => {
                list.clear();
                self.gen_ray_legal(list, royals.lsb(), true);
                !list.is_empty() || self.any_ray_legal(royals.lsb())
            }
            _ => {
                self.legal_moves(list);
                !list.is_empty()
            }
        }
    }

    /// Number of legal moves (perft's leaf count).
    pub fn count_legal(&self) -> usize {
        let royals = self.royals(self.side);
        match (self.v.legality, &self.v.occupy) {
            (Legality::OccupyCapture, Some(_)) => {}
            (Legality::Rays, _) if royals.count() == 1 => {
                return self.count_ray_legal(royals.lsb())
            }
            _ => return self.count_verified(royals),
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// True when, after `m`, no royal piece of the mover is attacked (tested on the
    /// bitboards the move would leave, without making it).
    pub(crate) fn leaves_royals_safe(&self, m: Move) -> bool {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let mut occ = self.occupied();
        let mut theirs = self.by_color[them.idx()];
        let mut royals = self.royals(us);
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Drop => occ.set(to),
            MoveKind::Switch => {
                if royals.has(from) {
                    royals.clear(from);
                    royals.set(to);
                }
            }
            // The remainder stays on `from`; only the landing square fills.
            MoveKind::Split => occ.set(to),
            MoveKind::Castle => {
                let Some((kf, kt, rf, rt)) = self.castle_squares(m, us, self.castle_rooks) else {
                    return false;
                };
                occ.clear(kf);
                occ.clear(rf);
                occ.set(kt);
                occ.set(rt);
                royals.clear(kf);
                royals.set(kt);
            }
            MoveKind::EnPassant => {
                occ.clear(from);
                occ.set(to);
                occ.clear(self.ep_victim);
                theirs.clear(self.ep_victim);
            }
            _ => {
                occ.clear(from);
                occ.set(to);
                theirs.clear(to);
                if royals.has(from) {
                    royals.clear(from);
                    if m.promotion().is_none_or(|p| v.royal_mask >> p & 1 != 0) {
                        royals.set(to);
                    }
                }
            }
        }
        royals
            .iter()
            .all(|k| !self.is_attacked(k, occ, theirs, them))
    }
}

/// The squares where a piece of type `t` of colour `us` promotes (none without a rule).
#[inline]
fn promotion_zone<W: Word>(v: &crate::variant::Variant, t: usize, us: usize) -> Bitboard<W> {
    v.pieces[t]
        .promotion
        .as_ref()
        .map_or(Bitboard::EMPTY, |pr| pr.zone[us].narrow())
}

/// Pushes `base` once per type in the mask `types`, that type in its promotion field.
#[inline]
fn push_each(list: &mut MoveList, base: Move, mut types: u32) {
    while types != 0 {
        list.push(base.with_promotion(types.trailing_zeros() as PieceType));
        types &= types - 1;
    }
}

#[cfg(test)]
mod tests {
    use crate::core::moves::MoveList;
    use crate::position::Position;
    use crate::registry;
    use crate::variant::Variant;
    use std::sync::Arc;

    /// Leapers and riders only (so the ray fast path is on), with confinement, an
    /// automatic type change and facing kings.
    const RIDERS: &str = r#"
name = "riders-and-river"
files = 10
ranks = 10
start = "r1n1qgk1nr/3b6/pppp2pppp/10/10/10/10/PPPP2PPPP/3B6/R1N1QGK1NR w - - 0 1"
facing = ["file", "diagonal"]
[[piece]]
letter = "K"
betza = "K"
royal = true
confine = "a1:j5"
[[piece]]
letter = "Q"
betza = "Q"
confine = "a1:j5"
[[piece]]
letter = "G"
betza = "NC"
confine = "a1:j5"
[[piece]]
letter = "R"
betza = "R"
[[piece]]
letter = "B"
betza = "B"
[[piece]]
letter = "N"
betza = "N"
[[piece]]
letter = "P"
betza = "fmWfcF"
pawn = true
becomes = { to = "W", region = "a6:j10" }
[[piece]]
letter = "W"
betza = "W"
"#;

    /// Grand Chess style: optional pool promotion on ranks 8-9, mandatory on 10.
    const POOL: &str = r#"
name = "pool"
files = 10
ranks = 10
start = "r3k4r/10/10/10/10/10/10/10/10/R3K4R w - - 0 1"
[[piece]]
letter = "K"
betza = "K"
royal = true
[[piece]]
letter = "R"
betza = "R"
[[piece]]
letter = "P"
betza = "fmWfcF"
pawn = true
promotion = { ranks = [8, 9, 10], mandatory_ranks = [10], to = "R", pool = true }
"#;

    fn moves_of(p: &Position, from: &str) -> Vec<String> {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut v: Vec<String> = list
            .iter()
            .map(|&m| p.move_to_string(m))
            .filter(|m| m.starts_with(from))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn pool_promotion_optional_then_mandatory_and_blocked_when_empty() {
        let v = Variant::from_toml(POOL, "test").unwrap();
        // Both Rooks on the board: nothing to promote to, so e9-e10 is impossible.
        let full = Position::from_fen(&v, "4k5/10/4P5/10/10/10/10/10/10/R3K4R w - - 0 1").unwrap();
        assert_eq!(moves_of(&full, "e8"), ["e8e9"]);
        let full9 = Position::from_fen(&v, "2k7/4P5/10/10/10/10/10/10/10/R3K4R w - - 0 1").unwrap();
        assert!(moves_of(&full9, "e9").is_empty());
        // A Rook lost: optional on rank 9, mandatory on rank 10.
        let lost = Position::from_fen(&v, "4k5/10/4P5/10/10/10/10/10/10/4K4R w - - 0 1").unwrap();
        assert_eq!(moves_of(&lost, "e8"), ["e8e9", "e8e9r"]);
        let lost9 = Position::from_fen(&v, "2k7/4P5/10/10/10/10/10/10/10/4K4R w - - 0 1").unwrap();
        assert_eq!(moves_of(&lost9, "e9"), ["e9e10r"]);
    }

    fn sorted(list: &MoveList) -> Vec<u64> {
        let mut v: Vec<u64> = list.iter().map(|m| m.0).collect();
        v.sort();
        v
    }

    /// Plays `games` random games of at most `plies` plies from the start of `v`, handing
    /// `check` every position with its legal moves; an xorshift of `seed` picks the moves.
    fn random_games(
        v: &Arc<Variant>,
        mut seed: u64,
        games: usize,
        plies: usize,
        mut check: impl FnMut(&Position, &MoveList),
    ) {
        for _ in 0..games {
            let mut p = Position::startpos(v);
            for _ in 0..plies {
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                check(&p, &list);
                if list.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                p.make_move(list.as_slice()[(seed % list.len() as u64) as usize]);
            }
        }
    }

    /// The legal moves by the slow, generic way (pseudo-legal moves, each tested on the
    /// board it leaves), sorted.
    fn generic_legal(p: &Position) -> Vec<u64> {
        let mut slow = MoveList::new();
        p.gen_pseudo(&mut slow, p.in_check());
        let mut kept: Vec<u64> = slow
            .iter()
            .filter(|&&m| p.leaves_royals_safe(m))
            .map(|m| m.0)
            .collect();
        kept.sort_unstable();
        kept
    }

    #[test]
    fn ray_fast_path_agrees_with_the_full_test_under_confinement_and_facing() {
        let v = Variant::from_toml(RIDERS, "test").unwrap();
        assert_eq!(v.legality, crate::variant::Legality::Rays);
        let mut positions = 0;
        random_games(&v, 0x1234_5678_9ABC_DEF1, 40, 80, |p, fast| {
            assert_eq!(sorted(fast), generic_legal(p), "{}", p.fen());
            positions += 1;
        });
        assert!(positions > 1500);
    }

    /// The line strategy (hoppers: a move tested only where it touches a live segment
    /// of a line through the royal) keeps exactly the moves the full test keeps, along
    /// random games of the games that take it.
    #[test]
    fn line_strategy_agrees_with_the_full_test() {
        let mut checked = 0;
        for name in ["shako", "wildeurasian"] {
            let v = registry::get(name).unwrap();
            assert!(v.lines.is_some(), "{name} takes the line strategy");
            random_games(&v, 0x11E5_5AFE, 40, 120, |p, fast| {
                assert_eq!(sorted(fast), generic_legal(p), "{}", p.fen());
                checked += fast.len();
            });
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// Perft's leaf count (popcounts where no promotion is possible) equals the length of
    /// the listed moves, along random games of every game on the ray fast path and of a
    /// table with confinement, automatic type changes and facing royals.
    #[test]
    fn counted_leaves_equal_listed_moves() {
        let mut games: Vec<_> = [
            "chess",
            "capablanca",
            "grand",
            "embassy",
            "janus",
            "augsburg",
            "shako",
            "wildeurasian",
            "archmage",
        ]
        .iter()
        .map(|n| registry::get(n).unwrap())
        .collect();
        games.push(Variant::from_toml(RIDERS, "test").unwrap());
        let mut checked = 0;
        for v in &games {
            random_games(v, 0x0C0A_77ED, 12, 120, |p, list| {
                assert_eq!(p.count_legal(), list.len(), "{}", p.fen());
                checked += 1;
            });
        }
        assert!(checked > 5000, "{checked}");
    }

    /// Quiescence's candidates out of check hold every legal capture and promotion in
    /// the full list's order, nothing illegal, and say "no move" exactly when there is
    /// none (stalemate), along random games of the ray-path games.
    #[test]
    fn tactical_candidates_keep_every_capture_and_promotion_in_order() {
        let mut checked = 0;
        for name in ["chess", "capablanca", "grand", "augsburg"] {
            let v = registry::get(name).unwrap();
            random_games(&v, 0x7AC7_1CA1, 10, 150, |p, all| {
                if p.in_check() {
                    return;
                }
                let mut cands = MoveList::new();
                let any = p.tactical_candidates(&mut cands);
                assert_eq!(any, !all.is_empty(), "{}", p.fen());
                let wanted = |m: &crate::core::moves::Move| {
                    let t = p.piece_on(m.to());
                    (!t.is_none() && t.color() != p.side_to_move())
                        || m.promotion().is_some()
                        || m.kind() == crate::core::moves::MoveKind::EnPassant
                };
                let full: Vec<_> = all.iter().filter(|m| wanted(m)).collect();
                let got: Vec<_> = cands.iter().filter(|m| wanted(m)).collect();
                assert_eq!(full, got, "{}", p.fen());
                assert!(cands.iter().all(|m| all.iter().any(|a| a == m)));
                checked += 1;
            });
        }
        assert!(checked > 3000, "{checked}");
    }

    /// A stalemate with no capture on the board: the candidates are empty and say so.
    #[test]
    fn tactical_candidates_report_stalemate() {
        let v = registry::get("chess").unwrap();
        let p = Position::from_fen(&v, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        let mut list = MoveList::new();
        assert!(!p.tactical_candidates(&mut list));
        let q = Position::from_fen(&v, "7k/8/6K1/8/8/8/8/5Q2 b - - 0 1").unwrap();
        assert!(q.tactical_candidates(&mut list), "Kg8 is legal");
    }

    /// The ray fast path and the generic path (pseudo-legal moves, each tested on the board
    /// it leaves) agree where combines vacate a square and splits fill one.
    #[test]
    fn ray_and_generic_legality_agree_on_stack_moves() {
        let v = registry::get("augsburg").unwrap();
        let mut checked = 0;
        random_games(&v, 0x0A65_B0C6, 30, 90, |p, fast| {
            assert_eq!(sorted(fast), generic_legal(p), "{}", p.fen());
            checked += fast.len();
        });
        assert!(checked > 50_000, "{checked}");
    }
}

//! Move classification, static exchange evaluation and move ordering scores.

use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Move, MoveKind, Piece, PieceType};
use crate::eval::Eval;
use crate::position::Position;

/// Value a royal piece counts for in exchanges: losing it ends the exchange.
const ROYAL_SEE_VALUE: i32 = 20_000;

/// Ordering score of the table move.
pub const TT_SCORE: i32 = 1 << 30;
/// Base of winning and equal captures and promotions.
pub const GOOD_CAPTURE: i32 = 1 << 28;
/// Score of the first killer (the second gets one less).
pub const KILLER: i32 = 1 << 27;
/// Base of captures that lose material by exchange (after the quiet moves).
pub const BAD_CAPTURE: i32 = -(1 << 28);

/// The type a move captures, if any.
#[inline]
pub fn captured<W: Word>(pos: &Position<W>, m: Move) -> Option<PieceType> {
    match m.kind() {
        MoveKind::Castle | MoveKind::Drop => None,
        // The victim of en passant is a pawn like the capturer.
        MoveKind::EnPassant => Some(pos.piece_on(m.from()).kind()),
        _ => {
            let p = pos.piece_on(m.to());
            if !p.is_none() && p.color() != pos.side_to_move() {
                Some(p.kind())
            } else {
                None
            }
        }
    }
}

/// The material a move removes from squares it kills without ending on them (a rifle
/// shot, an armor path killing in passing): these are captures too.
#[inline]
pub fn kill_value<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> i32 {
    if !m.has_kills() {
        return 0;
    }
    let us = pos.side_to_move();
    m.kills()
        .map(|sq| {
            let p = pos.piece_on(sq);
            if !p.is_none() && p.color() != us {
                e.value(p.kind())
            } else {
                0
            }
        })
        .sum()
}

/// The type of the piece that moves (the dropped type for a drop).
#[inline]
pub fn mover<W: Word>(pos: &Position<W>, m: Move) -> PieceType {
    if m.kind() == MoveKind::Drop {
        m.drop_type()
    } else {
        pos.piece_on(m.from()).kind()
    }
}

/// The coloured piece that moves, for history tables.
#[inline]
pub fn moving_piece<W: Word>(pos: &Position<W>, m: Move) -> Piece {
    Piece::new(mover(pos, m), pos.side_to_move())
}

fn see_value<W: Word>(e: &Eval, pos: &Position<W>, t: PieceType) -> i32 {
    if pos.variant().royal_mask >> t & 1 != 0 {
        ROYAL_SEE_VALUE
    } else {
        e.value(t)
    }
}

/// Static exchange evaluation: the material the side to move wins by playing the
/// capture `m` and letting both sides recapture on its square with their least
/// valuable attacker (x-rays and screens follow from the changing occupancy).
/// A plain quiet move is an exchange that starts from nothing: moving onto a square
/// the opponent wins scores what the piece is worth there, negated. Other quiet
/// moves (drops, castling, switches, stack moves) score 0.
pub fn see<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> i32 {
    match start(e, pos, m) {
        Err(v) => v,
        Ok(x) => x.value(e, pos),
    }
}

/// Whether [`see`] of `m` is at least `threshold`, the exchange played out only where
/// its bounds do not already decide ([`Opening::at_least`]).
pub fn see_ge<W: Word>(e: &Eval, pos: &Position<W>, m: Move, threshold: i32) -> bool {
    match start(e, pos, m) {
        Err(v) => v >= threshold,
        Ok(x) => x.at_least(e, pos, threshold),
    }
}

/// An exchange a move opens on its destination.
struct Opening<W: Word> {
    /// The square fought over.
    to: crate::Square,
    /// The side to capture there next.
    side: crate::core::moves::Color,
    /// The value of what the move captures there.
    first: i32,
    /// The value of what it kills elsewhere (won whatever follows).
    killed: i32,
    /// The occupancy once the move's piece and its kills have left.
    occ: Bitboard<W>,
    /// The value of the piece the move leaves on its destination.
    on_square: i32,
}

impl<W: Word> Opening<W> {
    /// [`see`]'s value: each side captures with its least valuable attacker and is free
    /// to stop, found from the last capture back. What was killed in passing stays won,
    /// whatever happens on the square.
    fn value(&self, e: &Eval, pos: &Position<W>) -> i32 {
        let (mut occ, mut on_square, mut side) = (self.occ, self.on_square, self.side);
        let mut gain = [0i32; 40];
        gain[0] = self.first;
        let mut d = 0;
        while d + 1 < gain.len() {
            let Some((sq, best_v)) = least_valuable(e, pos, self.to, occ, side) else {
                break;
            };
            d += 1;
            gain[d] = on_square - gain[d - 1];
            occ.clear(sq);
            on_square = best_v;
            side = side.flip();
        }
        while d > 0 {
            gain[d - 1] = -(gain[d].max(-gain[d - 1]));
            d -= 1;
        }
        gain[0] + self.killed
    }

    /// Whether [`Opening::value`] is at least `threshold`, the exchange played only as
    /// far as the answer is open (Stockfish's `see_ge`): `swap` is what the side that
    /// just captured stands to lose when taken back, against what it may lose and
    /// still meet the threshold, and each capture swaps the roles.
    fn at_least(&self, e: &Eval, pos: &Position<W>, threshold: i32) -> bool {
        let mut swap = self.first + self.killed - threshold;
        if swap < 0 {
            return false;
        }
        swap = self.on_square - swap;
        if swap <= 0 {
            return true;
        }
        let (mut occ, mut side) = (self.occ, self.side);
        // Whether the mover meets the threshold should the exchange stop here.
        let mut res = true;
        while let Some((sq, v)) = least_valuable(e, pos, self.to, occ, side) {
            res = !res;
            // A royal that captures is lost to any attacker left: its exchange value
            // makes the swap after it fail, and the side that would take it wins.
            swap = v - swap;
            if swap < res as i32 {
                break;
            }
            occ.clear(sq);
            side = side.flip();
        }
        res
    }
}

/// The exchange `m` opens, or `Err` with [`see`]'s value when it opens none.
#[inline]
fn start<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> Result<Opening<W>, i32> {
    let killed = kill_value(e, pos, m);
    let first = match captured(pos, m) {
        Some(victim) if m.kind() == MoveKind::EnPassant => return Err(e.value(victim)),
        Some(victim) => see_value(e, pos, victim),
        // A shot that does not move has no exchange on its own square to start.
        None if m.kind() == MoveKind::Normal && m.from() != m.to() => 0,
        None => return Err(killed),
    };
    let mut occ = pos.occupied();
    occ.clear(m.from());
    for k in m.kills() {
        occ.clear(k);
    }
    let on_square = match m.promotion() {
        Some(p) => see_value(e, pos, p),
        None => see_value(e, pos, mover(pos, m)),
    };
    Ok(Opening {
        to: m.to(),
        side: pos.side_to_move().flip(),
        first,
        killed,
        occ,
        on_square,
    })
}

/// Whether the plain move `m`, just made, keeps its piece by exchange: [`see`] of `m`
/// in the position before it is not negative. The same exchange is played out from the
/// position after it, so the search need not unmake the move to ask. (Squares the move
/// killed are empty after it, as `see` clears them; what it killed is not counted.)
pub fn keeps_piece_after<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> bool {
    // Only an ordinary move that lands somewhere has an exchange (see `see`).
    if m.kind() != MoveKind::Normal || m.from() == m.to() {
        return true;
    }
    let to = m.to();
    let mut occ = pos.occupied();
    occ.clear(to);
    let x = Opening {
        to,
        side: pos.side_to_move(),
        first: 0,
        killed: 0,
        occ,
        on_square: see_value(e, pos, pos.piece_on(to).kind()),
    };
    x.at_least(e, pos, 0)
}

/// The least valuable piece of `side` that attacks `to` on occupancy `occ` (the first
/// of equals), with its exchange value; `None` when none does.
#[inline(always)]
fn least_valuable<W: Word>(
    e: &Eval,
    pos: &Position<W>,
    to: crate::Square,
    occ: Bitboard<W>,
    side: crate::core::moves::Color,
) -> Option<(crate::Square, i32)> {
    let att = pos.attackers_to(to, occ, pos.color_bb(side) & occ, side);
    att.iter()
        .map(|sq| (sq, see_value(e, pos, pos.piece_on(sq).kind())))
        .reduce(|best, x| if x.1 < best.1 { x } else { best })
}

/// The material a promotion adds: a piece arriving in its promotion zone and becoming a
/// stronger one (in a switch, either piece). Moves that carry a type for other reasons —
/// combining, splitting, transforming — are not promotions and not tactical.
#[inline(always)]
pub fn promotion_gain<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> i32 {
    match m.kind() {
        // Asked of every move the search orders: most carry no type, so they are done
        // before any table is read, and with no call made.
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant
            if m.promotion().is_none() =>
        {
            0
        }
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant | MoveKind::Switch => {
            promotion_gain_of(e, pos, m)
        }
        _ => 0,
    }
}

/// [`promotion_gain`] of a move that carries a type.
fn promotion_gain_of<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> i32 {
    let v = pos.variant();
    let us = pos.side_to_move().idx();
    // What a piece from `from` becomes on arrival at `at`, if that is a promotion.
    let gain = |from: crate::Square, at: crate::Square, promo: Option<PieceType>| {
        let t = pos.piece_on(from).kind();
        match (promo, &v.pieces[t as usize].promotion) {
            (Some(p), Some(rule)) if rule.zone[us].has(at) => (e.value(p) - e.value(t)).max(0),
            _ => 0,
        }
    };
    let mut total = gain(m.from(), m.to(), m.promotion());
    if m.kind() == MoveKind::Switch {
        total += gain(m.to(), m.from(), m.partner_promotion());
    }
    total
}

/// True for an ordinary move onto an empty square with nothing else to it: no capture,
/// no promotion, no kill (decided without the tables the full tests read).
#[inline(always)]
fn quiet_plain<W: Word>(pos: &Position<W>, m: Move) -> bool {
    m.is_plain() && pos.piece_on(m.to()).is_none()
}

/// True for captures and promotions that gain material (what quiescence searches).
#[inline]
pub fn is_tactical<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> bool {
    if quiet_plain(pos, m) {
        return false;
    }
    captured(pos, m).is_some() || kill_value(e, pos, m) > 0 || promotion_gain(e, pos, m) > 0
}

/// Ordering score of a capture or promotion: most valuable victim first, then least
/// valuable attacker; exchanges that lose material go after the quiet moves. The search
/// scores by [`tactical_order`] and leaves the exchange to its picker; this is the full
/// score that picker's order is checked against.
#[inline]
pub fn tactical_score<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> Option<i32> {
    let (s, unsure) = tactical_order(e, pos, m)?;
    Some(if unsure && !see_ge(e, pos, m, 0) {
        losing(s)
    } else {
        s
    })
}

/// The score of a capture scored `good` as a good one once its exchange shows it loses.
#[inline(always)]
pub fn losing(good: i32) -> i32 {
    good - GOOD_CAPTURE + BAD_CAPTURE
}

/// [`tactical_score`] but for the exchange: a capture by a piece worth more than its
/// victim comes as a good capture marked unsure (true), whose exchange decides whether
/// it is one or goes after the quiet moves (the picker plays it out when it gets there).
#[inline(always)]
pub fn tactical_order<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> Option<(i32, bool)> {
    // Most moves a node scores are quiet: told here, in the caller, with no call made.
    if quiet_plain(pos, m) {
        return None;
    }
    capture_order(e, pos, m)
}

/// [`tactical_order`] of a move that is not plainly quiet.
fn capture_order<W: Word>(e: &Eval, pos: &Position<W>, m: Move) -> Option<(i32, bool)> {
    let victim = captured(pos, m);
    let pv = promotion_gain(e, pos, m);
    let killed = kill_value(e, pos, m);
    if victim.is_none() && pv == 0 && killed == 0 {
        return None;
    }
    let vv = victim.map_or(0, |t| e.value(t)) + killed;
    let av = see_value(e, pos, mover(pos, m));
    let mvv = (vv + pv) * 16 - av.min(4000) / 8;
    Some((GOOD_CAPTURE + mvv, victim.is_some() && av > vv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    fn pos(fen: &str) -> Position {
        Position::from_fen(&registry::get("chess").unwrap(), fen).unwrap()
    }

    #[test]
    fn see_counts_a_defended_pawn_as_a_lost_knight() {
        // Nxd5 exd5: the knight is lost for a pawn.
        let p = pos("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1");
        let e = Eval::new(p.variant());
        let m = p.parse_move("e3d5").unwrap();
        assert_eq!(see(&e, &p, m), 100 - 320);
    }

    #[test]
    fn see_follows_x_rays_behind_the_first_attacker() {
        // Rxd5 Rxd5 Rxd5: the doubled rooks win the pawn.
        let p = pos("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1");
        let e = Eval::new(p.variant());
        let m = p.parse_move("d2d5").unwrap();
        assert_eq!(see(&e, &p, m), 100);
    }

    #[test]
    fn see_of_a_quiet_move_onto_a_pawn_guarded_square_is_the_piece_lost() {
        // Nc4 walks into ...d5xc4; Nf5 lands where nothing attacks it.
        let p = pos("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1");
        let e = Eval::new(p.variant());
        assert_eq!(see(&e, &p, p.parse_move("e3c4").unwrap()), -320);
        assert_eq!(see(&e, &p, p.parse_move("e3f5").unwrap()), 0);
    }

    /// Calls `f` on every legal move along a pseudo-random game of `plies` plies of every
    /// built-in variant; returns how many calls `f` counted (returned true for).
    fn each_move_of_seeded_games(
        plies: usize,
        mut f: impl FnMut(&str, &Eval, &Position, Move) -> bool,
    ) -> usize {
        let mut counted = 0;
        crate::testing::seeded_games(plies, 0x2545_F491_4F6C_DD1D, Eval::new, |e, name, _, p| {
            let mut list = crate::core::moves::MoveList::new();
            p.legal_moves(&mut list);
            for &m in list.iter() {
                counted += f(name, e, p, m) as usize;
            }
        });
        counted
    }

    /// Asked after the move, the exchange comes out as [`see`] asked before it, along
    /// pseudo-random games of every built-in variant.
    #[test]
    fn an_exchange_judged_after_a_quiet_move_agrees_with_see_before_it() {
        let tried = each_move_of_seeded_games(150, |name, e, p, m| {
            if is_tactical(e, p, m) {
                return false;
            }
            let before = see(e, p, m) >= 0;
            let mut q = p.clone();
            q.make_move(m);
            assert_eq!(
                keeps_piece_after(e, &q, m),
                before,
                "{name}: {} in {}",
                p.move_to_string(m),
                p.fen()
            );
            true
        });
        assert!(tried > 10_000, "{tried} moves");
    }

    /// The threshold test answers as the full exchange does, for every move along
    /// pseudo-random games of every built-in variant and thresholds around its value.
    #[test]
    fn see_ge_agrees_with_the_exchange_played_out() {
        let tried = each_move_of_seeded_games(120, |name, e, p, m| {
            let s = see(e, p, m);
            for t in [s - 1, s, s + 1, 0, -100, -400, -1225, 300] {
                assert_eq!(
                    see_ge(e, p, m, t),
                    s >= t,
                    "{name}: {} (see {s}) against {t} in {}",
                    p.move_to_string(m),
                    p.fen()
                );
            }
            true
        });
        assert!(tried > 10_000, "{tried} moves");
    }

    #[test]
    fn see_of_a_quiet_move_counts_defenders_too() {
        // Nc4 dxc4 Bxc4: the knight is traded for the pawn.
        let p = pos("4k3/8/8/3p4/8/1B2N3/8/4K3 w - - 0 1");
        let e = Eval::new(p.variant());
        let m = p.parse_move("e3c4").unwrap();
        assert_eq!(see(&e, &p, m), 100 - 320);
    }
}

//! One piece's legal moves to one square, found without listing the others: the test a
//! move read from the transposition table needs before it is searched ahead of move
//! generation (most nodes that have one cut on it, and then never list their moves).

use crate::core::geometry::{Square, Word};
use crate::core::moves::MoveList;
use crate::position::Position;
use crate::variant::Legality;

impl<W: Word> Position<W> {
    /// Lists into `list` the legal ordinary moves (no castling, en passant, drop, stack
    /// or switch) of the side to move's piece on `from` to `to`, one per promotion
    /// choice; false where the variant's legality has no such shortcut (the caller then
    /// lists every move).
    // Without kills that do not occupy and without stacks, every strategy lists a
    // piece's ordinary moves through `emit` over its targets, as here, and keeps those
    // that leave no royal attacked (`Rays` reads that off the rays around its single
    // royal, `Lines` and `Verify` test some moves in full and know the others safe).
    pub fn ordinary_moves_between(&self, from: Square, to: Square, list: &mut MoveList) -> bool {
        let v = &*self.v;
        list.clear();
        if v.legality == Legality::OccupyCapture || v.stacking.is_some() || v.occupy.is_some() {
            return false;
        }
        let us = self.side;
        let n = v.board.squares();
        if from.idx() >= n || to.idx() >= n {
            return true;
        }
        let p = self.board[from.idx()];
        if p.is_none() || p.color() != us {
            return true;
        }
        let t = p.kind();
        let theirs = self.by_color[us.flip().idx()];
        let tg = v.attacks[us.idx()][t as usize].targets(&v.rays, from, self.occupied());
        if !(tg.quiet | (tg.capture & theirs)).has(to) {
            return true;
        }
        self.emit(list, t, from, to.bb());
        list.retain(|m| self.leaves_royals_safe(m));
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::core::geometry::Square;
    use crate::core::moves::{MoveKind, MoveList};
    use crate::testing::seeded_games;

    /// Along seeded games of every built-in game whose legality has the shortcut, the
    /// moves found square pair by square pair are exactly the ordinary moves of the full
    /// legal list: none missing, none added (so a table move is searched first only when
    /// it is legal, and as the move the list would have named).
    #[test]
    fn one_pair_at_a_time_finds_exactly_the_listed_ordinary_moves() {
        let mut checked = 0usize;
        let mut games = std::collections::BTreeSet::new();
        for seed in [52, 53] {
            seeded_games(
                80,
                seed,
                |_| (),
                |_, name, ply, pos| {
                    let mut all = MoveList::new();
                    pos.legal_moves(&mut all);
                    let mut want: Vec<u64> = all
                        .iter()
                        .filter(|m| matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep))
                        .map(|m| m.0)
                        .collect();
                    want.sort_unstable();
                    let n = pos.variant().board.squares() as u8;
                    let mut got = Vec::new();
                    let mut one = MoveList::new();
                    // Two squares past the board as well: a table entry of another
                    // position may name any square a move can encode.
                    for f in 0..n + 2 {
                        for t in 0..n + 2 {
                            if !pos.ordinary_moves_between(Square(f), Square(t), &mut one) {
                                return;
                            }
                            got.extend(one.iter().map(|m| m.0));
                        }
                    }
                    got.sort_unstable();
                    assert_eq!(got, want, "{name} ply {ply}: {}", pos.fen());
                    checked += 1;
                    games.insert(name.to_string());
                },
            );
        }
        // Every built-in game but the two whose captures stack or kill without moving.
        assert!(games.len() >= 8, "only {games:?} had the shortcut");
        assert!(checked > 1000, "only {checked} positions had the shortcut");
    }
}

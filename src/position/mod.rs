//! The game state: bitboard planes, mailbox, hands, rights, clocks and Zobrist keys
//! (the position's, and its material's by group for the search's caches and
//! corrections), with make/unmake. Move generation lives in `movegen`, FEN in `fen`.

pub mod fen;
pub mod invariants;
mod keys;
pub mod notation;
pub mod san;

use crate::core::geometry::{Bitboard, Square, Word, SQUARE_SLOTS};
use crate::core::moves::{Color, Move, MoveKind, Piece, PieceType, MAX_KILLS, MAX_PIECE_TYPES};
use crate::core::zobrist::ZOBRIST;
use crate::rules::en_passant;
use crate::rules::stacking::{self, Counts, MAX_STACK_PLANES};
use crate::variant::Variant;
use std::sync::Arc;

/// What `unmake` needs to restore and cannot recompute.
#[derive(Clone, Copy, Debug)]
pub struct Undo<W: Word = u128> {
    /// The move made.
    pub mv: Move,
    /// The piece it captured (NONE if none).
    pub captured: Piece,
    /// The piece that moved, as it was before a promotion.
    pub moved: Piece,
    /// The other piece of a switch (as it was before a promotion) or the friendly piece a
    /// combine joined; NONE otherwise.
    pub partner: Piece,
    /// The pieces on the move's kill squares (rifle shots, armor paths), in kill order.
    pub killed: [Piece; MAX_KILLS],
    /// Castling rights before.
    pub castling: u8,
    /// Zone-castling rights before.
    pub castle_rooks: Bitboard<W>,
    /// En passant squares before.
    pub ep: Bitboard<W>,
    /// En passant victim before.
    pub ep_victim: Square,
    /// Halfmove clock before.
    pub halfmove: u32,
    /// Key before.
    pub key: u64,
}

/// A position of some variant.
#[derive(Clone)]
pub struct Position<W: Word = u128> {
    pub(crate) v: Arc<Variant>,
    pub(crate) board: [Piece; SQUARE_SLOTS],
    pub(crate) by_color: [Bitboard<W>; 2],
    pub(crate) by_type: [Bitboard<W>; MAX_PIECE_TYPES],
    pub(crate) hands: [[u8; MAX_PIECE_TYPES]; 2],
    /// Compound stacks: per-atom count digit planes, then alternate planes (`stacking`).
    pub(crate) stacks: [Bitboard<W>; MAX_STACK_PLANES],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// Zone castling: the squares of rooks that still hold a right (a side whose king
    /// lost its right has none).
    pub(crate) castle_rooks: Bitboard<W>,
    /// Squares a pawn just skipped (set after every multi-step, as FEN shows them).
    pub(crate) ep: Bitboard<W>,
    /// The pawn that may be taken en passant.
    pub(crate) ep_victim: Square,
    /// Saturates at `u32::MAX` (a FEN may start it there); each undo keeps the value
    /// before, so unmake restores it exactly.
    pub(crate) halfmove: u32,
    /// Wider than the `u32` a FEN gives: it goes on past `u32::MAX` (shown saturated), so
    /// that unmake's decrement restores it exactly without a field in every undo.
    pub(crate) fullmove: u64,
    pub(crate) key: u64,
    /// Zobrist keys of the material by group, kept with `key`: White's pieces other than
    /// pawn-rule ones with White's hand, the same for Black, and both colours' pawn-rule
    /// pieces (see [`Position::pawn_key`], [`Position::piece_keys`]).
    pub(crate) material: [u64; 3],
    pub(crate) history: Vec<Undo<W>>,
}

impl<W: Word> Position<W> {
    /// An empty board of `v`, White to move; the FEN parser fills it.
    pub(crate) fn empty(v: Arc<Variant>) -> Position<W> {
        Position {
            v,
            board: [Piece::NONE; SQUARE_SLOTS],
            by_color: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; MAX_PIECE_TYPES],
            hands: [[0; MAX_PIECE_TYPES]; 2],
            stacks: [Bitboard::EMPTY; MAX_STACK_PLANES],
            side: Color::White,
            castling: 0,
            castle_rooks: Bitboard::EMPTY,
            ep: Bitboard::EMPTY,
            ep_victim: Square(0),
            halfmove: 0,
            fullmove: 1,
            key: 0,
            material: [0, 0, keys::PAWN_KEY_SEED],
            history: Vec::with_capacity(256),
        }
    }

    /// True when every square of the board has a bit in the word `V`.
    #[inline]
    pub fn fits<V: Word>(&self) -> bool {
        self.v.board.squares() <= V::BITS as usize
    }

    /// The same position with its bitboards in the word `V`, which must hold the whole
    /// board ([`Position::fits`]): what perft and search run on, so that a board of up to
    /// 64 squares is searched in `u64`s.
    pub fn to_word<V: Word>(&self) -> Position<V> {
        debug_assert!(self.fits::<V>());
        let undo = |u: &Undo<W>| Undo {
            mv: u.mv,
            captured: u.captured,
            moved: u.moved,
            partner: u.partner,
            killed: u.killed,
            castling: u.castling,
            castle_rooks: u.castle_rooks.narrow(),
            ep: u.ep.narrow(),
            ep_victim: u.ep_victim,
            halfmove: u.halfmove,
            key: u.key,
        };
        let mut history = Vec::with_capacity(self.history.capacity());
        history.extend(self.history.iter().map(undo));
        Position {
            v: self.v.clone(),
            board: self.board,
            by_color: self.by_color.map(Bitboard::narrow),
            by_type: self.by_type.map(Bitboard::narrow),
            hands: self.hands,
            stacks: self.stacks.map(Bitboard::narrow),
            side: self.side,
            castling: self.castling,
            castle_rooks: self.castle_rooks.narrow(),
            ep: self.ep.narrow(),
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            material: self.material,
            history,
        }
    }

    /// The variant this position belongs to.
    #[inline(always)]
    pub fn variant(&self) -> &Arc<Variant> {
        &self.v
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on a square (NONE if empty).
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.idx()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard<W> {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of one colour.
    #[inline(always)]
    pub fn color_bb(&self, c: Color) -> Bitboard<W> {
        self.by_color[c.idx()]
    }

    /// The squares holding a type of a colour.
    #[inline(always)]
    pub fn pieces(&self, t: PieceType, c: Color) -> Bitboard<W> {
        self.by_type[t as usize] & self.by_color[c.idx()]
    }

    /// How many of a type a colour has in hand.
    #[inline(always)]
    pub fn hand(&self, c: Color, t: PieceType) -> u8 {
        self.hands[c.idx()][t as usize]
    }

    /// Whether a colour has any piece in hand.
    #[inline(always)]
    pub fn has_hand(&self, c: Color) -> bool {
        self.hands[c.idx()] != [0; MAX_PIECE_TYPES]
    }

    /// The stack planes in use (empty without stacking): per atom its count digits, low
    /// digit first, then the planes telling apart types of equal composition.
    pub fn stack_planes(&self) -> &[Bitboard<W>] {
        let n = self.v.stacking.as_ref().map_or(0, |s| s.planes());
        &self.stacks[..n]
    }

    /// The composition on a square as the stack planes hold it (all zero without one).
    pub fn stack_counts(&self, sq: Square) -> Counts {
        match &self.v.stacking {
            Some(st) => st.counts_at(&self.stacks, sq),
            None => Counts::default(),
        }
    }

    /// Halfmove clock (plies since the last capture or pawn move).
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Fullmove number (at most `u32::MAX`).
    pub fn fullmove(&self) -> u32 {
        u32::try_from(self.fullmove).unwrap_or(u32::MAX)
    }

    /// Castling rights as bits (`color * 2 + side`).
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// Zone castling: the squares of rooks that still hold a right.
    pub fn castle_rooks(&self) -> Bitboard<W> {
        self.castle_rooks
    }

    /// Squares skipped by the last multi-step pawn move.
    pub fn ep_squares(&self) -> Bitboard<W> {
        self.ep
    }

    /// The moves made since the position was set up, oldest first.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Number of plies made since set-up.
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// How many times the current position occurred before (same side to move, rights
    /// and hands: the key covers them), looking back over the moves that could be
    /// undone: within the halfmove clock's reach where every move resetting it is final.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let reach = if self.v.clock_bounds_repeats {
            (self.halfmove as usize).min(n)
        } else {
            self.undoable_plies()
        };
        let mut count = 0;
        let mut i = 2;
        while i <= reach {
            if self.history[n - i].key == self.key {
                count += 1;
            }
            i += 2;
        }
        count
    }

    /// The number of last moves of the game none of which is final (a kill, a capture
    /// of a piece that goes to no hand, a pawn's own step where those only go forward):
    /// where the clock cannot tell, as Combined Arms' infantry steps back and resets it.
    #[inline(never)]
    fn undoable_plies(&self) -> usize {
        let v = &*self.v;
        let to_hand = v.drops.as_ref().map_or(0, |d| d.to_hand);
        self.history
            .iter()
            .rev()
            .take_while(|u| {
                let taken = !u.captured.is_none() && to_hand >> u.captured.kind() & 1 == 0;
                let step = matches!(u.mv.kind(), MoveKind::Normal | MoveKind::DoubleStep)
                    && v.pawn_mask >> u.moved.kind() & 1 != 0;
                !(taken || !u.killed[0].is_none() || step && v.pawn_steps_final)
            })
            .count()
    }

    /// The royal squares of a colour.
    #[inline(always)]
    pub fn royals(&self, c: Color) -> Bitboard<W> {
        let mut bb = Bitboard::EMPTY;
        let mut m = self.v.royal_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            bb |= self.by_type[t];
        }
        bb & self.by_color[c.idx()]
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.idx()] = p;
        self.by_color[p.color().idx()].set(sq);
        self.by_type[p.kind() as usize].set(sq);
        let z = ZOBRIST.piece[p.idx()][sq.idx()];
        self.key ^= z;
        self.material[self.group(p)] ^= z;
        let code = self.v.stack_code[p.kind() as usize];
        if code != 0 {
            stacking::stamp(&mut self.stacks, sq, code);
        }
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.idx()];
        self.board[sq.idx()] = Piece::NONE;
        self.by_color[p.color().idx()].clear(sq);
        self.by_type[p.kind() as usize].clear(sq);
        let z = ZOBRIST.piece[p.idx()][sq.idx()];
        self.key ^= z;
        self.material[self.group(p)] ^= z;
        let code = self.v.stack_code[p.kind() as usize];
        if code != 0 {
            stacking::erase(&mut self.stacks, sq, code);
        }
        p
    }

    /// Changes the piece on an occupied square in the mailbox, type planes and key,
    /// leaving the stack planes (already updated by plane arithmetic) alone.
    #[inline(always)]
    fn retype(&mut self, sq: Square, p: Piece) {
        let old = self.board[sq.idx()];
        self.by_type[old.kind() as usize].clear(sq);
        self.by_type[p.kind() as usize].set(sq);
        self.board[sq.idx()] = p;
        let (zo, zn) = (
            ZOBRIST.piece[old.idx()][sq.idx()],
            ZOBRIST.piece[p.idx()][sq.idx()],
        );
        self.key ^= zo ^ zn;
        self.material[self.group(old)] ^= zo;
        self.material[self.group(p)] ^= zn;
    }

    pub(crate) fn add_to_hand(&mut self, c: Color, t: PieceType, delta: i32) {
        let n = self.hands[c.idx()][t as usize];
        let m = (n as i32 + delta).clamp(0, 255) as u8;
        let z = Self::hand_key(c, t, n) ^ Self::hand_key(c, t, m);
        self.key ^= z;
        self.material[c.idx()] ^= z;
        self.hands[c.idx()][t as usize] = m;
    }

    /// Plays a move, which must be legal (from `legal_moves` or `parse_move`).
    pub fn make_move(&mut self, m: Move) {
        // The variant is read field by field rather than through a cloned `Arc`: its
        // reference count is shared by every search thread, and touching it on every
        // move makes the threads fight over one cache line.
        let pawn_mask = self.v.pawn_mask;
        let us = self.side;
        let undo = Undo {
            mv: m,
            captured: Piece::NONE,
            moved: Piece::NONE,
            partner: Piece::NONE,
            killed: [Piece::NONE; MAX_KILLS],
            castling: self.castling,
            castle_rooks: self.castle_rooks,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            key: self.key,
        };
        self.history.push(undo);
        self.key ^= self.ep_key();
        self.ep = Bitboard::EMPTY;
        self.halfmove = self.halfmove.saturating_add(1);
        let mut captured = Piece::NONE;
        let mut moved = Piece::NONE;
        let mut partner = Piece::NONE;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Switch => {
                let a = self.remove(from);
                let b = self.remove(to);
                moved = a;
                partner = b;
                // C6: a Pawn that changes squares resets the clock, in a switch too.
                if (pawn_mask >> a.kind() | pawn_mask >> b.kind()) & 1 != 0 {
                    self.halfmove = 0;
                }
                self.put(m.promotion().map_or(a, |t| Piece::new(t, us)), to);
                self.put(m.partner_promotion().map_or(b, |t| Piece::new(t, us)), from);
            }
            MoveKind::Combine => {
                // Plane addition: the mover's digits are added onto the partner's square,
                // the chosen alternate is written, and the type is read back (A2).
                // The stacking rules are borrowed field by field, never through a
                // cloned handle (see above), so each plane step is its own borrow.
                let addend = {
                    let st = self.v.stacking.as_ref().expect("combine without stacking");
                    st.code_at(&self.stacks, from) & st.count_mask
                };
                partner = self.board[to.idx()];
                moved = self.remove(from);
                let chosen = m.promotion().expect("combine move names its compound");
                let st = self.v.stacking.as_ref().expect("combine without stacking");
                st.add(&mut self.stacks, to, addend);
                st.set_alt(&mut self.stacks, to, st.code[chosen as usize]);
                let t = st
                    .type_at(&self.stacks, to)
                    .expect("combine into a defined piece");
                debug_assert_eq!(t, chosen);
                self.retype(to, Piece::new(t, us));
            }
            MoveKind::Split => {
                // Plane subtraction: the landing part's digits leave the start square,
                // whose remainder is the first type of its composition (A3).
                let st = self
                    .v
                    .stacking
                    .as_ref()
                    .expect("split move without stacking");
                let x = m.promotion().expect("split move names its landing part");
                moved = self.board[from.idx()];
                st.sub(&mut self.stacks, from, st.code[x as usize] & st.count_mask);
                st.set_alt(&mut self.stacks, from, 0);
                let rest = st
                    .type_at(&self.stacks, from)
                    .expect("split into defined pieces");
                self.retype(from, Piece::new(rest, us));
                self.put(Piece::new(x, us), to);
            }
            MoveKind::Drop => {
                let t = m.drop_type();
                self.add_to_hand(us, t, -1);
                self.put(Piece::new(t, us), to);
                if pawn_mask >> t & 1 != 0 {
                    self.halfmove = 0;
                }
            }
            MoveKind::Castle => {
                let (kf, kt, rf, rt) = self
                    .castle_squares(m, us, self.castle_rooks)
                    .expect("castle move without a castling rule");
                let king = self.remove(kf);
                let rook = self.remove(rf);
                self.put(king, kt);
                self.put(rook, rt);
            }
            kind => {
                if m.has_kills() {
                    self.make_kills(m);
                }
                if from == to {
                    // A shot that does not move its shooter: nothing else changes.
                    moved = self.board[from.idx()];
                } else {
                    if kind == MoveKind::EnPassant {
                        captured = self.remove(self.ep_victim);
                    } else if !self.board[to.idx()].is_none() {
                        captured = self.remove(to);
                    }
                    let mut p = self.remove(from);
                    moved = p;
                    if pawn_mask >> p.kind() & 1 != 0 {
                        self.halfmove = 0;
                    }
                    if let Some(t) = m.promotion() {
                        p = Piece::new(t, us);
                    }
                    self.put(p, to);
                    // A multi-step that promotes lands a piece en passant cannot take.
                    if kind == MoveKind::DoubleStep && pawn_mask >> p.kind() & 1 != 0 {
                        // A pawn that leaps over a piece did not pass through the squares
                        // it skipped: none can be taken en passant (an occupied one would
                        // be captured onto, deleting what stands there).
                        let skipped = en_passant::between(&self.v.board, from, to).narrow::<W>();
                        self.ep = if (skipped & self.occupied()).any() {
                            Bitboard::EMPTY
                        } else {
                            skipped
                        };
                        self.ep_victim = to;
                    }
                }
            }
        }
        if !captured.is_none() {
            self.halfmove = 0;
            let to_hand = self.v.drops.as_ref().map_or(0, |d| d.to_hand);
            if to_hand >> captured.kind() & 1 != 0 {
                self.add_to_hand(us, captured.kind(), 1);
            }
        }
        if let Some(u) = self.history.last_mut() {
            u.captured = captured;
            u.moved = moved;
            u.partner = partner;
        }
        let mut lost = if m.kind() == MoveKind::Drop {
            0
        } else {
            self.v.castle_mask[from.idx()] | self.v.castle_mask[to.idx()]
        };
        for k in m.kills() {
            lost |= self.v.castle_mask[k.idx()];
        }
        if self.castling & lost != 0 {
            self.key ^= ZOBRIST.castling[self.castling as usize];
            self.castling &= !lost;
            self.key ^= ZOBRIST.castling[self.castling as usize];
        }
        if self.castle_rooks.any() {
            self.update_zone_rights(m, us, moved);
        }
        self.side = us.flip();
        self.key ^= ZOBRIST.side;
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.key ^= self.ep_key();
    }

    /// Removes the pieces a move kills without occupying their squares (kept out of
    /// line so the ordinary move stays small).
    #[inline(never)]
    fn make_kills(&mut self, m: Move) {
        let mut killed = [Piece::NONE; MAX_KILLS];
        for (i, k) in m.kills().enumerate() {
            killed[i] = self.remove(k);
        }
        self.halfmove = 0;
        if let Some(u) = self.history.last_mut() {
            u.killed = killed;
        }
    }

    /// Takes back the last move; does nothing if there is none.
    pub fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else { return };
        self.side = self.side.flip();
        let us = self.side;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        let m = u.mv;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Switch => {
                self.remove(to);
                self.remove(from);
                self.put(u.moved, from);
                self.put(u.partner, to);
            }
            MoveKind::Combine => {
                let st = self
                    .v
                    .stacking
                    .as_ref()
                    .expect("combine move without stacking");
                st.sub(
                    &mut self.stacks,
                    to,
                    st.code[u.moved.kind() as usize] & st.count_mask,
                );
                st.set_alt(&mut self.stacks, to, st.code[u.partner.kind() as usize]);
                self.retype(to, u.partner);
                self.put(u.moved, from);
            }
            MoveKind::Split => {
                let landed = self.remove(to);
                let st = self
                    .v
                    .stacking
                    .as_ref()
                    .expect("split move without stacking");
                st.add(
                    &mut self.stacks,
                    from,
                    st.code[landed.kind() as usize] & st.count_mask,
                );
                st.set_alt(&mut self.stacks, from, st.code[u.moved.kind() as usize]);
                self.retype(from, u.moved);
            }
            MoveKind::Drop => {
                self.remove(to);
                self.add_to_hand(us, m.drop_type(), 1);
            }
            MoveKind::Castle => {
                let (kf, kt, rf, rt) = self
                    .castle_squares(m, us, u.castle_rooks)
                    .expect("castle move without a castling rule");
                let king = self.remove(kt);
                let rook = self.remove(rt);
                self.put(king, kf);
                self.put(rook, rf);
            }
            kind => {
                if from != to {
                    self.remove(to);
                    self.put(u.moved, from);
                    if !u.captured.is_none() {
                        if let Some(d) = &self.v.drops {
                            if d.to_hand >> u.captured.kind() & 1 != 0 {
                                self.add_to_hand(us, u.captured.kind(), -1);
                            }
                        }
                        let at = if kind == MoveKind::EnPassant {
                            u.ep_victim
                        } else {
                            to
                        };
                        self.put(u.captured, at);
                    }
                }
                for (i, k) in m.kills().enumerate() {
                    self.put(u.killed[i], k);
                }
            }
        }
        self.castling = u.castling;
        self.castle_rooks = u.castle_rooks;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.key = u.key;
    }

    /// Plays a null move (passes), for search; must be undone with `unmake_null`.
    pub fn make_null(&mut self) {
        self.history.push(Undo {
            mv: Move::NULL,
            captured: Piece::NONE,
            moved: Piece::NONE,
            partner: Piece::NONE,
            killed: [Piece::NONE; MAX_KILLS],
            castling: self.castling,
            castle_rooks: self.castle_rooks,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            key: self.key,
        });
        self.key ^= self.ep_key();
        self.ep = Bitboard::EMPTY;
        self.side = self.side.flip();
        self.key ^= ZOBRIST.side;
        self.halfmove = self.halfmove.saturating_add(1);
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        if let Some(u) = self.history.pop() {
            self.side = self.side.flip();
            self.ep = u.ep;
            self.ep_victim = u.ep_victim;
            self.halfmove = u.halfmove;
            self.key = u.key;
        }
    }
}

impl<W: Word> Position<W> {
    /// King from, king to, rook from, rook to of a castling move by `c`, given the
    /// zone-castling rights `rooks` in force before it; None if no rule matches.
    pub(crate) fn castle_squares(
        &self,
        m: Move,
        c: Color,
        rooks: Bitboard<W>,
    ) -> Option<(Square, Square, Square, Square)> {
        let v = &*self.v;
        let (from, to) = (m.from(), m.to());
        if let Some(zc) = &v.zone_castling {
            return zc.squares(&v.board, from, to, c, rooks);
        }
        let r = v
            .castling
            .as_ref()?
            .rules
            .iter()
            .find(|r| r.king_from == from && r.king_to == to)?;
        Some((r.king_from, r.king_to, r.rook_from, r.rook_to))
    }

    /// Zone castling: the rights after the move (see `ZoneCastling::rights_after`).
    fn update_zone_rights(&mut self, m: Move, us: Color, moved: Piece) {
        let before = self.castle_rooks;
        let rights = self.zone_rights_after(m, us, moved, before);
        if rights != before {
            for s in (rights ^ before).iter() {
                self.key ^= ZOBRIST.castle_square[s.idx()];
            }
            self.castle_rooks = rights;
        }
    }

    /// Zone castling's rights after `m` by `us`, which moved `moved` (none for castling
    /// and drops), from the rights `before`; `before` itself without zone castling.
    pub(super) fn zone_rights_after(
        &self,
        m: Move,
        us: Color,
        moved: Piece,
        before: Bitboard<W>,
    ) -> Bitboard<W> {
        let v = &self.v;
        let Some(zc) = &v.zone_castling else {
            return before;
        };
        let kinds = (
            m.kind() == MoveKind::Castle,
            m.kind() == MoveKind::Drop,
            v.royal_mask >> moved.kind() & 1 != 0,
        );
        zc.rights_after(before, us, (m.from(), m.to()), kinds)
    }
}

//! Quiescence: captures, promotions and kills searched below the main search until the
//! position is quiet, and every evasion when in check.

use super::*;

impl<W: Word> Worker<W> {
    /// Quiescence at `qply` plies below the main search.
    pub(super) fn qsearch(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        in_check: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.halfmove() >= 100 && !in_check {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key);
        let mut tt_eval = NO_EVAL;
        let mut tt_move = Move::NULL;
        if let Some(h) = hit {
            let s = score_from_tt(h.score, ply);
            if tt_cuts(h.bound, s, alpha, beta) {
                return s;
            }
            tt_eval = h.eval;
            tt_move = h.mv;
        }
        let ckeys = if in_check {
            Keys::default()
        } else {
            Keys::of(&self.pos)
        };
        let (raw, exact) = if in_check {
            (NO_EVAL, true)
        } else if tt_eval != NO_EVAL {
            (tt_eval, true)
        } else {
            let e = self.evaluate_lazy(key, &ckeys, alpha, beta);
            (e.value, e.exact)
        };
        let stand = if in_check {
            NO_EVAL
        } else {
            self.corrected(raw, &ckeys)
        };
        let mut best = -INF;
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        // Out of check only captures and promotions are searched, so only those are
        // generated where the game allows (with a cheap test for stalemate).
        let any = if in_check {
            self.pos.legal_moves(&mut self.lists[ply]);
            !self.lists[ply].is_empty()
        } else {
            self.pos.tactical_candidates(&mut self.lists[ply])
        };
        if !any {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if self.pos.halfmove() >= 100 {
            return 0;
        }
        // Keep only captures and promotions (every move when in check), scored. Past
        // `RECAPTURE_PLIES` only the captures on the square the last move went to are
        // kept (Stockfish 11's `DEPTH_QS_RECAPTURES`): in a crowded position every capture
        // opens others, and a grasshopper game's quiescence ran 36 plies deep.
        let recapture = (!in_check && qply >= RECAPTURE_PLIES).then(|| self.current[ply - 1].to());
        let mut n = 0;
        let (mut top, mut top_key) = (Move::NULL, i64::MIN);
        for i in 0..self.lists[ply].len() {
            let m = self.lists[ply].as_slice()[i];
            if recapture.is_some_and(|sq| m.to() != sq) {
                continue;
            }
            let s = match tactical_order(&self.eval, &self.pos, m) {
                Some(s) => Some(s),
                None if in_check => {
                    let pc = moving_piece(&self.pos, m);
                    let to = m.to().idx();
                    Some((
                        self.hist.quiet_score(pc, to, [NO_CONT; 2]) - (1 << 29),
                        false,
                    ))
                }
                None => None,
            };
            let s = s.map(|s| {
                if is_stored_move(tt_move, m) {
                    (TT_SCORE, false)
                } else {
                    s
                }
            });
            if let Some((s, unsure)) = s {
                let k = order_key(s, n, unsure);
                if k > top_key {
                    (top, top_key) = (m, k);
                }
                self.lists[ply].as_mut_slice()[n] = m;
                self.keys[ply * MAX_MOVES + n] = k;
                n += 1;
            }
        }
        self.lists[ply].truncate(n);
        // The first move's child is probed right after the move is made, too soon for a
        // prefetch issued then: its line is fetched now, while the exchanges are weighed.
        if n > 0 {
            self.shared.tt.prefetch(self.pos.key_after(top));
        }
        let mut best_move = Move::NULL;
        // Kills that do not end on their victim (shots, paths) are searched once per set of
        // squares killed: an artillery piece or a flying queen can often remove the same
        // piece from dozens of squares, and quiescence would try every one of them.
        let mut kill_sets = [0u64; 16];
        let mut nk = 0;
        for i in 0..n {
            let (m, score) = pick(
                &mut self.lists[ply],
                &mut self.keys[ply * MAX_MOVES..(ply + 1) * MAX_MOVES],
                i,
                // A capture passed over as futile is not searched whatever its exchange,
                // so that is not played out for it.
                |m| {
                    (!in_check && futile(&self.eval, &self.pos, m, stand, alpha))
                        || see_ge(&self.eval, &self.pos, m, 0)
                },
            );
            if !in_check && m.has_kills() && captured(&self.pos, m).is_none() {
                // Deeper down, shots answer shots without end; the first two plies see
                // the threats that matter.
                if qply >= KILL_PLIES {
                    continue;
                }
                let set = m.0 >> 32;
                if kill_sets[..nk].contains(&set) {
                    continue;
                }
                if nk < kill_sets.len() {
                    kill_sets[nk] = set;
                    nk += 1;
                }
            }
            if !in_check {
                // Exchanges that lose material cannot raise a stand-pat score.
                if score < 0 {
                    continue;
                }
                if futile(&self.eval, &self.pos, m, stand, alpha) {
                    continue;
                }
            }
            self.shared.tt.prefetch(self.pos.key_after(m));
            self.current[ply] = m;
            self.pos.make_move(m);
            let gives_check = self.pos.gave_check();
            let s = -self.qsearch(-beta, -alpha, ply + 1, qply + 1, gives_check);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = m;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        // An estimate is no evaluation for the next visit to build on.
        let eval = if exact { raw } else { NO_EVAL };
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), eval, 0, bound);
        best
    }
}

/// Whether capture `m` cannot lift a stand-pat score of `stand` to `alpha` even with
/// everything it takes and a margin of 200 (promotions are always searched).
#[inline(always)]
fn futile<W: Word>(e: &Eval, pos: &Position<W>, m: Move, stand: i32, alpha: i32) -> bool {
    let promo = promotion_gain(e, pos, m);
    let gain = captured(pos, m).map_or(0, |t| e.value(t)) + kill_value(e, pos, m) + promo;
    stand + gain + 200 < alpha && promo == 0
}

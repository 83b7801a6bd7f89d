//! The main search: a node of the alpha-beta tree (`negamax`), with the table cut,
//! pruning, extensions and reductions that decide how far each of its moves is searched,
//! and the singular-extension test that searches the node again without its table move.

use super::crumbs::{Hold, CRUMB_PLIES};
use super::history::{self, ContIndex, NO_CONT};
use super::ordering::{
    is_tactical, keeps_piece_after, moving_piece, see_ge, tactical_order, KILLER, TT_SCORE,
};
use super::picker::{drop_quiet_non_checks, order_key, pick};
use super::threats::Threats;
use super::{
    correction::Keys, score_from_tt, score_to_tt, tt_cuts, Worker, INF, MATE, MATE_BOUND, MAX_PLY,
};
use crate::core::geometry::Word;
use crate::core::moves::{Move, MoveKind, Piece, MAX_MOVES};
use crate::movegen::check_squares::CheckSquares;
use crate::tt::{stored_move_in, Bound, Hit, NO_EVAL};
use std::sync::OnceLock;

/// How far below the singular test's beta every other move must fall for the table move
/// to earn two plies (Stockfish's double extension), outside PV nodes.
const DOUBLE_MARGIN: i32 = 25;
/// Shallowest depth at which quiet moves are ordered by the threats of cheaper pieces.
const THREAT_DEPTH: i32 = 3;
/// Double extensions allowed on one line.
const MAX_DOUBLES: u8 = 6;
/// How far (centipawns, about half a pawn) a late-move-reduced move must leave its player
/// worse off, by the evaluations either side of it, for the node below to search a ply less.
const HINDSIGHT_MARGIN: i32 = 57;

/// The ordering score of a quiet move not scored yet: below the counter move, above
/// every history score and every losing capture.
const QUIET_LATER: i32 = KILLER / 2;

/// What a node orders its moves by, read before its first move is searched.
struct Order {
    /// The table's move (checked legal), or none.
    tt_move: Move,
    killers: [Move; 2],
    /// The move that last refuted the opponent's previous move.
    counter: Move,
    /// The continuation-history rows of the two moves before.
    prev: [ContIndex; 2],
    /// Whether quiet moves are ranked by the threats of cheaper pieces too.
    use_threats: bool,
}

/// What a singular-extension test found for the table move.
enum Singular {
    /// Every other move falls short of it, by this much at least: it earns a ply (two
    /// where they fall far short).
    Extend(i32),
    /// Not singular.
    No,
    /// Other moves reach beta too: the node is cut with this score.
    Cut(i32),
}

fn lmr_table() -> &'static [[u8; 64]; 64] {
    static T: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([[0u8; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        t
    })
}

impl<W: Word> Worker<W> {
    pub(super) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0, in_check);
        }
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.seldepth = self.seldepth.max(ply);
        if !root {
            if self.is_draw(in_check) {
                return 0;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate() };
            }
        }
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key);
        let skip = self.skip[ply];
        let mut tt_move = Move::NULL;
        let mut tt_eval = NO_EVAL;
        if let Some(h) = hit {
            tt_move = h.mv;
            tt_eval = h.eval;
            // The table's score is of this node with every move; a singular test leaves one out.
            if !pv_node && skip == Move::NULL && h.depth >= depth {
                let s = score_from_tt(h.score, ply);
                if tt_cuts(h.bound, s, alpha, beta) {
                    return s;
                }
            }
        }
        let us = self.pos.side_to_move();
        let ckeys = if in_check {
            Keys::default()
        } else {
            Keys::of(&self.pos)
        };
        let raw = if in_check {
            NO_EVAL
        } else if tt_eval != NO_EVAL {
            tt_eval
        } else {
            self.evaluate_cached(key, ckeys.pawns)
        };
        let eval = self.corrected(raw, &ckeys);
        self.evals[ply] = eval;
        let improving =
            !in_check && ply >= 2 && self.evals[ply - 2] != NO_EVAL && eval > self.evals[ply - 2];
        // Hindsight on the parent's reduction (Stockfish's `priorReduction`), judged by the
        // two evaluations either side of the reduced move: where the move left its player
        // no worse off than before it, a deep reduction was too deep and a ply is given
        // back; where it left them worse off by a margin, the move is as poor as its
        // reduction guessed and this node searches a ply less still (+19.9 Elo in chess).
        let prior = if ply > 0 { self.reductions[ply - 1] } else { 0 };
        if prior > 0 && eval != NO_EVAL && self.evals[ply - 1] != NO_EVAL {
            let sum = eval + self.evals[ply - 1];
            if prior >= 3 && sum <= 0 {
                depth += 1;
            }
            if depth >= 2 && sum > HINDSIGHT_MARGIN {
                depth -= 1;
            }
        }
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at shallow depth, a quiet move will not
            // bring the score back down.
            if depth <= 7 && eval - 85 * (depth - improving as i32) >= beta {
                return eval;
            }
            let after_null = ply > 0 && self.current[ply - 1] == Move::NULL;
            if self.shared.null_move
                && skip == Move::NULL
                && depth >= 3
                && eval >= beta
                && !after_null
                && self
                    .shared
                    .eval
                    .has_pieces(&self.pos, self.pos.side_to_move())
            {
                self.shared.tt.prefetch(self.pos.null_key());
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.current[ply] = Move::NULL;
                self.conts[ply] = NO_CONT;
                self.pos.make_null();
                self.doubles[ply + 1] = self.doubles[ply];
                self.killers[ply + 1] = [Move::NULL; 2];
                let s = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false);
                self.pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // Internal iterative reduction: with no table move this node was never searched
        // deep enough to order well, so a shallower search here is the cheaper way to get one.
        if depth >= 4 && tt_move == Move::NULL && !in_check {
            depth -= 1;
        }
        // The table move is searched before any other move is listed where the legality
        // can tell it alone: most nodes that have one cut on it and never list the rest.
        // Not in a singular test's node (its one move is the one left out) nor at the root.
        let mut pending = false;
        if !root
            && skip == Move::NULL
            && matches!(tt_move.kind(), MoveKind::Normal | MoveKind::DoubleStep)
            && self
                .pos
                .ordinary_moves_between(tt_move.from(), tt_move.to(), &mut self.lists[ply])
        {
            // Keys can collide: the move stands only if it is one of the legal ones, and
            // the legal move it names is the one searched.
            tt_move = stored_move_in(&self.lists[ply], tt_move);
            pending = tt_move != Move::NULL;
        }
        if !pending {
            if let Some(r) = self.list_all(ply, root, in_check, &mut tt_move) {
                return r;
            }
        }
        if !root && self.pos.halfmove() >= 100 {
            return 0;
        }
        let singular = match hit {
            Some(h) if !root && skip == Move::NULL && tt_move != Move::NULL && depth >= 6 => {
                match self.singular(h, tt_move, beta, depth, ply, in_check) {
                    // Far below: the table move is the only one worth playing.
                    Singular::Extend(below) => {
                        let double =
                            !pv_node && below > DOUBLE_MARGIN && self.doubles[ply] < MAX_DOUBLES;
                        1 + double as i32
                    }
                    Singular::No => 0,
                    Singular::Cut(s) => return s,
                }
            }
            _ => 0,
        };
        if self.stopped {
            return 0;
        }
        let killers = self.killers[ply];
        let prev = self.prev_conts(ply);
        let order = Order {
            tt_move,
            killers,
            counter: self.hist.counter(prev[0]),
            prev,
            // What the opponent's cheaper pieces attack, found with the first quiet move
            // scored (a node whose moves are all captures or killers never asks). Only
            // from depth 3: read at every depth they cost the chess bench 12% of its
            // nodes/s, and nearer the leaves move-count pruning leaves few quiet moves
            // for them to rank.
            use_threats: depth >= THREAT_DEPTH,
        };
        let mut threats: Option<Threats<W>> = None;
        let n = if pending {
            // The table move alone: the list holds the lookup's other promotion choices,
            // or the moves a singular test's search of this node listed at this ply.
            self.lists[ply].clear();
            self.lists[ply].push(tt_move);
            self.keys[ply * MAX_MOVES] = order_key(TT_SCORE, 0, false);
            1
        } else {
            self.score_moves(ply, 0, &order)
        };
        self.killers[ply + 1] = [Move::NULL; 2];
        self.cutoffs[ply + 2] = 0;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0;
        // The quiet moves searched, for the history's malus: two bytes each, as a node
        // fills this afresh (a square's index fits a byte).
        let mut quiets = [(Piece::NONE, 0u8); 64];
        let mut nq = 0;
        let lmr = lmr_table();
        // Where the list ends: quiet moves a node-wide pruning has ruled out are dropped
        // from it, so the picker does not sort its way through them.
        let mut end = n;
        let mut quiets_dropped = false;
        // Which moves may check, found on the first question (most nodes ask none).
        let mut checks: Option<CheckSquares<W>> = None;
        let mut next = 0;
        // Near the root, a node another thread is searching reduces its late moves more.
        let hold = match &self.shared.crumbs {
            Some(c) if !root && ply < CRUMB_PLIES => c.hold(self.id, key),
            _ => Hold::None,
        };
        loop {
            if next == end && pending {
                // The table move did not cut: now the others.
                pending = false;
                end = self.list_rest(ply, &order, &mut next);
            }
            if next >= end {
                break;
            }
            let i = next;
            next += 1;
            let (mut m, mut score) = pick(
                &mut self.lists[ply],
                &mut self.keys[ply * MAX_MOVES..(ply + 1) * MAX_MOVES],
                i,
                |m| see_ge(&self.eval, &self.pos, m, 0),
            );
            if score == QUIET_LATER {
                // The first quiet move's turn: all of them are scored now and the best
                // taken (a node that cut on a capture or a killer never scores them).
                self.score_quiets(ply, i..end, &order, &mut threats);
                (m, score) = pick(
                    &mut self.lists[ply],
                    &mut self.keys[ply * MAX_MOVES..(ply + 1) * MAX_MOVES],
                    i,
                    |m| see_ge(&self.eval, &self.pos, m, 0),
                );
            }
            // MultiPV: the root moves of the lines already found are not this line's.
            if (root && self.excluded.contains(&m)) || m == skip {
                continue;
            }
            // The child's table line is fetched while the move is weighed and made: the
            // probe at the child's entry stalled on memory (8% of a chess bench).
            self.shared.tt.prefetch(self.pos.key_after(m));
            let is_tactical = is_tactical(&self.eval, &self.pos, m);
            let quiet = !is_tactical;
            // Near the leaves, late quiet moves, quiet moves that cannot lift the score to
            // alpha, and losing exchanges are skipped unless they give check.
            let mut prune = false;
            if !root && !in_check && best > -MATE_BOUND && searched > 0 {
                if quiet {
                    // Late or futile: this holds for every quiet move after this one too
                    // (the count, the best score and alpha only grow), so the rest of the
                    // quiet moves that cannot check are dropped from the list at once
                    // rather than picked one by one to be skipped.
                    let late = (depth <= 5
                        && searched
                            >= self.shared.late_moves * (3 + depth * depth) as usize
                                / (2 - improving as usize))
                        || (depth <= 4 && eval != NO_EVAL && eval + 100 + 90 * depth <= alpha);
                    if late && !quiets_dropped {
                        quiets_dropped = true;
                        let cs = checks.get_or_insert_with(|| self.pos.check_squares());
                        end = drop_quiet_non_checks(
                            &self.eval,
                            &self.pos,
                            cs,
                            &mut self.lists[ply],
                            &mut self.keys[ply * MAX_MOVES..(ply + 1) * MAX_MOVES],
                            i + 1..end,
                        );
                    }
                    prune = late
                        // A quiet move that hands material over by exchange.
                        || (depth <= 7 && !see_ge(&self.eval, &self.pos, m, -25 * depth * depth));
                } else if depth <= 4 && score < 0 {
                    prune = !see_ge(&self.eval, &self.pos, m, -60 * depth);
                }
            }
            if prune
                && !checks
                    .get_or_insert_with(|| self.pos.check_squares())
                    .may_give_check(&self.pos, m)
            {
                continue;
            }
            let pc = moving_piece(&self.pos, m);
            let to = m.to().idx();
            self.current[ply] = m;
            self.conts[ply] = self.hist.index(pc, to);
            let nodes_before = self.nodes;
            self.pos.make_move(m);
            let gives_check = self.pos.gave_check();
            if prune && !gives_check {
                self.pos.unmake_move();
                continue;
            }
            // A check that hands material over (the checker is lost by exchange) is no
            // forcing line worth a ply: many long-range pieces on a large board give
            // such checks at nearly every node.
            let check_ext = (gives_check
                && (ply as i32) < 2 * self.root_depth
                && (is_tactical || self.safe_check(m))) as i32;
            let ext = if m == tt_move {
                singular.max(check_ext)
            } else {
                check_ext
            };
            self.doubles[ply + 1] = self.doubles[ply] + (ext > 1) as u8;
            let new_depth = depth - 1 + ext;
            let mut s;
            if searched == 0 {
                s = -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check);
            } else {
                // Quiet checks are reduced like other quiet moves: with long-range pieces on
                // a large board many quiet moves check, and exempting them cost 30 Elo on
                // a 10x10 board (docs/strength.md).
                // A capture that loses material by exchange comes after the quiet moves and
                // is reduced like them, a ply less (its history is not a quiet move's).
                let losing_capture = !quiet && score < 0;
                let mut r = 0;
                if self.shared.lmr
                    && !root
                    && depth >= 3
                    && searched >= 2
                    && (quiet || losing_capture)
                    && !in_check
                {
                    r = lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if self.cutoffs[ply + 1] > 3 {
                        r += 1;
                    }
                    if hold.marked() {
                        r += 1;
                    }
                    if losing_capture {
                        r -= 1;
                    } else {
                        if score >= KILLER - 2 {
                            r -= 1;
                        }
                        r -= score.clamp(-16384, 16384) / 8192;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                self.reductions[ply] = r as u8;
                s = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, gives_check);
                self.reductions[ply] = 0;
                if s > alpha && r > 0 {
                    s = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, gives_check);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check);
                }
            }
            self.pos.unmake_move();
            if root && self.id == 0 && self.excluded.is_empty() {
                self.count_root_nodes(m, self.nodes - nodes_before);
            }
            if self.stopped {
                self.release(hold);
                return 0;
            }
            searched += 1;
            if s > best {
                best = s;
                if s > alpha {
                    best_move = m;
                    alpha = s;
                    self.update_pv(ply, m);
                    if root {
                        self.root_score = s;
                    }
                    if s >= beta {
                        self.cutoffs[ply] =
                            self.cutoffs[ply].saturating_add(1 + (tt_move == Move::NULL) as u16);
                        let bonus = history::bonus(depth);
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            self.hist.update(pc, to, prev, bonus);
                            for &(qp, qto) in &quiets[..nq] {
                                self.hist.update(qp, qto as usize, prev, -bonus);
                            }
                            self.hist.set_counter(prev[0], m);
                        }
                        break;
                    }
                }
            }
            if quiet && nq < quiets.len() {
                quiets[nq] = (pc, to as u8);
                nq += 1;
            }
        }
        self.release(hold);
        // A singular test's node without its one move: nothing of its own to store. Its
        // score is fail-soft (how far below the test's beta the others fall decides a
        // double extension); with every other move pruned it is the test's alpha.
        if skip != Move::NULL {
            return if best == -INF { alpha } else { best };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best_move != Move::NULL && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without some of its moves (a later MultiPV line) has no score
        // of its own to store.
        if !root || self.excluded.is_empty() {
            self.shared
                .tt
                .store(key, best_move, score_to_tt(best, ply), raw, depth, bound);
            // Learn the evaluation's miss where the result says which way it went: not
            // after a capture (material, not structure, moved the score), nor from a
            // bound on the side the evaluation already lies on.
            if eval != NO_EVAL
                && best.abs() < MATE_BOUND
                && (best_move == Move::NULL || !is_tactical(&self.eval, &self.pos, best_move))
                && !(bound == Bound::Lower && best <= eval)
                && !(bound == Bound::Upper && best >= eval)
            {
                self.corr.update(us, &ckeys, best - eval, depth);
            }
        }
        best
    }

    /// Lists every legal move of this ply (at the root only the `searchmoves`, where
    /// given) and keeps the table move only if it is one of them; the node's score where
    /// it has no move (mate or stalemate).
    fn list_all(
        &mut self,
        ply: usize,
        root: bool,
        in_check: bool,
        tt_move: &mut Move,
    ) -> Option<i32> {
        self.pos.legal_moves(&mut self.lists[ply]);
        if root && !self.shared.limits.searchmoves.is_empty() {
            let list = &mut self.lists[0];
            let keep: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| self.shared.limits.searchmoves.contains(m))
                .collect();
            if !keep.is_empty() {
                list.clear();
                for m in keep {
                    list.push(m);
                }
            }
        }
        if self.lists[ply].is_empty() {
            return Some(if in_check { -MATE + ply as i32 } else { 0 });
        }
        // A table move is only trusted if it is in the legal list (keys can collide); the
        // legal move it names carries the kill squares the table does not keep.
        if *tt_move != Move::NULL {
            *tt_move = stored_move_in(&self.lists[ply], *tt_move);
        }
        None
    }

    /// After the table move, searched alone, did not cut: lists every legal move with
    /// the table move first, where the picker would have put it, scores the others and
    /// returns where the list ends (`next` is where the search goes on).
    fn list_rest(&mut self, ply: usize, order: &Order, next: &mut usize) -> usize {
        self.pos.legal_moves(&mut self.lists[ply]);
        let list = self.lists[ply].as_mut_slice();
        // The picker swaps the move it takes with the first: the others keep the places
        // (and so the order among equal scores) they would have had.
        match list.iter().position(|&m| m == order.tt_move) {
            Some(k) => {
                list.swap(0, k);
                self.score_moves(ply, 1, order)
            }
            // Not reached (the table move was found legal), but should the two tests ever
            // disagree, the node still searches every listed move.
            None => {
                *next = 0;
                self.score_moves(ply, 0, order)
            }
        }
    }

    /// Scores this ply's moves from `from` on into their ordering keys, the quiet moves
    /// other than killers and the counter move left for later ([`QUIET_LATER`]); returns
    /// how many moves the list holds.
    fn score_moves(&mut self, ply: usize, from: usize, order: &Order) -> usize {
        let n = self.lists[ply].len();
        for i in from..n {
            let m = self.lists[ply].as_slice()[i];
            let mut unsure = false;
            let score = if m == order.tt_move {
                TT_SCORE
            } else if let Some((s, u)) = tactical_order(&self.eval, &self.pos, m) {
                unsure = u;
                s
            } else if m == order.killers[0] {
                KILLER
            } else if m == order.killers[1] {
                KILLER - 1
            } else if m == order.counter {
                KILLER - 2
            } else {
                QUIET_LATER
            };
            self.keys[ply * MAX_MOVES + i] = order_key(score, i, unsure);
        }
        n
    }

    /// Scores the quiet moves [`score_moves`](Self::score_moves) left for later, among
    /// this ply's moves in `range`: by their histories, and from [`THREAT_DEPTH`] on by
    /// what the opponent's cheaper pieces attack (found here once).
    fn score_quiets(
        &mut self,
        ply: usize,
        range: std::ops::Range<usize>,
        order: &Order,
        threats: &mut Option<Threats<W>>,
    ) {
        for j in range {
            let key = &mut self.keys[ply * MAX_MOVES + j];
            if (*key >> 16) as i32 != QUIET_LATER {
                continue;
            }
            let m = self.lists[ply].as_slice()[j];
            let pc = moving_piece(&self.pos, m);
            let h = self.hist.quiet_score(pc, m.to().idx(), order.prev);
            let score = if order.use_threats {
                let t = match threats {
                    Some(t) => t,
                    None => threats.insert(Threats::of(&self.eval, &self.pos)),
                };
                h + t.order_change(pc, m)
            } else {
                h
            };
            *key = order_key(score, j, false);
        }
    }

    /// Singular extension: whether the table move `tt` is so much better than every other
    /// move that it earns a ply, found by a shallow search of the others below its score
    /// (how far below they fall is returned: far enough, the caller gives two plies).
    /// Where even the others reach beta, the node is cut (several moves refute it).
    fn singular(
        &mut self,
        h: Hit,
        tt: Move,
        beta: i32,
        depth: i32,
        ply: usize,
        in_check: bool,
    ) -> Singular {
        let tt_score = score_from_tt(h.score, ply);
        if h.bound == Bound::Upper
            || h.depth < depth - 3
            || tt_score.abs() >= MATE_BOUND
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::No;
        }
        let sbeta = tt_score - 2 * depth;
        // The test searches this same node at the same ply, so it regenerates this ply's
        // move list (the same moves, in another order: the caller scores them afresh).
        self.skip[ply] = tt;
        let s = self.negamax(sbeta - 1, sbeta, (depth - 1) / 2, ply, in_check);
        self.skip[ply] = Move::NULL;
        // Its line is not this node's.
        self.pv_len[ply] = ply;
        if s < sbeta {
            Singular::Extend(sbeta - s)
        } else if sbeta >= beta {
            Singular::Cut(sbeta)
        } else {
            Singular::No
        }
    }

    /// Frees the breadcrumb a node left, if it left one.
    #[inline]
    fn release(&self, hold: Hold) {
        if let Some(c) = &self.shared.crumbs {
            c.release(hold);
        }
    }

    /// Whether the quiet move `m`, just made, keeps its piece by exchange (SEE of the
    /// position before it is not negative).
    fn safe_check(&self, m: Move) -> bool {
        keeps_piece_after(&self.eval, &self.pos, m)
    }
}

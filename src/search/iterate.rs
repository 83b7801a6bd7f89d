//! Iterative deepening on one thread: depth by depth in aspiration windows, the MultiPV
//! lines, what lazy SMP's helpers skip, and when the main thread stops (the time plan's
//! soft limit scaled by [`Pace`]).

use super::pace::Pace;
use super::*;

/// Plies searched past a mate's length under `go mate` before giving up on it.
const MATE_SLACK: u32 = 6;

impl<W: Word> Worker<W> {
    /// Iterative deepening on this thread; `skip` decides which depths a helper leaves
    /// to the others. `report` is called after each completed iteration (main thread)
    /// with the worker and the depth; the iteration's lines are in `lines`.
    pub fn iterate(&mut self, report: &mut dyn FnMut(&Worker<W>, u32)) {
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .min(MAX_PLY as u32 - 4)
            .max(1);
        // A mate in n is 2n-1 plies, but late-move reductions can show a long one a few
        // plies later (tests/search.rs: a mate in five seen at depth 8 or 12 as one
        // centipawn of tempo changed): the search goes MATE_SLACK plies further before
        // it gives up. It stops as soon as a mate that short is found.
        let max_depth = match self.shared.limits.mate {
            Some(n) => max_depth.min(2 * n.max(1) - 1 + MATE_SLACK),
            None => max_depth,
        };
        // Only the main thread searches several lines; never more than there are moves.
        let lines = if self.id == 0 {
            self.shared.lines.clamp(1, self.root_moves().max(1))
        } else {
            1
        };
        self.abandonable = lines == 1;
        let mut score = 0;
        let mut pace = Pace::new(self.before);
        let mut scale = 1.0;
        self.root_nodes.clear();
        let mut depth = 1u32;
        while depth <= max_depth {
            // A depth another thread has completed is not worth finishing again (the
            // main thread still reports it, from `Shared::by_depth`). With several lines
            // the main thread needs every depth's lines itself.
            let done = self.shared.deepest.load(Ordering::Relaxed);
            if depth <= done && done < max_depth && lines == 1 {
                depth = done + 1;
            }
            if self.id > 0
                && self.completed.is_some()
                && depth < max_depth
                && skip_depth(self.id, depth + max_depth)
            {
                depth += 1;
                continue;
            }
            self.root_depth = depth as i32;
            // The selective depth is the search's so far, not the iteration's: a search
            // stopped as an iteration began reported `seldepth 0` after `depth 1`.
            self.excluded.clear();
            let mut found: Vec<Line> = Vec::with_capacity(lines);
            for k in 0..lines {
                let prev = self.lines.get(k).map_or(score, |l| l.score);
                let s = self.aspiration(depth as i32, prev, depth >= max_depth);
                if self.stopped {
                    break;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                let Some(&first) = pv.first() else {
                    break;
                };
                self.excluded.push(first);
                found.push(Line { score: s, pv });
            }
            if self.abandoned {
                self.abandoned = false;
                self.stopped = false;
                if self.shared.stop.load(Ordering::Relaxed)
                    || self.shared.deepest.load(Ordering::Relaxed) >= max_depth
                    || self.past_soft_limit(scale)
                {
                    break;
                }
                continue;
            }
            if self.stopped || found.is_empty() {
                // A root move that raised alpha in the stopped iteration was searched to
                // its full depth and beat every move searched before it, the last
                // iteration's best among them: it is played (Stockfish does the same),
                // with the last completed depth. Several lines need whole iterations.
                if self.pv_len[0] > 0 && self.excluded.is_empty() {
                    match &self.completed {
                        None => self.partial = Some(self.pv[0][0]),
                        Some(c) if lines == 1 => {
                            let pv = self.pv[0][..self.pv_len[0]].to_vec();
                            self.completed = Some((c.0, self.root_score, pv));
                        }
                        Some(_) => {}
                    }
                }
                break;
            }
            // Later lines searched without the earlier ones can score higher than them
            // when the search is unstable; the report is sorted (the sort is stable, so
            // line one stays first among equals).
            found.sort_by_key(|l| std::cmp::Reverse(l.score));
            let best = found[0].pv[0];
            score = found[0].score;
            scale = pace.completed(depth, best, score, self.best_share(best));
            self.completed = Some((depth, score, found[0].pv.clone()));
            self.lines = found;
            if self.shared.nodes.len() > 1 {
                let pv = &self.lines[0].pv;
                self.shared.record(depth, score, pv, self.seldepth as u32);
            }
            self.shared.deepest.fetch_max(depth, Ordering::Relaxed);
            self.flush_nodes();
            report(self, depth);
            if depth >= max_depth {
                break;
            }
            if self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            if let Some(n) = self.shared.limits.mate {
                if score >= MATE - 2 * n as i32 {
                    break;
                }
            }
            if self.past_soft_limit(scale) {
                break;
            }
            depth += 1;
        }
        self.flush_nodes();
    }

    /// Legal root moves this search may play (`searchmoves` applied).
    fn root_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        let wanted = &self.shared.limits.searchmoves;
        let n = list.iter().filter(|m| wanted.contains(m)).count();
        if wanted.is_empty() || n == 0 {
            list.len()
        } else {
            n
        }
    }

    /// The share of this search's root nodes (first lines) spent below `best`.
    fn best_share(&self, best: Move) -> f64 {
        let total: u64 = self.root_nodes.iter().map(|r| r.1).sum();
        let mine = self
            .root_nodes
            .iter()
            .find(|r| r.0 == best)
            .map_or(0, |r| r.1);
        mine as f64 / total.max(1) as f64
    }

    /// The main thread's decision not to start another iteration: the soft limit scaled
    /// by what the iterations say ([`Pace`]) when a clock runs; past about half of it the
    /// next iteration would rarely finish. A `movetime` has none: UCI asks to "search
    /// exactly" that long, so its end cuts the last iteration off. No clock runs while
    /// pondering.
    fn past_soft_limit(&self, scale: f64) -> bool {
        if self.id != 0 || self.shared.limits.movetime.is_some() {
            return false;
        }
        let (Some(soft), Some(elapsed)) = (self.shared.plan.soft, self.shared.clock()) else {
            return false;
        };
        elapsed >= soft.mul_f64(scale * 0.55)
    }

    fn aspiration(&mut self, depth: i32, prev: i32, last: bool) -> i32 {
        let mut delta = 20;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        // Each fail high in a row searches a ply shallower, two at most (Stockfish's
        // `failedHighCnt`, which has no cap): a score above the window is usually
        // confirmed sooner than a deep re-search finds it, and the next iteration deepens
        // it anyway. Without the cap a score that climbs hundreds of centipawns (seven
        // fail highs as the window widens by half) lost whole plies: a mate in five
        // found at depth 9 took depth 16. A fail low searches at full depth again, as the
        // move may be worse than it looked. The last depth a search was asked for is
        // searched in full: `go depth 9` answers at depth 9.
        let mut failed_high = 0;
        loop {
            let in_check = self.pos.in_check();
            let s = self.negamax(alpha, beta, (depth - failed_high).max(1), 0, in_check);
            if self.stopped {
                return s;
            }
            if s <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
                failed_high = 0;
            } else if s >= beta && beta < INF {
                beta = (s + delta).min(INF);
                if !last {
                    failed_high = (failed_high + 1).min(2);
                }
            } else {
                return s;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Adds `nodes` to root move `m`'s count for this search.
    #[cold]
    pub(super) fn count_root_nodes(&mut self, m: Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|r| r.0 == m) {
            Some(r) => r.1 += nodes,
            None => self.root_nodes.push((m, nodes)),
        }
    }
}

/// Lazy SMP depth skew: helper threads leave out some depths so that the threads spread
/// over consecutive depths instead of all searching the same tree in step. The caller
/// shifts `depth` by the depth limit so that, in a fixed-depth search, a helper's pattern
/// lands on the target depth straight from two below it rather than one (measured on
/// the bench sets: 1.63-1.66x time-to-depth with 2 threads at depths 9 and 10, against
/// 1.47-1.52x when the pattern ran out of phase with the target).
fn skip_depth(id: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (id - 1) % 20;
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}

//! The transposition table: shared by every search thread, lock-free.
//!
//! Each entry is two `AtomicU64`: the packed data, and a check word holding the static
//! evaluation (16 bits) beside 48 bits of key XOR data XOR a mix of that eval (the key's
//! low 48 bits: its top bits already chose the bucket). A reader accepts an entry only
//! when the check matches its key, so an entry torn by two threads writing at once reads
//! as a miss rather than as another position's move or eval (Hyatt's lockless hashing).
//! The searcher still checks a table move against the legal list before playing it: keys
//! can collide.
//!
//! Four entries make a bucket of one aligned cache line, so a probe costs one memory
//! access (chess bench at depth 11, best of 3: 958k nodes/s with the eval in a separate
//! array, 1,049k with it in the line). The search prefetches the next node's line as
//! soon as the move is made. The buckets sit on 2 MB pages where Linux grants them
//! ([`pages`]): chess bench, best of five, 802k → 824k nodes/s.

mod pages;

use crate::core::moves::{Move, MoveList};
use pages::{Zeroable, ZeroedBlock};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Best or refuting move; `Move::NULL` if none.
    pub mv: Move,
    /// Score, mate scores relative to the stored node (see `score_to_tt`).
    pub score: i32,
    /// Static evaluation of the node (`NO_EVAL` if not known).
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

/// Entries per bucket: one cache line of 64 bytes.
const BUCKET: usize = 4;

/// One cache line: per entry (data, check) words.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

// SAFETY: atomics only; all zero is an empty bucket.
unsafe impl Zeroable for Bucket {}

/// Static eval marker for "not stored".
pub const NO_EVAL: i32 = -32768;
/// Age steps wrap at this value (6 bits).
const AGE_MOD: u8 = 64;
/// Bits of a `Move` (from 7, to 7, promotion 6, kind 3, partner promotion 6).
const MOVE_BITS: u32 = 29;

/// True when `m` is the move the table stored as `stored`: the table keeps only a
/// move's low bits, so a move with kill squares (Combined Arms) is recognised by those.
#[inline]
pub fn is_stored_move(stored: Move, m: Move) -> bool {
    stored != Move::NULL && m.0 & ((1 << MOVE_BITS) - 1) == stored.0
}

/// The move of `list` that the table's `stored` move names, or the null move (keys can
/// collide, and the table keeps no kill squares: the listed move carries them).
pub fn stored_move_in(list: &MoveList, stored: Move) -> Move {
    list.iter()
        .copied()
        .find(|&m| is_stored_move(stored, m))
        .unwrap_or(Move::NULL)
}

/// Packs an entry into 64 bits: move 29, score 16, depth 7, bound 2 (0 marks an empty
/// slot), age 6.
fn pack(mv: Move, score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (mv.0 & ((1 << MOVE_BITS) - 1))
        | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 29)
        | ((depth.clamp(0, 127) as u64) << 45)
        | (b << 52)
        | ((age as u64 & 63) << 54)
}

/// The entry in `d` (eval filled in by the caller), or None for an empty slot.
fn unpack(d: u64) -> Option<Hit> {
    let bound = match (d >> 52) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Hit {
        mv: Move(d & ((1 << MOVE_BITS) - 1)),
        score: ((d >> 29) as u16 as i16) as i32,
        eval: NO_EVAL,
        depth: ((d >> 45) & 127) as i32,
        bound,
    })
}

fn age_of(d: u64) -> u8 {
    ((d >> 54) & 63) as u8
}

/// The static-eval side word.
fn pack_eval(eval: i32) -> u32 {
    eval.clamp(-32768, 32767) as i16 as u16 as u32
}

/// What the eval word adds to the check word: spread over all 64 bits, so that any two
/// different eval words change the check differently. (A key check on the eval word
/// alone would be weak: the key's high bits pick the bucket, so they are nearly the same
/// for every key that can share a slot.)
#[inline(always)]
fn eval_mix(e: u32) -> u64 {
    (e as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// True when an entry's (data, check) words belong to `key`.
#[inline(always)]
fn matches(key: u64, data: u64, check: u64) -> bool {
    (check ^ check_key(key) ^ data ^ eval_mix(check as u16 as u32)) >> 16 == 0
}

/// The key as the check word holds it: its low 48 bits on top, since the top bits pick
/// the bucket already and the check must tell apart keys that share one.
#[inline(always)]
fn check_key(key: u64) -> u64 {
    key.rotate_left(16)
}

/// Writes one entry (a reader that sees one word of this write and one of another
/// fails the check).
#[inline(always)]
fn write(b: &Bucket, i: usize, key: u64, data: u64, eval: i32) {
    let e = pack_eval(eval);
    let check = ((check_key(key) ^ data ^ eval_mix(e)) & !0xFFFF) | e as u64;
    b.0[2 * i].store(data, Ordering::Relaxed);
    b.0[2 * i + 1].store(check, Ordering::Relaxed);
}

/// A shared, lock-free transposition table.
pub struct TranspositionTable {
    buckets: ZeroedBlock<Bucket>,
    age: AtomicU8,
}

/// The memory for a table of that many megabytes cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {0} MB hash table")]
pub struct HashError(pub usize);

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` megabytes, or an error if the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashError> {
        let bytes_per_bucket = std::mem::size_of::<Bucket>();
        // A size whose byte count does not fit a `usize` is refused, not wrapped.
        let bytes = mb.max(1).checked_mul(1 << 20).ok_or(HashError(mb))?;
        let buckets = (bytes / bytes_per_bucket).max(1);
        let table = ZeroedBlock::new(buckets).ok_or(HashError(mb))?;
        Ok(TranspositionTable {
            buckets: table,
            age: AtomicU8::new(0),
        })
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * BUCKET
    }

    /// Empties the table (between games).
    pub fn clear(&self) {
        for w in self.buckets.iter().flat_map(|b| &b.0) {
            w.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&self) {
        let a = (self.age.load(Ordering::Relaxed) + 1) % AGE_MOD;
        self.age.store(a, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto any bucket count without a modulo.
        &self.buckets[((key as u128 * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Asks the CPU to start loading `key`'s bucket, so that the probe a few
    /// instructions later does not wait on memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is a hint that reads nothing and cannot fault, and `p`
            // points into the table anyway; SSE is part of every x86_64 target. Measured:
            // bench chess nodes/s in docs/strength.md's speed rows.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        for i in 0..BUCKET {
            let data = b.0[2 * i].load(Ordering::Relaxed);
            let check = b.0[2 * i + 1].load(Ordering::Relaxed);
            if matches(key, data, check) {
                if let Some(mut h) = unpack(data) {
                    h.eval = (check as u16 as i16) as i32;
                    return Some(h);
                }
            }
        }
        None
    }

    /// Stores a search result; keeps a previous move when the new result has none.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..BUCKET {
            let data = b.0[2 * i].load(Ordering::Relaxed);
            let check = b.0[2 * i + 1].load(Ordering::Relaxed);
            let old = unpack(data);
            if matches(key, data, check) {
                if let Some(o) = old {
                    // Keep a deeper result of this very position from the same search.
                    if bound != Bound::Exact && o.depth > depth + 2 && age_of(data) == age {
                        return;
                    }
                    let mv = if mv == Move::NULL { o.mv } else { mv };
                    write(b, i, key, pack(mv, score, depth, bound, age), eval);
                    return;
                }
            }
            let Some(o) = old else {
                victim = i;
                break;
            };
            // Replace the shallowest entry, counting each generation of age as 8 plies.
            let stale = (age + AGE_MOD - age_of(data)) % AGE_MOD;
            let merit = o.depth - 8 * stale as i32;
            if merit < worst {
                worst = merit;
                victim = i;
            }
        }
        write(b, victim, key, pack(mv, score, depth, bound, age), eval);
    }

    /// Per mille of the first thousand entries filled by the current search generation.
    pub fn hashfull(&self) -> u32 {
        let n = self.capacity().min(1000);
        let age = self.age.load(Ordering::Relaxed);
        let used = (0..n)
            .filter(|&i| {
                let d = self.buckets[i / BUCKET].0[2 * (i % BUCKET)].load(Ordering::Relaxed);
                (d >> 52) & 3 != 0 && age_of(d) == age
            })
            .count();
        (used * 1000 / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::Square;
    use crate::core::moves::MoveKind;

    #[test]
    fn store_then_probe_returns_the_same_entry() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square(12), Square(28), MoveKind::Switch)
            .with_promotion(4)
            .with_partner_promotion(31);
        tt.store(0xDEAD_BEEF_1234_5678, m, -31990, 57, 9, Bound::Lower);
        let h = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored entry");
        assert_eq!(
            h,
            Hit {
                mv: m,
                score: -31990,
                eval: 57,
                depth: 9,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5679), None);
    }

    /// A path or shot move keeps its kill squares out of the table; the stored move
    /// still names it among the legal moves, and names no other move.
    #[test]
    fn a_move_with_kills_is_recognised_from_its_stored_part() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square(9), Square(41), MoveKind::Normal).with_kills(&[Square(17)]);
        let other = Move::new(Square(9), Square(41), MoveKind::Normal).with_promotion(3);
        tt.store(42, m, 0, 0, 3, Bound::Exact);
        let h = tt.probe(42).expect("stored entry");
        assert_ne!(h.mv, m);
        assert!(is_stored_move(h.mv, m));
        assert!(!is_stored_move(h.mv, other));
        assert!(!is_stored_move(Move::NULL, Move::NULL));
    }
}

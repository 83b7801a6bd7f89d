//! Slices of a long job for a batch system (`--shard I/N`, `--pairs A..B`) and the seed
//! mixing that makes each slice independent of how the work was cut.

use std::ops::Range;

/// SplitMix64's finaliser: a bijection on `u64` that spreads every input bit over the
/// output, so neighbouring seeds give unrelated streams (a plain `seed ^ C | 1` maps
/// seeds 2k and 2k+1 to the same state).
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of item `k` of stream `stream` under the user's `seed`. For one seed and
/// stream, distinct `k` give distinct values (each step is a bijection of `k`).
pub fn mix(seed: u64, stream: u64, k: u64) -> u64 {
    splitmix64(splitmix64(seed ^ splitmix64(stream)).wrapping_add(k))
}

/// Shard `index` of `count` (`--shard I/N`, 0 ≤ I < N).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    /// Which slice, from 0.
    pub index: usize,
    /// How many slices the work is cut into.
    pub count: usize,
}

/// Why a `--shard` or `--pairs` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not `I/N` with whole numbers.
    #[error("--shard: \"{0}\" is not I/N (e.g. 0/4)")]
    Syntax(String),
    /// I not below N, or N zero.
    #[error("--shard: {0} needs 0 <= I < N")]
    Range(String),
    /// Not `A..B` with whole numbers, A < B.
    #[error("--pairs: \"{0}\" is not A..B with A < B (e.g. 0..50)")]
    Pairs(String),
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| ShardError::Syntax(s.to_string()))?;
        let parse = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| ShardError::Syntax(s.to_string()))
        };
        let (index, count) = (parse(i)?, parse(n)?);
        if index >= count {
            return Err(ShardError::Range(s.to_string()));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The contiguous part of `0..total` this shard takes; the N parts tile it exactly
    /// and differ in length by at most one.
    pub fn range(&self, total: usize) -> Range<usize> {
        let at = |i: usize| (total as u128 * i as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }

    /// True when item `i` of a list dealt out round-robin belongs to this shard.
    pub fn owns(&self, i: usize) -> bool {
        i % self.count == self.index
    }
}

/// Reads `--pairs A..B` (A inclusive, B exclusive).
pub fn parse_pairs(s: &str) -> Result<Range<usize>, ShardError> {
    let bad = || ShardError::Pairs(s.to_string());
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a >= b {
        return Err(bad());
    }
    Ok(a..b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_seeds_give_different_streams() {
        // The bug this replaces: seeds 2k and 2k+1 gave the same generator.
        for s in 0..1000u64 {
            assert_ne!(mix(s, 0, 0), mix(s + 1, 0, 0), "seed {s}");
            assert_ne!(mix(s, 1, 7), mix(s, 2, 7), "streams of seed {s}");
        }
        let mut seen: Vec<u64> = (0..10_000).map(|k| mix(5, 3, k)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 10_000, "no two items of a stream share a seed");
    }

    #[test]
    fn shards_parse_and_tile_the_work() {
        let s: Shard = "2/5".parse().unwrap();
        assert_eq!((s.index, s.count), (2, 5));
        assert_eq!(s.to_string(), "2/5");
        for bad in ["5/5", "1/0"] {
            assert_eq!(
                bad.parse::<Shard>().unwrap_err(),
                ShardError::Range(bad.into())
            );
        }
        for bad in ["3", "a/4", "-1/4", "1/"] {
            assert_eq!(
                bad.parse::<Shard>().unwrap_err(),
                ShardError::Syntax(bad.into())
            );
        }
        for (total, n) in [(8, 4), (10, 3), (2, 5), (0, 2), (1001, 7)] {
            let mut next = 0;
            for i in 0..n {
                let r = Shard { index: i, count: n }.range(total);
                assert_eq!(
                    r.start, next,
                    "{total} in {n}: shard {i} starts where the last ended"
                );
                assert!(r.len() <= total / n + 1);
                next = r.end;
            }
            assert_eq!(next, total);
        }
    }

    #[test]
    fn pair_ranges_parse() {
        assert_eq!(parse_pairs("4..8").unwrap(), 4..8);
        for bad in ["8..4", "3..3", "4-8", "a..2", "..3"] {
            assert_eq!(parse_pairs(bad).unwrap_err(), ShardError::Pairs(bad.into()));
        }
    }
}

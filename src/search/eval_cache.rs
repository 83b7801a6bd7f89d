//! A thread's cache of static evaluations by position key. The transposition table keeps
//! an evaluation only where a node stores its result, and the nodes that end on the
//! evaluation alone (a stand-pat cut, reverse futility) store nothing: their next visit
//! would evaluate again. Storing them in the table instead was not shown harmless by its
//! test (docs/strength.md: every such store would push an entry out), so they live here,
//! apart from it.

/// Entries (a power of two): 128 KB, small enough to stay in a core's L2 cache.
const SIZE: usize = 16_384;
/// Key bits below this one index the entry; those above it check it.
const TAG_SHIFT: u32 = 16;

/// Evaluations by position key, one per entry, the newest kept.
pub struct EvalCache {
    /// The key's bits above [`TAG_SHIFT`], then the evaluation in the low 16 bits; 0 when
    /// empty (a key whose tag is 0 is never found).
    entries: Box<[u64]>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            entries: vec![0; SIZE].into_boxed_slice(),
        }
    }
}

impl EvalCache {
    /// Empties every entry, keeping the memory (a new game).
    pub fn reset(&mut self) {
        self.entries.fill(0);
    }

    /// The evaluation stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        let e = self.entries[key as usize & (SIZE - 1)];
        let tag = key >> TAG_SHIFT;
        (tag != 0 && e >> TAG_SHIFT == tag).then_some(e as u16 as i16 as i32)
    }

    /// Stores `eval` for `key`; evaluations outside 16 bits are not stored.
    #[inline]
    pub fn put(&mut self, key: u64, eval: i32) {
        if let Ok(v) = i16::try_from(eval) {
            self.entries[key as usize & (SIZE - 1)] =
                (key >> TAG_SHIFT << TAG_SHIFT) | v as u16 as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_is_found_under_its_own_key_only() {
        let mut c = EvalCache::default();
        let k = 0x1234_5678_9abc_def0u64;
        assert_eq!(c.get(k), None);
        c.put(k, -517);
        assert_eq!(c.get(k), Some(-517));
        // Same entry, another tag: not this key's evaluation.
        assert_eq!(c.get(k ^ 1 << 40), None);
        c.put(k ^ 1 << 40, 33);
        assert_eq!(c.get(k), None);
        assert_eq!(c.get(k ^ 1 << 40), Some(33));
    }

    #[test]
    fn evaluations_beyond_sixteen_bits_are_not_stored() {
        let mut c = EvalCache::default();
        let k = 0xfeed_0000_0000_0042u64;
        c.put(k, 40_000);
        assert_eq!(c.get(k), None);
        c.put(k, i16::MIN as i32);
        assert_eq!(c.get(k), Some(i16::MIN as i32));
    }
}

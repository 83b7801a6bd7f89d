//! Breadcrumbs (Stockfish 11's `ThreadHolding`): a thread searching a node near the root
//! leaves its mark there, and another thread that arrives at the same node meanwhile
//! reduces its late moves a ply more. Lazy SMP's threads otherwise walk the same shallow
//! nodes in step and search the same subtrees twice; a node one thread holds is left to
//! it a little, and the other spreads into the rest of the tree.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Plies from the root at which nodes are marked (Stockfish's 8): deeper nodes are too
/// many and too short-lived for two threads to meet in often.
pub const CRUMB_PLIES: usize = 8;
/// Slots in the table (a power of two), indexed by the key's low bits.
const SLOTS: usize = 1024;

/// One slot: which thread holds it (its id + 1; 0 when free) and the node's key.
#[derive(Default)]
struct Slot {
    owner: AtomicUsize,
    key: AtomicU64,
}

/// The shared table of marks.
pub(crate) struct Crumbs {
    slots: Box<[Slot]>,
}

/// What a node did with its slot: held it (and frees it when done), found another
/// thread's mark on its own key, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hold {
    /// Not marked (deep, a slot another key holds, or one thread).
    None,
    /// This node marked slot `usize`; release it when the node is done.
    Owned(usize),
    /// Another thread is searching this very node.
    Other,
}

impl Hold {
    /// Whether another thread was searching the node when this one reached it.
    #[inline]
    pub fn marked(self) -> bool {
        self == Hold::Other
    }
}

impl Default for Crumbs {
    fn default() -> Crumbs {
        Crumbs {
            slots: (0..SLOTS).map(|_| Slot::default()).collect(),
        }
    }
}

impl Crumbs {
    /// Thread `id` enters the node `key`: marks its slot if the slot is free, or reports
    /// that another thread holds this very key. Relaxed order throughout: a mark is a hint
    /// for a reduction, and a stale or torn one only costs a little search.
    #[inline]
    pub fn hold(&self, id: usize, key: u64) -> Hold {
        let i = key as usize & (SLOTS - 1);
        let slot = &self.slots[i];
        match slot.owner.load(Ordering::Relaxed) {
            0 => {
                slot.owner.store(id + 1, Ordering::Relaxed);
                slot.key.store(key, Ordering::Relaxed);
                Hold::Owned(i)
            }
            o if o != id + 1 && slot.key.load(Ordering::Relaxed) == key => Hold::Other,
            _ => Hold::None,
        }
    }

    /// Frees the slot a node held.
    #[inline]
    pub fn release(&self, hold: Hold) {
        if let Hold::Owned(i) = hold {
            self.slots[i].owner.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
impl Crumbs {
    /// Whether every slot is free (no node holds one).
    pub fn all_free(&self) -> bool {
        self.slots
            .iter()
            .all(|s| s.owner.load(Ordering::Relaxed) == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_another_thread_holds_is_marked_until_it_is_released() {
        let c = Crumbs::default();
        let key = 0xDEAD_BEEF_0000_0042;
        let first = c.hold(0, key);
        assert!(matches!(first, Hold::Owned(_)));
        assert!(c.hold(1, key).marked(), "thread 1 meets thread 0's mark");
        assert!(
            !c.hold(0, key).marked(),
            "a thread's own mark is not another's"
        );
        assert!(
            !c.hold(1, key ^ (1 << 40)).marked(),
            "another key in the same slot is not the node"
        );
        c.release(first);
        assert!(
            matches!(c.hold(1, key), Hold::Owned(_)),
            "freed, thread 1 takes it"
        );
    }
}

//! Naming back (T6): a taxonomy name whose atoms are exactly a given set (the strongest
//! block as the Name for an OR-combination, else the shortest name found by covering the
//! set with candidate components), or none — never a name that means something else.

use super::{
    parse, Block, Component, Count, DirEffect, Scope, SuffixEffect, TaxonomyError, ALL_DIRECTIONS,
    BACKWARD, BLOCKS, DIR_WORDS, FORWARD, SIDEWAYS, SUFFIX_WORDS,
};
use crate::movement::atoms::{Atom, AtomKind, Mode, Offset};
use crate::movement::betza;
use ahash::AHashMap as HashMap;

/// A candidate component for naming: a block and the words on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spec {
    block: Block,
    /// `Some` = rider with this count and free flag.
    rider: Option<(Count, bool)>,
    directions: u8,
    mode: Mode,
}

impl Spec {
    fn component(&self, is_name: bool) -> Component {
        let mut c = Component::plain(self.block, is_name);
        c.directions = self.directions;
        c.mode = self.mode;
        if let Some((count, free)) = self.rider {
            c.rider = true;
            c.stepping.count = count;
            c.stepping.free = free;
        }
        c
    }

    /// Qualifier words (empty for the defaults).
    fn qualifiers(&self) -> Vec<String> {
        let Some((count, free)) = self.rider else {
            return Vec::new();
        };
        let mut q = Vec::new();
        match count {
            Count::AtMost(2) => {}
            Count::AtMost(n) => q.push(format!("{n}-step")),
            Count::Exactly(n) => {
                q.push("fire".to_string());
                if n != 2 {
                    q.push(format!("{n}-step"));
                }
            }
            Count::AtLeast(n) => {
                q.push("fury".to_string());
                if n != 2 {
                    q.push(format!("{n}-step"));
                }
            }
            Count::Unlimited => q.push("far".to_string()),
        }
        if free {
            q.push("free".to_string());
        }
        q
    }

    /// The words of this component as prefix (`is_name` false) or Name, without
    /// qualifiers; the block word is marked.
    fn words(&self, is_name: bool) -> Vec<(String, bool)> {
        let scope = if is_name { Scope::Name } else { Scope::Prefix };
        let mut w = Vec::new();
        if self.directions != ALL_DIRECTIONS {
            if let Some((t, _, _)) = DIR_WORDS
                .iter()
                .find(|(_, s, e)| *s == scope && *e == DirEffect::Only(self.directions))
            {
                w.push((t.to_string(), false));
            }
        }
        let block = if is_name {
            self.block.name()
        } else {
            self.block.prefix()
        };
        w.push((block.to_string(), true));
        let suffix = |e: SuffixEffect| {
            SUFFIX_WORDS
                .iter()
                .find(|(_, s, x)| *s == scope && *x == e)
                .map(|(t, _, _)| (t.to_string(), false))
        };
        if self.rider.is_some() {
            w.extend(suffix(SuffixEffect::Rider));
        }
        if self.mode != Mode::Both {
            w.extend(suffix(SuffixEffect::Mode(self.mode)));
        }
        w
    }
}

/// Rough strength of a component: squares reached from the centre of a large empty
/// board, counting a move-or-capture square twice.
fn mobility(atoms: &[Atom]) -> u32 {
    atoms
        .iter()
        .map(|a| {
            let reach = match a.kind {
                AtomKind::Ride { range: 0 } => 7,
                AtomKind::Ride { range } => range.min(7) as u32,
                _ => 1,
            };
            let weight = if a.mode == Mode::Both { 2 } else { 1 };
            reach * weight
        })
        .sum()
}

/// One unit of movement: an atom's kind and step, one mode bit, initial or not.
type Unit = (AtomKind, Offset, bool, bool);

fn units(atoms: &[Atom]) -> Vec<Unit> {
    let mut out = Vec::new();
    for a in atoms {
        if a.mode.moves() {
            out.push((a.kind, a.step, a.initial, false));
        }
        if a.mode.captures() {
            out.push((a.kind, a.step, a.initial, true));
        }
    }
    out
}

/// A candidate's cover of the target: which target units it produces, or `None` when
/// it produces a unit the target lacks.
fn cover_mask(cand: &[Atom], index: &HashMap<Unit, usize>) -> Option<u128> {
    let mut mask = 0u128;
    for u in units(cand) {
        match index.get(&u) {
            Some(&i) => mask |= 1 << i,
            None => {
                // An initial-only unit the target allows unconditionally adds nothing.
                let plain = (u.0, u.1, false, u.3);
                if !(u.2 && index.contains_key(&plain)) {
                    return None;
                }
            }
        }
    }
    Some(mask)
}

/// Search for covers of `full` by exactly `k` more candidates.
fn covers(
    masks: &[u128],
    full: u128,
    covered: u128,
    k: usize,
    chosen: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if covered == full {
        let mut c = chosen.clone();
        c.sort_unstable();
        if !out.contains(&c) {
            out.push(c);
        }
        return;
    }
    if k == 0 || out.len() >= 4096 {
        return;
    }
    let first = (full & !covered).trailing_zeros();
    for (i, &m) in masks.iter().enumerate() {
        if m >> first & 1 == 1 && !chosen.contains(&i) {
            chosen.push(i);
            covers(masks, full, covered | m, k - 1, chosen, out);
            chosen.pop();
        }
    }
}

/// Writes the name of a cover: the strongest component is the Name, the others are
/// prefixes (strongest first).
fn write_name(parts: &[(Spec, u32)]) -> String {
    let mut order: Vec<&(Spec, u32)> = parts.iter().collect();
    order.sort_by_key(|(s, mob)| (std::cmp::Reverse(*mob), s.block.rank()));
    let name = order.remove(0);
    order.push(name);
    let ridden = order.iter().filter(|(s, _)| s.rider.is_some()).count();
    // Qualifiers written before the first block word reach every ridden component.
    let leading = order[0].0.rider.is_some() && !order[0].0.qualifiers().is_empty();
    // (word, is a block word)
    let mut tokens: Vec<(String, bool)> = Vec::new();
    if ridden <= 1 {
        // Leading qualifiers apply to every ridden component: here, the only one.
        if let Some((s, _)) = order.iter().find(|(s, _)| s.rider.is_some()) {
            tokens.extend(s.qualifiers().into_iter().map(|q| (q, false)));
        }
    }
    let last = order.len() - 1;
    for (i, (s, _)) in order.iter().enumerate() {
        if ridden > 1 && s.rider.is_some() {
            let mut q = s.qualifiers();
            if q.is_empty() && i > 0 && leading {
                // Shield this one from the leading qualifiers of the first component.
                q.push("2-step".to_string());
            }
            tokens.extend(q.into_iter().map(|q| (q, false)));
        }
        tokens.extend(s.words(i == last));
    }
    let mut out = String::new();
    for (i, (w, block)) in tokens.iter().enumerate() {
        if i > 0 {
            let hyphen = *block && tokens[i - 1].1;
            out.push(if hyphen { '-' } else { ' ' });
        }
        out.push_str(w);
    }
    out
}

/// The taxonomy name of a movement (T6): for an OR-combination of building blocks, the
/// strongest as the Name and the others as prefixes; otherwise the shortest name found
/// that parses back to the same atoms. `None` when no such name is found — never a
/// name that means something else.
pub fn name_of(atoms: &[Atom]) -> Option<String> {
    let target = betza::normalize(atoms);
    let target_units = units(&target);
    if target_units.is_empty() || target_units.len() > 128 {
        return None;
    }
    let index: HashMap<Unit, usize> = target_units
        .iter()
        .enumerate()
        .map(|(i, u)| (*u, i))
        .collect();
    let full = if target_units.len() == 128 {
        u128::MAX
    } else {
        (1u128 << target_units.len()) - 1
    };
    // Ride ranges the target uses, so that `N-step` riders are tried for them.
    let mut ranges: Vec<u8> = vec![2];
    for a in &target {
        if let AtomKind::Ride { range } = a.kind {
            if range > 2 && !ranges.contains(&range) {
                ranges.push(range);
            }
        }
    }
    let mut riders: Vec<Option<(Count, bool)>> = vec![None, Some((Count::Unlimited, false))];
    riders.extend(ranges.iter().map(|&n| Some((Count::AtMost(n), false))));
    riders.push(Some((Count::Exactly(2), false)));
    for n in 2..=3 {
        riders.push(Some((Count::AtMost(n), true)));
        riders.push(Some((Count::Exactly(n), true)));
    }
    let dirs = [
        ALL_DIRECTIONS,
        FORWARD,
        FORWARD | SIDEWAYS,
        SIDEWAYS,
        SIDEWAYS | BACKWARD,
        BACKWARD,
    ];
    let fail = |msg: String| TaxonomyError {
        name: String::new(),
        msg,
    };
    // Distinct covers by mask, keeping the candidate with the shortest words.
    let mut best: HashMap<u128, (Spec, u32, usize)> = HashMap::new();
    for b in &BLOCKS {
        for &rider in &riders {
            if rider.is_some() && !b.block.rideable() {
                continue;
            }
            for &directions in &dirs {
                for mode in [Mode::Both, Mode::Move, Mode::Capture] {
                    let spec = Spec {
                        block: b.block,
                        rider,
                        directions,
                        mode,
                    };
                    let Ok(atoms) = spec.component(true).atoms(&fail) else {
                        continue;
                    };
                    let atoms = betza::normalize(&atoms);
                    let Some(mask) = cover_mask(&atoms, &index) else {
                        continue;
                    };
                    if mask == 0 {
                        continue;
                    }
                    let len: usize = spec
                        .qualifiers()
                        .iter()
                        .chain(spec.words(true).iter().map(|w| &w.0))
                        .map(|w| w.len() + 1)
                        .sum();
                    let mob = mobility(&atoms);
                    let e = best.entry(mask).or_insert((spec, mob, len));
                    if len < e.2 {
                        *e = (spec, mob, len);
                    }
                }
            }
        }
    }
    let mut cands: Vec<(u128, Spec, u32)> = best
        .into_iter()
        .map(|(m, (s, mob, _))| (m, s, mob))
        .collect();
    // Deterministic order whatever the hash map did.
    cands.sort_by_key(|(m, s, _)| (std::cmp::Reverse(m.count_ones()), s.block.rank(), *m));
    let masks: Vec<u128> = cands.iter().map(|c| c.0).collect();
    for k in 1..=3 {
        let mut found = Vec::new();
        covers(&masks, full, 0, k, &mut Vec::new(), &mut found);
        let mut names: Vec<String> = found
            .iter()
            .map(|c| {
                let parts: Vec<(Spec, u32)> = c.iter().map(|&i| (cands[i].1, cands[i].2)).collect();
                write_name(&parts)
            })
            .collect();
        names.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        names.dedup();
        for n in names {
            if parse(&n).is_ok_and(|a| a == target) {
                return Some(n);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naming_back_the_seed_examples() {
        // T6: the strongest component is the Name, the others prefixes.
        let name = |s: &str| name_of(&betza::parse(s).unwrap());
        assert_eq!(name("RN").as_deref(), Some("Noble-Rook"));
        assert_eq!(name("QN").as_deref(), Some("Noble-Queen"));
        assert_eq!(name("BN").as_deref(), Some("Noble-Bishop"));
        assert_eq!(name("K").as_deref(), Some("Guard"));
        assert_eq!(name("FA").as_deref(), Some("Elephant"));
        assert_eq!(name("KN").as_deref(), Some("Noble-Guard"));
        assert_eq!(name("fmWfcFifmnD").as_deref(), Some("Pawn"));
        assert_eq!(name("NN").as_deref(), Some("far Knight Rider"));
        assert_eq!(name("R4").as_deref(), Some("4-step Wazir Rider"));
        assert_eq!(name("R2").as_deref(), Some("Wazir Rider"));
        assert_eq!(name("fW").as_deref(), Some("Brave Wazir"));
        // No name rather than a wrong one.
        assert_eq!(name("mRcpR"), None);
        assert_eq!(name("C"), None);
        assert_eq!(name("FyafsF"), None);
    }

    #[test]
    fn naming_back_round_trips() {
        // T6: whatever name is given parses back to the same movement.
        let list = [
            "K",
            "Q",
            "R",
            "B",
            "N",
            "W",
            "F",
            "D",
            "A",
            "WD",
            "FD",
            "WA",
            "FA",
            "AD",
            "FAD",
            "KN",
            "RN",
            "BN",
            "QN",
            "NN",
            "N3",
            "R4",
            "B3",
            "Q2",
            "K2",
            "fW",
            "fF",
            "fsW",
            "bR",
            "sR",
            "mW",
            "cF",
            "WmF",
            "WcF",
            "fmWfcF",
            "fmWfcFifmnD",
            "nD",
            "nA",
            "WDH",
            "RNA",
            "BNW",
            "QNAD",
            "DD",
            "AA",
            "mQcN",
            "fhN",
            "RR2",
            "R2N",
            "N2R",
            "HCZ",
            "mRcpR",
            "FyafsF",
            "nN",
            "KAD",
            "ffN",
            "fNbN",
            "lW",
            "fmF",
            "WDA",
            "RF",
            "BW",
        ];
        for s in list {
            let atoms = betza::parse(s).unwrap();
            if let Some(n) = name_of(&atoms) {
                assert_eq!(parse(&n).ok(), Some(betza::normalize(&atoms)), "{s} -> {n}");
            }
        }
    }
}

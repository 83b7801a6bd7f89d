//! Compound stacks (Augsburg): pieces as sums of primitive atoms.
//!
//! A variant that switches stacking on names its primitive atoms (`[stacking] atoms`) and
//! gives each stackable piece a composition (its count of each atom). A position keeps
//! those counts in parallel occupancy planes: for every atom, one plane per binary digit
//! of its count, then a few planes that tell apart types of equal composition (Queen and
//! Senator). Combining is a bit-sliced addition of one square's digits onto another's,
//! splitting a subtraction, and the piece type on a square is read back through a lookup
//! from its plane code. Which types combine, split and transform is derived here from the
//! compositions once, never listed as cases.

use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{PieceType, MAX_PIECE_TYPES};

/// Most primitive atoms a variant may stack from.
pub const MAX_STACK_ATOMS: usize = 4;
/// Most stack planes a position carries (count digits of every atom plus the alternates).
pub const MAX_STACK_PLANES: usize = 12;
/// Lookup entry of a plane code that no type has.
const NO_TYPE: u8 = 0xFF;

/// A composition: the count of each primitive atom.
pub type Counts = [u8; MAX_STACK_ATOMS];

/// Table key `stacking`: the primitive atoms compositions count.
#[derive(serde::Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StackingFile {
    /// Names of the primitive atoms, in the order of every piece's `composition`.
    pub atoms: Vec<String>,
    /// Types of equal composition may change into each other on a plain move to an
    /// empty square.
    #[serde(default)]
    pub transform: bool,
}

/// One piece's stacking keys, as the compiler checks them.
pub struct PieceStackFile<'a> {
    /// `composition`, if given.
    pub composition: Option<&'a [u8]>,
    /// Royal pieces cannot stack.
    pub royal: bool,
    /// Pawns cannot stack.
    pub pawn: bool,
}

/// Compiles `[stacking]` with every piece's `composition`; without the table, no piece
/// may have a composition.
pub fn compile(
    sf: Option<&StackingFile>,
    pieces: &[PieceStackFile],
) -> Result<Option<Stacking>, crate::rules::RuleError> {
    use crate::rules::RuleError;
    let Some(sf) = sf else {
        if let Some(i) = pieces.iter().position(|p| p.composition.is_some()) {
            return Err(RuleError::new(
                format!("piece[{i}].composition"),
                "needs a [stacking] table",
            ));
        }
        return Ok(None);
    };
    let mut comps: Vec<Option<Counts>> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let key = format!("piece[{i}].composition");
        comps.push(match p.composition {
            None => None,
            Some(c) => {
                if c.len() != sf.atoms.len() {
                    return Err(RuleError::new(
                        key,
                        format!("{} counts for {} atoms", c.len(), sf.atoms.len()),
                    ));
                }
                if c.iter().all(|&n| n == 0) {
                    return Err(RuleError::new(key, "a composition needs at least one atom"));
                }
                if p.royal || p.pawn {
                    return Err(RuleError::new(key, "royal and pawn pieces cannot stack"));
                }
                let mut counts = [0u8; MAX_STACK_ATOMS];
                let n = c.len().min(MAX_STACK_ATOMS);
                counts[..n].copy_from_slice(&c[..n]);
                Some(counts)
            }
        });
    }
    Stacking::build(sf.atoms.clone(), sf.transform, &comps)
        .map(Some)
        .map_err(|m| RuleError::new("stacking", m))
}

/// The compiled stacking rules of a variant.
#[derive(Clone, Debug)]
pub struct Stacking {
    /// Names of the primitive atoms, in plane order.
    pub atoms: Vec<String>,
    /// Binary digits per atom count.
    pub digits: u8,
    /// Planes that number the types sharing one composition.
    pub alt_bits: u8,
    /// True when a type may change into another of equal composition on a plain move to
    /// an empty square (Augsburg A4).
    pub transform: bool,
    /// Per type: its composition (all zero when it does not stack).
    pub counts: [Counts; MAX_PIECE_TYPES],
    /// Per type: its plane code (count digits, then its alternate index); 0 = no stack.
    pub code: [u16; MAX_PIECE_TYPES],
    /// The plane code bits that hold counts (without the alternate index).
    pub count_mask: u16,
    /// Plane code → type ([`NO_TYPE`] where no type has it).
    lookup: Vec<u8>,
    /// `mover * MAX_PIECE_TYPES + partner` → the types their sum may become.
    combine: Vec<u32>,
    /// The types that have a composition (a bit mask).
    pub stackable: u32,
    /// Per type: the friendly types it may move onto and combine with.
    pub partners: [u32; MAX_PIECE_TYPES],
    /// Per type: the types that may land on the destination when it splits.
    pub splits: [u32; MAX_PIECE_TYPES],
    /// Per type: the other types of the same composition.
    pub alike: [u32; MAX_PIECE_TYPES],
}

impl Stacking {
    /// Builds the planes layout and every derived table from the compositions
    /// (`None` for a type that does not stack); an error names what is wrong.
    fn build(
        atoms: Vec<String>,
        transform: bool,
        comps: &[Option<Counts>],
    ) -> Result<Stacking, String> {
        if atoms.is_empty() || atoms.len() > MAX_STACK_ATOMS {
            return Err(format!("1 to {MAX_STACK_ATOMS} atoms, not {}", atoms.len()));
        }
        let max = comps
            .iter()
            .flatten()
            .flat_map(|c| c.iter())
            .copied()
            .max()
            .unwrap_or(0);
        if max == 0 {
            return Err("no piece has a composition".into());
        }
        let digits = (8 - max.leading_zeros()) as u8;
        let mut alike = [0u32; MAX_PIECE_TYPES];
        for (t, c) in comps.iter().enumerate() {
            if let Some(c) = c {
                for (u, d) in comps.iter().enumerate() {
                    if u != t && d.as_ref() == Some(c) {
                        alike[t] |= 1 << u;
                    }
                }
            }
        }
        let most_alike = alike.iter().map(|m| m.count_ones() + 1).max().unwrap_or(1);
        let alt_bits = (32 - (most_alike - 1).leading_zeros()) as u8;
        let planes = atoms.len() * digits as usize + alt_bits as usize;
        if planes > MAX_STACK_PLANES {
            return Err(format!(
                "compositions need {planes} planes, at most {MAX_STACK_PLANES} are supported"
            ));
        }
        let count_bits = atoms.len() as u32 * digits as u32;
        let count_mask = ((1u32 << count_bits) - 1) as u16;
        let pack = |c: &Counts| -> u16 {
            c.iter().enumerate().fold(0u16, |acc, (i, &n)| {
                acc | (n as u16) << (i as u32 * digits as u32)
            })
        };
        let mut counts = [[0u8; MAX_STACK_ATOMS]; MAX_PIECE_TYPES];
        let mut code = [0u16; MAX_PIECE_TYPES];
        let mut lookup = vec![NO_TYPE; 1 << planes];
        let mut stackable = 0u32;
        for (t, c) in comps.iter().enumerate() {
            let Some(c) = c else { continue };
            stackable |= 1 << t;
            // Types of one composition are numbered in table order.
            let alt = (alike[t] & ((1u32 << t) - 1)).count_ones() as u16;
            counts[t] = *c;
            code[t] = pack(c) | alt << count_bits;
            lookup[code[t] as usize] = t as u8;
        }
        // The type a composition stands for when nobody chose: its first (alternate 0).
        let first = |c: &Counts| -> Option<usize> {
            if c.iter().all(|&n| n == 0) || c.iter().any(|&n| n > max) {
                return None;
            }
            match lookup[pack(c) as usize] {
                NO_TYPE => None,
                t => Some(t as usize),
            }
        };
        let mut combine = vec![0u32; MAX_PIECE_TYPES * MAX_PIECE_TYPES];
        let mut partners = [0u32; MAX_PIECE_TYPES];
        let mut splits = [0u32; MAX_PIECE_TYPES];
        for (t, ct) in comps.iter().enumerate() {
            let Some(ct) = ct else { continue };
            for (u, cu) in comps.iter().enumerate() {
                let Some(cu) = cu else { continue };
                let mut sum = [0u8; MAX_STACK_ATOMS];
                for i in 0..MAX_STACK_ATOMS {
                    sum[i] = ct[i].saturating_add(cu[i]);
                }
                if let Some(r) = first(&sum) {
                    combine[t * MAX_PIECE_TYPES + u] = 1 << r | alike[r];
                    partners[t] |= 1 << u;
                }
                if cu.iter().zip(ct).all(|(a, b)| a <= b) {
                    let mut rest = [0u8; MAX_STACK_ATOMS];
                    for i in 0..MAX_STACK_ATOMS {
                        rest[i] = ct[i] - cu[i];
                    }
                    if first(&rest).is_some() {
                        splits[t] |= 1 << u;
                    }
                }
            }
        }
        Ok(Stacking {
            atoms,
            digits,
            alt_bits,
            transform,
            counts,
            code,
            count_mask,
            lookup,
            combine,
            stackable,
            partners,
            splits,
            alike,
        })
    }

    /// Number of planes a position carries for this variant.
    #[inline(always)]
    pub fn planes(&self) -> usize {
        self.atoms.len() * self.digits as usize + self.alt_bits as usize
    }

    /// The types a `mover` moving onto a friendly `partner` may become (a bit mask).
    #[inline(always)]
    pub fn combine(&self, mover: PieceType, partner: PieceType) -> u32 {
        self.combine[mover as usize * MAX_PIECE_TYPES + partner as usize]
    }

    /// The types a plain move to an empty square may change `t` into (A4).
    #[inline(always)]
    pub fn transforms(&self, t: PieceType) -> u32 {
        if self.transform {
            self.alike[t as usize]
        } else {
            0
        }
    }

    /// The plane code standing on `sq`.
    #[inline(always)]
    pub fn code_at<W: Word>(&self, planes: &[Bitboard<W>], sq: Square) -> u16 {
        let mut code = 0u16;
        for (k, p) in planes[..self.planes()].iter().enumerate() {
            code |= (p.has(sq) as u16) << k;
        }
        code
    }

    /// The type whose plane code stands on `sq`, if the code is one.
    #[inline(always)]
    pub fn type_at<W: Word>(&self, planes: &[Bitboard<W>], sq: Square) -> Option<PieceType> {
        match self.lookup[self.code_at(planes, sq) as usize] {
            NO_TYPE => None,
            t => Some(t),
        }
    }

    /// The composition standing on `sq`, read from the count planes.
    pub fn counts_at<W: Word>(&self, planes: &[Bitboard<W>], sq: Square) -> Counts {
        let code = self.code_at(planes, sq);
        let mut out = [0u8; MAX_STACK_ATOMS];
        let digit_mask = (1u16 << self.digits) - 1;
        for (i, n) in out.iter_mut().enumerate().take(self.atoms.len()) {
            *n = (code >> (i as u32 * self.digits as u32) & digit_mask) as u8;
        }
        out
    }

    /// Adds the counts of plane code `addend` to the composition on `sq`: a ripple-carry
    /// addition over each atom's digit planes (the carry lives on `sq` only).
    #[inline]
    pub fn add<W: Word>(&self, planes: &mut [Bitboard<W>], sq: Square, addend: u16) {
        let d = self.digits as usize;
        let mut carry = Bitboard::EMPTY;
        for (k, plane) in planes[..self.atoms.len() * d].iter_mut().enumerate() {
            if k % d == 0 {
                // Each atom's count is its own number: no carry between atoms.
                debug_assert!(carry.is_empty(), "stack count overflow");
                carry = Bitboard::EMPTY;
            }
            let a = *plane;
            let b = if addend >> k & 1 != 0 {
                sq.bb()
            } else {
                Bitboard::EMPTY
            };
            *plane = a ^ b ^ carry;
            carry = (a & b) | (carry & (a ^ b));
        }
        debug_assert!(carry.is_empty(), "stack count overflow");
    }

    /// Subtracts the counts of plane code `subtrahend` from the composition on `sq`:
    /// a ripple-borrow subtraction over each atom's digit planes.
    #[inline]
    pub fn sub<W: Word>(&self, planes: &mut [Bitboard<W>], sq: Square, subtrahend: u16) {
        let d = self.digits as usize;
        let mut borrow = Bitboard::EMPTY;
        for (k, plane) in planes[..self.atoms.len() * d].iter_mut().enumerate() {
            if k % d == 0 {
                debug_assert!(borrow.is_empty(), "stack count underflow");
                borrow = Bitboard::EMPTY;
            }
            let a = *plane;
            let b = if subtrahend >> k & 1 != 0 {
                sq.bb()
            } else {
                Bitboard::EMPTY
            };
            *plane = a ^ b ^ borrow;
            borrow = (!a & b) | (!(a ^ b) & borrow);
        }
        debug_assert!(borrow.is_empty(), "stack count underflow");
    }

    /// Writes the alternate index of plane code `code` on `sq` (which of the types of
    /// that composition stands there).
    #[inline]
    pub fn set_alt<W: Word>(&self, planes: &mut [Bitboard<W>], sq: Square, code: u16) {
        let base = self.atoms.len() * self.digits as usize;
        for j in 0..self.alt_bits as usize {
            if code >> (base + j) & 1 != 0 {
                planes[base + j].set(sq);
            } else {
                planes[base + j].clear(sq);
            }
        }
    }
}

/// Sets the bits of plane code `code` on `sq` (an empty stack square).
#[inline(always)]
pub fn stamp<W: Word>(planes: &mut [Bitboard<W>], sq: Square, mut code: u16) {
    while code != 0 {
        planes[code.trailing_zeros() as usize].set(sq);
        code &= code - 1;
    }
}

/// Clears the bits of plane code `code` from `sq`.
#[inline(always)]
pub fn erase<W: Word>(planes: &mut [Bitboard<W>], sq: Square, mut code: u16) {
    while code != 0 {
        planes[code.trailing_zeros() as usize].clear(sq);
        code &= code - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn augsburg_like() -> Stacking {
        // F W E C N B R D T L Q S, then a non-stacking K.
        let c = |f: u8, w: u8| Some([f, w, 0, 0]);
        let comps = [
            c(1, 0),
            c(0, 1),
            c(2, 0),
            c(0, 2),
            c(1, 1),
            c(4, 0),
            c(0, 4),
            c(3, 1),
            c(1, 3),
            c(2, 2),
            c(4, 4),
            c(4, 4),
            None,
        ];
        Stacking::build(vec!["ferz".into(), "wazir".into()], true, &comps).unwrap()
    }

    #[test]
    fn layout_has_three_digits_per_atom_and_one_alternate_plane() {
        let s = augsburg_like();
        assert_eq!((s.digits, s.alt_bits, s.planes()), (3, 1, 7));
        assert_eq!(s.code[10], 4 | 4 << 3);
        assert_eq!(s.code[11], 4 | 4 << 3 | 1 << 6);
        assert_eq!(s.code[12], 0);
    }

    #[test]
    fn derived_recipes_are_the_seed_list() {
        let s = augsburg_like();
        let names = "FWECNBRDTLQS";
        let mut recipes = Vec::new();
        for t in 0..12u8 {
            for u in t..12u8 {
                let r = s.combine(t, u);
                if r != 0 {
                    let into: String = (0..12)
                        .filter(|x| r >> x & 1 != 0)
                        .map(|x| &names[x..x + 1])
                        .collect();
                    recipes.push(format!(
                        "{}+{}={}",
                        &names[t as usize..t as usize + 1],
                        &names[u as usize..u as usize + 1],
                        into
                    ));
                }
            }
        }
        assert_eq!(
            recipes.join(" "),
            "F+F=E F+W=N W+W=C E+E=B E+C=L E+N=D C+C=R C+N=T N+N=L B+R=QS D+T=QS L+L=QS"
        );
        let landing = |t: usize| -> String {
            (0..12)
                .filter(|x| s.splits[t] >> x & 1 != 0)
                .map(|x| &names[x..x + 1])
                .collect()
        };
        assert_eq!(landing(9), "ECN");
        assert_eq!(landing(10), "BRDTL");
        assert_eq!(landing(0), "");
    }

    #[test]
    fn plane_addition_and_subtraction_round_trip_on_every_square() {
        let s = augsburg_like();
        let mut planes = [Bitboard::<u128>::EMPTY; MAX_STACK_PLANES];
        for q in 0..100u8 {
            let sq = Square(q);
            stamp(&mut planes, sq, s.code[(q % 12) as usize]);
        }
        let before = planes;
        // Knight (1,1) + Elephant (2,0) on square 4 (a Knight): a Deacon (3,1).
        let sq = Square(4);
        s.add(&mut planes, sq, s.code[2] & s.count_mask);
        assert_eq!(s.type_at(&planes, sq), Some(7));
        assert_eq!(s.counts_at(&planes, sq), [3, 1, 0, 0]);
        s.sub(&mut planes, sq, s.code[2] & s.count_mask);
        assert_eq!(planes, before);
        // Queen (4,4) minus Longbowman (2,2) leaves a Longbowman; only that square changes.
        let q = Square(10);
        s.sub(&mut planes, q, s.code[9] & s.count_mask);
        assert_eq!(s.type_at(&planes, q), Some(9));
        for o in 0..100u8 {
            if o != 10 {
                assert_eq!(s.code_at(&planes, Square(o)), s.code_at(&before, Square(o)));
            }
        }
    }
}

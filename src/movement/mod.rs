//! How pieces move: movement atoms, the two notations that compile to them (Betza and
//! the Locomotive Taxonomy), and the attack tables built from them.

pub mod atoms;
pub mod attacks;
pub mod betza;
pub mod taxonomy;

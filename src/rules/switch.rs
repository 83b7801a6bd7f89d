//! The positional switch (table key `switch`): listed types may exchange squares with a
//! nearby friendly piece (ArchMage M1–M4). Written `<from><to>`, a move kind of its own.

use super::{Ctx, RuleError};
use crate::core::geometry::Bitboard;
use serde::Deserialize;

/// Table key `switch`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct SwitchFile {
    /// Letters of the types that may switch.
    pub pieces: String,
    /// Largest king-distance between the switcher and its partner.
    pub distance: u32,
}

/// A compiled positional switch.
#[derive(Clone, Debug)]
pub struct SwitchRule {
    /// Types that may switch, as a bit mask.
    pub types: u32,
    /// Per square: the squares within the switch distance (the square itself excluded).
    pub reach: Vec<Bitboard>,
    /// Per colour: where some piece type of that colour promotes on arrival.
    pub promotion_zones: [Bitboard; 2],
}

/// Compiles `[switch]`; `promotion_zones` are the union of every type's promotion zone.
pub fn compile(
    ctx: &Ctx,
    sf: &SwitchFile,
    promotion_zones: [Bitboard; 2],
) -> Result<SwitchRule, RuleError> {
    let types = ctx.type_mask(&sf.pieces, "switch.pieces")?;
    if types == 0 || sf.distance == 0 {
        return Err(RuleError::new(
            "switch",
            "needs at least one piece and a distance of 1 or more",
        ));
    }
    Ok(SwitchRule {
        types,
        reach: ctx.within(sf.distance),
        promotion_zones,
    })
}

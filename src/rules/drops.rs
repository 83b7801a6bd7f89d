//! Drops (table key `drops`): pieces in hand put onto empty squares, optionally only
//! near a listed friendly piece, and which captured types feed the capturer's hand.

use super::{Ctx, RuleError};
use crate::core::geometry::Bitboard;
use serde::Deserialize;

/// Table key `drops`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct DropsFile {
    /// Letters of the types a drop must land near (a friendly one within `distance`);
    /// absent = any empty square.
    #[serde(default)]
    pub next_to: Option<String>,
    /// King-distance for `next_to` (default 1: adjacent).
    #[serde(default)]
    pub distance: Option<u32>,
    /// Letters of the types that, when captured, go to the capturer's hand as its own.
    #[serde(default)]
    pub captures_to_hand: String,
}

/// A compiled drop rule.
#[derive(Clone, Debug)]
pub struct DropRule {
    /// Types a drop must land near, as a bit mask; 0 = anywhere.
    pub near_types: u32,
    /// Per square: the squares a piece there lets its side drop on.
    pub near: Vec<Bitboard>,
    /// Types that go to the capturer's hand when captured, as a bit mask.
    pub to_hand: u32,
}

impl DropRule {
    /// True when a captured piece of type `t` goes to the capturer's hand.
    #[inline]
    pub fn feeds_hand(rule: Option<&DropRule>, t: u8) -> bool {
        rule.is_some_and(|d| d.to_hand >> t & 1 != 0)
    }
}

/// Compiles `[drops]`.
pub fn compile(ctx: &Ctx, df: &DropsFile) -> Result<DropRule, RuleError> {
    let near_types = match &df.next_to {
        Some(l) => ctx.type_mask(l, "drops.next_to")?,
        None => 0,
    };
    let d = df.distance.unwrap_or(1);
    if d == 0 {
        return Err(RuleError::new("drops.distance", "must be 1 or more"));
    }
    let to_hand = ctx.type_mask(&df.captures_to_hand, "drops.captures_to_hand")?;
    if to_hand & ctx.royal_mask != 0 {
        return Err(RuleError::new(
            "drops.captures_to_hand",
            "a royal piece cannot go to a hand",
        ));
    }
    Ok(DropRule {
        near_types,
        near: ctx.within(d),
        to_hand,
    })
}

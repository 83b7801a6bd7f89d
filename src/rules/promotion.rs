//! Promotion (table keys `piece.promotion`, with `pool` and `only_on`) and the automatic
//! type change on entering a region (`piece.becomes`).

use super::{confine, Ctx, RuleError};
use crate::core::geometry::{Bitboard, Square};
use crate::core::moves::PieceType;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Table key `promotion`: promotion on reaching given ranks.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PromotionFile {
    /// Ranks (1 = own first rank) where a move ending there may promote.
    pub ranks: Vec<i32>,
    /// Letters of the types it may promote to.
    pub to: String,
    /// Ranks where promotion is mandatory; default: all of `ranks`.
    #[serde(default)]
    pub mandatory_ranks: Option<Vec<i32>>,
    /// Only to types the side has lost: start count minus the count on the board. A
    /// mandatory promotion with nothing to choose makes the move impossible.
    #[serde(default)]
    pub pool: bool,
    /// Per choice letter, the ranks (subset of `ranks`) where that choice is offered.
    #[serde(default)]
    pub only_on: BTreeMap<String, Vec<i32>>,
}

/// Table key `becomes`: an automatic type change on entering a region.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct BecomesFile {
    /// The letter of the new type.
    pub to: char,
    /// Squares (White's view) where a move ending there changes the type.
    pub region: String,
}

/// A compiled promotion rule.
#[derive(Clone, Debug)]
pub struct Promotion {
    /// Per colour: squares where arriving may promote.
    pub zone: [Bitboard; 2],
    /// Per colour: squares where arriving must promote.
    pub mandatory: [Bitboard; 2],
    /// Types it may become.
    pub to: Vec<PieceType>,
    /// Per choice (parallel to `to`), per colour: where that choice is offered.
    pub choice_zone: Vec<[Bitboard; 2]>,
    /// Only to types the side has lost (see `Variant::start_count`).
    pub pool: bool,
}

impl Promotion {
    /// The choices a piece of colour `c` arriving on `sq` may or must make, and whether
    /// staying unpromoted is allowed.
    #[inline]
    pub fn options(rule: Option<&Promotion>, c: usize, sq: Square) -> (&[PieceType], bool) {
        match rule {
            Some(pr) if pr.zone[c].has(sq) => (&pr.to, !pr.mandatory[c].has(sq)),
            _ => (&[], true),
        }
    }

    /// The squares where a piece of colour `c` arriving must promote, so that no move or
    /// drop leaves it there unpromoted (a mandatory rank outside the zone promotes
    /// nothing).
    #[inline]
    pub fn must_promote(&self, c: usize) -> Bitboard {
        self.zone[c] & self.mandatory[c]
    }
}

/// A compiled automatic type change.
#[derive(Clone, Copy, Debug)]
pub struct Becomes {
    /// The new type.
    pub to: PieceType,
    /// Per colour: squares where a move ending there changes the type.
    pub region: [Bitboard; 2],
}

/// Compiles one piece's `promotion`; `key` is its path (`piece[3].promotion`).
pub fn compile(ctx: &Ctx, pr: &PromotionFile, key: &str) -> Result<Promotion, RuleError> {
    let zone = ctx.relative_ranks(&pr.ranks, &format!("{key}.ranks"))?;
    let mandatory = match &pr.mandatory_ranks {
        Some(m) => ctx.relative_ranks(m, &format!("{key}.mandatory_ranks"))?,
        None => zone,
    };
    let mut to = Vec::new();
    for c in pr.to.chars() {
        let t = ctx.type_at(c, &format!("{key}.to"))?;
        // A new royal piece is a position no FEN of the game describes (and a game of
        // one royal each): refused here rather than reached.
        if ctx.royal_mask >> t & 1 != 0 {
            return Err(RuleError::new(
                format!("{key}.to"),
                format!("'{c}' is royal: a promotion cannot make a royal piece"),
            ));
        }
        if to.contains(&t) {
            return Err(RuleError::new(
                format!("{key}.to"),
                format!("'{c}' is listed twice"),
            ));
        }
        to.push(t);
    }
    if to.is_empty() {
        return Err(RuleError::new(format!("{key}.to"), "no promotion choices"));
    }
    let mut choice_zone = vec![zone; to.len()];
    for (letter, ranks) in &pr.only_on {
        let k = format!("{key}.only_on.{letter}");
        let mut cs = letter.chars();
        let t = match (cs.next(), cs.next()) {
            (Some(c), None) => ctx.type_of(c),
            _ => None,
        };
        let Some(i) = t.and_then(|t| to.iter().position(|&x| x == t)) else {
            return Err(RuleError::new(
                k,
                format!("'{letter}' is not one of the choices \"{}\"", pr.to),
            ));
        };
        let z = ctx.relative_ranks(ranks, &k)?;
        choice_zone[i] = [z[0] & zone[0], z[1] & zone[1]];
    }
    Ok(Promotion {
        zone,
        mandatory,
        to,
        choice_zone,
        pool: pr.pool,
    })
}

/// Compiles one piece's `becomes`; `promotes` says whether the piece also promotes.
pub fn compile_becomes(
    ctx: &Ctx,
    b: &BecomesFile,
    promotes: bool,
    key: &str,
) -> Result<Becomes, RuleError> {
    if promotes {
        return Err(RuleError::new(
            key,
            "a piece either becomes another on entering a region or promotes, not both",
        ));
    }
    let to = ctx.type_at(b.to, &format!("{key}.to"))?;
    if ctx.royal_mask >> to & 1 != 0 {
        return Err(RuleError::new(
            format!("{key}.to"),
            format!("'{}' is royal: a piece cannot become a royal piece", b.to),
        ));
    }
    let region = confine::region(ctx.board, &b.region, &format!("{key}.region"))?;
    Ok(Becomes { to, region })
}

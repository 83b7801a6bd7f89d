//! Facing royals (table key `facing`): along the listed lines two royal pieces may not
//! face each other with nothing between (Wildeurasian's flying general). Compiled into
//! extra attacker rays (`AttackerMap::add_facing`), so the ordinary check test sees it.

use super::{Ctx, RuleError};
use crate::movement::atoms::Offset;

/// Compiles `facing = ["file", "rank", "diagonal"]` into unit steps (empty: no rule).
pub fn compile(ctx: &Ctx, lines: &[String]) -> Result<Vec<Offset>, RuleError> {
    let mut steps = Vec::new();
    for (i, f) in lines.iter().enumerate() {
        let dirs: &[(i8, i8)] = match f.as_str() {
            "file" => &[(0, 1), (0, -1)],
            "rank" => &[(1, 0), (-1, 0)],
            "diagonal" => &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
            _ => {
                return Err(RuleError::new(
                    format!("facing[{i}]"),
                    format!("\"{f}\" is not one of file, rank, diagonal"),
                ))
            }
        };
        steps.extend(dirs.iter().map(|&(dx, dy)| Offset::new(dx, dy)));
    }
    if !steps.is_empty() && ctx.royal_mask == 0 {
        return Err(RuleError::new("facing", "the game has no royal piece"));
    }
    Ok(steps)
}

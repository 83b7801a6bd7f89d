//! The occupy-capture rules together: when any piece has a `shot`, `path` or `flight`,
//! a move may kill without occupying, and check becomes "a royal piece could be
//! occupy-captured next move" (royals are never shot or killed in passing). This
//! bundles the compiled per-piece definitions for the generator in `movegen/occupy.rs`.

use super::flight::{self, FlightDef, FlightFile};
use super::path::{self, PathDef, PathFile};
use super::shot::{self, ShotDef, ShotFile};
use super::{Ctx, RuleError};
use crate::movement::atoms::Atom;
use crate::movement::attacks::Rays;

/// Everything a variant's pieces do beyond their atoms; present only when used.
pub struct OccupyRules {
    /// Per type: its shot.
    pub shots: Vec<Option<ShotDef>>,
    /// Per type: its path.
    pub paths: Vec<Option<PathDef>>,
    /// Per type: its flight.
    pub flights: Vec<Option<FlightDef>>,
    /// Types with a shot, as a bit mask.
    pub shooter_mask: u32,
    /// Types with a path.
    pub path_mask: u32,
    /// Types with a flight.
    pub flight_mask: u32,
    /// Types that may shoot and then capture by moving (a shot can open their line).
    pub shoot_capture_mask: u32,
}

/// The on-disk keys of one piece that this module compiles.
pub struct PieceExtFile<'a> {
    /// `shot`.
    pub shot: Option<&'a ShotFile>,
    /// `path`.
    pub path: Option<&'a PathFile>,
    /// `flight`.
    pub flight: Option<&'a FlightFile>,
}

/// Compiles every piece's `shot`, `path` and `flight`; `None` when no piece has one.
pub fn compile(
    ctx: &Ctx,
    rays: &mut Rays,
    atoms: &[Vec<Atom>],
    files: &[PieceExtFile],
) -> Result<Option<OccupyRules>, RuleError> {
    if files
        .iter()
        .all(|f| f.shot.is_none() && f.path.is_none() && f.flight.is_none())
    {
        return Ok(None);
    }
    let mut x = OccupyRules {
        shots: Vec::new(),
        paths: Vec::new(),
        flights: Vec::new(),
        shooter_mask: 0,
        path_mask: 0,
        flight_mask: 0,
        shoot_capture_mask: 0,
    };
    for (i, f) in files.iter().enumerate() {
        x.shots.push(match f.shot {
            Some(s) => {
                x.shooter_mask |= 1 << i;
                if s.with_move && atoms[i].iter().any(|a| a.mode.captures()) {
                    x.shoot_capture_mask |= 1 << i;
                }
                Some(shot::compile(ctx.board, s, &format!("piece[{i}].shot"))?)
            }
            None => None,
        });
        x.paths.push(match f.path {
            Some(p) => {
                x.path_mask |= 1 << i;
                Some(path::compile(ctx.board, p, &format!("piece[{i}].path"))?)
            }
            None => None,
        });
    }
    for (i, f) in files.iter().enumerate() {
        x.flights.push(match f.flight {
            Some(fl) => {
                x.flight_mask |= 1 << i;
                Some(flight::compile(
                    ctx,
                    rays,
                    fl,
                    atoms,
                    (&x.paths, &x.shots),
                    &format!("piece[{i}].flight"),
                )?)
            }
            None => None,
        });
    }
    Ok(Some(x))
}

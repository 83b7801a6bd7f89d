//! Flights (table key `piece.flight`): fly to any empty square, then optionally one
//! follow-up borrowed from other pieces (a move, capture, path or shot), avoiding the
//! enemy's shot ranges (Combined Arms aviation, R11). Generated in `movegen/occupy.rs`.

use super::path::PathDef;
use super::shot::ShotDef;
use super::{Ctx, RuleError};
use crate::core::geometry::Bitboard;
use crate::core::moves::{Color, PieceType};
use crate::movement::atoms::{Atom, AtomKind, Offset};
use crate::movement::attacks::{PieceAttacks, RayId, Rays};
use serde::Deserialize;

/// Table key `flight`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct FlightFile {
    /// Letters of the pieces whose movement the follow-up may borrow: one of their
    /// non-initial moves or captures, their path, or their shot.
    #[serde(default)]
    pub then: String,
    /// The landing square and every square the follow-up enters must lie outside the
    /// shot targets of every enemy shooter, counted as the board stands at that instant.
    #[serde(default = "yes")]
    pub avoid_shots: bool,
}

fn yes() -> bool {
    true
}

/// A compiled flight.
pub struct FlightDef {
    /// The borrowed moves and captures, per colour (initial-only moves left out).
    pub follow: [PieceAttacks; 2],
    /// The borrowed capturing rides, reversed, per colour (for the check test).
    pub capture_rays_rev: [Vec<RayId>; 2],
    /// The types whose moves it borrows, in the table's order.
    pub then: Vec<PieceType>,
    /// Types whose path may follow.
    pub paths: Vec<PieceType>,
    /// Types whose shot may follow.
    pub shots: Vec<PieceType>,
    /// Enemy shot ranges are forbidden.
    pub avoid_shots: bool,
}

/// Compiles one piece's `flight`; `atoms` are every type's atoms, `paths` and `shots`
/// every type's compiled path and shot (a follow-up may borrow them).
pub fn compile(
    ctx: &Ctx,
    rays: &mut Rays,
    fl: &FlightFile,
    atoms_of: &[Vec<Atom>],
    (paths_of, shots_of): (&[Option<PathDef>], &[Option<ShotDef>]),
    key: &str,
) -> Result<FlightDef, RuleError> {
    let board = ctx.board;
    let key = format!("{key}.then");
    let mut atoms: Vec<Atom> = Vec::new();
    let (mut paths, mut shots, mut then) = (Vec::new(), Vec::new(), Vec::new());
    for ch in fl.then.chars() {
        let t = ctx.type_at(ch, &key)?;
        then.push(t);
        atoms.extend(atoms_of[t as usize].iter().filter(|a| !a.initial));
        if paths_of[t as usize].is_some() {
            paths.push(t);
        }
        if shots_of[t as usize].is_some() {
            shots.push(t);
        }
    }
    if atoms
        .iter()
        .any(|a| !matches!(a.kind, AtomKind::Leap | AtomKind::Ride { .. }))
    {
        return Err(RuleError::new(
            key,
            "follow-up moves must be leaps or rides",
        ));
    }
    if fl.avoid_shots {
        check_exact(paths_of, shots_of, &paths).map_err(|m| RuleError::new(key.clone(), m))?;
    }
    let mut follow = Vec::new();
    let mut rev = [Vec::new(), Vec::new()];
    for c in Color::BOTH {
        let mine: Vec<Atom> = atoms
            .iter()
            .map(|a| if c == Color::White { *a } else { a.for_black() })
            .collect();
        for a in &mine {
            if let AtomKind::Ride { range } = a.kind {
                if a.mode.captures() {
                    rev[c.idx()].push(rays.id(board, a.step.reversed(), range));
                }
            }
        }
        follow.push(PieceAttacks::compile(board, rays, &mine, Bitboard::EMPTY));
    }
    let black = follow.pop().expect("two colours");
    let white = follow.pop().expect("two colours");
    Ok(FlightDef {
        follow: [white, black],
        capture_rays_rev: rev,
        then,
        paths,
        shots,
        avoid_shots: fl.avoid_shots,
    })
}

/// The check test reads a flight's reach off bitboards with the forbidden squares fixed
/// at the landing. That is exact when a path that kills a shooter can never then enter
/// a square only that shooter covered: either the shooter's own neighbours (by the
/// path's steps) are all in its range, so it cannot be entered at all, or nothing the
/// remaining steps reach from it is in its range (Combined Arms R11).
fn check_exact(
    paths_of: &[Option<PathDef>],
    shots_of: &[Option<ShotDef>],
    paths: &[PieceType],
) -> Result<(), String> {
    for &p in paths {
        let Some(pd) = &paths_of[p as usize] else {
            continue;
        };
        for s in shots_of.iter().flatten() {
            for dirs in [
                pd.dirs.clone(),
                pd.dirs.iter().map(|d| d.for_black()).collect(),
            ] {
                let unenterable = dirs.iter().all(|d| s.offsets.contains(&d.reversed()));
                let mut reach = vec![Offset::new(0, 0)];
                let mut seen: Vec<Offset> = Vec::new();
                for _ in 1..pd.steps {
                    let mut next = Vec::new();
                    for r in &reach {
                        for d in &dirs {
                            let o = Offset::new(r.dx + d.dx, r.dy + d.dy);
                            if !next.contains(&o) {
                                next.push(o);
                            }
                        }
                    }
                    seen.extend(next.iter().copied());
                    reach = next;
                }
                let clear = seen.iter().all(|o| !s.offsets.contains(o));
                if !unenterable && !clear {
                    return Err(
                        "a follow-up path could enter squares freed by killing a shooter; \
                                this flight's check test would not be exact"
                            .into(),
                    );
                }
            }
        }
    }
    Ok(())
}

//! Reverse attack tables: for a square and an attacking colour, where each attacking type
//! would have to stand (leaps, rides and hops — cannon and grasshopper — by direction,
//! bent and lame moves traced back), grouped over types so one probe answers for all.

use super::{PieceAttacks, RayId, Rays};
use crate::core::geometry::{Bitboard, Board, Square, SQUARE_SLOTS};
use crate::movement::atoms::Offset;

/// Rides of one direction and range that capture, grouped over the types that have them.
#[derive(Clone, Debug)]
pub struct RayGroup {
    /// The ray from the attacked square outwards (the attackers' step reversed).
    pub ray: RayId,
    /// Attacking types, as a bit mask.
    pub types: u32,
    /// Squares the attacker must stand on (initial-only atoms), usually the whole board.
    pub from: Bitboard,
}

/// Hopper captures of one direction, grouped over types.
#[derive(Clone, Debug)]
pub struct HopGroup {
    /// The reversed ray cut to the hopper's range, from the attacked square.
    pub ray: RayId,
    /// The reversed ray unlimited.
    pub full: RayId,
    /// Attacking types.
    pub types: u32,
    /// Grasshoppers (Betza `g`): the screen must stand next to the attacked square, as
    /// they land just past it; a cannon's screen may stand anywhere between.
    pub grasshopper: bool,
    /// Squares the hopper must stand on (initial-only atoms), usually the whole board.
    pub from: Bitboard,
}

/// Bent-rider captures: a reversed continuation ray and the first step back to the origin.
#[derive(Clone)]
pub struct BentGroup {
    /// The continuation reversed, from the attacked square.
    pub ray: RayId,
    /// For each first-step square, where the rider starts (None off the board).
    pub origin: Box<[Option<Square>; SQUARE_SLOTS]>,
    /// For each attacked square, every start this group could attack it from on an
    /// empty board: where no rider of the type stands, the group is not walked.
    pub origins: Box<[Bitboard; SQUARE_SLOTS]>,
    /// Attacking type.
    pub ptype: u8,
}

/// Lame-leap captures reversed: for each target, the attacker's square and its via square.
#[derive(Clone)]
pub struct LameGroup {
    /// Attacker square per target (None where impossible).
    pub from: Box<[Option<(Square, Square)>; SQUARE_SLOTS]>,
    /// Attacking type.
    pub ptype: u8,
}

/// Everything needed to find the attackers of a square for one attacking colour.
#[derive(Clone, Default)]
pub struct AttackerMap {
    /// Types with leap captures.
    pub leap_types: Vec<u8>,
    /// Per attacked square, for each of `leap_types` in order, the squares it is leapt
    /// on from: one square's row is contiguous, so an attack test reads a cache line or
    /// two rather than one per type.
    pub leap_rev: Vec<Bitboard>,
    /// Ride captures by direction.
    pub rays: Vec<RayGroup>,
    /// Hop captures by direction.
    pub hops: Vec<HopGroup>,
    /// Bent-rider captures.
    pub bents: Vec<BentGroup>,
    /// Per square, for each ride, facing and then hop group: the ray within which an
    /// attacker must stand, and the ray its attack runs along (a hop's whole line),
    /// side by side so that one square's row is read in one pass. Filled by
    /// [`AttackerMap::index_rays`].
    pub seg_rows: Vec<[Bitboard; 2]>,
    /// Per group of `seg_rows`, whether its ray ascends.
    pub seg_ascending: Vec<bool>,
    /// Lame-leap captures.
    pub lames: Vec<LameGroup>,
    /// The types with any ride capture (bit mask): a ray with none of them on it
    /// holds no attacker and need not be followed.
    pub ray_types: u32,
    /// The types with any hop capture (bit mask).
    pub hop_types: u32,
    /// The types with any bent-rider capture (bit mask).
    pub bent_types: u32,
    /// Per attacked square, the union of every bent group's `origins`: where no bent
    /// rider stands in it, no group is walked (one test instead of one per group).
    pub bent_origins: Vec<Bitboard>,
    /// The royal types that may not face (bit mask).
    pub facing_types: u32,
    /// Royal pieces that may not face the other side's royal pieces along these rays
    /// with nothing between (Xiangqi's flying general, Eurasian bare facing): for
    /// legality a facing royal counts as an attacker.
    pub facing: Vec<RayGroup>,
    /// Per square: the types (bit mask) whose region lets them capture there.
    pub reach: Vec<u32>,
    /// For attacked square `a` and another square `s`, at `a * squares + s`: which
    /// groups' rays from `a` pass `s`, as bits over `rays`, then `facing`, then `hops`
    /// (empty when there are more than 64 groups). It lets a legality test look only
    /// at the rays a move touches.
    pub along: Vec<u64>,
}

impl AttackerMap {
    /// Builds the reverse map of one colour's compiled pieces.
    pub fn build(board: &Board, rays: &mut Rays, pieces: &[PieceAttacks]) -> AttackerMap {
        let mut map = AttackerMap {
            reach: vec![0; SQUARE_SLOTS],
            ..Default::default()
        };
        for (t, pa) in pieces.iter().enumerate() {
            for s in pa.region.iter() {
                map.reach[s.idx()] |= 1 << t;
            }
        }
        for (t, pa) in pieces.iter().enumerate() {
            let t = t as u8;
            if pa.leaps.iter().any(|b| b.0[1].any()) {
                map.leap_types.push(t);
            }
            for ra in pa.rides.iter().filter(|r| r.mode.captures()) {
                let (step, range) = (rays.get(ra.ray).step, rays.get(ra.ray).range);
                let rev = rays.id(board, step.reversed(), range);
                match map
                    .rays
                    .iter_mut()
                    .find(|g| g.ray == rev && g.from == ra.from)
                {
                    Some(g) => g.types |= 1 << t,
                    None => map.rays.push(RayGroup {
                        ray: rev,
                        types: 1 << t,
                        from: ra.from,
                    }),
                }
            }
            let hops = pa.hops.iter().map(|h| (h, false));
            let grasshops = pa.grasshops.iter().map(|h| (h, true));
            for (ha, grasshopper) in hops.chain(grasshops).filter(|h| h.0.mode.captures()) {
                let (step, range) = (rays.get(ha.ray).step, rays.get(ha.ray).range);
                let ray = rays.id(board, step.reversed(), range);
                let full = rays.id(board, step.reversed(), 0);
                match map
                    .hops
                    .iter_mut()
                    .find(|g| g.ray == ray && g.grasshopper == grasshopper && g.from == ha.from)
                {
                    Some(g) => g.types |= 1 << t,
                    None => map.hops.push(HopGroup {
                        ray,
                        full,
                        types: 1 << t,
                        grasshopper,
                        from: ha.from,
                    }),
                }
            }
            for ba in pa.bents.iter().filter(|b| b.mode.captures()) {
                let (step, range) = (rays.get(ba.ray).step, rays.get(ba.ray).range);
                let ray = rays.id(board, step.reversed(), range);
                let mut origin = Box::new([None; SQUARE_SLOTS]);
                for s in ba.valid.iter() {
                    origin[ba.mid[s.idx()].idx()] = Some(s);
                }
                let mut origins = Box::new([Bitboard::EMPTY; SQUARE_SLOTS]);
                for (k, o) in origins.iter_mut().enumerate().take(board.squares()) {
                    for m in rays.get(ray).mask[k] {
                        if let Some(s) = origin[m.idx()] {
                            o.set(s);
                        }
                    }
                }
                map.bents.push(BentGroup {
                    ray,
                    origin,
                    origins,
                    ptype: t,
                });
            }
            for la in pa.lame.iter().filter(|l| l.mode.captures()) {
                let mut from = Box::new([None; SQUARE_SLOTS]);
                for s in 0..board.squares() {
                    if let Some(target) = la.target[s].iter().next() {
                        from[target.idx()] = Some((Square(s as u8), la.via[s]));
                    }
                }
                map.lames.push(LameGroup { from, ptype: t });
            }
        }
        let n = map.leap_types.len();
        map.leap_rev = vec![Bitboard::EMPTY; SQUARE_SLOTS * n];
        for sq in 0..SQUARE_SLOTS {
            for (i, &t) in map.leap_types.iter().enumerate() {
                map.leap_rev[sq * n + i] = pieces[t as usize].leap_capture_rev[sq];
            }
        }
        map.ray_types = map.rays.iter().fold(0, |m, g| m | g.types);
        map.hop_types = map.hops.iter().fold(0, |m, g| m | g.types);
        map.bent_types = map.bents.iter().fold(0, |m, g| m | 1 << g.ptype);
        map.bent_origins = (0..SQUARE_SLOTS)
            .map(|k| {
                map.bents
                    .iter()
                    .fold(Bitboard::EMPTY, |u, g| u | g.origins[k])
            })
            .collect();
        map
    }

    /// Fills [`AttackerMap::along`]; call after every group is in place.
    pub fn index_rays(&mut self, board: &Board, rays: &Rays) {
        let groups: Vec<(RayId, RayId)> = self
            .rays
            .iter()
            .chain(&self.facing)
            .map(|g| (g.ray, g.ray))
            .chain(self.hops.iter().map(|g| (g.ray, g.full)))
            .collect();
        let w = groups.len();
        self.seg_rows = vec![[Bitboard::EMPTY; 2]; board.squares() * w];
        for a in 0..board.squares() {
            for (j, &(reach, line)) in groups.iter().enumerate() {
                self.seg_rows[a * w + j] = [rays.get(reach).mask[a], rays.get(line).mask[a]];
            }
        }
        self.seg_ascending = groups.iter().map(|&(_, l)| rays.get(l).ascending).collect();
        let ids: Vec<RayId> = self
            .rays
            .iter()
            .chain(&self.facing)
            .map(|g| g.ray)
            .chain(self.hops.iter().map(|g| g.full))
            .collect();
        self.along.clear();
        if ids.len() > 64 {
            return;
        }
        let n = board.squares();
        self.along = vec![0; n * n];
        for a in 0..n {
            for (bit, &id) in ids.iter().enumerate() {
                for s in rays.get(id).mask[a].iter() {
                    self.along[a * n + s.idx()] |= 1 << bit;
                }
            }
        }
    }

    /// Adds the no-facing rule: royal `types` may not see an enemy royal along any of
    /// `steps` (unlimited rays) with nothing between.
    pub fn add_facing(&mut self, board: &Board, rays: &mut Rays, steps: &[Offset], types: u32) {
        self.facing_types |= types;
        for &step in steps {
            let ray = rays.id(board, step, 0);
            if !self.facing.iter().any(|g| g.ray == ray) {
                self.facing.push(RayGroup {
                    ray,
                    types,
                    from: board.all,
                });
            }
        }
    }
}

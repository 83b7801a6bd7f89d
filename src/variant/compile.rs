//! Compiling a table into a [`Variant`]: a pure function of the table. Each rule key is
//! compiled by its own file in `rules/`; this file only orders the steps (pieces first,
//! then the start placement, attack tables, and the rules that need them).

use super::table::{PieceFile, VariantFile};
use super::{eval_table, values, Legality, PieceDef, SearchRules, Variant, VariantError};
use crate::core::fen::{read_placement, Placement};
use crate::core::geometry::{Bitboard, Board, Square};
use crate::core::moves::{Color, PieceType, MAX_PIECE_TYPES};
use crate::movement::atoms::Atom;
use crate::movement::atoms::AtomKind;
use crate::movement::attacks::{AttackerMap, PieceAttacks, Rays};
use crate::movement::{betza, taxonomy};
use crate::rules::occupy::PieceExtFile;
use crate::rules::path::PathFile;
use crate::rules::stacking::PieceStackFile;
use crate::rules::{
    castling, confine, drops, en_passant, facing, occupy, promotion, stacking, switch, Ctx,
    RuleError,
};

use std::sync::OnceLock;

impl Variant {
    /// Compiles a parsed table (its `extends`, if any, already resolved); `origin` names
    /// the table in errors.
    pub fn compile(mut file: VariantFile, origin: &str) -> Result<Variant, VariantError> {
        let err = |e: RuleError| VariantError::Value {
            origin: origin.to_string(),
            key: e.key,
            msg: e.msg,
        };
        // The name is a word of the protocols (`UCI_Variant`, XBoard's `variant` and its
        // feature list, PGN's Variant tag): it cannot be empty or hold a space.
        if file.name.is_empty() || file.name.chars().any(char::is_whitespace) {
            return Err(err(RuleError::new(
                "name",
                format!("{:?} must be one word, without spaces", file.name),
            )));
        }
        normalize_taxonomy_paths(&mut file.pieces);
        let board = Board::new(file.files, file.ranks)
            .map_err(|e| err(RuleError::new("files", e.to_string())))?;
        let mut pieces = compile_pieces(&board, &file.pieces).map_err(err)?;
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        let royal_mask = type_mask(&pieces, |p| p.royal);
        let pawn_mask = type_mask(&pieces, |p| p.pawn);
        let ctx = Ctx {
            board: &board,
            letters: &letters,
            royal_mask,
        };
        let start = start_placement(&ctx, &file.start).map_err(err)?;
        for (i, p) in file.pieces.iter().enumerate() {
            let key = format!("piece[{i}].promotion");
            // A royal piece that turns into another leaves its side without one: a
            // position no FEN of the game can write.
            if royal_mask >> i & 1 != 0 && (p.promotion.is_some() || p.becomes.is_some()) {
                return Err(err(RuleError::new(
                    format!("piece[{i}]"),
                    "a royal piece cannot promote or become another piece",
                )));
            }
            if let Some(pr) = &p.promotion {
                pieces[i].promotion = Some(promotion::compile(&ctx, pr, &key).map_err(err)?);
            }
            if let Some(b) = &p.becomes {
                let key = format!("piece[{i}].becomes");
                pieces[i].becomes = Some(
                    promotion::compile_becomes(&ctx, b, p.promotion.is_some(), &key)
                        .map_err(err)?,
                );
            }
        }
        let mut start_count = [[0u8; MAX_PIECE_TYPES]; 2];
        for &(_, t, c) in &start.pieces {
            let n = &mut start_count[c.idx()][t as usize];
            *n = n.saturating_add(1);
        }
        let mut rays = Rays::default();
        let attacks = attack_tables(&ctx, &mut rays, &file.pieces, &pieces, &start).map_err(err)?;
        let given: Vec<Option<i32>> = file.pieces.iter().map(|p| p.value).collect();
        // Values add up into the game phase and the material balance: a value near
        // `i32::MAX` wrapped the phase, and a negative one turned it round.
        let most = crate::variant::eval_table::MAX_WEIGHT;
        if let Some((i, v)) = given
            .iter()
            .enumerate()
            .find_map(|(i, v)| v.filter(|v| !(0..=most).contains(v)).map(|v| (i, v)))
        {
            return Err(err(RuleError::new(
                format!("piece[{i}].value"),
                format!("{v} is outside the 0..={most} centipawns a piece value may be"),
            )));
        }
        // 0 would drop every quiet move near the leaves; 8 times chess's count already
        // keeps 16 at depth 1 and over a hundred at depth 5.
        if !(1..=8).contains(&file.search.late_moves) {
            return Err(err(RuleError::new(
                "search.late_moves".to_string(),
                format!(
                    "{} is outside 1..=8 (times chess's count of late quiet moves searched)",
                    file.search.late_moves
                ),
            )));
        }
        values::compile((&board, &rays), &mut pieces, &given, &attacks[0]);
        let mut attackers = [
            AttackerMap::build(&board, &mut rays, &attacks[0]),
            AttackerMap::build(&board, &mut rays, &attacks[1]),
        ];
        let facing_steps = facing::compile(&ctx, &file.facing).map_err(err)?;
        if !facing_steps.is_empty() {
            for a in attackers.iter_mut() {
                a.add_facing(&board, &mut rays, &facing_steps, royal_mask);
            }
        }
        let lines = line_masks(&board, &rays, &attackers);
        if lines.is_some() {
            for a in attackers.iter_mut() {
                a.index_rays(&board, &rays);
            }
        }
        let zone_castling = match &file.zone_castling {
            Some(zc) => Some(castling::compile_zone(&ctx, zc).map_err(err)?),
            None => None,
        };
        if zone_castling.is_some() && file.castling.is_some() {
            return Err(err(RuleError::new(
                "zone_castling",
                "a game has either castling or zone_castling",
            )));
        }
        let stack_files: Vec<PieceStackFile> = file
            .pieces
            .iter()
            .map(|p| PieceStackFile {
                composition: p.composition.as_deref(),
                royal: p.royal,
                pawn: p.pawn,
            })
            .collect();
        let stacking = stacking::compile(file.stacking.as_ref(), &stack_files).map_err(err)?;
        let stack_code = stacking.as_ref().map_or([0; MAX_PIECE_TYPES], |s| s.code);
        let ext_files: Vec<PieceExtFile> = file
            .pieces
            .iter()
            .map(|p| PieceExtFile {
                shot: p.shot.as_ref(),
                path: p.path.as_ref(),
                flight: p.flight.as_ref(),
            })
            .collect();
        let atoms: Vec<Vec<Atom>> = pieces.iter().map(|p| p.atoms.clone()).collect();
        let occupy = occupy::compile(&ctx, &mut rays, &atoms, &ext_files)
            .map_err(err)?
            .map(Box::new);
        let legality = if occupy.is_some() {
            Legality::OccupyCapture
        } else if attacks
            .iter()
            .all(|v| v.iter().all(|a| a.has_only_leaps_and_rides()))
        {
            Legality::Rays
        } else if lines.is_some() {
            Legality::Lines
        } else {
            Legality::Verify
        };
        let castling = match &file.castling {
            Some(cf) => Some(castling::compile(&ctx, cf, &start.pieces).map_err(err)?),
            None => None,
        };
        let castle_mask = castling
            .as_ref()
            .map_or_else(|| vec![0u8; board.squares()], |c| c.mask.clone());
        let switch = match &file.switch {
            Some(sf) => {
                let mut zones = [Bitboard::EMPTY; 2];
                for pr in pieces.iter().filter_map(|p| p.promotion.as_ref()) {
                    zones[0] |= pr.zone[0];
                    zones[1] |= pr.zone[1];
                }
                Some(switch::compile(&ctx, sf, zones).map_err(err)?)
            }
            None => None,
        };
        let drops = match &file.drops {
            Some(df) => Some(drops::compile(&ctx, df).map_err(err)?),
            None => None,
        };
        let eval = eval_table::compile(file.eval.as_ref(), &board, &letters)
            .map_err(|(key, msg)| err(RuleError::new(key, msg)))?;
        let en_passant = en_passant::compile(file.en_passant);
        let long_pushes = en_passant::long_pushes(&board, en_passant);
        let captures_final = drops.as_ref().is_none_or(|d| d.to_hand == 0);
        let pawn_steps_final = pieces.iter().filter(|p| p.pawn).all(|p| {
            p.atoms.iter().all(|a| {
                a.step.dy > 0 && !matches!(a.kind, AtomKind::Bent { then, .. } if then.dy <= 0)
            })
        });
        let clock_bounds_repeats = captures_final && pawn_steps_final && switch.is_none();
        Ok(Variant {
            name: file.name,
            description: file.description,
            board,
            pieces,
            start_fen: file.start,
            attacks,
            attackers,
            rays,
            legality,
            castling,
            castle_mask,
            zone_castling,
            switch,
            drops,
            royal_mask,
            pawn_mask,
            start_count,
            lines,
            stacking,
            stack_code,
            occupy,
            long_pushes,
            en_passant,
            clock_bounds_repeats,
            pawn_steps_final,
            search: SearchRules {
                null_move: file.search.null_move,
                lmr: file.search.lmr,
                bench: file.search.bench,
                lazy_margin: file.search.lazy_margin as i32,
                late_moves: file.search.late_moves as usize,
            },
            eval: OnceLock::from(eval),
            eval_text: None,
        })
    }
}

/// A taxonomy name that describes a path mover (T5's armor) is that `path`.
fn normalize_taxonomy_paths(pieces: &mut [PieceFile]) {
    for p in pieces.iter_mut() {
        if let (None, None, Some((steps, betza))) = (
            &p.betza,
            &p.path,
            p.taxonomy.as_deref().and_then(taxonomy::path_of),
        ) {
            p.path = Some(PathFile { steps, betza });
            p.taxonomy = None;
        }
    }
}

fn type_mask(pieces: &[PieceDef], has: impl Fn(&PieceDef) -> bool) -> u32 {
    pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| has(p))
        .fold(0u32, |m, (i, _)| m | 1 << i)
}

/// Letters, names, movement, royalty, pawn rules, confinement and value of each piece.
fn compile_pieces(board: &Board, files: &[PieceFile]) -> Result<Vec<PieceDef>, RuleError> {
    if files.is_empty() {
        return Err(RuleError::new(
            "piece",
            "a variant needs at least one piece",
        ));
    }
    if files.len() > MAX_PIECE_TYPES {
        return Err(RuleError::new(
            "piece",
            format!("at most {MAX_PIECE_TYPES} piece types"),
        ));
    }
    let mut pieces = Vec::new();
    for (i, p) in files.iter().enumerate() {
        let key = format!("piece[{i}]");
        if !p.letter.is_ascii_uppercase() {
            return Err(RuleError::new(
                format!("{key}.letter"),
                format!("'{}' is not an upper-case letter", p.letter),
            ));
        }
        if files[..i].iter().any(|q| q.letter == p.letter) {
            return Err(RuleError::new(
                format!("{key}.letter"),
                format!("letter '{}' is used twice", p.letter),
            ));
        }
        let extra_moves: Vec<&'static str> = [
            (p.path.is_some(), "a path"),
            (p.shot.is_some(), "a rifle shot"),
            (p.flight.is_some(), "a flight"),
        ]
        .iter()
        .filter(|(has, _)| *has)
        .map(|(_, what)| *what)
        .collect();
        // A piece that moves only by its path, shot or flight needs no atoms.
        let extended_only = !extra_moves.is_empty();
        let atoms = match (&p.betza, &p.taxonomy) {
            (Some(b), None) if b.is_empty() && extended_only => Vec::new(),
            (None, None) if extended_only => Vec::new(),
            (Some(b), None) => betza::parse(b)
                .map_err(|e| RuleError::new(format!("{key}.betza"), e.to_string()))?,
            (None, Some(t)) => taxonomy::parse(t)
                .map_err(|e| RuleError::new(format!("{key}.taxonomy"), e.to_string()))?,
            (Some(_), Some(_)) => {
                return Err(RuleError::new(
                    key,
                    "give the movement once: betza or taxonomy, not both",
                ))
            }
            (None, None) => {
                return Err(RuleError::new(
                    key,
                    "no movement: give betza = \"…\", taxonomy = \"…\", path, shot or flight",
                ))
            }
        };
        let confine = match &p.confine {
            Some(r) => Some(confine::region(board, r, &format!("{key}.confine"))?),
            None => None,
        };
        pieces.push(PieceDef {
            letter: p.letter,
            name: if p.name.is_empty() {
                p.letter.to_string()
            } else {
                p.name.clone()
            },
            betza: p.betza.clone().unwrap_or_else(|| betza::to_betza(&atoms)),
            atoms,
            royal: p.royal,
            pawn: p.pawn,
            promotion: None,
            confine,
            becomes: None,
            value: 0,
            extra_moves,
        });
    }
    Ok(pieces)
}

/// The start FEN's placement, read by the one placement parser (the whole FEN is checked
/// again as a position once the variant is compiled).
fn start_placement(ctx: &Ctx, fen: &str) -> Result<Placement, RuleError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (placement, _) =
        read_placement(&fields, ctx.board, |c| ctx.type_of(c.to_ascii_uppercase()))
            .map_err(|e| RuleError::new("start", e.0))?;
    if ctx.royal_mask != 0 {
        for c in Color::BOTH {
            let n = placement
                .pieces
                .iter()
                .filter(|&&(_, t, col)| col == c && ctx.royal_mask >> t & 1 != 0)
                .count();
            if n != 1 {
                let name = if c == Color::White { "White" } else { "Black" };
                return Err(RuleError::new(
                    "start",
                    format!("{name} has {n} royal pieces, the game needs exactly 1"),
                ));
            }
        }
    }
    Ok(placement)
}

/// Attack tables per colour and type: each piece's atoms (turned half round for Black), its
/// initial-move ranks and its confinement.
fn attack_tables(
    ctx: &Ctx,
    rays: &mut Rays,
    files: &[PieceFile],
    pieces: &[PieceDef],
    start: &Placement,
) -> Result<[Vec<PieceAttacks>; 2], RuleError> {
    let board = ctx.board;
    let mut attacks: [Vec<PieceAttacks>; 2] = [Vec::new(), Vec::new()];
    for (i, p) in pieces.iter().enumerate() {
        let initial = match &files[i].initial_ranks {
            Some(r) => ctx.relative_ranks(r, &format!("piece[{i}].initial_ranks"))?,
            None => default_initial_ranks(board, i as PieceType, &start.pieces),
        };
        for c in Color::BOTH {
            let atoms: Vec<Atom> = if c == Color::White {
                p.atoms.clone()
            } else {
                p.atoms.iter().map(|a| a.for_black()).collect()
            };
            let mut pa = PieceAttacks::compile(board, rays, &atoms, initial[c.idx()]);
            if let Some(region) = p.confine {
                pa.confine(region[c.idx()]);
            }
            attacks[c.idx()].push(pa);
        }
    }
    Ok(attacks)
}

/// Default initial-move ranks: the ranks White's pieces of this type start on, mirrored.
fn default_initial_ranks(
    board: &Board,
    t: PieceType,
    start: &[(Square, PieceType, Color)],
) -> [Bitboard; 2] {
    let mut z = [Bitboard::EMPTY; 2];
    for &(sq, st, c) in start {
        if st == t && c == Color::White {
            let r = board.rank_of(sq);
            z[0] |= board.rank_mask(r);
            z[1] |= board.relative_rank_mask(false, r);
        }
    }
    z
}

/// Per square, the squares from which a ride, hop or facing could reach it (see
/// [`Variant::lines`]); None when lame or bent captures make other squares matter.
fn line_masks(board: &Board, rays: &Rays, attackers: &[AttackerMap; 2]) -> Option<Vec<Bitboard>> {
    if attackers
        .iter()
        .any(|m| !m.bents.is_empty() || !m.lames.is_empty())
    {
        return None;
    }
    let mut lines = vec![Bitboard::EMPTY; crate::core::geometry::SQUARE_SLOTS];
    for (s, bb) in lines.iter_mut().enumerate().take(board.squares()) {
        for m in attackers {
            for id in m
                .rays
                .iter()
                .chain(&m.facing)
                .map(|g| g.ray)
                .chain(m.hops.iter().map(|g| g.full))
            {
                *bb |= rays.get(id).mask[s];
            }
        }
    }
    Some(lines)
}

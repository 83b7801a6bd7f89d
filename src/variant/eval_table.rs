//! The `[eval]` section: evaluation weights a table sets over the ones derived from its
//! pieces (`eval/weights.rs`). Every key is optional; a key given replaces that weight's
//! derived default. Checked here against the board and the piece letters, so a tuned
//! table that no longer fits its game is refused at load with the key at fault.

use crate::core::geometry::Board;
use serde::Deserialize;
use std::collections::BTreeMap;

/// A (middlegame, endgame) pair of centipawns.
pub type Pair = [i32; 2];

/// The on-disk form of `[eval]`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct EvalFile {
    /// Bonus for the side to move.
    #[serde(default)]
    pub tempo: Option<Pair>,
    /// Per own pawn-rule piece in front of a royal (up to three).
    #[serde(default)]
    pub shelter: Option<Pair>,
    /// `[scale, cap]`: the royal-danger penalty is `min(cap, D² · scale / 256)`, `D` the
    /// sum of `royal_attack` over the attacked squares of the royal's zone.
    #[serde(default)]
    pub royal_danger: Option<Pair>,
    /// Added to `D` per square of the royal's zone the enemy attacks and no own non-royal
    /// piece guards, in quarters.
    #[serde(default)]
    pub royal_weak: Option<i32>,
    /// Passed pawn-rule piece, per relative rank (own first rank first).
    #[serde(default)]
    pub passed: Option<Vec<Pair>>,
    /// Pawn-rule piece with another own one ahead on its file.
    #[serde(default)]
    pub doubled: Option<Pair>,
    /// Pawn-rule piece with no own one on a neighbouring file.
    #[serde(default)]
    pub isolated: Option<Pair>,
    /// Pawn-rule piece with an own one beside it or guarding it from a neighbouring file.
    #[serde(default)]
    pub connected: Option<Pair>,
    /// Piece attacked by an enemy piece of lower value.
    #[serde(default)]
    pub threat_cheaper: Option<Pair>,
    /// Piece attacked and not defended.
    #[serde(default)]
    pub hanging: Option<Pair>,
    /// Per colour-bound type with pieces on both square colours.
    #[serde(default)]
    pub pair: Option<Pair>,
    /// Per file rider (below queen value) on a file with no pawn-rule piece of either side.
    #[serde(default)]
    pub open_file: Option<Pair>,
    /// Per file rider (below queen value) on a file with enemy pawn-rule pieces only.
    #[serde(default)]
    pub half_open_file: Option<Pair>,
    /// Per passed pawn-rule piece with the square ahead of it occupied.
    #[serde(default)]
    pub passed_blocked: Option<Pair>,
    /// Per passed pawn-rule piece: the own royal's distance (king steps, at most 5) to
    /// the square ahead of it, times the passer's relative rank.
    #[serde(default)]
    pub passed_own_royal: Option<Pair>,
    /// The same for the enemy royal's distance.
    #[serde(default)]
    pub passed_enemy_royal: Option<Pair>,
    /// Per light piece (worth less than a rook-like piece; not pawn-rule, not royal) in
    /// the enemy half on a square an own pawn-rule piece guards and no enemy pawn-rule
    /// piece on a neighbouring file ahead of it can come to attack.
    #[serde(default)]
    pub outpost: Option<Pair>,
    /// Per side, middlegame: safe central squares in the own first ranks, those behind
    /// own pawn-rule pieces twice, times (pieces − 3)² / 64 (Stockfish's space).
    #[serde(default)]
    pub space: Option<Pair>,
    /// Per pawn-rule piece behind every own one on the neighbouring files whose square
    /// ahead an enemy pawn-rule piece holds or attacks (a backward pawn).
    #[serde(default)]
    pub backward: Option<Pair>,
    /// Per enemy piece (not pawn-rule, not royal) an own pawn-rule piece would attack
    /// after stepping safely to the empty square ahead of it.
    #[serde(default)]
    pub push_threat: Option<Pair>,
    /// Per passed pawn-rule piece whose square ahead is empty and out of the enemy's
    /// reach, times its relative rank.
    #[serde(default)]
    pub passed_safe_stop: Option<Pair>,
    /// The same where no square ahead of it on its file is in the enemy's reach or
    /// holds an enemy piece (on top of `passed_safe_stop`).
    #[serde(default)]
    pub passed_safe_path: Option<Pair>,
    /// The same for the three files ahead of it (on top of `passed_safe_path`).
    #[serde(default)]
    pub passed_safe_span: Option<Pair>,
    /// Per passed pawn-rule piece whose empty square ahead an own piece reaches, times
    /// its relative rank.
    #[serde(default)]
    pub passed_guarded_stop: Option<Pair>,
    /// Per square both sides reach that the enemy does not hold strongly (by a
    /// pawn-rule piece, or twice where the own side reaches it at most once).
    #[serde(default)]
    pub restricted: Option<Pair>,
    /// The king steps from a side's first royal to its nearest own pawn-rule piece
    /// (nothing without one).
    #[serde(default)]
    pub royal_pawn_distance: Option<Pair>,
    /// Per light piece (not pawn-rule, not royal, worth under 450) with a pawn-rule
    /// piece of either side on the square ahead of it.
    #[serde(default)]
    pub minor_behind_pawn: Option<Pair>,
    /// Per colour-bound piece, the own pawn-rule pieces on squares of its colour.
    #[serde(default)]
    pub colour_pawns: Option<Pair>,
    /// Per enemy piece (not pawn-rule, not royal) a safe own pawn-rule piece attacks:
    /// one the enemy does not reach, or one an own piece guards.
    #[serde(default)]
    pub safe_pawn_threat: Option<Pair>,
    /// Per isolated or backward pawn-rule piece with no enemy one ahead on its file.
    #[serde(default)]
    pub weak_unopposed: Option<Pair>,
    /// Per passed pawn-rule piece, the files between it and the nearest edge.
    #[serde(default)]
    pub passed_file: Option<Pair>,
    /// Per side whose royal has no pawn-rule piece of either side on its file or the two
    /// files on each side of it.
    #[serde(default)]
    pub pawnless_flank: Option<Pair>,
    /// Per enemy piece a royal reaches that its side does not hold strongly: no enemy
    /// pawn-rule piece guards it, nor two enemy pieces where only one own reaches it.
    #[serde(default)]
    pub royal_threat: Option<Pair>,
    /// Per light piece off an outpost that reaches an empty outpost square.
    #[serde(default)]
    pub reachable_outpost: Option<Pair>,
    /// Per safe square from which a cheaper piece could attack the enemy's most valuable
    /// piece next move, when that piece is alone of its type.
    #[serde(default)]
    pub queen_threat: Option<Pair>,
    /// Per rider that does not reach the enemy royal's zone but would through every
    /// piece but the pawn-rule ones.
    #[serde(default)]
    pub zone_xray: Option<Pair>,
    /// Scale the endgame score down for a side ahead with few pawn-rule pieces
    /// (Stockfish's scale factor; fitted weights assume whichever way it was fitted).
    #[serde(default)]
    pub endgame_scale: bool,
    /// Per piece letter.
    #[serde(default)]
    pub piece: BTreeMap<String, EvalPieceFile>,
}

/// The weights of one piece type in `[eval.piece.<LETTER>]`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct EvalPieceFile {
    /// On the board.
    #[serde(default)]
    pub material: Option<Pair>,
    /// In hand.
    #[serde(default)]
    pub hand: Option<Pair>,
    /// Per square of mobility above the type's average.
    #[serde(default)]
    pub mobility: Option<Pair>,
    /// Per square of mobility below the type's average, on top of `mobility` (a piece
    /// hemmed in loses more than a free one gains).
    #[serde(default)]
    pub mobility_low: Option<Pair>,
    /// Per piece of this type attacked by a cheaper enemy piece, on top of
    /// `threat_cheaper` (what the threat costs depends on the victim).
    #[serde(default)]
    pub threatened: Option<Pair>,
    /// Per square from which a piece of this type would check the enemy royal, that one
    /// of its pieces can move to and the enemy does not guard (at most three counted).
    #[serde(default)]
    pub royal_check: Option<Pair>,
    /// Per piece of this type (not pawn-rule, not royal), per king step from its own
    /// royal (Stockfish's king protector: minor pieces far from their king).
    #[serde(default)]
    pub royal_distance: Option<Pair>,
    /// Danger per attacked square of the enemy royal's zone, in quarters.
    #[serde(default)]
    pub royal_attack: Option<i32>,
    /// Middlegame placement, one row per rank from the last rank down to the first
    /// (White's view, as a FEN reads), one entry per file.
    #[serde(default)]
    pub pst_mg: Option<Vec<Vec<i32>>>,
    /// Endgame placement, laid out as `pst_mg`.
    #[serde(default)]
    pub pst_eg: Option<Vec<Vec<i32>>>,
}

/// `[eval]` checked against the game: per type, squares indexed as the board does.
#[derive(Debug, Clone, Default)]
pub struct EvalTable {
    /// The section's scalar keys as written.
    pub tempo: Option<Pair>,
    /// See [`EvalFile::shelter`].
    pub shelter: Option<Pair>,
    /// See [`EvalFile::royal_danger`].
    pub royal_danger: Option<Pair>,
    /// See [`EvalFile::royal_weak`].
    pub royal_weak: Option<i32>,
    /// See [`EvalFile::passed`]; one entry per rank.
    pub passed: Option<Vec<Pair>>,
    /// See [`EvalFile::doubled`].
    pub doubled: Option<Pair>,
    /// See [`EvalFile::isolated`].
    pub isolated: Option<Pair>,
    /// See [`EvalFile::connected`].
    pub connected: Option<Pair>,
    /// See [`EvalFile::threat_cheaper`].
    pub threat_cheaper: Option<Pair>,
    /// See [`EvalFile::hanging`].
    pub hanging: Option<Pair>,
    /// See [`EvalFile::pair`].
    pub pair: Option<Pair>,
    /// See [`EvalFile::open_file`].
    pub open_file: Option<Pair>,
    /// See [`EvalFile::half_open_file`].
    pub half_open_file: Option<Pair>,
    /// See [`EvalFile::passed_blocked`].
    pub passed_blocked: Option<Pair>,
    /// See [`EvalFile::passed_own_royal`].
    pub passed_own_royal: Option<Pair>,
    /// See [`EvalFile::passed_enemy_royal`].
    pub passed_enemy_royal: Option<Pair>,
    /// See [`EvalFile::outpost`].
    pub outpost: Option<Pair>,
    /// See [`EvalFile::space`].
    pub space: Option<Pair>,
    /// See [`EvalFile::backward`].
    pub backward: Option<Pair>,
    /// See [`EvalFile::push_threat`].
    pub push_threat: Option<Pair>,
    /// See [`EvalFile::passed_safe_stop`].
    pub passed_safe_stop: Option<Pair>,
    /// See [`EvalFile::passed_safe_path`].
    pub passed_safe_path: Option<Pair>,
    /// See [`EvalFile::passed_safe_span`].
    pub passed_safe_span: Option<Pair>,
    /// See [`EvalFile::passed_guarded_stop`].
    pub passed_guarded_stop: Option<Pair>,
    /// See [`EvalFile::restricted`].
    pub restricted: Option<Pair>,
    /// See [`EvalFile::royal_pawn_distance`].
    pub royal_pawn_distance: Option<Pair>,
    /// See [`EvalFile::minor_behind_pawn`].
    pub minor_behind_pawn: Option<Pair>,
    /// See [`EvalFile::colour_pawns`].
    pub colour_pawns: Option<Pair>,
    /// See [`EvalFile::safe_pawn_threat`].
    pub safe_pawn_threat: Option<Pair>,
    /// See [`EvalFile::weak_unopposed`].
    pub weak_unopposed: Option<Pair>,
    /// See [`EvalFile::passed_file`].
    pub passed_file: Option<Pair>,
    /// See [`EvalFile::pawnless_flank`].
    pub pawnless_flank: Option<Pair>,
    /// See [`EvalFile::royal_threat`].
    pub royal_threat: Option<Pair>,
    /// See [`EvalFile::reachable_outpost`].
    pub reachable_outpost: Option<Pair>,
    /// See [`EvalFile::queen_threat`].
    pub queen_threat: Option<Pair>,
    /// See [`EvalFile::zone_xray`].
    pub zone_xray: Option<Pair>,
    /// See [`EvalFile::endgame_scale`].
    pub endgame_scale: bool,
    /// Per piece type.
    pub pieces: Vec<EvalPiece>,
}

/// One type's weights from `[eval.piece.<LETTER>]`, placement flattened by square.
#[derive(Debug, Clone, Default)]
pub struct EvalPiece {
    /// See [`EvalPieceFile::material`].
    pub material: Option<Pair>,
    /// See [`EvalPieceFile::hand`].
    pub hand: Option<Pair>,
    /// See [`EvalPieceFile::mobility`].
    pub mobility: Option<Pair>,
    /// See [`EvalPieceFile::mobility_low`].
    pub mobility_low: Option<Pair>,
    /// See [`EvalPieceFile::threatened`].
    pub threatened: Option<Pair>,
    /// See [`EvalPieceFile::royal_check`].
    pub royal_check: Option<Pair>,
    /// See [`EvalPieceFile::royal_distance`].
    pub royal_distance: Option<Pair>,
    /// See [`EvalPieceFile::royal_attack`].
    pub royal_attack: Option<i32>,
    /// Placement per square index (White's view).
    pub pst_mg: Option<Vec<i32>>,
    /// Placement per square index (White's view).
    pub pst_eg: Option<Vec<i32>>,
}

/// A table's `[eval]` sections alone, as text (what [`compile_text`] reads).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct EvalOnly {
    #[serde(default)]
    eval: Option<EvalFile>,
}

/// [`compile`] from the text of a table's `[eval]` sections; the error is one line.
pub fn compile_text(text: &str, board: &Board, letters: &[char]) -> Result<EvalTable, String> {
    let only: EvalOnly = toml::from_str(text).map_err(|e| e.message().to_string())?;
    compile(only.eval.as_ref(), board, letters).map_err(|(key, msg)| format!("{key}: {msg}"))
}

/// Checks `[eval]` against the board and the letters; errors name the key.
pub fn compile(
    file: Option<&EvalFile>,
    board: &Board,
    letters: &[char],
) -> Result<EvalTable, (String, String)> {
    let mut out = EvalTable {
        pieces: vec![EvalPiece::default(); letters.len()],
        ..EvalTable::default()
    };
    let Some(f) = file else {
        return Ok(out);
    };
    if let Some(p) = &f.passed {
        if p.len() != board.ranks as usize {
            return Err((
                "eval.passed".into(),
                format!("{} entries for {} ranks", p.len(), board.ranks),
            ));
        }
    }
    if let Some([scale, cap]) = f.royal_danger {
        if scale < 0 || cap < 0 {
            return Err((
                "eval.royal_danger".into(),
                "scale and cap are never negative".into(),
            ));
        }
    }
    let scalars = [
        ("tempo", f.tempo),
        ("shelter", f.shelter),
        ("royal_danger", f.royal_danger),
        ("doubled", f.doubled),
        ("isolated", f.isolated),
        ("connected", f.connected),
        ("threat_cheaper", f.threat_cheaper),
        ("hanging", f.hanging),
        ("pair", f.pair),
        ("open_file", f.open_file),
        ("half_open_file", f.half_open_file),
        ("passed_blocked", f.passed_blocked),
        ("passed_own_royal", f.passed_own_royal),
        ("passed_enemy_royal", f.passed_enemy_royal),
        ("outpost", f.outpost),
        ("space", f.space),
        ("backward", f.backward),
        ("push_threat", f.push_threat),
        ("passed_safe_stop", f.passed_safe_stop),
        ("passed_safe_path", f.passed_safe_path),
        ("passed_safe_span", f.passed_safe_span),
        ("passed_guarded_stop", f.passed_guarded_stop),
        ("restricted", f.restricted),
        ("royal_pawn_distance", f.royal_pawn_distance),
        ("minor_behind_pawn", f.minor_behind_pawn),
        ("colour_pawns", f.colour_pawns),
        ("safe_pawn_threat", f.safe_pawn_threat),
        ("weak_unopposed", f.weak_unopposed),
        ("passed_file", f.passed_file),
        ("pawnless_flank", f.pawnless_flank),
        ("royal_threat", f.royal_threat),
        ("reachable_outpost", f.reachable_outpost),
        ("queen_threat", f.queen_threat),
        ("zone_xray", f.zone_xray),
    ];
    for (key, pair) in scalars {
        bounded(&format!("eval.{key}"), pair.iter().flatten())?;
    }
    bounded("eval.passed", f.passed.iter().flatten().flatten())?;
    bounded("eval.royal_weak", f.royal_weak.iter())?;
    if f.royal_weak.is_some_and(|x| x < 0) {
        return Err(("eval.royal_weak".into(), "never negative".into()));
    }
    out.royal_weak = f.royal_weak;
    out.tempo = f.tempo;
    out.shelter = f.shelter;
    out.royal_danger = f.royal_danger;
    out.passed = f.passed.clone();
    out.doubled = f.doubled;
    out.isolated = f.isolated;
    out.connected = f.connected;
    out.threat_cheaper = f.threat_cheaper;
    out.hanging = f.hanging;
    out.pair = f.pair;
    out.open_file = f.open_file;
    out.half_open_file = f.half_open_file;
    out.passed_blocked = f.passed_blocked;
    out.passed_own_royal = f.passed_own_royal;
    out.passed_enemy_royal = f.passed_enemy_royal;
    out.outpost = f.outpost;
    out.space = f.space;
    out.backward = f.backward;
    out.push_threat = f.push_threat;
    out.passed_safe_stop = f.passed_safe_stop;
    out.passed_safe_path = f.passed_safe_path;
    out.passed_safe_span = f.passed_safe_span;
    out.passed_guarded_stop = f.passed_guarded_stop;
    out.restricted = f.restricted;
    out.royal_pawn_distance = f.royal_pawn_distance;
    out.minor_behind_pawn = f.minor_behind_pawn;
    out.colour_pawns = f.colour_pawns;
    out.safe_pawn_threat = f.safe_pawn_threat;
    out.weak_unopposed = f.weak_unopposed;
    out.passed_file = f.passed_file;
    out.pawnless_flank = f.pawnless_flank;
    out.royal_threat = f.royal_threat;
    out.reachable_outpost = f.reachable_outpost;
    out.queen_threat = f.queen_threat;
    out.zone_xray = f.zone_xray;
    out.endgame_scale = f.endgame_scale;
    for (key, pf) in &f.piece {
        let path = format!("eval.piece.{key}");
        let mut chars = key.chars();
        let t = match (chars.next(), chars.next()) {
            (Some(c), None) => letters.iter().position(|&l| l == c),
            _ => None,
        }
        .ok_or_else(|| {
            let known: String = letters.iter().collect();
            (
                path.clone(),
                format!("no piece has this letter (upper case, one of {known})"),
            )
        })?;
        let pst = |rows: &Option<Vec<Vec<i32>>>, name: &str| -> Result<_, (String, String)> {
            let Some(rows) = rows else { return Ok(None) };
            let at = format!("{path}.{name}");
            if rows.len() != board.ranks as usize {
                return Err((at, format!("{} rows for {} ranks", rows.len(), board.ranks)));
            }
            let mut flat = vec![0; board.squares()];
            for (i, row) in rows.iter().enumerate() {
                let rank = board.ranks as i32 - 1 - i as i32;
                if row.len() != board.files as usize {
                    return Err((
                        at,
                        format!(
                            "row {} has {} entries for {} files",
                            i + 1,
                            row.len(),
                            board.files
                        ),
                    ));
                }
                for (file, &x) in row.iter().enumerate() {
                    if let Some(sq) = board.square(file as i32, rank) {
                        flat[sq.idx()] = x;
                    }
                }
            }
            Ok(Some(flat))
        };
        for (name, pair) in [
            ("material", pf.material),
            ("hand", pf.hand),
            ("mobility", pf.mobility),
            ("mobility_low", pf.mobility_low),
            ("threatened", pf.threatened),
            ("royal_check", pf.royal_check),
            ("royal_distance", pf.royal_distance),
        ] {
            bounded(&format!("{path}.{name}"), pair.iter().flatten())?;
        }
        bounded(&format!("{path}.royal_attack"), pf.royal_attack.iter())?;
        for (name, rows) in [("pst_mg", &pf.pst_mg), ("pst_eg", &pf.pst_eg)] {
            bounded(&format!("{path}.{name}"), rows.iter().flatten().flatten())?;
        }
        if pf.royal_attack.is_some_and(|a| a < 0) {
            return Err((format!("{path}.royal_attack"), "never negative".into()));
        }
        out.pieces[t] = EvalPiece {
            material: pf.material,
            hand: pf.hand,
            mobility: pf.mobility,
            mobility_low: pf.mobility_low,
            threatened: pf.threatened,
            royal_check: pf.royal_check,
            royal_distance: pf.royal_distance,
            royal_attack: pf.royal_attack,
            pst_mg: pst(&pf.pst_mg, "pst_mg")?,
            pst_eg: pst(&pf.pst_eg, "pst_eg")?,
        };
    }
    Ok(out)
}

/// Largest weight a table may give, in centipawns: sums over a full board stay far from
/// overflow.
pub const MAX_WEIGHT: i32 = 20_000;

fn bounded<'a>(key: &str, xs: impl Iterator<Item = &'a i32>) -> Result<(), (String, String)> {
    for &x in xs {
        if x.abs() > MAX_WEIGHT {
            return Err((
                key.to_string(),
                format!("{x} is beyond the ±{MAX_WEIGHT} a weight may be"),
            ));
        }
    }
    Ok(())
}

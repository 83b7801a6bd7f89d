//! The on-disk form of a variant table (`tables/*.toml`, documented in
//! `tables/README.md`): plain serde structs, one per section; each rule key's own form
//! lives with its rule in `rules/`.

use super::eval_table::EvalFile;
use crate::rules::castling::{CastlingFile, ZoneCastlingFile};
use crate::rules::drops::DropsFile;
use crate::rules::flight::FlightFile;
use crate::rules::path::PathFile;
use crate::rules::promotion::{BecomesFile, PromotionFile};
use crate::rules::shot::ShotFile;
use crate::rules::stacking::StackingFile;
use crate::rules::switch::SwitchFile;
use serde::Deserialize;

/// The on-disk form of a variant table (see `tables/README.md`).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// Name used on the command line and in protocols.
    pub name: String,
    /// One-line description.
    #[serde(default)]
    pub description: String,
    /// Number of files (columns).
    pub files: u32,
    /// Number of ranks (rows).
    pub ranks: u32,
    /// Start position in FEN.
    pub start: String,
    /// The piece types.
    #[serde(rename = "piece")]
    pub pieces: Vec<PieceFile>,
    /// Castling, if the game has it.
    #[serde(default)]
    pub castling: Option<CastlingFile>,
    /// Positional switch, if the game has it.
    #[serde(default)]
    pub switch: Option<SwitchFile>,
    /// Drops from the hand, if the game has them.
    #[serde(default)]
    pub drops: Option<DropsFile>,
    /// History-based castling from zones (rights follow the pieces; the FEN lists the
    /// squares of rooks that still have one).
    #[serde(default)]
    pub zone_castling: Option<ZoneCastlingFile>,
    /// Lines along which royal pieces may not face each other with nothing between:
    /// any of "file", "rank", "diagonal".
    #[serde(default)]
    pub facing: Vec<String>,
    /// Compound stacks (combine, split, transform), if the game has them.
    #[serde(default)]
    pub stacking: Option<StackingFile>,
    /// Pawn double steps leave an en passant square (default true). When false, FEN's
    /// en passant field is ignored on input and written `-`.
    #[serde(default)]
    pub en_passant: Option<bool>,
    /// Search switches and bench positions (`[search]`).
    #[serde(default)]
    pub search: SearchFile,
    /// Evaluation weights over the derived ones (`[eval]`).
    #[serde(default)]
    pub eval: Option<EvalFile>,
}

/// The `[search]` section: what the searcher may assume about the game.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct SearchFile {
    /// Null-move pruning; switch off for games where passing can be an advantage
    /// everywhere (zugzwang-rich rules).
    #[serde(default = "yes")]
    pub null_move: bool,
    /// Late-move reductions; switch off for games where quiet moves decide too often.
    #[serde(default = "yes")]
    pub lmr: bool,
    /// FENs `tenfold bench` searches; empty: the start position and positions reached
    /// from it by fixed move sequences.
    #[serde(default)]
    pub bench: Vec<String>,
    /// Centipawns: quiescence takes the evaluation's cheap part (material, placement,
    /// pawns) for the whole where that lies this far outside its window; 0 is off.
    #[serde(default)]
    pub lazy_margin: u16,
    /// How many quiet moves a node near the leaves searches before it drops the rest, as
    /// a multiple (1 to 8) of chess's count.
    #[serde(default = "one")]
    pub late_moves: u8,
}

fn yes() -> bool {
    true
}

fn one() -> u8 {
    1
}

impl Default for SearchFile {
    fn default() -> Self {
        SearchFile {
            null_move: true,
            lmr: true,
            bench: Vec::new(),
            lazy_margin: 0,
            late_moves: 1,
        }
    }
}

/// One piece type in a variant table.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PieceFile {
    /// FEN letter (upper case; Black's is the lower case).
    pub letter: char,
    /// Human name.
    #[serde(default)]
    pub name: String,
    /// Movement in Betza notation (this or `taxonomy`).
    #[serde(default)]
    pub betza: Option<String>,
    /// Movement as a Locomotive Taxonomy name (this or `betza`).
    #[serde(default)]
    pub taxonomy: Option<String>,
    /// A royal piece may not be left in check.
    #[serde(default)]
    pub royal: bool,
    /// Pawn rules: resets the 50-move counter, double steps leave an en passant square,
    /// captures en passant.
    #[serde(default)]
    pub pawn: bool,
    /// Ranks (1 = own first rank) where initial-only (`i`) moves may start; default:
    /// the ranks where the piece stands in White's start position.
    #[serde(default)]
    pub initial_ranks: Option<Vec<i32>>,
    /// Promotion on reaching given ranks.
    #[serde(default)]
    pub promotion: Option<PromotionFile>,
    /// Region (White's view, mirrored for Black) the piece may never leave: it neither
    /// moves nor captures nor attacks outside it.
    #[serde(default)]
    pub confine: Option<String>,
    /// Automatic change of type when a move ends inside a region (written without a
    /// suffix, since there is no choice).
    #[serde(default)]
    pub becomes: Option<BecomesFile>,
    /// Material value in centipawns for the evaluation.
    #[serde(default)]
    pub value: Option<i32>,
    /// With `[stacking]`: the count of each primitive atom this piece is made of.
    #[serde(default)]
    pub composition: Option<Vec<u8>>,
    /// Rifle shot: kills without moving (see `rules/shot.rs`).
    #[serde(default)]
    pub shot: Option<ShotFile>,
    /// Path mover: a fixed number of unit steps that kill what they pass.
    #[serde(default)]
    pub path: Option<PathFile>,
    /// Flight: to any empty square, then one borrowed follow-up.
    #[serde(default)]
    pub flight: Option<FlightFile>,
}

/// A TOML error on one line: `line N: key: message`, the key written as in value errors
/// (`piece[2].promotion.ranks`) so that the user finds it.
pub(crate) fn toml_message(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(start) = e.span().map(|s| s.start) else {
        return message;
    };
    let before = text.get(..start).unwrap_or(text);
    let line_no = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let head = &before[line_start..];
    // The table the line belongs to: the last header at or above it.
    let mut table = String::new();
    let mut pieces = 0usize;
    for l in text[..line_start + line.len()].lines() {
        let l = l.trim();
        if l.starts_with("[[piece]]") {
            pieces += 1;
            table = format!("piece[{}]", pieces - 1);
        } else if l.starts_with('[') {
            table = l.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            // `[piece.promotion]` belongs to the last `[[piece]]`.
            if let (Some(rest), Some(n)) = (table.strip_prefix("piece."), pieces.checked_sub(1)) {
                table = format!("piece[{n}].{rest}");
            }
        }
    }
    let ident = |s: &str| {
        let k = s.trim().trim_start_matches(['{', ',']).trim().to_string();
        (!k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-\"".contains(c)))
        .then_some(k)
    };
    // The line's key, and the key inside an inline table the error points into.
    let mut keys: Vec<String> = Vec::new();
    if let Some(k) = line
        .split('=')
        .next()
        .filter(|_| line.contains('='))
        .and_then(ident)
    {
        keys.push(k);
    }
    if let Some(eq) = head.rfind('=') {
        let inner = head[..eq].rsplit(['{', ',']).next().and_then(ident);
        if let Some(k) = inner.filter(|k| keys.first() != Some(k)) {
            keys.push(k);
        }
    }
    let mut path: Vec<String> = Vec::new();
    if !table.is_empty() {
        path.push(table);
    }
    if message.starts_with("missing field") {
        // The span covers the whole table: no line or key of its own to name.
        return match path.first() {
            Some(t) => format!("{t}: {message}"),
            None => message,
        };
    }
    path.extend(keys);
    if path.is_empty() {
        format!("line {line_no}: {message}")
    } else {
        format!("line {line_no}: {}: {message}", path.join("."))
    }
}

/// The keys that give a piece's movement, of which a piece has one.
const MOVEMENT_KEYS: [&str; 2] = ["betza", "taxonomy"];

/// Lays `over` onto `base`: tables merge key by key; `[[piece]]` entries merge by
/// `letter` (a known letter overrides that piece's keys, its movement as a whole, a new
/// one adds a piece); any other value replaces.
pub(crate) fn merge_tables(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge_tables(b, o),
            (Some(toml::Value::Array(b)), toml::Value::Array(o)) if k == "piece" => {
                for entry in o {
                    let letter = entry.get("letter").cloned();
                    let same = b
                        .iter_mut()
                        .find(|e| letter.is_some() && e.get("letter") == letter.as_ref());
                    match (same, entry) {
                        (Some(toml::Value::Table(bt)), toml::Value::Table(ot)) => {
                            // A piece is given its movement once, by Betza or by name: a
                            // new one replaces the inherited one in either notation.
                            if MOVEMENT_KEYS.iter().any(|m| ot.contains_key(*m)) {
                                for m in MOVEMENT_KEYS {
                                    bt.remove(m);
                                }
                            }
                            merge_tables(bt, ot)
                        }
                        (_, entry) => b.push(entry),
                    }
                }
            }
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

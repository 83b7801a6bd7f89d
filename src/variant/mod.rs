//! Variants as data: the `tables/*.toml` format and its compilation into attack tables.
//!
//! A [`Variant`] is built once from its table (board size, pieces with Betza movement,
//! start position, rule switches) and shared read-only by every position of that game.

pub mod registry;

use crate::core::geometry::{Bitboard, Board, Square};
use crate::core::moves::{Color, PieceType, MAX_PIECE_TYPES};
use crate::movegen::occupy::{self, ExtRules, FlightFile, PathFile, PieceExtFile, ShotFile};
use crate::movement::atoms::Atom;
use crate::movement::atoms::Offset;
use crate::movement::attacks::{AttackerMap, PieceAttacks, Rays};
use crate::movement::betza;
use crate::movement::taxonomy;
use crate::position::Position;
use crate::rules::stacking::{Counts, Stacking, MAX_STACK_ATOMS};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

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
}

fn yes() -> bool {
    true
}

impl Default for SearchFile {
    fn default() -> Self {
        SearchFile {
            null_move: true,
            lmr: true,
            bench: Vec::new(),
        }
    }
}

/// The stacking switch: the primitive atoms compositions count.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StackingFile {
    /// Names of the primitive atoms, in the order of every piece's `composition`.
    pub atoms: Vec<String>,
    /// Types of equal composition may change into each other on a plain move to an
    /// empty square.
    #[serde(default)]
    pub transform: bool,
}

/// Positional switch: listed types may exchange squares with a nearby friendly piece.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct SwitchFile {
    /// Letters of the types that may switch.
    pub pieces: String,
    /// Largest king-distance between the switcher and its partner.
    pub distance: u32,
}

/// Drops: pieces in hand put onto empty squares, and which captures feed the hand.
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
    /// Rifle shot: kills without moving (see `extended`).
    #[serde(default)]
    pub shot: Option<ShotFile>,
    /// Path mover: a fixed number of unit steps that kill what they pass.
    #[serde(default)]
    pub path: Option<PathFile>,
    /// Flight: to any empty square, then one borrowed follow-up.
    #[serde(default)]
    pub flight: Option<FlightFile>,
}

/// Promotion rule of a piece type.
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

/// An automatic type change on entering a region.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct BecomesFile {
    /// The letter of the new type.
    pub to: char,
    /// Squares (White's view) where a move ending there changes the type.
    pub region: String,
}

/// History-based castling: the king and each rook keep their right while they stay in
/// their zone; castling brings them together on a shared rank.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ZoneCastlingFile {
    /// Letter of the castling partner (the rook).
    pub rook: char,
    /// Region (White's view) the king must not leave to keep its right.
    pub king_zone: String,
    /// The castlings, each with its rook's zone.
    pub side: Vec<ZoneSideFile>,
}

/// One zone castling: where its rook lives and where king and rook land.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ZoneSideFile {
    /// Region (White's view) the rook must not leave to keep its right.
    pub rook_zone: String,
    /// File the king lands on, on the rank where it castles.
    pub king_to: char,
    /// File the rook lands on.
    pub rook_to: char,
}

/// Castling rule: the king's start file and the two castlings' files.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CastlingFile {
    /// File of the king (letter).
    pub king_file: char,
    /// Rank of king and rooks, counted from the own side (1 = first rank).
    #[serde(default = "first_rank")]
    pub rank: i32,
    /// Castling towards the h/j side (`K`/`k`).
    pub kingside: CastleSideFile,
    /// Castling towards the a side (`Q`/`q`).
    pub queenside: CastleSideFile,
    /// True (default): castling needs FEN rights, lost when the king or rook moves.
    /// False: allowed whenever king and rook stand on their start squares; the FEN
    /// castling field is ignored on input and written `-`.
    #[serde(default = "default_true")]
    pub rights: bool,
}

fn default_true() -> bool {
    true
}

fn first_rank() -> i32 {
    1
}

/// One castling's files.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CastleSideFile {
    /// Where the king ends.
    pub king_to: char,
    /// Where the rook starts.
    pub rook_from: char,
    /// Where the rook ends.
    pub rook_to: char,
}

/// A compiled piece type.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// FEN letter, upper case.
    pub letter: char,
    /// Human name.
    pub name: String,
    /// Movement in Betza: as written, or the canonical spelling of a taxonomy name.
    pub betza: String,
    /// White's atoms.
    pub atoms: Vec<Atom>,
    /// Must not be left in check.
    pub royal: bool,
    /// Pawn rules apply.
    pub pawn: bool,
    /// Promotion, per colour: zone, mandatory zone, and choices.
    pub promotion: Option<Promotion>,
    /// Per colour: the squares it may not leave (None: the whole board).
    pub confine: Option<[Bitboard; 2]>,
    /// Automatic type change on entering a region.
    pub becomes: Option<Becomes>,
    /// Material value in centipawns.
    pub value: i32,
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
    /// Only to types the side has lost (see [`Variant::start_count`]).
    pub pool: bool,
}

/// A compiled automatic type change.
#[derive(Clone, Copy, Debug)]
pub struct Becomes {
    /// The new type.
    pub to: PieceType,
    /// Per colour: squares where a move ending there changes the type.
    pub region: [Bitboard; 2],
}

/// Compiled zone castling.
#[derive(Clone, Debug)]
pub struct ZoneCastling {
    /// The partner type.
    pub rook: PieceType,
    /// Per colour: the king's zone.
    pub king_zone: [Bitboard; 2],
    /// The castlings (index = side).
    pub sides: Vec<ZoneSide>,
}

/// One compiled zone castling.
#[derive(Clone, Copy, Debug)]
pub struct ZoneSide {
    /// Per colour: the rook's zone.
    pub rook_zone: [Bitboard; 2],
    /// 0-based file the king lands on.
    pub king_to: i32,
    /// 0-based file the rook lands on.
    pub rook_to: i32,
}

/// One castling, per colour, as squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleRule {
    /// King start.
    pub king_from: Square,
    /// King end.
    pub king_to: Square,
    /// Rook start.
    pub rook_from: Square,
    /// Rook end.
    pub rook_to: Square,
    /// Squares that must be empty (apart from the king and the rook themselves).
    pub must_be_empty: Bitboard,
    /// Squares the king stands on or crosses, which must not be attacked.
    pub king_path: Bitboard,
    /// Types of the king and rook in the start position (what castling without rights
    /// looks for on their squares), if they stand there.
    pub pieces: Option<(PieceType, PieceType)>,
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

/// A variant, compiled: everything move generation needs, read-only.
pub struct Variant {
    /// Name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Board shape.
    pub board: Board,
    /// Piece types, indexed by [`PieceType`].
    pub pieces: Vec<PieceDef>,
    /// Start FEN.
    pub start_fen: String,
    /// Attack tables per colour, per type.
    pub attacks: [Vec<PieceAttacks>; 2],
    /// Per attacking colour: who attacks a square, for check and legality tests.
    pub attackers: [AttackerMap; 2],
    /// The rays the attack tables use.
    pub rays: Rays,
    /// Castling rules: index `color * 2 + side` (0 = kingside, 1 = queenside).
    pub castling: Option<[CastleRule; 4]>,
    /// Per square: the castling rights lost when a move starts or ends there.
    pub castle_mask: Vec<u8>,
    /// Positional switch, if any.
    pub switch: Option<SwitchRule>,
    /// Drops, if any.
    pub drops: Option<DropRule>,
    /// Types that are royal, as a bit mask.
    pub royal_mask: u32,
    /// Types with pawn rules, as a bit mask.
    pub pawn_mask: u32,
    /// True when every capture is a leap or a straight ride, so checks and pins can be
    /// read off rays; otherwise every move is verified by a full attack test.
    pub ray_legality: bool,
    /// History-based castling from zones, if the game has it.
    pub zone_castling: Option<ZoneCastling>,
    /// Per colour and type: how many the start position holds (promotion pools).
    pub start_count: [[u8; MAX_PIECE_TYPES]; 2],
    /// Per square: the squares on every ray along which a ride, hop or facing could
    /// reach it. None when lame or bent captures exist (they depend on other squares).
    /// Out of check, a non-royal move can only expose a royal along the rays through
    /// its two squares.
    pub lines: Option<Vec<Bitboard>>,
    /// Compound stacks, when the table switches them on.
    pub stacking: Option<Stacking>,
    /// Per type: its stack plane code (0 for every type when there is no stacking), kept
    /// outside `stacking` so that placing a piece costs one lookup in every game.
    pub stack_code: [u16; MAX_PIECE_TYPES],
    /// Shots, paths and flights, when a piece has one (their own generator and check).
    pub ext: Option<Box<ExtRules>>,
    /// Double steps leave an en passant square.
    pub en_passant: bool,
    /// Castling needs rights (false: only king and rook on their start squares).
    pub castling_rights: bool,
    /// The source table, for `extends` and for display.
    pub file: VariantFile,
}

/// Why a variant table could not be used.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// The TOML does not parse or has wrong keys.
    #[error("{origin}: {msg}")]
    Toml {
        /// File name or built-in name.
        origin: String,
        /// The parser's message (with line and column).
        msg: String,
    },
    /// A value is wrong.
    #[error("{origin}: {key}: {msg}")]
    Value {
        /// File name or built-in name.
        origin: String,
        /// The key at fault.
        key: String,
        /// What is wrong.
        msg: String,
    },
}

fn file_index(c: char, files: u8) -> Option<i32> {
    let f = c as i32 - 'a' as i32;
    if (0..files as i32).contains(&f) {
        Some(f)
    } else {
        None
    }
}

impl Variant {
    /// Parses and compiles a variant table; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Variant, VariantError> {
        let toml_err = |e: toml::de::Error| VariantError::Toml {
            origin: origin.to_string(),
            msg: toml_message(text, &e),
        };
        let table: toml::Table = toml::from_str(text).map_err(toml_err)?;
        if !table.contains_key("extends") {
            let file: VariantFile = toml::from_str(text).map_err(toml_err)?;
            return Variant::compile(file, origin);
        }
        let merged = extend(table, origin)?;
        let file: VariantFile =
            toml::Value::Table(merged)
                .try_into()
                .map_err(|e: toml::de::Error| VariantError::Toml {
                    origin: origin.to_string(),
                    msg: e.to_string().replace('\n', " ").trim().to_string(),
                })?;
        Variant::compile(file, origin)
    }

    /// Compiles a parsed table.
    pub fn compile(mut file: VariantFile, origin: &str) -> Result<Variant, VariantError> {
        // A taxonomy name that describes a path mover (T5's armor) is that `path`.
        for p in file.pieces.iter_mut() {
            if let (None, None, Some((steps, betza))) = (
                &p.betza,
                &p.path,
                p.taxonomy.as_deref().and_then(taxonomy::path_of),
            ) {
                p.path = Some(PathFile { steps, betza });
                p.taxonomy = None;
            }
        }
        let err = |key: &str, msg: String| VariantError::Value {
            origin: origin.to_string(),
            key: key.to_string(),
            msg,
        };
        let board = Board::new(file.files, file.ranks).map_err(|e| err("files", e.to_string()))?;
        if file.pieces.is_empty() {
            return Err(err("piece", "a variant needs at least one piece".into()));
        }
        if file.pieces.len() > MAX_PIECE_TYPES {
            return Err(err(
                "piece",
                format!("at most {MAX_PIECE_TYPES} piece types"),
            ));
        }
        let mut pieces = Vec::new();
        for (i, p) in file.pieces.iter().enumerate() {
            let key = format!("piece[{i}]");
            if !p.letter.is_ascii_uppercase() {
                return Err(err(
                    &format!("{key}.letter"),
                    format!("'{}' is not an upper-case letter", p.letter),
                ));
            }
            if file.pieces[..i].iter().any(|q| q.letter == p.letter) {
                return Err(err(
                    &format!("{key}.letter"),
                    format!("letter '{}' is used twice", p.letter),
                ));
            }
            // A piece that moves only by its path, shot or flight needs no atoms.
            let extended_only = p.path.is_some() || p.shot.is_some() || p.flight.is_some();
            let atoms =
                match (&p.betza, &p.taxonomy) {
                    (Some(b), None) if b.is_empty() && extended_only => Vec::new(),
                    (None, None) if extended_only => Vec::new(),
                    (Some(b), None) => {
                        betza::parse(b).map_err(|e| err(&format!("{key}.betza"), e.to_string()))?
                    }
                    (None, Some(t)) => taxonomy::parse(t)
                        .map_err(|e| err(&format!("{key}.taxonomy"), e.to_string()))?,
                    (Some(_), Some(_)) => {
                        return Err(err(
                            &key,
                            "give the movement once: betza or taxonomy, not both".into(),
                        ))
                    }
                    (None, None) => return Err(err(
                        &key,
                        "no movement: give betza = \"…\", taxonomy = \"…\", path, shot or flight"
                            .into(),
                    )),
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
                confine: match &p.confine {
                    Some(r) => Some(
                        parse_region(&board, r).map_err(|m| err(&format!("{key}.confine"), m))?,
                    ),
                    None => None,
                },
                becomes: None,
                value: p.value.unwrap_or(0),
            });
        }
        let type_of = |c: char| {
            file.pieces
                .iter()
                .position(|p| p.letter == c)
                .map(|i| i as PieceType)
        };
        // Promotions and initial ranks need the whole piece list.
        let start_board =
            start_placement(&file.start, &board, &pieces).map_err(|m| err("start", m))?;
        let rel_ranks = |ranks: &[i32], key: &str| -> Result<[Bitboard; 2], VariantError> {
            let mut z = [Bitboard::EMPTY; 2];
            for &r in ranks {
                if r < 1 || r > board.ranks as i32 {
                    return Err(err(key, format!("rank {r} is off the board")));
                }
                z[0] |= board.relative_rank_mask(true, r - 1);
                z[1] |= board.relative_rank_mask(false, r - 1);
            }
            Ok(z)
        };
        let mut promos = Vec::new();
        for (i, p) in file.pieces.iter().enumerate() {
            let key = format!("piece[{i}].promotion");
            promos.push(match &p.promotion {
                None => None,
                Some(pr) => {
                    let zone = rel_ranks(&pr.ranks, &format!("{key}.ranks"))?;
                    let mandatory = match &pr.mandatory_ranks {
                        Some(m) => rel_ranks(m, &format!("{key}.mandatory_ranks"))?,
                        None => zone,
                    };
                    let mut to = Vec::new();
                    for c in pr.to.chars() {
                        match type_of(c) {
                            Some(t) if to.contains(&t) => {
                                return Err(err(
                                    &format!("{key}.to"),
                                    format!("'{c}' is listed twice"),
                                ))
                            }
                            Some(t) => to.push(t),
                            None => {
                                return Err(err(
                                    &format!("{key}.to"),
                                    format!("no piece with letter '{c}'"),
                                ))
                            }
                        }
                    }
                    if to.is_empty() {
                        return Err(err(&format!("{key}.to"), "no promotion choices".into()));
                    }
                    let mut choice_zone = vec![zone; to.len()];
                    for (letter, ranks) in &pr.only_on {
                        let k = format!("{key}.only_on.{letter}");
                        let mut cs = letter.chars();
                        let t = match (cs.next(), cs.next()) {
                            (Some(c), None) => type_of(c),
                            _ => None,
                        };
                        let Some(i) = t.and_then(|t| to.iter().position(|&x| x == t)) else {
                            return Err(err(
                                &k,
                                format!("'{letter}' is not one of the choices \"{}\"", pr.to),
                            ));
                        };
                        let z = rel_ranks(ranks, &k)?;
                        choice_zone[i] = [z[0] & zone[0], z[1] & zone[1]];
                    }
                    Some(Promotion {
                        zone,
                        mandatory,
                        to,
                        choice_zone,
                        pool: pr.pool,
                    })
                }
            });
        }
        for (p, pr) in pieces.iter_mut().zip(promos) {
            p.promotion = pr;
        }
        for (i, p) in file.pieces.iter().enumerate() {
            if let Some(b) = &p.becomes {
                let key = format!("piece[{i}].becomes");
                if p.promotion.is_some() {
                    return Err(err(
                        &key,
                        "a piece either becomes another on entering a region or promotes, not both"
                            .into(),
                    ));
                }
                let to = type_of(b.to).ok_or_else(|| {
                    err(
                        &format!("{key}.to"),
                        format!("no piece with letter '{}'", b.to),
                    )
                })?;
                let region = parse_region(&board, &b.region)
                    .map_err(|m| err(&format!("{key}.region"), m))?;
                pieces[i].becomes = Some(Becomes { to, region });
            }
        }
        let mut start_count = [[0u8; MAX_PIECE_TYPES]; 2];
        for &(_, t, c) in &start_board {
            start_count[c.idx()][t as usize] = start_count[c.idx()][t as usize].saturating_add(1);
        }
        let mut rays = Rays::default();
        let mut attacks: [Vec<PieceAttacks>; 2] = [Vec::new(), Vec::new()];
        for (i, p) in pieces.iter().enumerate() {
            let key = format!("piece[{i}].initial_ranks");
            let initial = match &file.pieces[i].initial_ranks {
                Some(r) => rel_ranks(r, &key)?,
                None => {
                    // Default: the ranks White's pieces of this type start on, mirrored.
                    let mut z = [Bitboard::EMPTY; 2];
                    for &(sq, t, c) in &start_board {
                        if t as usize == i && c == Color::White {
                            let r = board.rank_of(sq);
                            z[0] |= board.rank_mask(r);
                            z[1] |= board.relative_rank_mask(false, r);
                        }
                    }
                    z
                }
            };
            for c in Color::BOTH {
                let atoms: Vec<Atom> = if c == Color::White {
                    p.atoms.clone()
                } else {
                    p.atoms.iter().map(|a| a.mirrored()).collect()
                };
                let mut pa = PieceAttacks::compile(&board, &mut rays, &atoms, initial[c.idx()]);
                if let Some(region) = p.confine {
                    pa.confine(region[c.idx()]);
                }
                attacks[c.idx()].push(pa);
            }
        }
        let mut attackers = [
            AttackerMap::build(&board, &mut rays, &attacks[0]),
            AttackerMap::build(&board, &mut rays, &attacks[1]),
        ];
        let royal_mask = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .fold(0u32, |m, (i, _)| m | 1 << i);
        let pawn_mask = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.pawn)
            .fold(0u32, |m, (i, _)| m | 1 << i);
        let mut facing_steps = Vec::new();
        for (i, f) in file.facing.iter().enumerate() {
            let dirs: &[(i8, i8)] = match f.as_str() {
                "file" => &[(0, 1), (0, -1)],
                "rank" => &[(1, 0), (-1, 0)],
                "diagonal" => &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
                _ => {
                    return Err(err(
                        &format!("facing[{i}]"),
                        format!("\"{f}\" is not one of file, rank, diagonal"),
                    ))
                }
            };
            facing_steps.extend(dirs.iter().map(|&(dx, dy)| Offset::new(dx, dy)));
        }
        if !facing_steps.is_empty() {
            if royal_mask == 0 {
                return Err(err("facing", "the game has no royal piece".into()));
            }
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
            None => None,
            Some(zc) => Some(
                compile_zone_castling(zc, &board, &pieces, royal_mask)
                    .map_err(|(k, m)| err(&k, m))?,
            ),
        };
        if zone_castling.is_some() && file.castling.is_some() {
            return Err(err(
                "zone_castling",
                "a game has either castling or zone_castling".into(),
            ));
        }
        let stacking = match &file.stacking {
            None => {
                if let Some(i) = file.pieces.iter().position(|p| p.composition.is_some()) {
                    return Err(err(
                        &format!("piece[{i}].composition"),
                        "needs a [stacking] table".into(),
                    ));
                }
                None
            }
            Some(sf) => {
                let mut comps: Vec<Option<Counts>> = Vec::new();
                for (i, p) in file.pieces.iter().enumerate() {
                    let key = format!("piece[{i}].composition");
                    comps.push(match &p.composition {
                        None => None,
                        Some(c) => {
                            if c.len() != sf.atoms.len() {
                                return Err(err(
                                    &key,
                                    format!("{} counts for {} atoms", c.len(), sf.atoms.len()),
                                ));
                            }
                            if c.iter().all(|&n| n == 0) {
                                return Err(err(
                                    &key,
                                    "a composition needs at least one atom".into(),
                                ));
                            }
                            if p.royal || p.pawn {
                                return Err(err(&key, "royal and pawn pieces cannot stack".into()));
                            }
                            let mut counts = [0u8; MAX_STACK_ATOMS];
                            let n = c.len().min(MAX_STACK_ATOMS);
                            counts[..n].copy_from_slice(&c[..n]);
                            Some(counts)
                        }
                    });
                }
                Some(
                    Stacking::build(sf.atoms.clone(), sf.transform, &comps)
                        .map_err(|m| err("stacking", m))?,
                )
            }
        };
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
        let ext = occupy::compile(&board, &mut rays, &pieces, &ext_files, origin)?.map(Box::new);
        // Shots, paths and flights make checks that rays cannot see.
        let ray_legality = ext.is_none()
            && attacks
                .iter()
                .all(|v| v.iter().all(|a| a.has_only_leaps_and_rides()));
        let mut castle_mask = vec![0u8; board.squares()];
        let castling = match &file.castling {
            None => None,
            Some(cf) => {
                let f = |c: char, key: &str| {
                    file_index(c, board.files)
                        .ok_or_else(|| err(key, format!("file '{c}' is off the board")))
                };
                let kf = f(cf.king_file, "castling.king_file")?;
                if cf.rank < 1 || cf.rank > board.ranks as i32 {
                    return Err(err(
                        "castling.rank",
                        format!("rank {} is off the board", cf.rank),
                    ));
                }
                let mut rules = [None; 4];
                for c in Color::BOTH {
                    let rank = if c == Color::White {
                        cf.rank - 1
                    } else {
                        board.ranks as i32 - cf.rank
                    };
                    for (side, s) in [&cf.kingside, &cf.queenside].into_iter().enumerate() {
                        let key = if side == 0 {
                            "castling.kingside"
                        } else {
                            "castling.queenside"
                        };
                        let sq = |file: i32| board.square(file, rank).unwrap();
                        let (kt, rf, rt) =
                            (f(s.king_to, key)?, f(s.rook_from, key)?, f(s.rook_to, key)?);
                        let span = |a: i32, b: i32| {
                            let mut bb = Bitboard::EMPTY;
                            for x in a.min(b)..=a.max(b) {
                                bb.set(sq(x));
                            }
                            bb
                        };
                        let king_path = span(kf, kt);
                        let must_be_empty = (span(kf, kt) | span(rf, rt) | span(kf, rf))
                            & !sq(kf).bb()
                            & !sq(rf).bb();
                        let idx = c.idx() * 2 + side;
                        let at = |f: i32| {
                            start_board
                                .iter()
                                .find(|(s, _, col)| *s == sq(f) && *col == c)
                                .map(|(_, t, _)| *t)
                        };
                        let pieces = at(kf).zip(at(rf));
                        if !cf.rights && pieces.is_none() {
                            let msg = "castling without rights needs the king and rook in the start position";
                            return Err(err(key, msg.into()));
                        }
                        castle_mask[sq(kf).idx()] |= 0b11 << (c.idx() * 2);
                        castle_mask[sq(rf).idx()] |= 1 << idx;
                        rules[idx] = Some(CastleRule {
                            king_from: sq(kf),
                            king_to: sq(kt),
                            rook_from: sq(rf),
                            rook_to: sq(rt),
                            must_be_empty,
                            king_path,
                            pieces,
                        });
                    }
                }
                Some(rules.map(|r| r.unwrap()))
            }
        };
        let type_mask = |letters: &str, key: &str| -> Result<u32, VariantError> {
            let mut m = 0u32;
            for c in letters.chars() {
                let t = file.pieces.iter().position(|p| p.letter == c);
                let t = t.ok_or_else(|| err(key, format!("no piece with letter '{c}'")))?;
                m |= 1 << t;
            }
            Ok(m)
        };
        let within = |d: u32| -> Vec<Bitboard> {
            (0..board.squares())
                .map(|s| {
                    let s = Square(s as u8);
                    let mut bb = Bitboard::EMPTY;
                    for t in board.all.iter() {
                        if t != s && board.distance(s, t) <= d as i32 {
                            bb.set(t);
                        }
                    }
                    bb
                })
                .collect()
        };
        let switch = match &file.switch {
            None => None,
            Some(sf) => {
                let types = type_mask(&sf.pieces, "switch.pieces")?;
                if types == 0 || sf.distance == 0 {
                    return Err(err(
                        "switch",
                        "needs at least one piece and a distance of 1 or more".into(),
                    ));
                }
                let mut promotion_zones = [Bitboard::EMPTY; 2];
                for pr in pieces.iter().filter_map(|p| p.promotion.as_ref()) {
                    promotion_zones[0] |= pr.zone[0];
                    promotion_zones[1] |= pr.zone[1];
                }
                Some(SwitchRule {
                    types,
                    reach: within(sf.distance),
                    promotion_zones,
                })
            }
        };
        let drops = match &file.drops {
            None => None,
            Some(df) => {
                let near_types = match &df.next_to {
                    Some(l) => type_mask(l, "drops.next_to")?,
                    None => 0,
                };
                let d = df.distance.unwrap_or(1);
                if d == 0 {
                    return Err(err("drops.distance", "must be 1 or more".into()));
                }
                let to_hand = type_mask(&df.captures_to_hand, "drops.captures_to_hand")?;
                if to_hand & royal_mask != 0 {
                    return Err(err(
                        "drops.captures_to_hand",
                        "a royal piece cannot go to a hand".into(),
                    ));
                }
                Some(DropRule {
                    near_types,
                    near: within(d),
                    to_hand,
                })
            }
        };
        let variant = Variant {
            name: file.name.clone(),
            description: file.description.clone(),
            board,
            pieces,
            start_fen: file.start.clone(),
            attacks,
            attackers,
            rays,
            castling,
            castle_mask,
            switch,
            drops,
            royal_mask,
            pawn_mask,
            ray_legality,
            zone_castling,
            start_count,
            lines,
            stacking,
            stack_code,
            ext,
            en_passant: file.en_passant.unwrap_or(true),
            castling_rights: file.castling.as_ref().is_none_or(|c| c.rights),
            file,
        };
        // `Position::startpos` relies on the start FEN being valid: check it once here.
        let shared = Arc::new(variant);
        let checked = Position::from_fen(&shared, &shared.start_fen).map(|_| ());
        let variant = Arc::try_unwrap(shared).map_err(|_| {
            err(
                "start",
                "the variant is still shared after the check".into(),
            )
        })?;
        checked.map_err(|e| err("start", e.to_string()))?;
        Ok(variant)
    }

    /// The type with this FEN letter (either case).
    pub fn type_of_letter(&self, c: char) -> Option<PieceType> {
        let up = c.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up)
            .map(|i| i as PieceType)
    }

    /// Number of piece types.
    pub fn piece_count(&self) -> usize {
        self.pieces.len()
    }

    /// Wraps the variant for sharing between positions and threads.
    pub fn shared(self) -> Arc<Variant> {
        Arc::new(self)
    }
}

/// A TOML error on one line: `line N: key: message`, the key written as in value errors
/// (`piece[2].promotion.ranks`) so that the user finds it.
fn toml_message(text: &str, e: &toml::de::Error) -> String {
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

/// Resolves `extends = "NAME"`: the built-in table NAME with this file's keys laid over
/// it. Tables merge key by key; `[[piece]]` entries merge by `letter` (a known letter
/// overrides that piece's keys, a new one adds a piece); any other value replaces.
fn extend(mut table: toml::Table, origin: &str) -> Result<toml::Table, VariantError> {
    let err = |msg: String| VariantError::Value {
        origin: origin.to_string(),
        key: "extends".into(),
        msg,
    };
    let name = match table.remove("extends") {
        Some(toml::Value::String(n)) => n,
        _ => {
            return Err(err(
                "must be the name of a built-in variant, as a string".into()
            ))
        }
    };
    let (_, base_text) = crate::variant::registry::TABLES
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| {
            err(format!(
                "\"{name}\" is not a built-in variant ({})",
                crate::variant::registry::names().join(", ")
            ))
        })?;
    let mut base: toml::Table = toml::from_str(base_text)
        .map_err(|e| err(format!("built-in table {name} does not parse: {e}")))?;
    merge_tables(&mut base, table);
    Ok(base)
}

fn merge_tables(base: &mut toml::Table, over: toml::Table) {
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

/// Reads the placement field of a FEN just far enough to know where each type starts.
fn start_placement(
    fen: &str,
    board: &Board,
    pieces: &[PieceDef],
) -> Result<Vec<(Square, PieceType, Color)>, String> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let placement = placement.split('[').next().unwrap_or("");
    let mut out = Vec::new();
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != board.ranks as usize {
        return Err(format!(
            "{} ranks in the placement, the board has {}",
            rows.len(),
            board.ranks
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = board.ranks as i32 - 1 - i as i32;
        let mut file = 0i32;
        let mut num = 0i32;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                num = num.saturating_mul(10).saturating_add(d as i32);
                continue;
            }
            file = file.saturating_add(num);
            num = 0;
            let t = pieces
                .iter()
                .position(|p| p.letter == ch.to_ascii_uppercase())
                .ok_or_else(|| format!("unknown piece letter '{ch}'"))?;
            let c = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let sq = board
                .square(file, rank)
                .ok_or_else(|| format!("rank {} is too long", rank + 1))?;
            out.push((sq, t as PieceType, c));
            file += 1;
        }
    }
    Ok(out)
}

/// Parses a region: squares and rectangles (`a1:j5`) from White's view, separated by
/// spaces or commas. Black's region is the mirror image across the middle rank.
pub fn parse_region(board: &Board, text: &str) -> Result<[Bitboard; 2], String> {
    let mut z = [Bitboard::EMPTY; 2];
    let sq = |t: &str| {
        board
            .parse_square(t)
            .ok_or_else(|| format!("\"{t}\" in region \"{text}\" is not a square of the board"))
    };
    for part in text.split([' ', ',']).filter(|p| !p.is_empty()) {
        let (a, b) = match part.split_once(':') {
            Some((a, b)) => (sq(a)?, sq(b)?),
            None => (sq(part)?, sq(part)?),
        };
        let (fa, fb) = (board.file_of(a), board.file_of(b));
        let (ra, rb) = (board.rank_of(a), board.rank_of(b));
        for f in fa.min(fb)..=fa.max(fb) {
            for r in ra.min(rb)..=ra.max(rb) {
                z[0].set(board.square(f, r).expect("inside the rectangle"));
                z[1].set(
                    board
                        .square(f, board.ranks as i32 - 1 - r)
                        .expect("mirrored"),
                );
            }
        }
    }
    if z[0].is_empty() {
        return Err(format!("region \"{text}\" is empty"));
    }
    Ok(z)
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

/// Compiles `[zone_castling]`; errors carry their key.
fn compile_zone_castling(
    zc: &ZoneCastlingFile,
    board: &Board,
    pieces: &[PieceDef],
    royal_mask: u32,
) -> Result<ZoneCastling, (String, String)> {
    let rook = pieces
        .iter()
        .position(|p| p.letter == zc.rook)
        .ok_or_else(|| {
            (
                "zone_castling.rook".to_string(),
                format!("no piece with letter '{}'", zc.rook),
            )
        })?;
    if royal_mask == 0 || royal_mask >> rook & 1 != 0 {
        return Err((
            "zone_castling.rook".into(),
            "castling needs a royal king and a non-royal rook".into(),
        ));
    }
    let king_zone = parse_region(board, &zc.king_zone)
        .map_err(|m| ("zone_castling.king_zone".to_string(), m))?;
    if zc.side.is_empty() || zc.side.len() > 2 {
        return Err(("zone_castling.side".into(), "one or two castlings".into()));
    }
    let mut sides = Vec::new();
    let mut seen = Bitboard::EMPTY;
    for (i, sd) in zc.side.iter().enumerate() {
        let key = format!("zone_castling.side[{i}]");
        let rook_zone =
            parse_region(board, &sd.rook_zone).map_err(|m| (format!("{key}.rook_zone"), m))?;
        if (rook_zone[0] & (seen | king_zone[0])).any() {
            return Err((
                format!("{key}.rook_zone"),
                "rook zones may not overlap each other or the king's".into(),
            ));
        }
        seen |= rook_zone[0];
        let file = |c: char, k: &str| {
            file_index(c, board.files)
                .ok_or_else(|| (format!("{key}.{k}"), format!("file '{c}' is off the board")))
        };
        let (king_to, rook_to) = (file(sd.king_to, "king_to")?, file(sd.rook_to, "rook_to")?);
        // The castling king always leaves its zone, so a castling is never a plain step.
        if (0..board.ranks as i32).any(|r| {
            board
                .square(king_to, r)
                .is_some_and(|s| king_zone[0].has(s))
        }) {
            return Err((
                format!("{key}.king_to"),
                "the king must land outside its zone".into(),
            ));
        }
        sides.push(ZoneSide {
            rook_zone,
            king_to,
            rook_to,
        });
    }
    Ok(ZoneCastling {
        rook: rook as PieceType,
        king_zone,
        sides,
    })
}

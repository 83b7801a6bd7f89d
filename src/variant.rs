//! Variants as data: the `tables/*.toml` format and its compilation into attack tables.
//!
//! A [`Variant`] is built once from its table (board size, pieces with Betza movement,
//! start position, rule switches) and shared read-only by every position of that game.

use crate::attacks::{AttackerMap, PieceAttacks, Rays};
use crate::betza;
use crate::geometry::{Bitboard, Board, Square};
use crate::movement::Atom;
use crate::moves::{Color, PieceType, MAX_PIECE_TYPES};
use serde::Deserialize;
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

/// One piece type in a variant table.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PieceFile {
    /// FEN letter (upper case; Black's is the lower case).
    pub letter: char,
    /// Human name.
    #[serde(default)]
    pub name: String,
    /// Movement in Betza notation.
    pub betza: String,
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
    /// Material value in centipawns for the evaluation.
    #[serde(default)]
    pub value: Option<i32>,
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
    /// Movement as written.
    pub betza: String,
    /// White's atoms.
    pub atoms: Vec<Atom>,
    /// Must not be left in check.
    pub royal: bool,
    /// Pawn rules apply.
    pub pawn: bool,
    /// Promotion, per colour: zone, mandatory zone, and choices.
    pub promotion: Option<Promotion>,
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
    /// Types that are royal, as a bit mask.
    pub royal_mask: u32,
    /// Types with pawn rules, as a bit mask.
    pub pawn_mask: u32,
    /// True when every capture is a leap or a straight ride, so checks and pins can be
    /// read off rays; otherwise every move is verified by a full attack test.
    pub ray_legality: bool,
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
        let file: VariantFile = toml::from_str(text).map_err(|e| VariantError::Toml {
            origin: origin.to_string(),
            msg: e.to_string().replace('\n', " ").trim().to_string(),
        })?;
        Variant::compile(file, origin)
    }

    /// Compiles a parsed table.
    pub fn compile(file: VariantFile, origin: &str) -> Result<Variant, VariantError> {
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
            let atoms =
                betza::parse(&p.betza).map_err(|e| err(&format!("{key}.betza"), e.to_string()))?;
            pieces.push(PieceDef {
                letter: p.letter,
                name: if p.name.is_empty() {
                    p.letter.to_string()
                } else {
                    p.name.clone()
                },
                betza: p.betza.clone(),
                atoms,
                royal: p.royal,
                pawn: p.pawn,
                promotion: None,
                value: p.value.unwrap_or(0),
            });
        }
        let type_of = |c: char| {
            pieces
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
                    Some(Promotion {
                        zone,
                        mandatory,
                        to,
                    })
                }
            });
        }
        for (p, pr) in pieces.iter_mut().zip(promos) {
            p.promotion = pr;
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
                attacks[c.idx()].push(PieceAttacks::compile(
                    &board,
                    &mut rays,
                    &atoms,
                    initial[c.idx()],
                ));
            }
        }
        let attackers = [
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
        let ray_legality = attacks
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
                        castle_mask[sq(kf).idx()] |= 0b11 << (c.idx() * 2);
                        castle_mask[sq(rf).idx()] |= 1 << idx;
                        rules[idx] = Some(CastleRule {
                            king_from: sq(kf),
                            king_to: sq(kt),
                            rook_from: sq(rf),
                            rook_to: sq(rt),
                            must_be_empty,
                            king_path,
                        });
                    }
                }
                Some(rules.map(|r| r.unwrap()))
            }
        };
        Ok(Variant {
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
            royal_mask,
            pawn_mask,
            ray_legality,
            file,
        })
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
                num = num * 10 + d as i32;
                continue;
            }
            file += num;
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

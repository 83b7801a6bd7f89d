//! Variants as data: a table (`tables/*.toml`) compiled once into attack tables and rule
//! data, then shared read-only by every position of that game. `table` is the on-disk
//! form, `compile` turns it into a [`Variant`] (a pure function of the table), and the
//! rules themselves live in `rules/`, one file per key.

pub mod compile;
pub mod eval_table;
pub mod table;
pub mod values;

use crate::core::geometry::{Bitboard, Board, SQUARE_SLOTS};
use crate::core::moves::{PieceType, MAX_PIECE_TYPES};
use crate::movement::atoms::Atom;
use crate::movement::attacks::{AttackerMap, PieceAttacks, Rays};
use crate::rules::castling::{Castling, ZoneCastling};
use crate::rules::drops::DropRule;
use crate::rules::occupy::OccupyRules;
use crate::rules::promotion::{Becomes, Promotion};
use crate::rules::stacking::Stacking;
use crate::rules::switch::SwitchRule;
use std::sync::{Arc, OnceLock};

pub use table::{PieceFile, SearchFile, VariantFile};

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
    /// Material value in centipawns: the table's, or derived from mobility
    /// (`variant/values.rs`); 0 for royals. Evaluation and baselines both read it.
    pub value: i32,
    /// Moves it has beyond its atoms (`path`, `shot`, `flight`), named for display.
    pub extra_moves: Vec<&'static str>,
}

/// How legal moves are told from pseudo-legal ones, chosen once per variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legality {
    /// Every capture is a leap or a straight ride: checks and pins are read off rays
    /// and legal moves generated directly (with one royal; else as `Lines`).
    Rays,
    /// Hoppers or facing exist but no lame or bent capture: out of check a non-royal
    /// move can only expose its royal along the lines through its two squares.
    Lines,
    /// Lame or bent captures: a move that touches a square the royal's safety hangs on
    /// is verified by a full attack test.
    Verify,
    /// Shots, paths or flights kill without occupying: check means "a royal could be
    /// occupy-captured next move", tested on bitboards (`movegen/occupy.rs`).
    OccupyCapture,
}

/// What the searcher may assume about the game (the table's `[search]` section).
#[derive(Clone, Debug)]
pub struct SearchRules {
    /// Null-move pruning is sound enough here.
    pub null_move: bool,
    /// Late-move reductions are sound enough here.
    pub lmr: bool,
    /// FENs `tenfold bench` searches; empty: positions derived from the start.
    pub bench: Vec<String>,
    /// How far outside quiescence's window the evaluation's cheap part must lie to be
    /// taken for the whole, in centipawns; 0: never.
    pub lazy_margin: i32,
    /// Quiet moves a node near the leaves searches before dropping the rest, as a
    /// multiple of chess's count.
    pub late_moves: usize,
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
    /// How legality is tested.
    pub legality: Legality,
    /// Classic castling, if any.
    pub castling: Option<Castling>,
    /// Per square: the castling rights lost when a move starts or ends there (all zero
    /// without castling), kept outside `castling` so every move pays one lookup only.
    pub castle_mask: Vec<u8>,
    /// History-based castling from zones, if the game has it.
    pub zone_castling: Option<ZoneCastling>,
    /// Positional switch, if any.
    pub switch: Option<SwitchRule>,
    /// Drops, if any.
    pub drops: Option<DropRule>,
    /// Types that are royal, as a bit mask.
    pub royal_mask: u32,
    /// Types with pawn rules, as a bit mask.
    pub pawn_mask: u32,
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
    /// Shots, paths and flights, when a piece has one (with [`Legality::OccupyCapture`]).
    pub occupy: Option<Box<OccupyRules>>,
    /// Double steps leave an en passant square.
    pub en_passant: bool,
    /// Whether every move that resets the halfmove clock can never be undone, so that a
    /// repeated position lies within the clock's reach: false where a pawn can step
    /// back or sideways (Combined Arms' infantry), pieces switch places, or captured
    /// pieces go to a hand.
    pub clock_bounds_repeats: bool,
    /// Whether a pawn's own step can never be undone (every pawn atom goes forward).
    pub pawn_steps_final: bool,
    /// Per colour and square: the squares straight ahead on its file two or more ranks
    /// away, where a pawn's step onto an empty square leaves an en passant square (all
    /// empty without en passant).
    pub long_pushes: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// The `[search]` section.
    pub search: SearchRules,
    /// The `[eval]` section: weights set over the derived ones (see [`Variant::eval`]).
    eval: OnceLock<eval_table::EvalTable>,
    /// A built-in table's `[eval]` text, compiled into `eval` when first asked for:
    /// fitted weights are most of a table's text, and perft and move listing never
    /// read them.
    eval_text: Option<&'static str>,
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

impl Variant {
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

    /// Castling needs rights (false: only king and rook on their start squares).
    pub fn castling_rights(&self) -> bool {
        self.castling.as_ref().is_none_or(|c| c.rights)
    }

    /// Wraps the variant for sharing between positions and threads.
    pub fn shared(self) -> Arc<Variant> {
        Arc::new(self)
    }

    /// The `[eval]` section's weights, compiled on first use for a built-in table.
    pub fn eval(&self) -> &eval_table::EvalTable {
        self.eval.get_or_init(|| {
            let text = self.eval_text.unwrap_or("");
            eval_table::compile_text(text, &self.board, &self.letters()).unwrap_or_else(|e| {
                // Only a built-in table's own text gets here, and a test compiles each
                // one; should one still fail, the derived weights stand in.
                eprintln!("tenfold: {}: [eval]: {e}; derived weights used", self.name);
                eval_table::compile(None, &self.board, &self.letters()).unwrap_or_default()
            })
        })
    }

    /// Leaves `text`, the `[eval]` sections of the table this variant was compiled
    /// from without them, to be compiled by [`Variant::eval`] when first asked for.
    pub(crate) fn defer_eval(&mut self, text: &'static str) {
        self.eval = OnceLock::new();
        self.eval_text = Some(text);
    }

    /// The FEN letter of every type, in type order.
    fn letters(&self) -> Vec<char> {
        self.pieces.iter().map(|p| p.letter).collect()
    }
}

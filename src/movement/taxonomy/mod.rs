//! The Locomotive Taxonomy: piece names built from fifteen building blocks
//! (`../shared/rules/locomotive-taxonomy.md`, T1–T6), to movement atoms and back.
//!
//! A name is a list of words separated by `-` or spaces, case-insensitive: qualifiers
//! (`far`, `free`, `fury`, `fire`, `fell`, `ring`, `N-step`), direction and shape
//! prefixes (`Bent`, `Brave`, …), block prefixes (`Noble`, `Fortified`, …), exactly one
//! Name (`Rook`, `Knight`, …) and suffixes (`Rider`, `Companion`, …). [`parse`] reads a
//! name in two stages: [`parse_description`] builds a [`Description`] (what the words
//! say, per component), and [`Description::atoms`] turns that into [`Atom`]s, refusing
//! what the atom kinds cannot express. [`name_of`] names a set of atoms (T6).
//!
//! Where the rule text is silent, this module rules:
//! * Words of *Name* scope (`Bent`, `Brave`, `Rider`, `Companion`, …) apply to the Name
//!   wherever they stand; *Combined* scope words (`Twisted`, `Valiant`, `Charger`,
//!   `Prince`, …) apply to every component. A *Prefix*-scope direction word (`Errant`,
//!   `Fearless`, …) applies to the block prefix that follows it; a Prefix-scope suffix
//!   (`Riding`, `Invincible`, …) to the block prefix just before it (`Noble Riding Rook`
//!   = Nightrider of two strides or Rook).
//! * Qualifiers at the start of a name apply to every component that rides or walks;
//!   qualifiers standing directly before a later block word apply to that component only
//!   and replace the leading ones for it.
//! * Several direction words on one component intersect (each is a "must").
//! * Rook, Bishop and Queen already ride and a Pawn cannot: `Rider` on them is an error.
//! * `free` riders are leaps to every step end (`free Wazir Rider` = WD); a `fire`
//!   (exact count) rider that is not free is a lame leap for two steps; longer exact
//!   counts, minimum counts (`fury`), `fell`, `ring`, turning (`Bent`, `Crooked`) and
//!   Walkers need a path mover or a minimum-distance rider, which atoms cannot express;
//!   of them only `fire N-step fell Bent <leaper> Rider` (N 1–5, T5's armor) is taken,
//!   by tables as the piece's `path` ([`path_of`]) and by `describe`, and named back
//!   ([`path_name`]).
//! * A direction word that leaves one part of a combination no move drops that part;
//!   a name with no part left is refused.

use crate::movement::atoms::{Atom, Mode, Offset};
use crate::movement::betza;

mod compile;
mod naming;
pub use naming::name_of;

/// A taxonomy name that could not be used: the name as given and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("taxonomy name {name:?}: {msg}")]
pub struct TaxonomyError {
    /// The whole name being parsed.
    pub name: String,
    /// What is wrong.
    pub msg: String,
}

/// One of the fifteen building blocks of the seed tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// Q = RB.
    Queen,
    /// R.
    Rook,
    /// B.
    Bishop,
    /// FW.
    Guard,
    /// DW.
    Warmachine,
    /// DF.
    Duke,
    /// AW.
    Waffle,
    /// N.
    Knight,
    /// AF.
    Elephant,
    /// AD.
    Alibaba,
    /// W.
    Wazir,
    /// F.
    Ferz,
    /// D.
    Dabbabah,
    /// A.
    Alfil,
    /// The FIDE pawn.
    Pawn,
}

/// Table row of a building block.
struct BlockInfo {
    block: Block,
    /// The Name first, then its alternatives (lower case is compared).
    names: &'static [&'static str],
    prefix: &'static str,
    betza: &'static str,
}

/// The building blocks, strongest first (the order settles which component is the Name
/// when two are equally mobile).
const BLOCKS: [BlockInfo; 15] = [
    BlockInfo {
        block: Block::Queen,
        names: &["Queen"],
        prefix: "Regal",
        betza: "Q",
    },
    BlockInfo {
        block: Block::Rook,
        names: &["Rook", "Castle", "Chariot"],
        prefix: "Fortified",
        betza: "R",
    },
    BlockInfo {
        block: Block::Bishop,
        names: &["Bishop"],
        prefix: "Bold",
        betza: "B",
    },
    BlockInfo {
        block: Block::Guard,
        names: &["Guard", "Man", "Fool"],
        prefix: "Loyal",
        betza: "FW",
    },
    BlockInfo {
        block: Block::Warmachine,
        names: &["Warmachine", "Warrior"],
        prefix: "War",
        betza: "DW",
    },
    BlockInfo {
        block: Block::Duke,
        names: &["Duke", "Camel", "Egret"],
        prefix: "Lord",
        betza: "DF",
    },
    BlockInfo {
        block: Block::Waffle,
        names: &["Waffle", "Battlehound", "Mastiff"],
        prefix: "Iron",
        betza: "AW",
    },
    BlockInfo {
        block: Block::Knight,
        names: &["Knight", "Horse"],
        prefix: "Noble",
        betza: "N",
    },
    BlockInfo {
        block: Block::Elephant,
        names: &["Elephant", "Acolyte"],
        prefix: "Rogue",
        betza: "AF",
    },
    BlockInfo {
        block: Block::Alibaba,
        names: &["Alibaba", "Thief"],
        prefix: "Barbarian",
        betza: "AD",
    },
    BlockInfo {
        block: Block::Wazir,
        names: &["Wazir", "Wizard"],
        prefix: "Wise",
        betza: "W",
    },
    BlockInfo {
        block: Block::Ferz,
        names: &["Ferz", "Friar"],
        prefix: "Fierce",
        betza: "F",
    },
    BlockInfo {
        block: Block::Dabbabah,
        names: &["Dabbabah", "Druid"],
        prefix: "Dread",
        betza: "D",
    },
    BlockInfo {
        block: Block::Alfil,
        names: &["Alfil", "Abbot"],
        prefix: "Armored",
        betza: "A",
    },
    BlockInfo {
        block: Block::Pawn,
        names: &["Pawn"],
        prefix: "Dragon",
        betza: "fmWfcFifmnD",
    },
];

impl Block {
    fn info(self) -> &'static BlockInfo {
        // Every Block has a row; the fallback only keeps this total.
        BLOCKS
            .iter()
            .find(|b| b.block == self)
            .unwrap_or(&BLOCKS[0])
    }

    /// The block's Name as the seed table spells it.
    pub fn name(self) -> &'static str {
        self.info().names[0]
    }

    /// The block's prefix (`Noble` for the Knight).
    pub fn prefix(self) -> &'static str {
        self.info().prefix
    }

    /// The block's movement in Betza notation.
    pub fn betza(self) -> &'static str {
        self.info().betza
    }

    /// Position in the strength order (0 = Queen).
    fn rank(self) -> usize {
        BLOCKS.iter().position(|b| b.block == self).unwrap_or(0)
    }

    /// A single-stride leaper that `Rider` can repeat.
    fn rideable(self) -> bool {
        !matches!(
            self,
            Block::Queen | Block::Rook | Block::Bishop | Block::Pawn
        )
    }

    /// Made of two sub-components (what `Walker` needs).
    fn compound(self) -> bool {
        matches!(
            self,
            Block::Queen
                | Block::Guard
                | Block::Warmachine
                | Block::Duke
                | Block::Waffle
                | Block::Elephant
                | Block::Alibaba
        )
    }

    /// White's atoms of the block.
    fn atoms(self) -> Vec<Atom> {
        // The table's Betza strings are constants covered by a test.
        betza::parse(self.betza()).unwrap_or_default()
    }
}

/// Direction bit: the move goes toward the opponent's home rank (`dy > 0`).
pub const FORWARD: u8 = 1;
/// Direction bit: the move stays on its rank (`dy == 0`).
pub const SIDEWAYS: u8 = 2;
/// Direction bit: the move goes toward the own home rank (`dy < 0`).
pub const BACKWARD: u8 = 4;
/// Every direction.
pub const ALL_DIRECTIONS: u8 = FORWARD | SIDEWAYS | BACKWARD;

/// The direction bit of one displacement, in White's view.
fn direction_of(o: Offset) -> u8 {
    match o.dy {
        d if d > 0 => FORWARD,
        0 => SIDEWAYS,
        _ => BACKWARD,
    }
}

/// Which component a scoped word applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Name,
    Prefix,
    Combined,
}

/// Whether the steps of a multi-step move may or must change direction (T3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turning {
    /// Constant direction (no prefix).
    Straight,
    /// Bent / Errant / Twisted: may turn between steps.
    Free,
    /// Crooked / Itinerant / Wayward: must turn between steps.
    Forced,
}

/// What a direction-or-shape prefix does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DirEffect {
    Turn(Turning),
    /// Arch / High: this sub-component moves first (Walkers).
    First,
    /// A mask of allowed direction bits.
    Only(u8),
}

const DIR_WORDS: [(&str, Scope, DirEffect); 23] = [
    ("Bent", Scope::Name, DirEffect::Turn(Turning::Free)),
    ("Errant", Scope::Prefix, DirEffect::Turn(Turning::Free)),
    ("Twisted", Scope::Combined, DirEffect::Turn(Turning::Free)),
    ("Crooked", Scope::Name, DirEffect::Turn(Turning::Forced)),
    ("Itinerant", Scope::Prefix, DirEffect::Turn(Turning::Forced)),
    ("Wayward", Scope::Combined, DirEffect::Turn(Turning::Forced)),
    ("Arch", Scope::Name, DirEffect::First),
    ("High", Scope::Prefix, DirEffect::First),
    ("Brave", Scope::Name, DirEffect::Only(FORWARD)),
    ("Fearless", Scope::Prefix, DirEffect::Only(FORWARD)),
    ("Valiant", Scope::Combined, DirEffect::Only(FORWARD)),
    ("Constant", Scope::Name, DirEffect::Only(FORWARD | SIDEWAYS)),
    (
        "Faithful",
        Scope::Prefix,
        DirEffect::Only(FORWARD | SIDEWAYS),
    ),
    (
        "Steadfast",
        Scope::Combined,
        DirEffect::Only(FORWARD | SIDEWAYS),
    ),
    ("Daunted", Scope::Name, DirEffect::Only(SIDEWAYS)),
    ("Grim", Scope::Prefix, DirEffect::Only(SIDEWAYS)),
    ("Vigilant", Scope::Combined, DirEffect::Only(SIDEWAYS)),
    ("Broken", Scope::Name, DirEffect::Only(SIDEWAYS | BACKWARD)),
    (
        "Grieving",
        Scope::Prefix,
        DirEffect::Only(SIDEWAYS | BACKWARD),
    ),
    (
        "Woeful",
        Scope::Combined,
        DirEffect::Only(SIDEWAYS | BACKWARD),
    ),
    ("Bereft", Scope::Name, DirEffect::Only(BACKWARD)),
    ("Forlorn", Scope::Prefix, DirEffect::Only(BACKWARD)),
    ("Vanquished", Scope::Combined, DirEffect::Only(BACKWARD)),
];

/// What a suffix does (T2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SuffixEffect {
    Walker,
    Rider,
    Mode(Mode),
}

const SUFFIX_WORDS: [(&str, Scope, SuffixEffect); 12] = [
    ("Walker", Scope::Name, SuffixEffect::Walker),
    ("Walking", Scope::Prefix, SuffixEffect::Walker),
    ("Strider", Scope::Combined, SuffixEffect::Walker),
    ("Rider", Scope::Name, SuffixEffect::Rider),
    ("Riding", Scope::Prefix, SuffixEffect::Rider),
    ("Charger", Scope::Combined, SuffixEffect::Rider),
    ("Companion", Scope::Name, SuffixEffect::Mode(Mode::Move)),
    ("Invincible", Scope::Prefix, SuffixEffect::Mode(Mode::Move)),
    ("Prince", Scope::Combined, SuffixEffect::Mode(Mode::Move)),
    ("Conqueror", Scope::Name, SuffixEffect::Mode(Mode::Capture)),
    (
        "Embattled",
        Scope::Prefix,
        SuffixEffect::Mode(Mode::Capture),
    ),
    (
        "Grandmaster",
        Scope::Combined,
        SuffixEffect::Mode(Mode::Capture),
    ),
];

/// A qualifier of Rider and Walker moves (T4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Qualifier {
    Far,
    Free,
    Fury,
    Fire,
    Fell,
    Ring,
    Steps(u8),
}

const QUALIFIER_WORDS: [(&str, Qualifier); 6] = [
    ("far", Qualifier::Far),
    ("free", Qualifier::Free),
    ("fury", Qualifier::Fury),
    ("fire", Qualifier::Fire),
    ("fell", Qualifier::Fell),
    ("ring", Qualifier::Ring),
];

/// How many steps a Rider or Walker move makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Up to this many (the default, 2).
    AtMost(u8),
    /// Exactly this many (`fire`).
    Exactly(u8),
    /// At least this many, no maximum (`fury`).
    AtLeast(u8),
    /// No maximum (`far`, `ring`).
    Unlimited,
}

/// The qualifiers of a Rider or Walker move, defaults applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stepping {
    /// How many steps.
    pub count: Count,
    /// `free`: pieces on intermediate step ends are leapt.
    pub free: bool,
    /// `fell`: a capture does not end the move.
    pub fell: bool,
    /// `ring`: the steps form a closed circuit.
    pub ring: bool,
}

impl Default for Stepping {
    fn default() -> Self {
        Stepping {
            count: Count::AtMost(2),
            free: false,
            fell: false,
            ring: false,
        }
    }
}

/// One component of a name: a building block and what the name's words do to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// The building block.
    pub block: Block,
    /// True for the Name, false for a prefix.
    pub is_name: bool,
    /// Made a rider (Rider / Riding / Charger).
    pub rider: bool,
    /// Made a walker (Walker / Walking / Strider).
    pub walker: bool,
    /// Arch / High: moves first within a walker.
    pub first: bool,
    /// May or must it turn between steps.
    pub turning: Turning,
    /// Qualifiers (meaningful for riders and walkers).
    pub stepping: Stepping,
    /// Move only, capture only, or both.
    pub mode: Mode,
    /// Allowed direction bits ([`FORWARD`], [`SIDEWAYS`], [`BACKWARD`]).
    pub directions: u8,
}

impl Component {
    /// A plain block with no modifiers.
    pub fn plain(block: Block, is_name: bool) -> Component {
        Component {
            block,
            is_name,
            rider: false,
            walker: false,
            first: false,
            turning: Turning::Straight,
            stepping: Stepping::default(),
            mode: Mode::Both,
            directions: ALL_DIRECTIONS,
        }
    }
}

/// What a taxonomy name says, component by component, before it becomes atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// The name as given.
    pub text: String,
    /// Prefix components in the order written, then the Name.
    pub components: Vec<Component>,
}

/// A classified word.
#[derive(Clone, Copy, Debug)]
enum Word {
    Qual(Qualifier),
    Dir(Scope, DirEffect),
    Prefix(Block),
    Name(Block),
    Suffix(Scope, SuffixEffect),
}

fn classify(lower: &str) -> Option<Word> {
    for b in &BLOCKS {
        if b.names.iter().any(|n| n.eq_ignore_ascii_case(lower)) {
            return Some(Word::Name(b.block));
        }
        if b.prefix.eq_ignore_ascii_case(lower) {
            return Some(Word::Prefix(b.block));
        }
    }
    if let Some((_, s, e)) = DIR_WORDS.iter().find(|w| w.0.eq_ignore_ascii_case(lower)) {
        return Some(Word::Dir(*s, *e));
    }
    if let Some((_, s, e)) = SUFFIX_WORDS
        .iter()
        .find(|w| w.0.eq_ignore_ascii_case(lower))
    {
        return Some(Word::Suffix(*s, *e));
    }
    QUALIFIER_WORDS
        .iter()
        .find(|w| w.0.eq_ignore_ascii_case(lower))
        .map(|w| Word::Qual(w.1))
}

/// Every word of the vocabulary, as written in the tables.
fn vocabulary() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for b in &BLOCKS {
        v.extend(b.names.iter().copied());
        v.push(b.prefix);
    }
    v.extend(DIR_WORDS.iter().map(|w| w.0));
    v.extend(SUFFIX_WORDS.iter().map(|w| w.0));
    v.extend(QUALIFIER_WORDS.iter().map(|w| w.0));
    v
}

/// Levenshtein distance, case-insensitive.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The known word closest to `w`.
fn suggestion(w: &str) -> &'static str {
    // Very long junk only needs some answer, not the best one.
    let w: String = w.chars().take(32).collect();
    vocabulary()
        .into_iter()
        .min_by_key(|k| edit_distance(&w, k))
        .unwrap_or("Rook")
}

/// A word of the name with where it came from.
#[derive(Clone, Debug)]
struct Token {
    text: String,
    word: Word,
}

fn tokenize(
    name: &str,
    fail: &dyn Fn(String) -> TaxonomyError,
) -> Result<Vec<Token>, TaxonomyError> {
    let raw: Vec<&str> = name
        .split(|c: char| c == '-' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let t = raw[i];
        let lower = t.to_lowercase();
        // `3-step` is split by the hyphen; `3step` is accepted too.
        let digits: String = lower.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            let rest = &lower[digits.len()..];
            let (text, used) = if rest == "step" {
                (t.to_string(), 1)
            } else if rest.is_empty()
                && raw
                    .get(i + 1)
                    .is_some_and(|n| n.eq_ignore_ascii_case("step"))
            {
                (format!("{t}-step"), 2)
            } else {
                return Err(fail(format!(
                    "\"{t}\" is not a word; a step count is written \"N-step\" (e.g. \"3-step\")"
                )));
            };
            let n: u32 = digits.parse().unwrap_or(u32::MAX);
            if n == 0 || n > u8::MAX as u32 {
                return Err(fail(format!(
                    "\"{text}\": the step count must be 1 to {}",
                    u8::MAX
                )));
            }
            out.push(Token {
                text,
                word: Word::Qual(Qualifier::Steps(n as u8)),
            });
            i += used;
            continue;
        }
        if lower == "step" {
            return Err(fail(
                "\"step\" needs a count before it (e.g. \"3-step\")".to_string(),
            ));
        }
        match classify(&lower) {
            Some(word) => out.push(Token {
                text: t.to_string(),
                word,
            }),
            None => {
                return Err(fail(format!(
                    "unknown word \"{t}\" (did you mean \"{}\"?)",
                    suggestion(t)
                )))
            }
        }
        i += 1;
    }
    Ok(out)
}

/// A component while the words are being read.
struct Draft {
    comp: Component,
    word: String,
    /// Qualifiers standing directly before this (non-first) block word.
    local: Vec<(Qualifier, String)>,
    /// Words that narrowed the directions, for messages.
    dir_words: Vec<String>,
    turn_word: Option<String>,
    first_word: Option<String>,
    mode_word: Option<String>,
    multi_word: Option<String>,
}

/// A modifier word waiting to be applied to its component(s).
#[derive(Clone)]
enum Pending {
    Dir(DirEffect, String),
    Suffix(SuffixEffect, String),
}

fn apply(
    d: &mut Draft,
    m: &Pending,
    fail: &dyn Fn(String) -> TaxonomyError,
) -> Result<(), TaxonomyError> {
    match m {
        Pending::Dir(DirEffect::Turn(t), w) => {
            if d.comp.turning != Turning::Straight && d.comp.turning != *t {
                return Err(fail(format!(
                    "\"{}\" and \"{w}\" conflict on \"{}\" (may turn / must turn)",
                    d.turn_word.clone().unwrap_or_default(),
                    d.word
                )));
            }
            d.comp.turning = *t;
            d.turn_word = Some(w.clone());
        }
        Pending::Dir(DirEffect::First, w) => {
            d.comp.first = true;
            d.first_word = Some(w.clone());
        }
        Pending::Dir(DirEffect::Only(mask), w) => {
            d.comp.directions &= mask;
            d.dir_words.push(w.clone());
            if d.comp.directions == 0 {
                return Err(fail(format!(
                    "{} leave \"{}\" no direction",
                    quoted_list(&d.dir_words),
                    d.word
                )));
            }
        }
        Pending::Suffix(SuffixEffect::Rider, w) | Pending::Suffix(SuffixEffect::Walker, w) => {
            if matches!(m, Pending::Suffix(SuffixEffect::Rider, _)) {
                d.comp.rider = true;
            } else {
                d.comp.walker = true;
            }
            if d.comp.rider && d.comp.walker {
                return Err(fail(format!(
                    "\"{}\" is made both a rider and a walker (\"{}\", \"{w}\")",
                    d.word,
                    d.multi_word.clone().unwrap_or_default()
                )));
            }
            d.multi_word = Some(w.clone());
        }
        Pending::Suffix(SuffixEffect::Mode(mode), w) => {
            if d.comp.mode != Mode::Both && d.comp.mode != *mode {
                return Err(fail(format!(
                    "\"{}\" (move only) and \"{w}\" (capture only) conflict on \"{}\"",
                    d.mode_word.clone().unwrap_or_default(),
                    d.word
                )));
            }
            d.comp.mode = *mode;
            d.mode_word = Some(w.clone());
        }
    }
    Ok(())
}

fn quoted_list(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Resolves a run of qualifiers into a [`Stepping`]; `turning` may be set by `ring`.
fn stepping_of(
    quals: &[(Qualifier, String)],
    turning: &mut Turning,
    fail: &dyn Fn(String) -> TaxonomyError,
) -> Result<Stepping, TaxonomyError> {
    let has = |q: Qualifier| quals.iter().find(|(x, _)| *x == q).map(|(_, w)| w.clone());
    let mut steps: Option<(u8, String)> = None;
    for (q, w) in quals {
        if let Qualifier::Steps(n) = q {
            if let Some((m, w0)) = &steps {
                if m != n {
                    return Err(fail(format!("\"{w0}\" and \"{w}\" conflict")));
                }
            }
            steps = Some((*n, w.clone()));
        }
    }
    let (far, fury, fire, ring) = (
        has(Qualifier::Far),
        has(Qualifier::Fury),
        has(Qualifier::Fire),
        has(Qualifier::Ring),
    );
    let conflict =
        |a: &str, b: &str, why: &str| fail(format!("\"{a}\" and \"{b}\" conflict ({why})"));
    if let (Some(a), Some(b)) = (&fire, &far) {
        return Err(conflict(a, b, "exact count / no maximum"));
    }
    if let (Some(a), Some(b)) = (&fire, &fury) {
        return Err(conflict(a, b, "exact count / minimum count"));
    }
    if let (Some(a), Some(b)) = (&fire, &ring) {
        return Err(conflict(a, b, "exact count / no maximum"));
    }
    if let (Some(a), Some((_, b))) = (&far, &steps) {
        if fury.is_none() {
            return Err(conflict(a, b, "no maximum / a maximum count"));
        }
    }
    if let (Some(a), Some((_, b))) = (&ring, &steps) {
        return Err(conflict(a, b, "a ring has no fixed count"));
    }
    let n = steps.as_ref().map_or(2, |s| s.0);
    let count = if fire.is_some() {
        Count::Exactly(n)
    } else if fury.is_some() {
        Count::AtLeast(n)
    } else if far.is_some() || ring.is_some() {
        Count::Unlimited
    } else {
        Count::AtMost(n)
    };
    if ring.is_some() && *turning == Turning::Straight {
        // T4: ring implies a non-linear prefix.
        *turning = Turning::Free;
    }
    Ok(Stepping {
        count,
        free: has(Qualifier::Free).is_some(),
        fell: has(Qualifier::Fell).is_some(),
        ring: ring.is_some(),
    })
}

/// Reads a name into a [`Description`] (T1–T4), without deciding whether atoms can
/// express it.
pub fn parse_description(name: &str) -> Result<Description, TaxonomyError> {
    let fail = |msg: String| TaxonomyError {
        name: name.to_string(),
        msg,
    };
    let tokens = tokenize(name, &fail)?;
    if tokens.is_empty() {
        return Err(fail("empty name".into()));
    }
    let mut drafts: Vec<Draft> = Vec::new();
    let mut name_idx: Option<usize> = None;
    let mut global: Vec<(Qualifier, String)> = Vec::new();
    let mut pending_quals: Vec<(Qualifier, String)> = Vec::new();
    let mut pending_prefix_dirs: Vec<Pending> = Vec::new();
    let mut name_mods: Vec<Pending> = Vec::new();
    let mut combined_mods: Vec<Pending> = Vec::new();
    // The prefix a Prefix-scope suffix would attach to.
    let mut last_prefix: Option<usize> = None;
    for t in &tokens {
        let w = t.text.clone();
        match t.word {
            Word::Qual(q) => {
                pending_quals.push((q, w));
                last_prefix = None;
            }
            Word::Dir(scope, e) => {
                let p = Pending::Dir(e, w);
                match scope {
                    Scope::Name => name_mods.push(p),
                    Scope::Prefix => pending_prefix_dirs.push(p),
                    Scope::Combined => combined_mods.push(p),
                }
                last_prefix = None;
            }
            Word::Prefix(block) | Word::Name(block) => {
                let is_name = matches!(t.word, Word::Name(_));
                if let Some(n) = name_idx {
                    return Err(fail(if is_name {
                        format!(
                            "two Names \"{}\" and \"{w}\": write the first as its prefix \"{}\"",
                            drafts[n].word,
                            drafts[n].comp.block.prefix()
                        )
                    } else {
                        format!(
                            "prefix \"{w}\" stands after the Name \"{}\"; prefixes come first",
                            drafts[n].word
                        )
                    }));
                }
                let quals = std::mem::take(&mut pending_quals);
                let local = if drafts.is_empty() {
                    global = quals;
                    Vec::new()
                } else {
                    quals
                };
                let mut d = Draft {
                    comp: Component::plain(block, is_name),
                    word: w.clone(),
                    local,
                    dir_words: Vec::new(),
                    turn_word: None,
                    first_word: None,
                    mode_word: None,
                    multi_word: None,
                };
                if is_name {
                    if let Some(Pending::Dir(_, pw)) = pending_prefix_dirs.first() {
                        return Err(fail(format!(
                            "\"{pw}\" (prefix scope) needs a block prefix after it, before \"{w}\""
                        )));
                    }
                    name_idx = Some(drafts.len());
                    last_prefix = None;
                } else {
                    for p in std::mem::take(&mut pending_prefix_dirs) {
                        apply(&mut d, &p, &fail)?;
                    }
                    last_prefix = Some(drafts.len());
                }
                drafts.push(d);
            }
            Word::Suffix(scope, e) => {
                let p = Pending::Suffix(e, w.clone());
                match scope {
                    Scope::Prefix => match last_prefix {
                        Some(i) => apply(&mut drafts[i], &p, &fail)?,
                        None => {
                            return Err(fail(format!(
                                "\"{w}\" (prefix scope) must follow a block prefix (e.g. \"Noble {w} Rook\")"
                            )))
                        }
                    },
                    Scope::Name | Scope::Combined => {
                        if name_idx.is_none() {
                            return Err(fail(format!("\"{w}\" must follow the Name")));
                        }
                        if scope == Scope::Name {
                            name_mods.push(p);
                        } else {
                            combined_mods.push(p);
                        }
                        last_prefix = None;
                    }
                }
            }
        }
    }
    if let Some((_, w)) = pending_quals.first() {
        return Err(fail(format!(
            "qualifier \"{w}\" must stand before a block prefix or the Name"
        )));
    }
    if let Some(Pending::Dir(_, w)) = pending_prefix_dirs.first() {
        return Err(fail(format!(
            "\"{w}\" (prefix scope) needs a block prefix after it"
        )));
    }
    let Some(ni) = name_idx else {
        return Err(fail(
            "no Name: a name ends in a block such as Rook, Knight or Guard (prefixes like \"Noble\" only add to it)"
                .into(),
        ));
    };
    for m in &name_mods {
        apply(&mut drafts[ni], m, &fail)?;
    }
    for m in &combined_mods {
        for d in drafts.iter_mut() {
            apply(d, m, &fail)?;
        }
    }
    let multi = |d: &Draft| d.comp.rider || d.comp.walker;
    if let Some((_, w)) = global.first() {
        if !drafts.iter().any(multi) {
            return Err(fail(format!(
                "qualifier \"{w}\" applies to Rider or Walker moves, but nothing in the name rides (add \"Rider\")"
            )));
        }
    }
    let mut components = Vec::new();
    for mut d in drafts {
        if !d.local.is_empty() && !multi(&d) {
            return Err(fail(format!(
                "qualifier \"{}\" applies to Rider or Walker moves, but \"{}\" is not a rider",
                d.local[0].1, d.word
            )));
        }
        if multi(&d) {
            let quals = if d.local.is_empty() {
                &global
            } else {
                &d.local
            };
            d.comp.stepping = stepping_of(quals, &mut d.comp.turning, &fail)?;
        } else if let Some(tw) = &d.turn_word {
            return Err(fail(format!(
                "\"{tw}\" applies to Rider or Walker moves, but \"{}\" is not a rider",
                d.word
            )));
        }
        if let Some(fw) = &d.first_word {
            if !d.comp.walker {
                return Err(fail(format!(
                    "\"{fw}\" marks the sub-component that moves first in a Walker, but \"{}\" is not a walker",
                    d.word
                )));
            }
        }
        if d.comp.rider && !d.comp.block.rideable() {
            return Err(fail(if d.comp.block == Block::Pawn {
                format!("\"{}\" cannot be a rider", d.word)
            } else {
                format!(
                    "\"{}\" already rides: it is a far {} Rider",
                    d.word,
                    if d.comp.block == Block::Bishop {
                        "Ferz"
                    } else if d.comp.block == Block::Rook {
                        "Wazir"
                    } else {
                        "Guard"
                    }
                )
            }));
        }
        if d.comp.walker && !d.comp.block.compound() {
            return Err(fail(format!(
                "\"{}\" needs a compound component (e.g. Guard, Duke), but \"{}\" has one part",
                d.multi_word.unwrap_or_default(),
                d.word
            )));
        }
        components.push(d.comp);
    }
    Ok(Description {
        text: name.to_string(),
        components,
    })
}

/// The path mover a name describes, as (exact step count, step set in Betza): a single
/// `fire N-step fell Bent <leaper> Rider` — exactly N steps, turning freely, killing what
/// it passes — is the Combined Arms armor (T5) and maps onto the table key `path`.
pub fn path_of(name: &str) -> Option<(u32, String)> {
    let d = parse_description(name).ok()?;
    let [c] = d.components.as_slice() else {
        return None;
    };
    let exact = match c.stepping.count {
        Count::Exactly(n) => n as u32,
        _ => return None,
    };
    let is_path = c.rider
        && !c.walker
        && c.turning == Turning::Free
        && c.stepping.fell
        && !c.stepping.free
        && !c.stepping.ring
        && c.mode == Mode::Both
        && c.directions == ALL_DIRECTIONS
        && (1..=5).contains(&exact);
    is_path.then(|| (exact, c.block.betza().to_string()))
}

/// The name of a path mover of exactly `steps` steps over the step set `dirs` (White's
/// view): `fire N-step fell Bent <Name> Rider` for the block whose leaps are `dirs` (T5,
/// T6), or None where no block has exactly those steps or no name parses back to it.
pub fn path_name(steps: u32, dirs: &[Offset]) -> Option<String> {
    let want: std::collections::BTreeSet<Offset> = dirs.iter().copied().collect();
    BLOCKS.iter().filter(|b| b.block.rideable()).find_map(|b| {
        let got: std::collections::BTreeSet<Offset> =
            betza::parse(b.betza).ok()?.iter().map(|a| a.step).collect();
        if got != want {
            return None;
        }
        let name = format!("fire {steps}-step fell Bent {} Rider", b.names[0]);
        (path_of(&name) == Some((steps, b.betza.to_string()))).then_some(name)
    })
}

/// Parses a taxonomy name into deduplicated movement atoms (White's view).
pub fn parse(name: &str) -> Result<Vec<Atom>, TaxonomyError> {
    parse_description(name)?.atoms()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::atoms::AtomKind;
    use std::collections::HashSet;

    fn set(v: Vec<Atom>) -> HashSet<Atom> {
        v.into_iter().collect()
    }

    fn tax(name: &str) -> HashSet<Atom> {
        set(parse(name).unwrap_or_else(|e| panic!("{e}")))
    }

    fn bz(s: &str) -> HashSet<Atom> {
        set(betza::parse(s).unwrap_or_else(|e| panic!("{e}")))
    }

    fn err(name: &str) -> String {
        match parse(name) {
            Ok(a) => panic!("{name} parsed to {}", betza::to_betza(&a)),
            Err(e) => e.to_string(),
        }
    }

    /// Seed: "Daunted/Grim/Vigilant: Movement must be sideways." A part of a combination
    /// with no sideways move drops out; a name with no part left is refused.
    #[test]
    fn a_direction_word_drops_the_parts_it_leaves_without_a_move() {
        // Vigilant applies to every component: the Knight has no sideways move.
        assert_eq!(tax("Vigilant Noble-Guard"), bz("sW"));
        // Grim applies to the prefix after it: the Knight part alone empties.
        assert_eq!(tax("Grim Noble Wazir"), bz("W"));
        let e = err("Daunted Knight");
        assert!(e.contains("\"Knight\" has no move left"), "{e}");
        let e = err("Vigilant Noble-Knight");
        assert!(
            e.contains("has no move left") || e.contains("have no move left"),
            "{e}"
        );
    }

    #[test]
    fn block_table_betza_parses() {
        for b in &BLOCKS {
            assert!(betza::parse(b.betza).is_ok(), "{}", b.betza);
        }
    }

    #[test]
    fn t5_examples() {
        // T5: "Wazir Rider" = W ridden up to 2 steps, in the four W directions.
        let wr = tax("Wazir Rider");
        assert_eq!(wr.len(), 4);
        for a in &wr {
            assert_eq!(a.kind, AtomKind::Ride { range: 2 });
            assert_eq!(a.step.dx.abs() + a.step.dy.abs(), 1);
            assert_eq!(a.mode, Mode::Both);
        }
        assert_eq!(wr, bz("R2"));
        // T5: far Wazir Rider = Rook, far Ferz Rider = Bishop, Noble-Rook = RN.
        assert_eq!(tax("far Wazir Rider"), bz("R"));
        assert_eq!(tax("far Ferz Rider"), bz("B"));
        assert_eq!(tax("Noble-Rook"), bz("RN"));
    }

    #[test]
    fn t1_or_combinations() {
        // T1, the seed's examples.
        assert_eq!(tax("Fortified-Knight"), bz("RN"));
        assert_eq!(tax("Noble-Queen"), bz("NRB"));
        assert_eq!(tax("Noble-Guard"), bz("NFW"));
        assert_eq!(tax("Fierce-Thief"), bz("FAD"));
        // T1: case-insensitive, `-` or space.
        assert_eq!(tax("noble ROOK"), bz("RN"));
        assert_eq!(tax("  Noble -- rook "), bz("RN"));
        // Alternatives name the same block.
        assert_eq!(tax("Camel"), bz("DF"));
        assert_eq!(tax("Man"), bz("K"));
        assert_eq!(tax("Chariot"), bz("R"));
        assert_eq!(tax("Pawn"), bz("fmWfcFifmnD"));
    }

    #[test]
    fn t5_armor_is_a_path_mover_description() {
        // T5: "fire 3-step fell Bent Wazir Rider" = three orthogonal steps, turning
        // freely, killing what it passes.
        let d = parse_description("fire 3-step fell Bent Wazir Rider").unwrap();
        assert_eq!(d.components.len(), 1);
        let c = &d.components[0];
        assert_eq!(c.block, Block::Wazir);
        assert!(c.is_name && c.rider && !c.walker);
        assert_eq!(c.stepping.count, Count::Exactly(3));
        assert!(c.stepping.fell && !c.stepping.free && !c.stepping.ring);
        assert_eq!(c.turning, Turning::Free);
        assert_eq!(c.directions, ALL_DIRECTIONS);
        let e = err("fire 3-step fell Bent Wazir Rider");
        assert!(e.contains("needs a path mover"), "{e}");
    }

    #[test]
    fn t4_qualifiers() {
        // T4: N-step sets the count, far removes the maximum.
        assert_eq!(tax("4-step Wazir Rider"), bz("R4"));
        assert_eq!(tax("3step Ferz Rider"), bz("B3"));
        assert_eq!(tax("far Knight Rider"), bz("NN"));
        assert_eq!(tax("Knight Rider"), bz("N2"));
        assert_eq!(tax("Guard Rider"), bz("Q2"));
        assert_eq!(tax("1-step Wazir Rider"), bz("W"));
        // free: pieces on step ends are leapt, so each step end is a leap.
        assert_eq!(tax("free Wazir Rider"), bz("WD"));
        assert_eq!(tax("free 3-step Ferz Rider"), bz("FAG"));
        // fire: exactly two steps = a lame leap over the first step end; free fire = leap.
        assert_eq!(tax("fire Wazir Rider"), bz("nD"));
        assert_eq!(tax("fire Ferz Rider"), bz("nA"));
        assert_eq!(tax("fire free 3-step Wazir Rider"), bz("H"));
        // far free: every multiple that fits the largest board (10 files, 12 ranks).
        assert_eq!(tax("far free Wazir Rider").len(), 2 * 9 + 2 * 11);
        // fury: a minimum; only the free form is expressible.
        assert_eq!(tax("fury free Dabbabah Rider").len(), 2 * 3 + 2 * 4);
        assert!(err("fury Wazir Rider").contains("minimum-distance rider"));
        assert!(err("fire 3-step Wazir Rider").contains("path mover"));
        // T5: the Combined Arms armor is a path of exactly three W steps.
        assert_eq!(
            path_of("fire 3-step fell Bent Wazir Rider"),
            Some((3, "W".to_string()))
        );
        assert_eq!(path_of("fire 3-step Bent Wazir Rider"), None);
        assert_eq!(path_of("Noble-Rook"), None);
        assert!(err("ring Wazir Rider").contains("path mover"));
        assert!(err("Bent Wazir Rider").contains("path mover"));
        assert!(err("Crooked Ferz Rider").contains("path mover"));
        assert!(err("Guard Walker").contains("path mover"));
        // Conflicts.
        assert!(err("far 3-step Wazir Rider").contains("conflict"));
        assert!(err("fire far Wazir Rider").contains("conflict"));
        assert!(err("0-step Wazir Rider").contains("step count"));
        assert!(err("999-step Wazir Rider").contains("step count"));
    }

    #[test]
    fn t4_qualifier_placement() {
        // Leading qualifiers reach every ridden component; later ones only their own.
        assert_eq!(tax("far Noble Riding Wazir Rider"), bz("NNR"));
        assert_eq!(tax("far Noble Riding 2-step Wazir Rider"), bz("NNR2"));
        assert_eq!(tax("Noble far Wazir Rider"), bz("NR"));
        assert_eq!(tax("far Noble-Wazir Rider"), bz("NR"));
        assert_eq!(tax("Noble Riding Rook"), bz("N2R"));
        assert_eq!(tax("Noble-Wazir Charger"), bz("N2R2"));
        assert!(err("far Wazir").contains("nothing in the name rides"));
        assert!(err("Noble far Wazir").contains("not a rider"));
        assert!(err("Wazir Rider far").contains("must stand before"));
    }

    #[test]
    fn t2_modes_and_t3_directions() {
        // T2: Companion = move only, Conqueror = capture only; Prince / Grandmaster for all.
        assert_eq!(tax("Wazir Companion"), bz("mW"));
        assert_eq!(tax("Ferz Conqueror"), bz("cF"));
        assert_eq!(tax("Noble-Rook Prince"), bz("mRmN"));
        assert_eq!(tax("Noble Embattled Rook"), bz("RcN"));
        assert_eq!(tax("Pawn Companion"), bz("fmWifmnD"));
        // T3: forward is toward the opponent (+dy for White).
        assert_eq!(tax("Brave Wazir"), bz("fW"));
        assert_eq!(tax("Brave Ferz"), bz("fF"));
        assert_eq!(tax("Brave Knight"), bz("fhN"));
        assert_eq!(tax("Constant Wazir"), bz("fsW"));
        assert_eq!(tax("Daunted Rook"), bz("sR"));
        assert_eq!(tax("Broken Guard"), bz("sWbWbF"));
        assert_eq!(tax("Bereft Ferz"), bz("bF"));
        assert_eq!(tax("Fearless Noble Wazir"), bz("fhNW"));
        assert_eq!(tax("Valiant Noble-Wazir"), bz("fhNfW"));
        assert_eq!(tax("Brave Noble-Wazir"), bz("NfW"));
        assert!(err("Daunted Ferz").contains("no move"));
        assert!(err("Brave Bereft Wazir").contains("no direction"));
        assert!(err("Wazir Companion Conqueror").contains("conflict"));
    }

    #[test]
    fn grammar_errors_are_clear() {
        let e = err("Nobel-Rook");
        assert!(
            e.contains("unknown word \"Nobel\" (did you mean \"Noble\"?)"),
            "{e}"
        );
        assert!(err("Rokk").contains("did you mean \"Rook\""));
        assert!(err("").contains("empty"));
        assert!(err(" - ").contains("empty"));
        assert!(err("Noble").contains("no Name"));
        assert!(err("Rook Knight").contains("two Names"));
        assert!(err("Rook Noble").contains("after the Name"));
        assert!(err("Riding Rook").contains("must follow a block prefix"));
        assert!(err("Rider").contains("must follow the Name"));
        assert!(err("Rook Rider").contains("already rides"));
        assert!(err("Pawn Rider").contains("cannot be a rider"));
        assert!(err("Wazir Walker").contains("compound"));
        assert!(err("Bent Wazir").contains("not a rider"));
        assert!(err("3 Wazir").contains("N-step"));
        assert!(err("step Wazir Rider").contains("count"));
        assert!(err("Fearless Rook").contains("prefix scope"));
    }
}

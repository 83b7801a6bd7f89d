//! The XBoard/CECP protocol loop (protocol version 2).
//!
//! Games XBoard does not know are announced after `variant` with `setup` (board size,
//! piece letters, start position) and one `piece <letter>& <Betza>` line per piece, so
//! the GUI can show and check their moves; a `#` line after them names the mechanisms
//! XBoard's own check has no form for (a script then turns that check off), and a `#`
//! line after a move names a move XBoard's board cannot follow (a switch, a split).
//! Bad input never ends the loop: an illegal or unparsable move gets `Illegal move: …`,
//! anything else `Error (…): …`.

use crate::core::moves::Color;
use crate::describe;
use crate::movement::betza;
use crate::position::notation::GameResult;
use crate::position::Position;
use crate::protocol::{cecp_move, xboard_rules, Msg, Out};
use crate::registry;
use crate::search::Info;
use crate::search::{Engine, Event, Limits, SearchHandle, MATE, MATE_BOUND};
use crate::variant::Variant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::sync::Mutex;

/// Our games that XBoard knows under another name.
const XBOARD_NAMES: &[(&str, &str)] = &[("chess", "normal")];
/// Games XBoard knows by these very names (their boards and pieces need no `setup`).
const XBOARD_KNOWN: &[&str] = &[
    "normal",
    "capablanca",
    "gothic",
    "janus",
    "caparandom",
    "falcon",
    "shatranj",
    "courier",
    "knightmate",
    "berolina",
    "xiangqi",
    "shogi",
    "makruk",
    "great",
    "grand",
    "spartan",
    "seirawan",
    "fischerandom",
    "crazyhouse",
    "atomic",
    "3check",
    "suicide",
    "giveaway",
    "losers",
    "twokings",
    "cylinder",
    "superchess",
];
/// XBoard's piece slots in its own order (the `setup` piece-to-char table).
const XBOARD_SLOTS: &str = "PNBRQFEACWMOHIJGDVLSUK";
/// Slots XBoard 4.9 moves as pawns whatever their `piece` description: outside Super and
/// Chu its ApplyMove and move parser treat the Lance (`L`) like a Pawn, so a piece there
/// takes en passant on a diagonal step to an empty square and gets a queen suffix on the
/// last rank (a Buffalo's `j1h0` arrived as `j1h0q`). Only a pawn may stand there.
const PAWN_LIKE_SLOTS: &[char] = &['L'];
/// The movement each glyph of XBoard draws (its slot letter, then Betza strings of the
/// pieces it stands for), so a piece gets the glyph that moves like it whatever its
/// letter. Slots not listed here (I J G D V S U) have no fixed meaning and take the
/// pieces nothing else fits; L is kept for pawns ([`PAWN_LIKE_SLOTS`]).
const GLYPH_MOVES: &[(char, &[&str])] = &[
    ('N', &["N"]),
    ('B', &["B"]),
    ('R', &["R"]),
    ('Q', &["Q"]),
    ('F', &["F"]),
    ('E', &["A", "FA"]),
    ('A', &["BN"]),
    ('C', &["RN"]),
    ('W', &["W"]),
    ('M', &["K"]),
    ('O', &["mRcpR"]),
    ('H', &["NN"]),
];

/// The name XBoard uses for a game.
pub fn xboard_name(ours: &str) -> &str {
    XBOARD_NAMES
        .iter()
        .find(|(o, _)| *o == ours)
        .map_or(ours, |(_, x)| x)
}

/// Whether XBoard knows a game of ours itself (board, pieces and start position), so
/// it needs no `setup`.
pub fn xboard_knows(ours: &str) -> bool {
    XBOARD_KNOWN.contains(&xboard_name(ours))
}

/// Our name for a game XBoard names.
fn our_name(x: &str) -> &str {
    XBOARD_NAMES
        .iter()
        .find(|(_, n)| *n == x)
        .map_or(x, |(o, _)| o)
}

/// The glyph slot whose movement is that of piece `t`, if one is.
fn glyph_by_movement(v: &Variant, t: usize) -> Option<char> {
    let own = describe::diagram(&v.pieces[t].atoms);
    GLYPH_MOVES.iter().find_map(|(slot, betzas)| {
        betzas
            .iter()
            .filter_map(|b| betza::parse(b).ok())
            .any(|atoms| describe::diagram(&atoms) == own)
            .then_some(*slot)
    })
}

/// The `setup` and `piece` lines that describe a game to XBoard.
pub fn setup_lines(v: &Variant) -> Vec<String> {
    let slots: Vec<char> = XBOARD_SLOTS.chars().collect();
    let mut table = vec!['.'; slots.len()];
    let mut order: Vec<usize> = (0..v.pieces.len()).collect();
    // Royals and pawns first, so they get the K and P slots; then pieces whose glyph is
    // fixed by their movement, before the rest take what is left.
    let classes: Vec<Option<char>> = (0..v.pieces.len())
        .map(|t| glyph_by_movement(v, t))
        .collect();
    // Pieces that can be in hand come next, in the lowest slots: XBoard's holdings show
    // only its first `hand` slots, and a holdings column is no taller than the board.
    let holdable: Vec<bool> = (0..v.pieces.len()).map(|t| v.can_hold(t)).collect();
    order.sort_by_key(|&t| {
        (
            !(v.pieces[t].royal || v.pieces[t].pawn),
            !holdable[t],
            classes[t].is_none(),
        )
    });
    let open: Vec<usize> = (1..slots.len() - 1)
        .filter(|&s| !PAWN_LIKE_SLOTS.contains(&slots[s]))
        .collect();
    let free_order: Vec<usize> = open
        .iter()
        .copied()
        .filter(|&s| !GLYPH_MOVES.iter().any(|(c, _)| *c == slots[s]))
        .chain(
            open.iter()
                .copied()
                .filter(|&s| GLYPH_MOVES.iter().any(|(c, _)| *c == slots[s])),
        )
        .collect();
    for t in order {
        let p = &v.pieces[t];
        let want = if p.royal {
            Some(slots.len() - 1)
        } else if p.pawn {
            Some(0)
        } else {
            classes[t].and_then(|c| slots.iter().position(|&s| s == c))
        };
        let slot = match want {
            Some(s) if table[s] == '.' && (!holdable[t] || s < v.board.ranks as usize) => Some(s),
            _ if holdable[t] => open.iter().copied().find(|&s| table[s] == '.'),
            _ => free_order.iter().copied().find(|&s| table[s] == '.'),
        };
        if let Some(s) = slot {
            table[s] = p.letter;
        }
    }
    let white: String = table.iter().collect();
    let black: String = white.to_ascii_lowercase();
    // The holdings reach the last slot a holdable piece took.
    let hand = (0..slots.len() - 1)
        .filter(|&s| {
            v.type_of_letter(table[s])
                .is_some_and(|t| holdable[t as usize])
        })
        .max()
        .map_or(0, |s| s + 1);
    let fen = cecp_move::fen_to_cecp(v.board.ranks as u32, &v.start_fen);
    let mut out = vec![format!(
        "setup ({white}{black}) {}x{}+{hand}_{} {fen}",
        v.board.files,
        v.board.ranks,
        parent_variant(v)
    )];
    for (t, p) in v.pieces.iter().enumerate() {
        out.push(format!("piece {}& {}", p.letter, piece_description(v, t)));
    }
    let unchecked = unchecked_mechanisms(v);
    if !unchecked.is_empty() {
        // XBoard ignores `#` lines; scripts read this one to turn its check off.
        out.push(format!("{UNCHECKED_PREFIX} {}", unchecked.join("; ")));
    }
    out
}

/// The XBoard variant a game we announce with `setup` is built on. XBoard applies a move
/// onto a friend as an exchange of the two only in a game it gives no castling rights,
/// and it gives them to `fairy`; so a game whose pieces exchange squares is built on
/// `nocastle` (plain chess rules otherwise). Castling still shows there: XBoard moves
/// the nearest piece beside any royal step of two or more squares along the back rank,
/// and the engines keep the rights.
fn parent_variant(v: &Variant) -> &'static str {
    if v.switch.is_some() {
        "nocastle"
    } else {
        "fairy"
    }
}

/// How the `setup` lines say that XBoard cannot check a game's moves itself.
pub const UNCHECKED_PREFIX: &str = "# XBoard cannot check:";

/// What XBoard (4.9) has no form for in a game it does not know, one reason per
/// mechanism; empty when its own move check can follow every move. Each is a
/// limit of XBoard's move generator or of how it applies a move to its board.
pub fn unchecked_mechanisms(v: &Variant) -> Vec<&'static str> {
    let mut why = Vec::new();
    if v.pieces.iter().any(|p| !p.pawn && p.promotion.is_some()) {
        why.push("pieces other than pawns promote (XBoard promotes only pawns)");
    }
    if v.pieces.iter().any(|p| p.becomes.is_some()) {
        why.push("a piece changes type on entering a region (XBoard changes a type only when a move names it)");
    }
    if xboard_rules::castling_form(v) == xboard_rules::CastlingForm::Unsayable {
        why.push("castling unlike XBoard's own and unlike any `O` atom (uneven steps, or a rook that does not land beside the king)");
    }
    if v.zone_castling.is_some() {
        why.push("castling from zones (XBoard castles only from the start squares)");
    }
    if v.switch.is_some() {
        why.push("pieces exchange squares (XBoard's check knows no move onto a friend)");
    }
    if v.stacking.is_some() {
        why.push("stacks combine and split (a split leaves a piece on the start square; no XBoard move does)");
    }
    if v.pieces
        .iter()
        .any(|p| crate::movement::betza::to_betza_parts(&p.atoms).1 > 0)
    {
        why.push("moves Betza cannot write (leaps beyond its letters: `free Knight Rider`), left out of the piece lines");
    }
    if let Some(o) = &v.occupy {
        if o.flights.iter().any(Option::is_some) {
            why.push("flight to any empty square (no Betza atom reaches every square)");
        }
        if o.shots.iter().any(Option::is_some) {
            why.push("rifle shots combined with moves (XBoard moves have at most two kills in a fixed order)");
        }
    }
    why
}

/// Why XBoard (4.9) cannot apply a move to its own board, if it cannot: it moves one
/// piece from `from` to `to`, so a move that leaves a piece on `from` (a split's
/// remainder) leaves XBoard's board one piece short. (A switch is shown: such games are
/// built on a parent without castling rights, where XBoard swaps on a move onto a
/// friend; see [`parent_variant`].)
pub fn unshown(m: crate::core::moves::Move) -> Option<&'static str> {
    use crate::core::moves::MoveKind;
    match m.kind() {
        MoveKind::Split => {
            Some("a split leaves part of the stack on the start square, which XBoard empties")
        }
        _ => None,
    }
}

/// XBoard games whose Pawn may promote on its last three ranks (elsewhere: the last).
const THREE_RANK_PROMOTION: &[&str] = &["grand", "makruk", "chuchess"];

/// A move of ours as the engine sends it to XBoard. XBoard 4.9's move parser gives a
/// coordinate move without a suffix its default promotion (a queen) whenever its own
/// rules call the move a promotion, which in Grand is every Pawn move onto the last
/// three ranks: it read the deferral `d6e7` as `d6e7q` and relayed that. A deferral onto
/// those ranks short of the last is written with the mover's own letter (`d6e7p`),
/// which XBoard applies as a Pawn that stays one.
pub fn gui_move(pos: &Position, m: crate::core::moves::Move) -> String {
    let text = cecp_move::to_cecp(pos, m);
    let v = pos.variant();
    if !xboard_knows(&v.name)
        || !THREE_RANK_PROMOTION.contains(&xboard_name(&v.name))
        || !pos.is_deferral(m)
    {
        return text;
    }
    let letter = v.pieces[pos.piece_on(m.from()).kind() as usize].letter;
    format!("{text}{}", letter.to_ascii_lowercase())
}

/// A principal variation (Tenfold's notation, from `root`) with each move written as
/// `move` writes it ([`gui_move`]): XBoard reads a PV as moves, and Tenfold's form of a
/// kill in passing (`d8g3xg1`) means another move in XBoard's long form. The line stops
/// before a move that does not replay (none should: the search played each).
fn pv_for_gui(root: &Position, pv: &[String]) -> String {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for text in pv {
        let Ok(m) = pos.parse_move(text) else {
            break;
        };
        out.push(gui_move(&pos, m));
        pos.make_move(m);
    }
    out.join(" ")
}

/// The Betza letter of XBoard's leaper with this offset (any sign or order), if any.
fn leaper_letter(dx: i32, dy: i32) -> Option<char> {
    let (a, b) = (dx.abs().min(dy.abs()), dx.abs().max(dy.abs()));
    [
        ((0, 1), 'W'),
        ((1, 1), 'F'),
        ((0, 2), 'D'),
        ((2, 2), 'A'),
        ((1, 2), 'N'),
        ((0, 3), 'H'),
        ((3, 3), 'G'),
        ((1, 3), 'C'),
        ((2, 3), 'Z'),
    ]
    .iter()
    .find(|(o, _)| *o == (a, b))
    .map(|(_, c)| *c)
}

/// A piece's moves in XBoard's Betza dialect (engine-intf.html `piece`, and XBoard's
/// own reader in moves.c): its atoms as written, then the moves of a path, shot or
/// flight as multi-leg (`a`) descriptions, so no piece is sent without moves:
/// - a path of N steps: N legs of its step, each entering an empty square or killing an
///   enemy, turning freely (`ffbbss` = all four directions of the step relative to the
///   last leg): the armor's `mcaffbbssmcaffbbssW`;
/// - a shot at a target: a capturing leap there and the leap back (`cHabbH`), for the
///   distances XBoard has a leaper for (up to 3);
/// - a flight: the moves of the pieces it borrows from, since no atom flies anywhere.
pub fn piece_description(v: &Variant, t: usize) -> String {
    piece_description_inner(v, t, true)
}

fn piece_description_inner(v: &Variant, t: usize, with_flight: bool) -> String {
    let mut d = xboard_rules::with_en_passant(v, t);
    if castles(v, t) {
        if let xboard_rules::CastlingForm::Atom(a) = xboard_rules::castling_form(v) {
            d.push_str(&a);
        }
    }
    let Some(o) = &v.occupy else {
        return d;
    };
    let letters = |offsets: &mut dyn Iterator<Item = (i32, i32)>| {
        let mut seen: Vec<char> = Vec::new();
        for (dx, dy) in offsets {
            if let Some(c) = leaper_letter(dx, dy) {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
        }
        seen
    };
    if let Some(p) = o.paths.get(t).and_then(Option::as_ref) {
        let steps = p.steps.max(1) as usize;
        for c in letters(&mut p.dirs.iter().map(|s| (s.dx as i32, s.dy as i32))) {
            d.push_str("mca");
            for _ in 2..steps {
                d.push_str("ffbbssmca");
            }
            if steps > 1 {
                d.push_str("ffbbss");
            } else {
                d.truncate(d.len() - 1);
            }
            d.push(c);
        }
    }
    if let Some(s) = o.shots.get(t).and_then(Option::as_ref) {
        for c in letters(&mut s.offsets.iter().map(|s| (s.dx as i32, s.dy as i32))) {
            d.push_str(&format!("c{c}abb{c}"));
        }
    }
    if with_flight {
        if let Some(f) = o.flights.get(t).and_then(Option::as_ref) {
            for &u in &f.then {
                if u as usize != t {
                    d.push_str(&piece_description_inner(v, u as usize, false));
                }
            }
        }
    }
    d
}

/// Whether pieces of type `t` castle: the type on the royal's castling square at the
/// start, or any royal when the start has none there.
fn castles(v: &Variant, t: usize) -> bool {
    let Some(c) = &v.castling else {
        return false;
    };
    match c.rules[0].pieces {
        Some((king, _)) => king as usize == t,
        None => v.pieces[t].royal,
    }
}

struct XBoard {
    out: Out,
    engine: Engine,
    variant: Arc<Variant>,
    pos: Position,
    force: bool,
    engine_side: Color,
    /// `post`/`nopost`, shared with the running search's listener so that either takes
    /// effect at once, not from the next search (XBoard's "Show Thinking" toggle).
    post: Arc<AtomicBool>,
    /// Moves per time control (0 = the whole game), base and increment in ms.
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    st_ms: Option<u64>,
    sd: Option<u32>,
    /// CECP `nps`: the clock counts nodes at this rate instead of wall time.
    nps: Option<u64>,
    time_ms: Option<u64>,
    otim_ms: Option<u64>,
    search: Option<(SearchHandle, u64)>,
    serial: u64,
    /// In analyze mode: think without end about the side to move, never play.
    analyzing: bool,
    /// The latest thinking output, for `.` status requests.
    last_info: Arc<Mutex<Option<Info>>>,
    /// A `setboard` was refused: until the next `new`, `variant` or good `setboard`
    /// there is no position, so moves are illegal and nothing is searched.
    no_position: bool,
    /// `pong` replies held back until the move being thought of is sent.
    pongs: Vec<String>,
    tx: Sender<Msg>,
}

/// Runs the loop until `quit` or the end of input (which stops a running search and
/// plays its move).
pub fn run(rx: Receiver<Msg>, tx: Sender<Msg>, out: Out) {
    let variant = match registry::get("chess") {
        Ok(v) => v,
        Err(e) => {
            out.line(&format!("Error (no variant): {e}"));
            return;
        }
    };
    let mut x = XBoard {
        out,
        engine: Engine::new(1, crate::protocol::uci::DEFAULT_HASH_MB),
        pos: Position::startpos(&variant),
        variant,
        force: false,
        engine_side: Color::Black,
        post: Arc::new(AtomicBool::new(false)),
        mps: 0,
        base_ms: 60_000,
        inc_ms: 0,
        st_ms: None,
        sd: None,
        nps: None,
        time_ms: None,
        otim_ms: None,
        search: None,
        serial: 0,
        analyzing: false,
        last_info: Arc::new(Mutex::new(None)),
        no_position: false,
        pongs: Vec::new(),
        tx,
    };
    while let Ok(msg) = rx.recv() {
        match msg {
            Msg::Line(l) => {
                if !x.command(&l) {
                    break;
                }
            }
            Msg::Eof => {
                if x.analyzing {
                    break;
                }
                if let Some((h, _)) = x.search.take() {
                    h.stop();
                    let r = h.join();
                    x.play_result(r);
                    x.answer_pings();
                }
                break;
            }
            Msg::Done(serial, r) => {
                // Results of abandoned searches are stale: only the current one plays,
                // and an analysis never does.
                if !x.analyzing && x.search.as_ref().is_some_and(|(_, s)| *s == serial) {
                    x.search = None;
                    x.play_result(r);
                    x.answer_pings();
                }
            }
        }
    }
    x.abandon();
}

impl XBoard {
    fn error(&self, kind: &str, what: &str) {
        self.out.line(&format!("Error ({kind}): {what}"));
    }

    /// Stops a search and throws its move away.
    fn abandon(&mut self) {
        if let Some((h, _)) = self.search.take() {
            h.stop();
            h.join();
        }
        self.answer_pings();
    }

    /// Sends the `pong`s held back while the engine thought on its move, which has now
    /// been sent or thrown away.
    fn answer_pings(&mut self) {
        for p in self.pongs.drain(..) {
            self.out.line(&p);
        }
    }

    fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "hard" | "easy" | "draw" | "hint" | "bk" => {}
            "analyze" => {
                self.abandon();
                self.analyzing = true;
                self.think();
            }
            "exit" => {
                self.abandon();
                self.analyzing = false;
            }
            "." => self.status(),
            "protover" => self.features(),
            "new" => {
                self.abandon();
                self.engine.clear();
                if let Ok(v) = registry::get("chess") {
                    self.variant = v;
                }
                self.pos = Position::startpos(&self.variant);
                self.no_position = false;
                self.force = false;
                self.engine_side = Color::Black;
                self.sd = None;
                self.st_ms = None;
                self.time_ms = None;
                self.otim_ms = None;
                // The spec's `nps`: in force "until the next new"; XBoard sends no `nps 0`
                // when the user turns it off, so the node clock must not outlive the game.
                self.nps = None;
                self.reanalyze();
            }
            "variant" => {
                self.abandon();
                match registry::get(our_name(arg)) {
                    Ok(v) => {
                        self.pos = Position::startpos(&v);
                        self.no_position = false;
                        if !xboard_knows(&v.name) {
                            for l in setup_lines(&v) {
                                self.out.line(&l);
                            }
                        }
                        self.variant = v;
                        // An analysis goes on in the new game, as after `new`.
                        self.reanalyze();
                    }
                    Err(e) => self.error("unknown variant", &e.to_string()),
                }
            }
            "force" => {
                self.abandon();
                self.force = true;
                self.analyzing = false;
            }
            "go" => {
                self.abandon();
                self.force = false;
                self.engine_side = self.pos.side_to_move();
                if self.no_position {
                    // Playing on from the position before the refused one would be a
                    // move in a game the GUI no longer shows.
                    self.error("no position", line);
                } else {
                    self.think();
                }
            }
            "playother" => {
                self.abandon();
                self.force = false;
                self.engine_side = self.pos.side_to_move().flip();
            }
            "white" | "black" => {
                self.abandon();
                let c = if cmd == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                self.engine_side = c.flip();
            }
            "level" => self.level(arg),
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 => self.st_ms = Some((s * 1000.0) as u64),
                _ => self.error("bad st", arg),
            },
            "nps" => match arg.parse::<u64>() {
                Ok(0) => self.nps = None,
                Ok(n) => self.nps = Some(n),
                Err(_) => self.error("bad nps", arg),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.sd = Some(d),
                _ => self.error("bad sd", arg),
            },
            "time" | "otim" => match arg.parse::<i64>() {
                Ok(cs) => {
                    let ms = Some(cs.max(0).saturating_mul(10) as u64);
                    if cmd == "time" {
                        self.time_ms = ms;
                    } else {
                        self.otim_ms = ms;
                    }
                }
                Err(_) => self.error(&format!("bad {cmd}"), arg),
            },
            "usermove" => self.usermove(arg),
            "?" => {
                if let Some((h, _)) = &self.search {
                    h.stop();
                }
            }
            "ping" => {
                // The spec: a ping seen while thinking on our move is answered only after
                // the move ("?" then "ping" must find the move sent); an analysis is like
                // pondering and is answered at once.
                let pong = format!("pong {arg}");
                if self.search.is_some() && !self.analyzing {
                    self.pongs.push(pong);
                } else {
                    self.out.line(&pong);
                }
            }
            "result" => {
                self.abandon();
                self.force = true;
            }
            "setboard" => {
                self.abandon();
                let fen = cecp_move::fen_from_cecp(self.variant.board.ranks as u32, arg);
                match Position::from_fen(&self.variant, &self.keep_start_rights(&fen)) {
                    Ok(p) => {
                        self.pos = p;
                        self.no_position = false;
                        self.reanalyze();
                    }
                    Err(e) => {
                        // The spec's answer, with the reason for the user. Not an `Error`
                        // line: XBoard takes one that says "llegal" for a refused move.
                        self.out
                            .line(&format!("tellusererror Illegal position: {e}"));
                        self.no_position = true;
                    }
                }
            }
            "undo" | "remove" => {
                self.abandon();
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    if self.pos.ply_count() > 0 && !self.no_position {
                        self.pos.unmake_move();
                    }
                }
                self.reanalyze();
            }
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            "memory" => match arg.parse::<usize>() {
                Ok(mb) if mb > 0 => {
                    self.abandon();
                    if let Err(e) = self.engine.set_hash(mb) {
                        self.error("memory", &e.to_string());
                    }
                }
                _ => self.error("bad memory", arg),
            },
            "cores" => match arg.parse::<usize>() {
                Ok(n) if n > 0 => {
                    self.abandon();
                    self.engine.set_threads(n);
                }
                _ => self.error("bad cores", arg),
            },
            "quit" => return false,
            _ => {
                // A bare move (GUIs that refused usermove=1 send moves as they are).
                if arg.is_empty() && cmd.chars().any(|c| c.is_ascii_digit()) {
                    self.usermove(cmd);
                } else {
                    self.error("unknown command", line);
                }
            }
        }
        true
    }

    fn features(&self) {
        // The games loaded from files (`--variant-file`) too: XBoard offers a name it does
        // not know as the engine's own game, and a referee checks the list.
        let known = registry::known();
        let vars: Vec<&str> = known.iter().map(|n| xboard_name(n)).collect();
        self.out.line(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             colors=0 name=0 nps=1 memory=1 smp=1 myname=\"Tenfold {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            vars.join(",")
        ));
        self.out.line("feature done=1");
    }

    /// `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds.
    fn level(&mut self, arg: &str) {
        let f: Vec<&str> = arg.split_whitespace().collect();
        let parse = || -> Option<(u32, u64, u64)> {
            let mps = f.first()?.parse::<u32>().ok()?;
            let base = f.get(1)?;
            let base_ms = match base.split_once(':') {
                Some((m, s)) => m
                    .parse::<u64>()
                    .ok()?
                    .saturating_mul(60_000)
                    .saturating_add(s.parse::<u64>().ok()?.saturating_mul(1000)),
                None => (base.parse::<f64>().ok()? * 60_000.0) as u64,
            };
            let inc_ms = (f.get(2)?.parse::<f64>().ok()? * 1000.0) as u64;
            Some((mps, base_ms, inc_ms))
        };
        match parse() {
            Some((mps, base, inc)) => {
                self.mps = mps;
                self.base_ms = base;
                self.inc_ms = inc;
                self.st_ms = None;
                self.time_ms = None;
            }
            None => self.error("bad level", arg),
        }
    }

    fn usermove(&mut self, text: &str) {
        if self.no_position {
            // The spec: after a refused position, every move is illegal until the next
            // new, edit or setboard.
            self.out.line(&format!("Illegal move: {text}"));
            return;
        }
        if self.search.is_some() {
            // A move the position refuses changes nothing, so a search of the engine's
            // own move goes on (it was dropped, and no move came until `?`).
            if !self.analyzing && cecp_move::from_cecp(&self.pos, text).is_err() {
                self.out.line(&format!("Illegal move: {text}"));
                return;
            }
            // Thinking on the other side's time is not supported: finish first.
            self.abandon();
        }
        match cecp_move::from_cecp(&self.pos, text) {
            Ok(m) => {
                self.pos.make_move(m);
                self.log_position();
                if self.analyzing {
                    self.reanalyze();
                    return;
                }
                if self.announce_end() {
                    return;
                }
                if !self.force && self.pos.side_to_move() == self.engine_side {
                    self.think();
                }
            }
            Err(_) => self.out.line(&format!("Illegal move: {text}")),
        }
    }

    /// Prints the result if the game is over; true if it is.
    fn announce_end(&self) -> bool {
        let Some((r, why)) = self.pos.game_result() else {
            return false;
        };
        let text = match (r, why) {
            (GameResult::WhiteWins, "checkmate") => "{White mates}".to_string(),
            (GameResult::BlackWins, "checkmate") => "{Black mates}".to_string(),
            (_, w) => format!("{{{w}}}"),
        };
        self.out.line(&format!("{} {text}", r.pgn()));
        true
    }

    /// A debug line (XBoard ignores lines starting with `#`) with the position after a
    /// move, so a GUI's log shows where each engine thinks the game stands.
    fn log_position(&self) {
        self.out.line(&format!("# FEN {}", self.pos.fen()));
    }

    /// Restarts the analysis after the position changed (nothing when not analyzing).
    fn reanalyze(&mut self) {
        if self.analyzing {
            self.abandon();
            self.think();
        }
    }

    /// Answers `.` in analyze mode: `stat01: time nodes depth movesleft movestotal`.
    fn status(&self) {
        if !self.analyzing {
            return;
        }
        let info = self.last_info.lock().unwrap_or_else(|e| e.into_inner());
        let mut list = crate::core::moves::MoveList::new();
        self.pos.legal_moves(&mut list);
        let (cs, nodes, depth) = info
            .as_ref()
            .map_or((0, 0, 0), |i| (i.ms / 10, i.nodes, i.depth));
        self.out
            .line(&format!("stat01: {cs} {nodes} {depth} 0 {}", list.len()));
    }

    /// XBoard carries castling rights only in the forms it knows (KQkq, rook files) and
    /// only in a game it gives castling; in a game whose rights it has no form for (zone
    /// castling: Wildeurasian's `A1J1a10j10`) or that it plays as `nocastle` (ArchMage,
    /// see [`parent_variant`]) the rights reach us as `-`, so a `setboard` of the start
    /// array with the side to move at the start keeps the start's rights. Any other FEN
    /// keeps its own rights: a chess start with `Kk` is a position without queenside
    /// castling.
    fn keep_start_rights(&self, fen: &str) -> String {
        let start: Vec<&str> = self.variant.start_fen.split_whitespace().collect();
        let given: Vec<&str> = fen.split_whitespace().collect();
        let placement = |f: &[&str]| {
            f.first()
                .map(|p| p.split('[').next().unwrap_or(p).to_string())
        };
        let rights_lost =
            self.variant.zone_castling.is_some() || parent_variant(&self.variant) == "nocastle";
        if rights_lost
            && given.len() >= 3
            && start.len() >= 3
            && placement(&given) == placement(&start)
            && given[1] == start[1]
            && given[2] != start[2]
        {
            self.variant.start_fen.clone()
        } else {
            fen.to_string()
        }
    }

    fn think(&mut self) {
        if self.no_position {
            return;
        }
        if self.pos.game_result().is_some() {
            if !self.analyzing {
                self.announce_end();
            }
            return;
        }
        let mut l = Limits {
            depth: self.sd,
            ..Limits::default()
        };
        let us = self.pos.side_to_move();
        if self.analyzing {
            l = Limits {
                infinite: true,
                ..Limits::default()
            };
        } else if let Some(st) = self.st_ms {
            l.movetime = Some(st);
        } else {
            let mine = self.time_ms.unwrap_or(self.base_ms);
            l.time[us.idx()] = Some(mine);
            l.time[us.flip().idx()] = Some(self.otim_ms.unwrap_or(self.base_ms));
            l.inc = [self.inc_ms; 2];
            if self.mps > 0 {
                let played = (self.pos.fullmove().max(1) - 1) % self.mps;
                l.movestogo = Some(self.mps - played);
            }
        }
        if let (Some(rate), false) = (self.nps, self.analyzing) {
            // Time is counted in nodes: the move gets the nodes its time budget is worth.
            let ms = match l.movetime {
                Some(mt) => mt,
                None => l.plan(us).soft.map_or(1000, |d| d.as_millis() as u64),
            };
            l = Limits {
                depth: l.depth,
                nodes: Some(rate.saturating_mul(ms).div_ceil(1000).max(1)),
                ..Limits::default()
            };
        }
        self.serial += 1;
        let serial = self.serial;
        let out = self.out.clone();
        // An analysis always shows its lines: they are what it is for.
        let (post, analyzing) = (Arc::clone(&self.post), self.analyzing);
        let tx = self.tx.clone();
        let root = self.pos.clone();
        let last_info = self.last_info.clone();
        *last_info.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let listener = Box::new(move |ev: Event| match ev {
            Event::Info(i) if analyzing || post.load(Ordering::Relaxed) => {
                *last_info.lock().unwrap_or_else(|e| e.into_inner()) = Some(i.clone());
                let score = if i.score.abs() >= MATE_BOUND {
                    let moves = ((MATE - i.score.abs() + 1) / 2) as i64;
                    if i.score > 0 {
                        100_000 + moves
                    } else {
                        -100_000 - moves
                    }
                } else {
                    i.score as i64
                };
                out.line(&format!(
                    "{} {} {} {} {}",
                    i.depth,
                    score,
                    i.ms / 10,
                    i.nodes,
                    pv_for_gui(&root, &i.pv)
                ));
            }
            Event::Info(_) | Event::Final(_) => {}
            Event::Done(r) => {
                let _ = tx.send(Msg::Done(serial, r.clone()));
            }
        });
        let h = self.engine.start(&self.pos, l, listener);
        self.search = Some((h, serial));
    }

    fn play_result(&mut self, r: crate::search::SearchResult) {
        match r.best {
            Some(m) => {
                let text = gui_move(&self.pos, m);
                self.out.line(&format!("move {text}"));
                if let Some(why) = unshown(m) {
                    // For the GUI's log: why its board may differ from here on.
                    self.out
                        .line(&format!("# XBoard cannot show {text}: {why}"));
                }
                self.pos.make_move(m);
                self.log_position();
                self.announce_end();
            }
            None => {
                self.announce_end();
            }
        }
    }
}

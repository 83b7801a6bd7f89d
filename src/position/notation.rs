//! Move notation (`e2e4`, `e7e8q`, `D@e5`, switches `d1g1`) and game-end detection.

use crate::core::moves::{Color, Move, MoveKind, MoveList};
use crate::position::Position;

/// Why a move string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("{0:?} is not a move in {1} notation (expected e.g. e2e4, e7e8q, D@e5)")]
    Unparsable(String, String),
    /// A well-formed move that is not legal here.
    #[error("illegal move {0:?} in position {1}")]
    Illegal(String, String),
    /// A move in SAN that more than one legal move fits.
    #[error("ambiguous move {0:?} in position {1}: {2}")]
    Ambiguous(String, String, String),
}

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// PGN form: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl Position {
    /// The move in Tenfold notation.
    pub fn move_to_string(&self, m: Move) -> String {
        let bd = &self.v.board;
        if m.kind() == MoveKind::Drop {
            return format!(
                "{}@{}",
                self.v.pieces[m.drop_type() as usize].letter,
                bd.square_name(m.to())
            );
        }
        let mut s = format!("{}{}", bd.square_name(m.from()), bd.square_name(m.to()));
        // Squares killed without being occupied, ascending (Combined Arms R9).
        for k in m.kills() {
            s.push('x');
            s.push_str(&bd.square_name(k));
        }
        // An automatic change of type (`becomes`) is no choice, so it is not written.
        if let Some(p) = m.promotion() {
            let mover = self.board[m.from().idx()];
            let automatic = !mover.is_none()
                && self.v.pieces[mover.kind() as usize]
                    .becomes
                    .is_some_and(|b| b.to == p);
            // A combine names its compound only when the sum could be either (A7).
            let implied = m.kind() == MoveKind::Combine
                && self
                    .v
                    .stacking
                    .as_ref()
                    .is_some_and(|st| st.alike[p as usize] == 0);
            if !automatic && !implied {
                s.push(self.v.pieces[p as usize].letter.to_ascii_lowercase());
            }
        }
        // A switch that promotes both pieces names the switcher's new type first.
        if let Some(p) = m.partner_promotion() {
            s.push(self.v.pieces[p as usize].letter.to_ascii_lowercase());
        }
        s
    }

    /// Parses a move and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let Some((core, canonical)) = self.split_kills(t) else {
            return Err(MoveError::Unparsable(t.to_string(), self.v.name.clone()));
        };
        if !self.looks_like_move(&core) {
            return Err(MoveError::Unparsable(t.to_string(), self.v.name.clone()));
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|&m| self.move_to_string(m) == canonical)
            .ok_or_else(|| MoveError::Illegal(t.to_string(), self.fen()))
    }

    /// Splits `x<square>` kill marks off a move (`b1c3xb3xb2`): the move without them,
    /// and the move written canonically, kills ascending (they may come in any order,
    /// Combined Arms R14). None when a kill mark names no square or repeats one.
    fn split_kills(&self, t: &str) -> Option<(String, String)> {
        let bd = &self.v.board;
        // The first 'x' after the start square's file letter begins the kills.
        let Some(i) = t
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == 'x')
            .map(|(i, _)| i)
        else {
            return Some((t.to_string(), t.to_string()));
        };
        let head = &t[..i];
        let mut rest = &t[i..];
        let mut kills = Vec::new();
        while let Some(r) = rest.strip_prefix('x') {
            if r.len() < 2 || !r.as_bytes()[0].is_ascii_lowercase() {
                break;
            }
            let digits = r[1..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(r.len(), |j| j + 1);
            if digits < 2 {
                break;
            }
            let sq = bd.parse_square(&r[..digits])?;
            if kills.contains(&sq) {
                return None;
            }
            kills.push(sq);
            rest = &r[digits..];
        }
        if kills.is_empty() {
            return Some((t.to_string(), t.to_string()));
        }
        kills.sort();
        let core = format!("{head}{rest}");
        let marks: String = kills
            .iter()
            .map(|&k| format!("x{}", bd.square_name(k)))
            .collect();
        Some((core, format!("{head}{marks}{rest}")))
    }

    fn looks_like_move(&self, t: &str) -> bool {
        let bd = &self.v.board;
        if let Some((piece, sq)) = t.split_once('@') {
            let mut chars = piece.chars();
            return matches!((chars.next(), chars.next()), (Some(c), None) if self.v.type_of_letter(c).is_some())
                && bd.parse_square(sq).is_some();
        }
        // <from><to>[suffix]: split the squares where the second file letter starts.
        let bytes = t.as_bytes();
        let Some(second) = (1..bytes.len()).find(|&i| bytes[i].is_ascii_lowercase()) else {
            return false;
        };
        let from = &t[..second];
        let rest = &t[second..];
        let digits_end = rest[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |i| i + 1);
        let to = &rest[..digits_end];
        let suffix = &rest[digits_end..];
        bd.parse_square(from).is_some()
            && bd.parse_square(to).is_some()
            && suffix.len() <= 2
            && suffix.chars().all(|c| c.is_ascii_lowercase())
    }

    /// Whether `m` is a move into its piece's promotion zone that stays unpromoted where
    /// promoting was allowed (a deferral).
    pub fn is_deferral(&self, m: Move) -> bool {
        if m.promotion().is_some() || m.from() == m.to() || m.kind() == MoveKind::Drop {
            return false;
        }
        let p = self.piece_on(m.from());
        if p.is_none() {
            return false;
        }
        let c = p.color().idx();
        self.variant().pieces[p.kind() as usize]
            .promotion
            .as_ref()
            .is_some_and(|pr| pr.zone[c].has(m.to()) && !pr.mandatory[c].has(m.to()))
    }

    /// Plays a list of moves given as text (coordinates, or SAN as a PGN writes it),
    /// stopping at the first bad one.
    pub fn play_moves(&mut self, moves: &str) -> Result<(), MoveError> {
        for t in moves.split_whitespace() {
            let m = self.parse_any(t)?;
            self.make_move(m);
        }
        Ok(())
    }

    /// The result if the game is over, with the reason (C2, C4).
    pub fn game_result(&self) -> Option<(GameResult, &'static str)> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if list.is_empty() {
            if self.v.royal_mask != 0 && self.in_check() {
                let r = if self.side == Color::White {
                    GameResult::BlackWins
                } else {
                    GameResult::WhiteWins
                };
                return Some((r, "checkmate"));
            }
            return Some((GameResult::Draw, "stalemate"));
        }
        if self.halfmove >= 100 {
            return Some((GameResult::Draw, "50-move rule"));
        }
        if self.repetitions() >= 2 {
            return Some((GameResult::Draw, "threefold repetition"));
        }
        if self.v.royal_mask != 0
            && self.occupied() == (self.royals(Color::White) | self.royals(Color::Black))
        {
            let in_hand = self.hands.iter().any(|h| h.iter().any(|&n| n > 0));
            if !in_hand {
                return Some((GameResult::Draw, "bare kings"));
            }
        }
        None
    }
}

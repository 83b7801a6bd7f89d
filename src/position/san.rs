//! Standard Algebraic Notation for every game, as PGN readers expect it: `Nf3`, `exd5`,
//! `e8=Q`, `O-O`, `Raxd1`, `Qh4#`, with these documented extensions (README, "PGN"):
//! a drop is `Letter@square` (`D@e5`, as XBoard writes it); a move SAN has no symbol
//! for (a switch, a stack combining or splitting, a kill on a square the mover does not
//! end on) is the moving piece's letter and the move in coordinates (`Nb1c3xb2xb3`,
//! `Rc1c1xe3`). Disambiguation, capture marks and check marks follow the PGN standard.

use crate::core::moves::{Move, MoveKind, MoveList};
use crate::position::notation::MoveError;
use crate::position::Position;

/// Marks that do not change which move is meant: check, mate, annotation glyphs, and
/// the `=` of a promotion (some writers leave it out).
fn bare(san: &str) -> String {
    san.trim()
        .trim_end_matches(['+', '#', '!', '?'])
        .replace('=', "")
        .replace("0-0-0", "O-O-O")
        .replace("0-0", "O-O")
}

/// The parts of a SAN move read without the game's rules: `[Piece][file][rank][x]square
/// [promotion]`, marks already removed.
struct Loose {
    piece: Option<char>,
    file: Option<char>,
    rank: Option<String>,
    to: String,
    promotion: Option<char>,
}

/// Splits a SAN move into its parts, or None where it is no such move.
fn loose(san: &str) -> Option<Loose> {
    let mut s: Vec<char> = san.chars().collect();
    // A trailing letter after a square's digits is the promotion (`e8Q`, `e8q`).
    let promotion = match s.as_slice() {
        [.., d, c] if d.is_ascii_digit() && c.is_ascii_alphabetic() => {
            let c = c.to_ascii_uppercase();
            s.pop();
            Some(c)
        }
        _ => None,
    };
    let digits = s.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || s.len() < digits + 1 || !s[s.len() - digits - 1].is_ascii_lowercase() {
        return None;
    }
    let to: String = s[s.len() - digits - 1..].iter().collect();
    s.truncate(s.len() - digits - 1);
    if s.last() == Some(&'x') {
        s.pop();
    }
    let piece = s.first().copied().filter(char::is_ascii_uppercase);
    let rest = &s[piece.is_some() as usize..];
    let file = rest.first().copied().filter(char::is_ascii_lowercase);
    let rank: String = rest[file.is_some() as usize..].iter().collect();
    if !rank.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(Loose {
        piece,
        file,
        rank: (!rank.is_empty()).then_some(rank),
        to,
        promotion,
    })
}

impl Position {
    /// The move in SAN (with its check or mate mark).
    pub fn move_to_san(&self, m: Move) -> String {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut s = self.san_body(m, &list);
        let mut after = self.clone();
        after.make_move(m);
        if after.in_check() {
            let mut replies = MoveList::new();
            after.legal_moves(&mut replies);
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        s
    }

    /// Reads a move in SAN (or any of its common spellings) and checks it is legal here.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let want = bare(text);
        if want.is_empty() {
            return Err(MoveError::Unparsable(text.to_string(), self.v.name.clone()));
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let found = list
            .iter()
            .copied()
            .find(|&m| bare(&self.san_body(m, &list)) == want);
        // XBoard writes a Pawn that stays one in its promotion zone as a promotion to
        // its own type (`dxe7=P` in Grand): read that as the deferral it is.
        let deferral = || {
            let own = want.chars().last().filter(char::is_ascii_uppercase)?;
            let rest = &want[..want.len() - 1];
            list.iter().copied().find(|&m| {
                self.is_deferral(m)
                    && self.v.pieces[self.board[m.from().idx()].kind() as usize].letter == own
                    && bare(&self.san_body(m, &list)) == rest
            })
        };
        if let Some(m) = found.or_else(deferral) {
            return Ok(m);
        }
        // PGN readers also take a move written with more than it needs (`Nbxc7`, `Ng1f3`)
        // or without its capture mark: any legal move the parts fit, if only one does.
        let fits: Vec<Move> = match loose(&want) {
            Some(l) => list
                .iter()
                .copied()
                .filter(|&m| self.san_parts_fit(m, &l))
                .collect(),
            None => Vec::new(),
        };
        match fits[..] {
            [m] => Ok(m),
            [] => Err(MoveError::Illegal(text.trim().to_string(), self.fen())),
            _ => Err(MoveError::Ambiguous(
                text.trim().to_string(),
                self.fen(),
                format!(
                    "it fits {}",
                    fits.iter()
                        .map(|&m| self.move_to_string(m))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// Whether `m` is an ordinary move (no drop, castling, switch, stack or kill) that
    /// the parts `l` of a SAN move describe.
    fn san_parts_fit(&self, m: Move, l: &Loose) -> bool {
        let bd = &self.v.board;
        if !matches!(
            m.kind(),
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant
        ) || m.kill_count() > 0
            || bd.square_name(m.to()) != l.to
        {
            return false;
        }
        let mover = self.board[m.from().idx()];
        let def = &self.v.pieces[mover.kind() as usize];
        let from = bd.square_name(m.from());
        let lan = self.move_to_string(m);
        let promo = lan[from.len() + l.to.len()..].to_ascii_uppercase();
        let piece = match l.piece {
            Some(c) => def.letter.to_ascii_uppercase() == c && !def.pawn,
            None => def.pawn,
        };
        piece
            && l.file.is_none_or(|f| from.starts_with(f))
            && l.rank.as_deref().is_none_or(|r| &from[1..] == r)
            && promo == l.promotion.map(String::from).unwrap_or_default()
    }

    /// Reads a move in coordinates or, failing that, in SAN.
    pub fn parse_any(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move(text).or_else(|e| {
            // Text shaped like SAN is answered as SAN (illegal, ambiguous), the rest as
            // the coordinates it failed to be.
            let want = bare(text);
            let san = want.starts_with("O-O")
                || loose(&want).is_some_and(|l| self.v.board.parse_square(&l.to).is_some());
            self.parse_san(text).map_err(|se| if san { se } else { e })
        })
    }

    /// SAN without the check mark; `legal` is this position's legal moves.
    fn san_body(&self, m: Move, legal: &MoveList) -> String {
        let bd = &self.v.board;
        let lan = self.move_to_string(m);
        if m.kind() == MoveKind::Drop {
            return lan;
        }
        let mover = self.board[m.from().idx()];
        let letter = if mover.is_none() {
            '?'
        } else {
            self.v.pieces[mover.kind() as usize]
                .letter
                .to_ascii_uppercase()
        };
        match m.kind() {
            MoveKind::Castle => {
                return if bd.file_of(m.to()) > bd.file_of(m.from()) {
                    "O-O".into()
                } else {
                    "O-O-O".into()
                };
            }
            MoveKind::Combine | MoveKind::Split | MoveKind::Switch => {
                return format!("{letter}{lan}")
            }
            _ if m.kill_count() > 0 => return format!("{letter}{lan}"),
            _ => {}
        }
        // What LAN writes after the two squares (a promotion letter) becomes `=X`.
        let suffix_of = |mv: Move, text: &str| -> String {
            let squares = bd.square_name(mv.from()).len() + bd.square_name(mv.to()).len();
            text.get(squares..).unwrap_or("").to_string()
        };
        let suffix = suffix_of(m, &lan);
        let promo = if suffix.is_empty() {
            String::new()
        } else {
            format!("={}", suffix.to_ascii_uppercase())
        };
        let target = self.board[m.to().idx()];
        let capture = m.kind() == MoveKind::EnPassant || !target.is_none();
        let pawn = !mover.is_none() && self.v.pieces[mover.kind() as usize].pawn;
        // Other legal moves of the same kind of piece to the same square, same suffix.
        let rivals: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&o| {
                o != m
                    && o.kind() != MoveKind::Drop
                    && o.from() != m.from()
                    && o.to() == m.to()
                    && o.kill_count() == 0
                    && self.board[o.from().idx()] == mover
                    && suffix_of(o, &self.move_to_string(o)) == suffix
            })
            .collect();
        let file = |sq| bd.square_name(sq)[..1].to_string();
        let rank = |sq| bd.square_name(sq)[1..].to_string();
        let from = m.from();
        let mut origin = String::new();
        if pawn && capture {
            origin = file(from);
        }
        if !rivals.is_empty() {
            let same_file = rivals
                .iter()
                .any(|o| bd.file_of(o.from()) == bd.file_of(from));
            let same_rank = rivals
                .iter()
                .any(|o| bd.rank_of(o.from()) == bd.rank_of(from));
            origin = if !same_file {
                file(from)
            } else if !same_rank {
                if pawn && capture {
                    file(from) + &rank(from)
                } else {
                    rank(from)
                }
            } else {
                bd.square_name(from)
            };
        }
        let head = if pawn {
            String::new()
        } else {
            letter.to_string()
        };
        let x = if capture { "x" } else { "" };
        format!("{head}{origin}{x}{}{promo}", bd.square_name(m.to()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    fn san_of(fen: &str, lan: &str) -> String {
        let v = registry::get("chess").unwrap();
        let p = Position::from_fen(&v, fen).unwrap();
        let m = p.parse_move(lan).unwrap();
        let s = p.move_to_san(m);
        assert_eq!(p.parse_san(&s).unwrap(), m, "{s} reads back");
        s
    }

    #[test]
    fn fide_moves_are_written_as_pgn_writes_them() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san_of(start, "e2e4"), "e4");
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san_of(ep, "e5f6"), "exf6");
        assert_eq!(san_of("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), "a8=Q+");
        assert_eq!(san_of("r3k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "O-O");
        assert_eq!(san_of("r3k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "a1a8"), "Rxa8+");
        assert_eq!(san_of("4k3/8/8/8/8/4K3/8/R6R w - - 0 1", "h1d1"), "Rhd1");
        assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        let mate = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        assert_eq!(san_of(mate, "d8h4"), "Qh4#");
    }

    #[test]
    fn moves_written_with_more_than_they_need_read_as_pgn_readers_read_them() {
        // README: `--moves` takes SAN "as a PGN does"; readers such as python-chess also
        // take a move over-disambiguated, in long algebraic with its letter, or without
        // its capture mark, as long as one legal move fits.
        let v = registry::get("chess").unwrap();
        let p = Position::from_fen(&v, "4k3/2p5/8/1N6/8/N7/8/4K3 w - - 0 1").unwrap();
        for (san, lan) in [
            ("Nbxc7+", "b5c7"),
            ("Nb5c7", "b5c7"),
            ("Nc7", "b5c7"),
            ("Nab1", "a3b1"),
            ("Na3c4", "a3c4"),
        ] {
            assert_eq!(p.parse_any(san), p.parse_move(lan), "{san}");
        }
        // One that two knights fit is named ambiguous, with both; one that none fits
        // is illegal, not a text that is no move at all.
        let two = Position::from_fen(&v, "4k3/8/8/8/8/N7/8/N3K3 w - - 0 1").unwrap();
        let e = two.parse_any("Nc2").unwrap_err().to_string();
        assert!(e.contains("ambiguous") && e.contains("a1c2, a3c2"), "{e}");
        let e = two.parse_any("Nd5").unwrap_err().to_string();
        assert!(e.starts_with("illegal move \"Nd5\""), "{e}");
        let e = two.parse_any("O-O").unwrap_err().to_string();
        assert!(e.starts_with("illegal move"), "{e}");
    }

    #[test]
    fn every_legal_move_of_every_game_reads_back_from_its_san() {
        for name in registry::names() {
            let v = registry::get(name).unwrap();
            let mut pos = Position::startpos(&v);
            let mut rng = 12345u64;
            for _ in 0..60 {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                for &m in list.iter() {
                    let s = pos.move_to_san(m);
                    assert_eq!(pos.parse_san(&s), Ok(m), "{name}: {s} in {}", pos.fen());
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.make_move(list.as_slice()[(rng % list.len() as u64) as usize]);
                if pos.game_result().is_some() {
                    break;
                }
            }
        }
    }
}

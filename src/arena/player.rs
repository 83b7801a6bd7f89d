//! Players: the trait the referee talks to, the built-in baselines (`random`, `greedy`)
//! and engine specifications from the command line.

use crate::core::moves::{Color, MoveList};
use crate::position::Position;
use std::time::Duration;

/// How long a player may think for one move.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Limit {
    /// The mover's remaining clock time.
    pub time: Option<Duration>,
    /// The opponent's remaining clock time.
    pub opp_time: Option<Duration>,
    /// Increment per move.
    pub inc: Duration,
    /// Moves until the next time control, if the control is by moves.
    pub moves_to_go: Option<u32>,
    /// Moves per period of the time control (0: one period for the whole game).
    pub period_moves: u32,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Fixed node count.
    pub nodes: Option<u64>,
    /// Wall-clock time after which the player is considered hung.
    pub hard_deadline: Duration,
}

/// A player's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The move as the player wrote it.
    pub mv: String,
    /// Its score in centipawns from its own point of view, if it said one.
    pub score_cp: Option<i32>,
    /// The depth of that score, if it said one.
    pub depth: Option<u32>,
}

/// Why a player gave no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The process died or closed its output.
    #[error("crashed: {0}")]
    Crashed(String),
    /// No move before the hard deadline.
    #[error("no move in time (hung)")]
    Hung,
    /// It said something the protocol does not allow.
    #[error("protocol error: {0}")]
    Protocol(String),
    /// It sent a move that is no legal move here; the referee never takes it.
    #[error("played {0}")]
    IllegalMove(String),
    /// It resigned.
    #[error("resigns")]
    Resigned,
    /// It claimed a result the rules do not give (CECP's `RESULT {COMMENT}` on its move,
    /// in a game that is not over): a loss, as XBoard's `-testClaims` scores it.
    #[error("claimed {0} falsely")]
    FalseClaim(String),
    /// It cannot play under the match's limits (the reason says which and why).
    #[error("{0}")]
    Unsupported(String),
    /// It could not be started or set up.
    #[error("cannot start: {0}")]
    Start(String),
}

/// Something that plays moves.
pub trait Player: Send {
    /// Display name.
    fn name(&self) -> &str;
    /// Prepares for a new game of `variant` from `start_fen`.
    fn new_game(&mut self, variant: &str, start_fen: &str) -> Result<(), PlayerError>;
    /// Chooses a move in `pos`, which arose from `start_fen` by `moves`.
    fn think(
        &mut self,
        pos: &Position,
        start_fen: &str,
        moves: &[String],
        limit: &Limit,
    ) -> Result<Reply, PlayerError>;
    /// Checks, after `new_game`, that the player can play under `limit`; an XBoard
    /// engine tries a node limit's `nps`.
    fn check_limit(&mut self, _limit: &Limit) -> Result<(), PlayerError> {
        Ok(())
    }
    /// Ends the player (and its process, if any).
    fn quit(&mut self);
}

/// A small deterministic generator (xorshift64*), so matches reproduce with `--seed`.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value); every seed gives its own stream.
    pub fn new(seed: u64) -> Rng {
        // xorshift's state must not be zero; splitmix64 maps exactly one seed there.
        Rng(crate::core::shard::splitmix64(seed).max(1))
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Material of `c` by the compiled piece values (royal pieces count nothing).
pub fn material(pos: &Position, c: Color) -> i32 {
    let v = pos.variant();
    let mut sum = 0;
    for (t, def) in v.pieces.iter().enumerate() {
        if def.royal {
            continue;
        }
        let value = def.value;
        let n = pos.pieces(t as u8, c).count() as i32 + pos.hand(c, t as u8) as i32;
        sum += value * n;
    }
    sum
}

/// The built-in baselines, so strength can be sanity-checked in any game: `random`
/// plays a uniformly random legal move; `greedy` looks one ply deep and takes the move
/// that leaves it the most material (mate first), ties broken at random.
pub struct Baseline {
    name: String,
    rng: Rng,
    greedy: bool,
}

impl Baseline {
    /// A random mover with its own seed.
    pub fn random(name: &str, seed: u64) -> Baseline {
        Baseline {
            name: name.to_string(),
            rng: Rng::new(seed),
            greedy: false,
        }
    }

    /// A greedy one-ply capture maximiser with its own seed.
    pub fn greedy(name: &str, seed: u64) -> Baseline {
        Baseline {
            greedy: true,
            ..Baseline::random(name, seed)
        }
    }

    /// The moves the greedy rule keeps: those with the best material after one ply.
    fn best_by_material(pos: &Position, list: &MoveList) -> Vec<crate::core::moves::Move> {
        let me = pos.side_to_move();
        let mut p = pos.clone();
        let mut best = i32::MIN;
        let mut choices = Vec::new();
        for &m in list.iter() {
            p.make_move(m);
            let mut score = material(&p, me) - material(&p, me.flip());
            if let Some((r, _)) = p.game_result() {
                let won = matches!(
                    (r, me),
                    (
                        crate::position::notation::GameResult::WhiteWins,
                        Color::White
                    ) | (
                        crate::position::notation::GameResult::BlackWins,
                        Color::Black
                    )
                );
                score = if won { i32::MAX - 1 } else { score.min(0) };
            }
            p.unmake_move();
            if score > best {
                best = score;
                choices.clear();
            }
            if score == best {
                choices.push(m);
            }
        }
        choices
    }
}

impl Player for Baseline {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self, _: &str, _: &str) -> Result<(), PlayerError> {
        Ok(())
    }
    fn think(
        &mut self,
        pos: &Position,
        _: &str,
        _: &[String],
        _: &Limit,
    ) -> Result<Reply, PlayerError> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return Err(PlayerError::Protocol(
                "asked to move with no legal move".into(),
            ));
        }
        let choices = if self.greedy {
            Baseline::best_by_material(pos, &list)
        } else {
            list.iter().copied().collect()
        };
        let m = choices[self.rng.below(choices.len())];
        Ok(Reply {
            mv: pos.move_to_string(m),
            score_cp: None,
            depth: None,
        })
    }
    fn quit(&mut self) {}
}

/// An engine as the command line describes it: `name=A,cmd=PATH,proto=uci,...`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngineSpec {
    /// Display name (unique in a match).
    pub name: String,
    /// External program; None = a Tenfold engine or a built-in baseline.
    pub cmd: Option<String>,
    /// Arguments for the program.
    pub args: Vec<String>,
    /// `uci` or `xboard`.
    pub proto: String,
    /// `tenfold`, `random` or `greedy` when there is no `cmd`.
    pub player: String,
    /// Engine options to set (`option.NAME=VALUE`, `threads=`, `hash=`).
    pub options: Vec<(String, String)>,
    /// Time control keys for this engine: tc, st, depth, nodes.
    pub tc: Vec<(String, String)>,
}

/// Why an `--engine` specification was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    /// A word without `=`.
    #[error("--engine: \"{0}\" is not key=value")]
    NotKeyValue(String),
    /// A protocol other than uci and xboard.
    #[error("--engine: proto \"{0}\" is not uci or xboard")]
    Proto(String),
    /// A built-in player that does not exist.
    #[error("--engine: player \"{0}\" is not tenfold, random or greedy")]
    Player(String),
    /// A key the specification does not know.
    #[error("--engine: unknown key \"{0}\" (name, cmd, arg, proto, player, threads, hash, tc, st, depth, nodes, option.NAME)")]
    UnknownKey(String),
    /// A key given twice.
    #[error("--engine: {0} given twice")]
    Twice(String),
    /// `name=` with nothing after it.
    #[error("--engine: name= is empty")]
    EmptyName,
    /// `player=` and `cmd=` in one specification.
    #[error("--engine: player= and cmd= together (a player is built in or an outside engine)")]
    PlayerAndCmd,
    /// A value the key cannot take.
    #[error("--engine: {0}")]
    Value(String),
    /// A node limit asked of an XBoard engine, which cannot be given one.
    #[error("--engine: XBoard has no node limit; use tc=, st= or depth=")]
    XboardNodes,
}

/// Reads `threads=`/`hash=`: a whole number of at least 1.
fn positive(key: &str, value: &str) -> Result<u64, EngineSpecError> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(EngineSpecError::Value(format!(
            "{key}={value} is not a whole number of at least 1"
        ))),
    }
}

impl EngineSpec {
    /// Parses `name=A,cmd=PATH,proto=uci,threads=1,hash=16,depth=5,…`.
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let mut e = EngineSpec {
            proto: "uci".into(),
            player: "tenfold".into(),
            ..Default::default()
        };
        let mut seen: Vec<&str> = Vec::new();
        let mut hash_mb = None;
        for kv in text.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| EngineSpecError::NotKeyValue(kv.to_string()))?;
            // A key said twice would leave the last one standing without a word; `arg`
            // is the one key that repeats (one per argument).
            if k != "arg" && seen.contains(&k) {
                return Err(EngineSpecError::Twice(k.to_string()));
            }
            seen.push(k);
            match k {
                "name" if v.is_empty() => return Err(EngineSpecError::EmptyName),
                "name" => e.name = v.to_string(),
                "cmd" => e.cmd = Some(v.to_string()),
                "arg" => e.args.push(v.to_string()),
                "proto" if v == "uci" || v == "xboard" => e.proto = v.to_string(),
                "proto" => return Err(EngineSpecError::Proto(v.to_string())),
                "player" if ["tenfold", "random", "greedy"].contains(&v) => {
                    e.player = v.to_string()
                }
                "player" => return Err(EngineSpecError::Player(v.to_string())),
                "threads" => {
                    let n = positive(k, v)?;
                    crate::search::smp::check_threads(n as usize)
                        .map_err(|e| EngineSpecError::Value(format!("threads={v}: {e}")))?;
                    e.options.push(("Threads".into(), v.to_string()))
                }
                "hash" => {
                    hash_mb = Some(positive(k, v)?);
                    e.options.push(("Hash".into(), v.to_string()))
                }
                "tc" | "st" | "depth" | "nodes" => e.tc.push((k.to_string(), v.to_string())),
                k if k.starts_with("option.") => {
                    e.options.push((k[7..].to_string(), v.to_string()))
                }
                _ => return Err(EngineSpecError::UnknownKey(k.to_string())),
            }
        }
        if e.proto == "xboard" && e.tc.iter().any(|(k, _)| k == "nodes") {
            return Err(EngineSpecError::XboardNodes);
        }
        super::TimeControl::check_keys(e.tc.iter().map(|(k, _)| k.as_str()))
            .map_err(|t| EngineSpecError::Value(t.to_string()))?;
        // A built-in player and an outside engine are two different players.
        if e.cmd.is_some() && seen.contains(&"player") {
            return Err(EngineSpecError::PlayerAndCmd);
        }
        // The built-in engine's own bounds (its UCI `Hash` option), known before any
        // game: an outside engine's are its own business.
        let max = crate::protocol::uci::MAX_HASH_MB as u64;
        if let Some(mb) = hash_mb.filter(|&mb| e.cmd.is_none() && mb > max) {
            return Err(EngineSpecError::Value(format!(
                "hash={mb}: more than {max} MB"
            )));
        }
        if e.name.is_empty() {
            e.name = match &e.cmd {
                Some(c) => c.rsplit('/').next().unwrap_or(c).to_string(),
                None => e.player.clone(),
            };
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn engine_specs_parse_and_refuse_unknown_keys() {
        let e = EngineSpec::parse("name=A,threads=2,hash=16,depth=5").unwrap();
        assert_eq!(e.name, "A");
        assert_eq!(e.player, "tenfold");
        assert_eq!(
            e.options,
            vec![("Threads".into(), "2".into()), ("Hash".into(), "16".into())]
        );
        assert_eq!(e.tc, vec![("depth".into(), "5".into())]);
        let e = EngineSpec::parse("cmd=/usr/games/fairy-stockfish,proto=uci").unwrap();
        assert_eq!(e.name, "fairy-stockfish");
        assert_eq!(
            EngineSpec::parse("name=A,colour=red"),
            Err(EngineSpecError::UnknownKey("colour".into()))
        );
        assert_eq!(
            EngineSpec::parse("proto=cecp").unwrap_err().to_string(),
            "--engine: proto \"cecp\" is not uci or xboard"
        );
        assert_eq!(
            EngineSpec::parse("proto=xboard,nodes=5"),
            Err(EngineSpecError::XboardNodes)
        );
    }

    #[test]
    fn greedy_takes_the_free_queen_and_mates_when_it_can() {
        let v = registry::get("chess").unwrap();
        let pos = Position::from_fen(&v, "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1").unwrap();
        let mut g = Baseline::greedy("g", 1);
        let r = g.think(&pos, "", &[], &Limit::default()).unwrap();
        assert_eq!(r.mv, "d1d5");
        let mate = Position::from_fen(&v, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(
            g.think(&mate, "", &[], &Limit::default()).unwrap().mv,
            "a1a8"
        );
    }

    #[test]
    fn random_player_only_plays_legal_moves() {
        let v = registry::get("chess").unwrap();
        let mut pos = Position::startpos(&v);
        let mut r = Baseline::random("r", 5);
        for _ in 0..40 {
            if pos.game_result().is_some() {
                break;
            }
            let m = r.think(&pos, "", &[], &Limit::default()).unwrap().mv;
            let mv = pos.parse_move(&m).unwrap();
            pos.make_move(mv);
        }
    }
}

//! Match settings as the command line spells them ([`MatchArgs`]: option names and
//! `key=value` words) read into a [`MatchConfig`].

use super::player::{EngineSpec, EngineSpecError};
use super::stats::{Sprt, SprtError};
use super::{
    read_openings, Adjudication, MatchConfig, OpeningsError, TimeControl, TimeControlError,
};
use crate::core::input::{read_text, MAX_LIST_BYTES};
use crate::core::shard::{parse_pairs, Shard, ShardError};
use crate::variant::Variant;
use std::sync::Arc;
use std::time::Duration;

/// Draw adjudication when `--draw` names no values: after move 40, 8 plies each, 10 cp.
pub const DRAW_DEFAULTS: (u32, u32, i32) = (40, 8, 10);

/// Resign adjudication when `--resign` names no values: 3 moves at 600 cp, one-sided.
pub const RESIGN_DEFAULTS: (u32, i32, bool) = (3, 600, false);

/// Why a match setting was refused; each message starts with the option it came from.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A word without `=`.
    #[error("{option}: \"{word}\" is not key=value")]
    NotKeyValue {
        /// The option, e.g. `--draw`.
        option: &'static str,
        /// The word as given.
        word: String,
    },
    /// A value that is not a number of the kind wanted.
    #[error("{option}: \"{value}\" is not a number")]
    NotNumber {
        /// The option, e.g. `--draw`.
        option: &'static str,
        /// The value as given.
        value: String,
    },
    /// A number outside what the key allows.
    #[error("{option}: {key}={value} is out of range ({allowed})")]
    OutOfRange {
        /// The option, e.g. `--resign`.
        option: &'static str,
        /// The key it was given for.
        key: &'static str,
        /// The value as given.
        value: String,
        /// What the key takes.
        allowed: &'static str,
    },
    /// A value that is neither true nor false.
    #[error("{option}: {key}=\"{value}\" is not true or false")]
    NotBool {
        /// The option, e.g. `--resign`.
        option: &'static str,
        /// The key it was given for.
        key: String,
        /// The value as given.
        value: String,
    },
    /// A key the option does not know.
    #[error("{option}: unknown key \"{key}\" ({known})")]
    UnknownKey {
        /// The option, e.g. `--draw`.
        option: &'static str,
        /// The key as given.
        key: String,
        /// The keys it does know, comma separated.
        known: &'static str,
    },
    /// An `--each` time control key refused.
    #[error("--each: {0}")]
    Each(#[source] TimeControlError),
    /// An `--engine` specification refused.
    #[error(transparent)]
    Engine(#[from] EngineSpecError),
    /// An `--sprt` specification refused.
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// The `--openings` file cannot be read.
    #[error("cannot read openings {path}: {source}")]
    ReadOpenings {
        /// The file.
        path: String,
        /// Why it cannot be read.
        source: crate::core::input::ReadError,
    },
    /// The `--openings` file holds a bad or no position.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An `--order` other than sequential and random.
    #[error("--order: \"{0}\" is not random or sequential")]
    Order(String),
    /// A `--tournament` other than gauntlet and round-robin.
    #[error("--tournament: \"{0}\" is not gauntlet or round-robin")]
    Tournament(String),
    /// A `--shard` or `--pairs` value refused.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// `--shard` and `--pairs` together, which would name two slices.
    #[error("--shard and --pairs choose the same thing; give one")]
    ShardAndPairs,
    /// A `--pairs` range past the end of the schedule.
    #[error("--pairs: {start}..{end} ends past the schedule's {total} pairs")]
    PairsPastEnd {
        /// First pair asked for.
        start: usize,
        /// One past the last.
        end: usize,
        /// Pairs in the schedule.
        total: usize,
    },
    /// `--resume` with no `--pgnout` to resume from.
    #[error("--resume needs --pgnout FILE: the match's PGN is its state")]
    ResumeWithoutPgn,
}

/// `path` made absolute (as it is when it exists), for programs or later steps that
/// may not share this working directory.
pub fn absolute(path: &str) -> String {
    std::fs::canonicalize(path)
        .map(|p| p.to_string_lossy().into_owned())
        .or_else(|_| std::path::absolute(path).map(|p| p.to_string_lossy().into_owned()))
        .unwrap_or_else(|_| path.to_string())
}

/// Splits `key=value` words, space or comma separated, into pairs.
pub fn key_values(text: &str, option: &'static str) -> Result<Vec<(String, String)>, ConfigError> {
    text.split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| ConfigError::NotKeyValue {
                    option,
                    word: w.to_string(),
                })
        })
        .collect()
}

/// Reads a number given to `option`.
pub fn number<T: std::str::FromStr>(value: &str, option: &'static str) -> Result<T, ConfigError> {
    value.parse().map_err(|_| ConfigError::NotNumber {
        option,
        value: value.to_string(),
    })
}

/// Reads every `--engine` specification, in order.
pub fn engines(specs: &[String]) -> Result<Vec<EngineSpec>, ConfigError> {
    Ok(specs
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<_, _>>()?)
}

/// Reads `--each`: the time control of every engine that sets none itself.
pub fn time_control(each: &str) -> Result<TimeControl, ConfigError> {
    let mut tc = TimeControl::default();
    let pairs = key_values(each, "--each")?;
    TimeControl::check_keys(pairs.iter().map(|(k, _)| k.as_str())).map_err(ConfigError::Each)?;
    for (k, v) in pairs {
        tc.apply(&k, &v).map_err(ConfigError::Each)?;
    }
    Ok(tc)
}

/// Reads the `--openings` file, if one is given; none means generated openings.
pub fn openings(v: &Arc<Variant>, path: Option<&str>) -> Result<Vec<String>, ConfigError> {
    let Some(path) = path else {
        return Ok(Vec::new());
    };
    let text = read_text(path, MAX_LIST_BYTES).map_err(|source| ConfigError::ReadOpenings {
        path: path.to_string(),
        source,
    })?;
    Ok(read_openings(v, &text, path)?)
}

/// Reads `--order`: true for random, false for sequential.
pub fn random_order(order: &str) -> Result<bool, ConfigError> {
    match order {
        "random" => Ok(true),
        "sequential" => Ok(false),
        o => Err(ConfigError::Order(o.to_string())),
    }
}

/// Reads `--tournament`: true for round robin, false for a gauntlet.
pub fn round_robin(tournament: &str) -> Result<bool, ConfigError> {
    match tournament {
        "round-robin" | "roundrobin" => Ok(true),
        "gauntlet" => Ok(false),
        t => Err(ConfigError::Tournament(t.to_string())),
    }
}

/// Reads `--sprt`, if given.
pub fn sprt(spec: Option<&str>) -> Result<Option<Sprt>, ConfigError> {
    Ok(spec.map(Sprt::parse).transpose()?)
}

/// Reads a `movecount` (at least 1: no moves at all would adjudicate every game at
/// once, whatever its scores) or a `score` (at least 0, a distance from 0.00).
fn in_range<T: std::str::FromStr + PartialOrd>(
    value: &str,
    option: &'static str,
    key: &'static str,
    least: T,
    allowed: &'static str,
) -> Result<T, ConfigError> {
    let n: T = number(value, option)?;
    if n < least {
        return Err(ConfigError::OutOfRange {
            option,
            key,
            value: value.to_string(),
            allowed,
        });
    }
    Ok(n)
}

/// Reads `--draw movenumber=40 movecount=8 score=10`; keys left out keep their defaults.
pub fn draw(spec: &str) -> Result<(u32, u32, i32), ConfigError> {
    let (mut after, mut count, mut score) = DRAW_DEFAULTS;
    for (k, v) in key_values(spec, "--draw")? {
        match k.as_str() {
            "movenumber" => after = number(&v, "--draw")?,
            "movecount" => count = in_range(&v, "--draw", "movecount", 1, "at least 1")?,
            "score" => score = in_range(&v, "--draw", "score", 0, "at least 0")?,
            _ => {
                return Err(ConfigError::UnknownKey {
                    option: "--draw",
                    key: k,
                    known: "movenumber, movecount, score",
                })
            }
        }
    }
    Ok((after, count, score))
}

/// Reads `--resign movecount=3 score=600 twosided=false`; keys left out keep their
/// defaults.
pub fn resign(spec: &str) -> Result<(u32, i32, bool), ConfigError> {
    let (mut count, mut score, mut twosided) = RESIGN_DEFAULTS;
    for (k, v) in key_values(spec, "--resign")? {
        match k.as_str() {
            "movecount" => count = in_range(&v, "--resign", "movecount", 1, "at least 1")?,
            // The score is a distance below zero: a negative one would resign engines
            // that think they are winning.
            "score" => score = in_range(&v, "--resign", "score", 0, "at least 0")?,
            "twosided" => {
                twosided = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(ConfigError::NotBool {
                            option: "--resign",
                            key: k,
                            value: v,
                        })
                    }
                }
            }
            _ => {
                return Err(ConfigError::UnknownKey {
                    option: "--resign",
                    key: k,
                    known: "movecount, score, twosided",
                })
            }
        }
    }
    Ok((count, score, twosided))
}

/// Reads `--draw`, `--resign` and `--maxmoves` into one [`Adjudication`].
pub fn adjudication(
    draw_spec: Option<&str>,
    resign_spec: Option<&str>,
    max_moves: Option<u32>,
) -> Result<Adjudication, ConfigError> {
    Ok(Adjudication {
        draw: draw_spec.map(draw).transpose()?,
        resign: resign_spec.map(resign).transpose()?,
        max_moves,
    })
}

/// The options of `tenfold match`, as the command line spells them.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// A player: `name=A,threads=1,hash=16,depth=6` (a Tenfold engine), `name=B,cmd=PATH,proto=uci|xboard`, or `name=R,player=random|greedy`; repeat for each player.
    #[arg(long = "engine", required = true)]
    pub engines: Vec<String>,
    /// Limits for every engine that sets none itself: `tc=40/60+0.6`, `st=0.1`, `depth=6`, `nodes=10000` (space or comma separated).
    #[arg(long, default_value = "")]
    pub each: String,
    /// Opening file: one FEN/EPD per line, each played with both colours.
    #[arg(long)]
    pub openings: Option<String>,
    /// Random plies played from each opening (default 8 when no file is given, else 0; at most 200).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=super::openings::MAX_OPENING_PLIES as i64))]
    pub plies: Option<u32>,
    /// Opening order: sequential or random.
    #[arg(long, default_value = "sequential")]
    pub order: String,
    /// Rounds.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// Games per pairing per round (played in colour-swapped pairs).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = at_least_one)]
    pub concurrency: usize,
    /// gauntlet (first engine against the rest) or round-robin.
    #[arg(long, default_value = "gauntlet")]
    pub tournament: String,
    /// SPRT for two players: `elo0=0 elo1=5 alpha=0.05 beta=0.05`; stops at a decision.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Draw adjudication: `movenumber=40 movecount=8 score=10`.
    #[arg(long)]
    pub draw: Option<String>,
    /// Resign adjudication: `movecount=3 score=600` (an engine whose own score stays that far below zero for that many moves loses; `twosided=true`: only when its opponent's scores agree).
    #[arg(long)]
    pub resign: Option<String>,
    /// Draw a game after this many moves.
    #[arg(long)]
    pub maxmoves: Option<u32>,
    /// Append the games as PGN to this file.
    #[arg(long)]
    pub pgnout: Option<String>,
    /// Redraw Elo ± 95% and the SPRT's LLR against games in this SVG after each game.
    #[arg(long)]
    pub plot: Option<String>,
    /// Seed for openings and the built-in baselines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds an engine may overstep its clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub timemargin: u64,
    /// PGN Event tag.
    #[arg(long, default_value = "tenfold match")]
    pub event: String,
    /// PGN movetext: san (with Tenfold's extensions, see README), lan (coordinates) or xboard (CECP move text, as XBoard loads it).
    #[arg(long, default_value = "san")]
    pub pgn_notation: String,
    /// Play slice I of N of the schedule's game pairs (0 <= I < N); `tenfold merge` adds the slices up.
    #[arg(long)]
    pub shard: Option<String>,
    /// Play game pairs A..B of the schedule (A inclusive, B exclusive; pair k is games 2k+1, 2k+2).
    #[arg(long)]
    pub pairs: Option<String>,
    /// Continue an interrupted match from its --pgnout file: its games are kept, the rest played.
    #[arg(long)]
    pub resume: bool,
}

/// Reads a count that must be at least 1 (`--concurrency 0` played as 1, silently).
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

impl MatchArgs {
    /// The match these options describe in variant `v`; of several bad options the
    /// first in field order is reported.
    pub fn config(&self, v: &Arc<Variant>) -> Result<MatchConfig, ConfigError> {
        Ok(MatchConfig {
            variant: v.name.clone(),
            engines: engines(&self.engines)?,
            each: time_control(&self.each)?,
            openings: openings(v, self.openings.as_deref())?,
            plies: self
                .plies
                .unwrap_or(if self.openings.is_some() { 0 } else { 8 }),
            random_order: random_order(&self.order)?,
            rounds: self.rounds,
            games: self.games,
            concurrency: self.concurrency,
            round_robin: round_robin(&self.tournament)?,
            sprt: sprt(self.sprt.as_deref())?,
            adjudication: adjudication(
                self.draw.as_deref(),
                self.resign.as_deref(),
                self.maxmoves,
            )?,
            margin: Duration::from_millis(self.timemargin),
            seed: self.seed,
            event: self.event.clone(),
            variant_files: Vec::new(),
            pairs: None,
            shard: None,
        })
        .and_then(|cfg| self.slice(cfg))
    }

    /// Sets the pairs of `--shard` or `--pairs` on `cfg`, checked against its schedule.
    fn slice(&self, mut cfg: MatchConfig) -> Result<MatchConfig, ConfigError> {
        if self.resume && self.pgnout.is_none() {
            return Err(ConfigError::ResumeWithoutPgn);
        }
        let total = cfg.total_pairs();
        match (&self.shard, &self.pairs) {
            (Some(_), Some(_)) => return Err(ConfigError::ShardAndPairs),
            (Some(s), None) => {
                let shard: Shard = s.parse()?;
                cfg.pairs = Some(shard.range(total));
                cfg.shard = Some(shard);
            }
            (None, Some(p)) => {
                let r = parse_pairs(p)?;
                if r.end > total {
                    return Err(ConfigError::PairsPastEnd {
                        start: r.start,
                        end: r.end,
                        total,
                    });
                }
                cfg.pairs = Some(r);
            }
            (None, None) => {}
        }
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn key_values_split_on_spaces_and_commas() {
        assert_eq!(
            key_values("a=1, b=2 c=", "--x").unwrap(),
            vec![
                ("a".into(), "1".into()),
                ("b".into(), "2".into()),
                ("c".into(), String::new())
            ]
        );
        assert!(key_values("", "--x").unwrap().is_empty());
        assert_eq!(
            key_values("a=1 b", "--draw").unwrap_err().to_string(),
            "--draw: \"b\" is not key=value"
        );
    }

    #[test]
    fn numbers_name_the_option() {
        assert_eq!(number::<u32>("12", "--draw").unwrap(), 12);
        assert_eq!(
            number::<u32>("-1", "--resign").unwrap_err().to_string(),
            "--resign: \"-1\" is not a number"
        );
    }

    #[test]
    fn draw_and_resign_keep_defaults_for_keys_left_out() {
        assert_eq!(draw("").unwrap(), DRAW_DEFAULTS);
        assert_eq!(draw("movenumber=30,score=5").unwrap(), (30, 8, 5));
        assert_eq!(resign("movecount=5").unwrap(), (5, 600, false));
        assert_eq!(resign("twosided=true").unwrap(), (3, 600, true));
        assert_eq!(
            resign("twosided=yes").unwrap_err().to_string(),
            "--resign: twosided=\"yes\" is not true or false"
        );
        assert_eq!(
            draw("moves=3").unwrap_err().to_string(),
            "--draw: unknown key \"moves\" (movenumber, movecount, score)"
        );
        assert_eq!(
            resign("movenumber=3").unwrap_err().to_string(),
            "--resign: unknown key \"movenumber\" (movecount, score, twosided)"
        );
        let a = adjudication(Some("score=20"), None, Some(100)).unwrap();
        assert_eq!(a.draw, Some((40, 8, 20)));
        assert_eq!(a.resign, None);
        assert_eq!(a.max_moves, Some(100));
        assert_eq!(
            adjudication(None, None, None).unwrap(),
            Adjudication::default()
        );
    }

    #[test]
    fn order_and_tournament_words() {
        assert!(random_order("random").unwrap());
        assert!(!random_order("sequential").unwrap());
        assert_eq!(
            random_order("shuffled").unwrap_err().to_string(),
            "--order: \"shuffled\" is not random or sequential"
        );
        assert!(round_robin("round-robin").unwrap() && round_robin("roundrobin").unwrap());
        assert!(!round_robin("gauntlet").unwrap());
        assert_eq!(
            round_robin("swiss").unwrap_err().to_string(),
            "--tournament: \"swiss\" is not gauntlet or round-robin"
        );
    }

    #[test]
    fn each_engines_and_sprt_pass_their_errors_through() {
        assert_eq!(
            time_control("st=0.5")
                .unwrap()
                .movetime
                .unwrap()
                .as_millis(),
            500
        );
        assert_eq!(
            time_control("st=x").unwrap_err().to_string(),
            "--each: st: \"x\" is not a number of seconds"
        );
        assert_eq!(
            time_control("tc").unwrap_err().to_string(),
            "--each: \"tc\" is not key=value"
        );
        let e = engines(&["name=A,player=random".into(), "name=B".into()]).unwrap();
        assert_eq!((e[0].name.as_str(), e[1].name.as_str()), ("A", "B"));
        assert!(matches!(
            engines(&["proto=cecp".into()]),
            Err(ConfigError::Engine(_))
        ));
        assert_eq!(sprt(None).unwrap(), None);
        assert!(matches!(sprt(Some("elo0=9")), Err(ConfigError::Sprt(_))));
    }

    fn args(line: &str) -> MatchArgs {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: MatchArgs,
        }
        let words = std::iter::once("match").chain(line.split_whitespace());
        <Cli as clap::Parser>::try_parse_from(words).unwrap().args
    }

    #[test]
    fn options_become_a_config_with_the_documented_defaults() {
        let v = registry::get("chess").unwrap();
        let cfg = args("--engine name=A,player=random --engine name=B,player=greedy")
            .config(&v)
            .unwrap();
        assert_eq!(cfg.variant, "chess");
        assert_eq!(cfg.engines.len(), 2);
        assert_eq!((cfg.rounds, cfg.games, cfg.concurrency), (1, 2, 1));
        assert!(!cfg.random_order && !cfg.round_robin);
        assert_eq!(cfg.adjudication, Adjudication::default());
        assert_eq!(cfg.margin, Duration::from_millis(100));
        assert_eq!((cfg.seed, cfg.event.as_str()), (1, "tenfold match"));
        let cfg = args(
            "--engine name=A,player=random --engine name=B,player=random --engine name=C,player=random \
             --tournament round-robin --order random --games 3 --rounds 2 --draw score=5 \
             --resign movecount=4 --maxmoves 90 --each st=0.2 --sprt elo1=10",
        )
        .config(&v)
        .unwrap();
        assert!(cfg.round_robin && cfg.random_order);
        assert_eq!(cfg.total_games(), 2 * 2 * 2 * 3);
        assert_eq!(cfg.adjudication.draw, Some((40, 8, 5)));
        assert_eq!(cfg.adjudication.resign, Some((4, 600, false)));
        assert_eq!(cfg.adjudication.max_moves, Some(90));
        assert_eq!(cfg.each.movetime, Some(Duration::from_millis(200)));
        assert_eq!(cfg.sprt.unwrap().elo1, 10.0);
    }

    #[test]
    fn the_first_bad_option_is_the_one_reported() {
        let v = registry::get("chess").unwrap();
        let e = args("--engine colour=red --order x --draw y")
            .config(&v)
            .unwrap_err();
        assert!(e.to_string().starts_with("--engine: unknown key"), "{e}");
        let e = args("--engine name=A --order x --tournament y")
            .config(&v)
            .unwrap_err();
        assert_eq!(e.to_string(), "--order: \"x\" is not random or sequential");
        let e = args("--engine name=A --resign x=1 --draw y=2")
            .config(&v)
            .unwrap_err();
        assert!(e.to_string().starts_with("--draw: unknown key"), "{e}");
    }

    #[test]
    fn openings_come_from_the_file_or_nowhere() {
        let v = registry::get("chess").unwrap();
        assert!(openings(&v, None).unwrap().is_empty());
        let e = openings(&v, Some("/no/such/openings.epd")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot read openings /no/such/openings.epd: "),
            "{e}"
        );
    }
}

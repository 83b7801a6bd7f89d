//! One refereed game: moves asked for and checked, clocks kept, hangs and crashes
//! caught, and the optional score adjudication.

use super::pgn::GameRecord;
use super::player::{self, Limit, Player, PlayerError};
use super::{Adjudication, TimeControl};
use crate::core::moves::Color;
use crate::position::notation::GameResult;
use crate::position::Position;
use crate::variant::Variant;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long past its clock an engine may stay silent before it counts as hung rather
/// than as having lost on time.
const HANG_GRACE: Duration = Duration::from_secs(2);

/// Referees one game between two players, from `start_fen` and then `opening`.
pub fn play_game(
    v: &Arc<Variant>,
    start_fen: &str,
    opening: &[String],
    players: [&mut dyn Player; 2],
    tcs: [TimeControl; 2],
    adj: &Adjudication,
    margin: Duration,
) -> GameRecord {
    let [white, black] = players;
    let names = [white.name().to_string(), black.name().to_string()];
    let mut players: [&mut dyn Player; 2] = [white, black];
    let mut record = GameRecord {
        variant: v.name.clone(),
        start_fen: (start_fen != v.start_fen).then(|| start_fen.to_string()),
        white: names[0].clone(),
        black: names[1].clone(),
        round: String::new(),
        result: None,
        // cutechess-cli writes a Termination tag only for games that did not end by
        // the rules: empty means "normal".
        termination: String::new(),
        reason: String::new(),
        moves: Vec::new(),
        comments: Vec::new(),
        time_control: tc_tag(&tcs),
        limits: limits_tag(&tcs),
    };
    let loss_of = |c: Color| {
        if c == Color::White {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        }
    };
    let mut pos = match Position::from_fen(v, start_fen) {
        Ok(p) => p,
        Err(e) => {
            record.termination = "abandoned".into();
            record.reason = e.to_string();
            return record;
        }
    };
    // The opening's moves are the game's first moves: every engine hears them as moves,
    // including one that cannot be given a position.
    for m in opening {
        match pos.parse_move(m) {
            Ok(mv) => {
                record.moves.push(pos.move_to_string(mv));
                record.comments.push(Some("book".into()));
                pos.make_move(mv);
            }
            Err(e) => {
                record.termination = "abandoned".into();
                record.reason = format!("opening: {e}");
                return record;
            }
        }
    }
    for (i, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game(&v.name, start_fen) {
            let c = if i == 0 { Color::White } else { Color::Black };
            record.result = Some(loss_of(c));
            record.termination = "abandoned".into();
            record.reason = format!("{} {e}", names[i]);
            return record;
        }
    }
    let mut clock = [tcs[0].base, tcs[1].base];
    let mut scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    loop {
        if let Some((r, why)) = pos.game_result() {
            record.result = Some(r);
            record.reason = why.to_string();
            break;
        }
        if let Some(max) = adj.max_moves {
            if record.moves.len() as u32 >= 2 * max {
                record.result = Some(GameResult::Draw);
                record.termination = "adjudication".into();
                record.reason = format!("draw by the {max}-move limit");
                break;
            }
        }
        let side = pos.side_to_move();
        let (me, opp) = (side.idx(), side.flip().idx());
        let tc = tcs[me];
        let played = (record.moves.len() / 2) as u32;
        let moves_to_go = (tc.moves > 0).then(|| tc.moves - played % tc.moves);
        // A move that comes after the clock ran out is a flag fall; only no move at all
        // within a grace beyond it is a hang.
        let grace = HANG_GRACE.max(margin);
        let hard = match (clock[me], tc.movetime) {
            (Some(t), _) => t + margin + grace,
            (None, Some(mt)) => mt + margin + grace,
            // Depth and node limits have no clock: allow a generous minute per move.
            _ => Duration::from_secs(60),
        };
        let limit = Limit {
            time: clock[me],
            opp_time: clock[opp].or(clock[me]),
            inc: tc.inc,
            moves_to_go,
            period_moves: tc.moves,
            movetime: tc.movetime,
            depth: tc.depth,
            nodes: tc.nodes,
            hard_deadline: hard,
        };
        let t0 = Instant::now();
        let reply = players[me].think(&pos, start_fen, &record.moves, &limit);
        let used = t0.elapsed();
        let reply = match reply {
            Ok(r) => r,
            Err(e) => {
                record.result = Some(loss_of(side));
                record.termination = match e {
                    PlayerError::Hung => "stalled connection".into(),
                    PlayerError::Resigned => String::new(),
                    PlayerError::IllegalMove(_) | PlayerError::FalseClaim(_) => {
                        "rules infraction".into()
                    }
                    _ => "abandoned".into(),
                };
                record.reason = format!("{} {e}", names[me]);
                break;
            }
        };
        // A fixed time per move is a clock that is full at every move (cutechess-cli's
        // st=): a move later than it and the margin is as much a flag fall.
        if clock[me].or(tc.movetime).is_some_and(|t| used > t + margin) {
            record.result = Some(loss_of(side));
            record.termination = "time forfeit".into();
            record.reason = format!("{} lost on time", names[me]);
            break;
        }
        if let Some(t) = clock[me] {
            let mut left = t.saturating_sub(used) + tc.inc;
            // This side just made its (played + 1)th move: a new period may begin.
            if tc.moves > 0 && (played + 1).is_multiple_of(tc.moves) {
                left += tc.base.unwrap_or_default();
            }
            clock[me] = Some(left);
        }
        let mv = match pos.parse_move(&reply.mv) {
            Ok(m) => m,
            Err(e) => {
                record.result = Some(loss_of(side));
                record.termination = "rules infraction".into();
                record.reason = format!("{} played {e}", names[me]);
                break;
            }
        };
        record.moves.push(pos.move_to_string(mv));
        record.comments.push(Some(move_comment(&reply, used)));
        pos.make_move(mv);
        // The rules speak before the adjudicator (cutechess-cli asks the board first): a
        // mate or stalemate must not be scored by the engines' opinion of it.
        if pos.game_result().is_some() {
            continue;
        }
        if let Some(s) = reply.score_cp {
            scores[me].push(s);
            // Full moves played, this one counted: cutechess-cli's plyCount / 2 (a White
            // move is half of one).
            let full = (record.moves.len() / 2) as u32;
            if let Some(r) = adjudicate(adj, &scores, me, full) {
                record.result = Some(match r {
                    Adjudged::Draw => GameResult::Draw,
                    Adjudged::Resign(c) => {
                        loss_of(if c == 0 { Color::White } else { Color::Black })
                    }
                });
                record.termination = "adjudication".into();
                record.reason = match r {
                    Adjudged::Draw => "draw by score adjudication".into(),
                    Adjudged::Resign(c) => format!("{} resigns by score adjudication", names[c]),
                };
                break;
            }
        } else {
            scores[me].clear();
        }
    }
    for p in players.iter_mut() {
        p.quit();
    }
    record
}

/// The comment cutechess-cli writes after an engine's move: score in pawns from the
/// mover's side, depth, and the time it took (`+0.35/16 0.5s`; just the time when the
/// engine gave no score).
fn move_comment(reply: &player::Reply, used: Duration) -> String {
    let secs = used.as_secs_f64();
    let time = if secs < 1.0 {
        format!("{:.3}s", secs)
    } else {
        format!("{:.1}s", secs)
    };
    match reply.score_cp {
        Some(cp) => format!(
            "{:+.2}/{} {time}",
            f64::from(cp) / 100.0,
            reply.depth.unwrap_or(0)
        ),
        None => time,
    }
}

/// The Limits tag of a game: each side's `depth=` and `nodes=` (a PGN TimeControl has no
/// word for them), two different sides joined by `:`, empty when neither side has one.
pub(super) fn limits_tag(tcs: &[TimeControl; 2]) -> String {
    let one = |tc: &TimeControl| {
        let mut words = Vec::new();
        if let Some(d) = tc.depth {
            words.push(format!("depth={d}"));
        }
        if let Some(n) = tc.nodes {
            words.push(format!("nodes={n}"));
        }
        words.join(" ")
    };
    let (a, b) = (one(&tcs[0]), one(&tcs[1]));
    if a == b {
        a
    } else {
        format!("{a}:{b}")
    }
}

/// The PGN TimeControl tag of a game (PGN standard: `moves/seconds`, `seconds+inc`,
/// `*seconds` per move, `-` for none); two different controls are joined by `:`.
pub(super) fn tc_tag(tcs: &[TimeControl; 2]) -> String {
    let one = |tc: &TimeControl| {
        let secs = |d: Duration| {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{s}")
            } else {
                format!("{s:.3}").trim_end_matches('0').to_string()
            }
        };
        match (tc.base, tc.movetime) {
            (Some(b), _) => {
                let mut t = if tc.moves > 0 {
                    format!("{}/{}", tc.moves, secs(b))
                } else {
                    secs(b)
                };
                if !tc.inc.is_zero() {
                    t += &format!("+{}", secs(tc.inc));
                }
                t
            }
            (None, Some(mt)) => format!("*{}", secs(mt)),
            _ => "-".to_string(),
        }
    };
    let (a, b) = (one(&tcs[0]), one(&tcs[1]));
    if a == b {
        a
    } else {
        format!("{a}:{b}")
    }
}

enum Adjudged {
    Draw,
    Resign(usize),
}

/// The score adjudication after a move of `mover`, `full_moves` full moves into the
/// game; None when the game goes on.
fn adjudicate(
    adj: &Adjudication,
    scores: &[Vec<i32>; 2],
    mover: usize,
    full_moves: u32,
) -> Option<Adjudged> {
    let other = 1 - mover;
    if let Some((count, score, false)) = adj.resign {
        // cutechess-cli's rule: the engine's own word is enough, so a lost engine
        // resigns against an opponent that gives no score or is slower to see the win.
        let n = count as usize;
        let a = &scores[mover];
        if a.len() >= n && a[a.len() - n..].iter().all(|&s| s <= -score) {
            return Some(Adjudged::Resign(mover));
        }
    }
    if let Some((count, score, true)) = adj.resign {
        let n = count as usize;
        let (a, b) = (&scores[mover], &scores[other]);
        if a.len() >= n && b.len() >= n {
            if a[a.len() - n..].iter().all(|&s| s <= -score)
                && b[b.len() - n..].iter().all(|&s| s >= score)
            {
                return Some(Adjudged::Resign(mover));
            }
            if b[b.len() - n..].iter().all(|&s| s <= -score)
                && a[a.len() - n..].iter().all(|&s| s >= score)
            {
                return Some(Adjudged::Resign(other));
            }
        }
    }
    if let Some((after, count, score)) = adj.draw {
        let n = count as usize;
        if full_moves >= after
            && scores
                .iter()
                .all(|s| s.len() >= n && s[s.len() - n..].iter().all(|&x| x.abs() <= score))
        {
            return Some(Adjudged::Draw);
        }
    }
    None
}

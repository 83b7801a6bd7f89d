//! Scripted UCI and XBoard sessions: each line sent, each answer awaited.

use std::io::Write;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tenfold::protocol::{detect, queue, Dialect, Msg, Out};
use tenfold::registry;
use tenfold::Position;

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Asserts that the loop printed `line`, showing everything it printed if not.
fn saw(seen: &[String], line: &str) {
    assert!(seen.iter().any(|l| l == line), "no {line:?} in {seen:?}");
}

/// A protocol loop on a thread, fed line by line, its output read line by line.
struct Session {
    tx: Sender<Msg>,
    buf: Buf,
    seen: usize,
    thread: Option<JoinHandle<()>>,
}

impl Session {
    fn start(run: fn(std::sync::mpsc::Receiver<Msg>, Sender<Msg>, Out)) -> Session {
        let (tx, rx) = queue();
        let buf = Buf::default();
        let out = Out::new(Box::new(buf.clone()));
        let t = tx.clone();
        let thread = std::thread::spawn(move || run(rx, t, out));
        Session {
            tx,
            buf,
            seen: 0,
            thread: Some(thread),
        }
    }

    fn uci() -> Session {
        Session::start(tenfold::protocol::uci::run)
    }

    fn xboard() -> Session {
        Session::start(tenfold::protocol::xboard::run)
    }

    fn send(&self, line: &str) {
        self.tx.send(Msg::Line(line.to_string())).unwrap();
    }

    /// Sends `ping n`, waits for its `pong` and returns every line so far: what the loop
    /// answered to the lines before the ping.
    fn synced(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        self.expect(&format!("pong {n}"));
        self.lines()
    }

    fn send_all(&self, lines: &[&str]) {
        lines.iter().for_each(|l| self.send(l));
    }

    fn lines(&self) -> Vec<String> {
        let b = self.buf.0.lock().unwrap();
        String::from_utf8_lossy(&b)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Waits for the next unseen line starting with `prefix` and returns it.
    /// Sends `cmd` and waits for a line starting with `prefix`: how long the answer took.
    fn answer_time(&mut self, cmd: &str, prefix: &str) -> Duration {
        let t0 = Instant::now();
        self.send(cmd);
        self.expect(prefix);
        t0.elapsed()
    }

    fn expect(&mut self, prefix: &str) -> String {
        let t0 = Instant::now();
        loop {
            let lines = self.lines();
            if let Some(i) = (self.seen..lines.len()).find(|&i| lines[i].starts_with(prefix)) {
                self.seen = i + 1;
                return lines[i].clone();
            }
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "no line starting with {prefix:?}; output so far:\n{}",
                lines.join("\n")
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The lines after the last awaited one, once the loop has answered a sync command.
    fn unseen(&self) -> Vec<String> {
        self.lines()[self.seen..].to_vec()
    }

    fn quit(mut self, cmd: &str) {
        self.send(cmd);
        self.thread
            .take()
            .unwrap()
            .join()
            .expect("the loop must not panic");
    }
}

fn chess_start() -> Position {
    Position::startpos(&registry::get("chess").unwrap())
}

fn mini() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mini.toml");
    registry::load_file(path).unwrap();
    path.to_string()
}

#[test]
fn uci_handshake_lists_the_variant_options() {
    let mut s = Session::uci();
    s.send("uci");
    s.expect("id name Tenfold");
    let combo = s.expect("option name UCI_Variant type combo");
    assert!(combo.contains("var chess"), "{combo}");
    s.expect("option name Threads type spin");
    s.expect("option name Hash type spin");
    s.expect("option name VariantPath type string");
    s.expect("uciok");
    s.send("isready");
    s.expect("readyok");
    s.send("setoption name UCI_Variant value chess");
    let info = s.expect("info string variant chess");
    assert_eq!(
        info,
        "info string variant chess files 8 ranks 8 startpos rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    s.quit("quit");
}

#[test]
fn uci_go_depth_reports_info_then_a_legal_bestmove() {
    let mut s = Session::uci();
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 4");
    let info = s.expect("info depth 4 ");
    assert!(
        info.contains(" score cp ") && info.contains(" pv "),
        "{info}"
    );
    let best = s.expect("bestmove ");
    let mut p = chess_start();
    p.play_moves("e2e4 e7e5").unwrap();
    assert!(
        p.parse_move(best.split_whitespace().nth(1).unwrap())
            .is_ok(),
        "{best}"
    );
    s.quit("quit");
}

#[test]
fn uci_eval_prints_the_terms_of_the_current_position() {
    // Stockfish's `eval`: the static evaluation term by term; the session goes on.
    let mut s = Session::uci();
    s.send("setoption name UCI_Variant value grand");
    s.send("position startpos moves e3e4");
    s.send("eval");
    let total = s.expect("evaluation ");
    assert!(total.contains("for the side to move"), "{total}");
    let lines = s.lines();
    for term in ["tempo", "placement", "mobility"] {
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with(term)),
            "no {term} line:\n{}",
            lines.join("\n")
        );
    }
    s.send("isready");
    s.expect("readyok");
    s.quit("quit");
}

/// A `position` whose move list holds a move that cannot be played sets the position
/// before that move, as Stockfish does: the next `go` answers for the game the GUI sent
/// (it answered for the position of the command before, another game's). A position
/// that cannot be read leaves none: `go` answers `bestmove (none)` with the error.
#[test]
fn uci_illegal_move_ends_the_list_and_a_bad_fen_leaves_no_position() {
    let mut s = Session::uci();
    s.send("position startpos moves e2e4");
    s.send("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves h7g7 a7a8q");
    s.expect("info string error");
    s.send("d");
    let fen = s.expect("info string fen ");
    assert!(fen.ends_with("8/P6k/8/8/8/8/8/K7 w - - 0 1"), "{fen}");
    s.send("go depth 4");
    assert_eq!(
        s.expect("bestmove ").split_whitespace().nth(1),
        Some("a7a8q")
    );
    s.send("position startpos moves d2d4 d7d5 e1e5");
    s.expect("info string error");
    s.send("d");
    let fen = s.expect("info string fen ");
    assert!(
        fen.ends_with("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2"),
        "{fen}"
    );
    s.send("position fen 8/8/8 w - - 0 1");
    s.expect("info string error");
    s.send("go depth 2");
    s.expect("info string error go: no position to search");
    assert_eq!(s.expect("bestmove "), "bestmove (none)");
    // The next good position is searched again.
    s.send("position startpos moves e2e4");
    s.send("go depth 2");
    let best = s.expect("bestmove ");
    let mut p = chess_start();
    p.play_moves("e2e4").unwrap();
    assert!(
        p.parse_move(best.split_whitespace().nth(1).unwrap())
            .is_ok(),
        "{best}"
    );
    s.quit("quit");
}

#[test]
fn uci_survives_garbage() {
    let mut s = Session::uci();
    for junk in [
        "go depth x",
        "setoption name Threads value lots",
        "setoption name Hash value 0",
        "setoption name Nonsense value 3",
        "setoption name UCI_Variant value nosuch",
        "setoption name VariantPath value /no/such/file.toml",
        "position",
        "position fen",
        "position startpos moves",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 zz",
        "go searchmoves zz depth 1",
        "\u{0}\u{1b}[31m ü ∑ 🂡",
        "bestmove e2e4",
        "go wtime -5 btime -5",
        "go wtime 9223372036854775807 winc 9223372036854775807 movestogo 0 depth 1",
        "go depth 4294967296",
    ] {
        s.send(junk);
    }
    s.send("isready");
    s.expect("readyok");
    // The quick go commands above each printed a move; the loop still answers.
    s.send("position startpos");
    s.send("go depth 1");
    s.expect("bestmove ");
    s.quit("quit");
}

#[test]
fn uci_stop_answers_an_infinite_search_quickly() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go infinite");
    s.expect("info depth 3 ");
    std::thread::sleep(Duration::from_millis(100));
    let took = s.answer_time("stop", "bestmove ");
    assert!(took < Duration::from_millis(100), "stop took {took:?}");
    s.quit("quit");
}

#[test]
fn uci_variant_path_loads_a_table_and_plays_it() {
    let path = mini();
    let mut s = Session::uci();
    s.send(&format!("setoption name VariantPath value {path}"));
    s.expect("info string loaded variant mini");
    s.send("setoption name UCI_Variant value mini");
    let info = s.expect("info string variant mini");
    assert_eq!(info, "info string variant mini files 6 ranks 6 startpos rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1");
    s.send("position startpos moves b2b3");
    s.send("go depth 3");
    let best = s.expect("bestmove ");
    let v = registry::get("mini").unwrap();
    let mut p = Position::startpos(&v);
    p.play_moves("b2b3").unwrap();
    assert!(
        p.parse_move(best.split_whitespace().nth(1).unwrap())
            .is_ok(),
        "{best}"
    );
    s.quit("quit");
}

#[test]
fn uci_threads_and_hash_options_take_effect() {
    let mut s = Session::uci();
    s.send("setoption name Threads value 2");
    s.send("setoption name Hash value 4");
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    s.send("go depth 3");
    let info = s.expect("info depth 3 ");
    assert!(info.contains("score mate 1"), "{info}");
    assert_eq!(s.expect("bestmove "), "bestmove a1a8");
    s.quit("quit");
}

#[test]
fn xboard_handshake_announces_features() {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    let f = s.expect("feature ");
    for want in ["setboard=1", "usermove=1", "ping=1", "variants=\"normal"] {
        assert!(f.contains(want), "{want} missing from {f}");
    }
    s.expect("feature done=1");
    s.send("ping 5");
    assert_eq!(s.expect("pong"), "pong 5");
    s.quit("quit");
}

#[test]
fn xboard_plays_black_after_a_user_move() {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("new");
    s.send("sd 3");
    s.send("post");
    s.send("usermove e2e4");
    let thinking = s.expect("3 ");
    assert!(thinking.split_whitespace().count() >= 5, "{thinking}");
    let mv = s.expect("move ");
    let mut p = chess_start();
    p.play_moves("e2e4").unwrap();
    assert!(p.parse_move(&mv[5..]).is_ok(), "{mv}");
    s.quit("quit");
}

#[test]
fn xboard_illegal_move_is_refused_and_the_position_kept() {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("new");
    s.send("force");
    s.send("usermove e2e5");
    assert_eq!(s.expect("Illegal move"), "Illegal move: e2e5");
    s.send("usermove zz9");
    assert_eq!(s.expect("Illegal move"), "Illegal move: zz9");
    s.send("usermove e2e4");
    s.send("usermove e7e5");
    s.send("sd 2");
    s.send("go");
    let mv = s.expect("move ");
    let mut p = chess_start();
    p.play_moves("e2e4 e7e5").unwrap();
    assert!(p.parse_move(&mv[5..]).is_ok(), "{mv}");
    s.send("ping 9");
    s.expect("pong 9");
    // The whole transcript: `expect` has already moved past every line up to the pong.
    let seen = s.lines();
    assert!(seen.iter().all(|l| !l.starts_with("Error")), "{seen:?}");
    s.quit("quit");
}

#[test]
fn xboard_setboard_go_mates_and_announces_the_result() {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    s.send("new");
    s.send("force");
    s.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    s.send("st 1");
    s.send("sd 3");
    s.send("go");
    assert_eq!(s.expect("move "), "move a1a8");
    assert_eq!(s.expect("1-0"), "1-0 {White mates}");
    s.send("setboard not a fen");
    s.expect("tellusererror");
    s.send("result 1-0 {White mates}");
    s.send("ping 2");
    s.expect("pong 2");
    s.quit("quit");
}

/// CECP `setboard`: "If your engine receives a position that it considers illegal, I
/// suggest that you send the response "tellusererror Illegal position", and then respond
/// to any attempted move with "Illegal move" until the next new, edit, or setboard
/// command." So no move is played from the position before it, and no `Error` line says
/// "llegal" (XBoard takes such a line for a refused move).
#[test]
fn xboard_a_refused_setboard_leaves_no_position_until_the_next() {
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "force", "sd 2"]);
    s.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    let told = s.expect("tellusererror");
    assert!(
        told.starts_with("tellusererror Illegal position: "),
        "{told}"
    );
    s.send("usermove e2e4");
    assert_eq!(s.expect("Illegal move"), "Illegal move: e2e4");
    s.send("go");
    assert_eq!(s.expect("Error"), "Error (no position): go");
    let seen = s.synced(1);
    assert!(seen.iter().all(|l| !l.starts_with("move ")), "{seen:?}");
    assert!(
        seen.iter()
            .all(|l| !(l.starts_with("Error") && l.contains("llegal"))),
        "{seen:?}"
    );
    // A good setboard ends it.
    let before = s.lines().len();
    s.send("force");
    s.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    s.send("usermove e2e4");
    s.send("ping 2");
    s.expect("pong 2");
    let after = &s.lines()[before..];
    assert!(
        after.iter().all(|l| !l.starts_with("Illegal"))
            && after.contains(&"# FEN 4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1".to_string()),
        "{after:?}"
    );
    // So does new.
    s.send("setboard garbage");
    s.expect("tellusererror Illegal position");
    s.send("new");
    s.send("usermove e2e4");
    s.expect("move ");
    s.quit("quit");
}

#[test]
fn xboard_describes_a_game_it_does_not_know_with_setup_and_piece_lines() {
    mini();
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    s.send("variant mini");
    let setup = s.expect("setup ");
    assert!(setup.starts_with("setup (PN.RQ"), "{setup}");
    assert!(
        setup.ends_with(") 6x6+0_fairy rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"),
        "{setup}"
    );
    // En passant is on by default, so the pawn's capture says it may take that way.
    assert_eq!(s.expect("piece P&"), "piece P& fmWfceF");
    assert_eq!(s.expect("piece N&"), "piece N& N");
    s.expect("piece K&");
    s.send("usermove b2b3");
    s.send("sd 2");
    s.send("go");
    s.expect("move ");
    s.send("variant nosuch");
    s.expect("Error (unknown variant)");
    s.quit("quit");
}

#[test]
fn xboard_time_controls_are_accepted_and_a_move_comes_in_time() {
    let mut s = Session::xboard();
    s.send_all(&[
        "xboard",
        "protover 2",
        "new",
        "level 0 0:01 0.01",
        "time 100",
        "otim 100",
        "usermove d2d4",
    ]);
    let t0 = Instant::now();
    s.expect("move ");
    assert!(
        t0.elapsed() < Duration::from_millis(600),
        "took {:?}",
        t0.elapsed()
    );
    s.send("level 40 x 0");
    s.expect("Error (bad level)");
    s.quit("quit");
}

/// CECP `nps`: "the engine should not use wall-clock time … but … the number of nodes
/// it has searched". With `st 1` a move is worth exactly that many nodes, which is how
/// the arena gives XBoard engines a node limit.
#[test]
fn xboard_nps_turns_the_time_per_move_into_nodes() {
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "post", "nps 3000", "st 1"]);
    let f = s.expect("feature ");
    assert!(f.contains("nps=1"), "{f}");
    s.send("usermove e2e4");
    let t0 = Instant::now();
    let mv = s.expect("move ");
    // A one-second budget at wall time would think for about a second.
    assert!(
        t0.elapsed() < Duration::from_millis(900),
        "{:?}",
        t0.elapsed()
    );
    let mut nodes = Vec::new();
    for l in s.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() >= 5 && f[0].parse::<u32>().is_ok() {
            nodes.push(f[3].parse::<u64>().unwrap());
        }
    }
    assert!(!nodes.is_empty(), "no thinking output before {mv}");
    assert!(nodes.iter().all(|&n| n <= 3000), "{nodes:?}");
    s.send("nps x");
    s.expect("Error (bad nps)");
    s.quit("quit");
}

/// CECP `nps`: "The effect of an "nps" command should persist until the next "new"
/// command", and `new` says "Use wall clock for time measurement": after `nps 1000` and
/// `new`, `st 1` is a second of thinking, not 1,000 nodes.
#[test]
fn xboard_new_ends_the_node_clock_of_nps() {
    let mut s = Session::xboard();
    s.send_all(&[
        "xboard",
        "protover 2",
        "new",
        "nps 1000",
        "new",
        "post",
        "st 1",
        "go",
    ]);
    s.expect("move ");
    let nodes = s
        .lines()
        .iter()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 5 && f[0].parse::<u32>().is_ok()).then(|| f[3].parse::<u64>().unwrap())
        })
        .max();
    // A second of wall time searches far more than the 1,000 nodes nps would allow.
    assert!(nodes.is_some_and(|n| n > 5_000), "{:?}", s.lines());
    s.quit("quit");
}

/// CECP `ping`: "if you [see a ping when it is your move], you must not send the "pong"
/// reply to xboard until after you send your move. For example, xboard may send "?"
/// immediately followed by "ping". If you implement the "?" command, you will have moved
/// by the time you see the subsequent ping command." And: "if you receive a ping while
/// pondering, you should reply immediately" (an analysis likewise).
#[test]
fn xboard_pong_comes_after_the_move_being_thought_of() {
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "st 5", "go"]);
    std::thread::sleep(Duration::from_millis(300));
    s.send("?");
    let waited = s.answer_time("ping 7", "pong 7");
    assert!(waited < Duration::from_secs(3), "? moves now: {waited:?}");
    let order = |lines: &[String], pong: &str| {
        let mv = lines.iter().position(|l| l.starts_with("move "));
        let pong = lines.iter().position(|l| l == pong);
        assert!(mv.is_some() && mv < pong, "{lines:?}");
    };
    order(&s.lines(), "pong 7");
    // A bare ping while the engine thinks on its move waits for the move too.
    let before = s.lines().len();
    s.send_all(&["new", "st 0.3", "usermove e2e4", "ping 3"]);
    s.expect("pong 3");
    order(&s.lines()[before..], "pong 3");
    // An analysis never moves: its ping is answered while it runs.
    s.send_all(&["new", "analyze"]);
    let waited = s.answer_time("ping 4", "pong 4");
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    s.send("exit");
    s.quit("quit");
}

/// CECP MOVE: an illegal move is answered `Illegal move` and changes nothing. Sent while
/// the engine thinks on its own move, it dropped that search, and no move came until `?`.
#[test]
fn xboard_an_illegal_move_during_the_engines_search_leaves_the_search_running() {
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "st 0.5", "go"]);
    std::thread::sleep(Duration::from_millis(100));
    s.send("usermove e7e5");
    s.expect("Illegal move: e7e5");
    let mv = s.expect("move ");
    assert!(chess_start().parse_move(&mv[5..]).is_ok(), "{mv}");
    s.quit("quit");
}

/// CECP `nopost`: "Turn off thinking/pondering output", and `post` on; sent during a
/// search they took effect only from the next one (XBoard's Show Thinking lagged).
#[test]
fn xboard_post_and_nopost_take_effect_during_the_search() {
    let thinking = |lines: &[String]| {
        lines
            .iter()
            .filter(|l| {
                l.split_whitespace()
                    .next()
                    .is_some_and(|w| w.parse::<u32>().is_ok())
            })
            .count()
    };
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "nopost", "st 1", "go"]);
    std::thread::sleep(Duration::from_millis(300));
    s.send("post");
    s.expect("move ");
    assert!(thinking(&s.lines()) > 0, "{:?}", s.lines());
    s.send_all(&["new", "post", "st 1", "go"]);
    std::thread::sleep(Duration::from_millis(300));
    s.send("nopost");
    // A line already on its way when `nopost` is read may still arrive.
    std::thread::sleep(Duration::from_millis(200));
    let at_nopost = s.lines().len();
    s.expect("move ");
    assert_eq!(thinking(&s.lines()[at_nopost..]), 0, "{:?}", s.lines());
    s.quit("quit");
}

#[test]
fn xboard_survives_garbage() {
    let mut s = Session::xboard();
    for junk in [
        "",
        "protover",
        "level",
        "st -1",
        "sd zero",
        "time lots",
        "undo",
        "remove",
        "memory 0",
        "cores x",
        "level 0 99999999999999999:99999999999999 0",
        "time 9223372036854775807",
        "st 1e308",
        "\u{7f}\u{1b}",
    ] {
        s.send(junk);
    }
    s.send("ping 3");
    s.expect("pong 3");
    s.quit("quit");
}

#[test]
fn the_first_command_picks_the_protocol() {
    assert_eq!(detect("uci"), Dialect::Uci);
    assert_eq!(detect("xboard"), Dialect::XBoard);
    assert_eq!(detect("protover 2"), Dialect::XBoard);
}

#[test]
fn end_of_input_stops_the_search_and_still_answers_bestmove() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 60");
    let t0 = Instant::now();
    s.tx.send(Msg::Eof).unwrap();
    s.expect("bestmove ");
    s.thread.take().unwrap().join().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
}

/// Bad input never hangs: a `go` whose every limit is refused would otherwise search
/// until a `stop` that a script sending it may never send; it names the faults and
/// answers after the shallowest search. A clock given for the other side only is a game
/// on the clock with none left for the mover (Stockfish too moves at once).
#[test]
fn a_go_with_no_valid_limit_still_answers() {
    let mut s = Session::uci();
    s.send("position startpos moves e2e4");
    for go in [
        "go depth x",
        "go depth 99999999999",
        "go dpeth 5",
        "go wtime 60000",
    ] {
        let t0 = Instant::now();
        s.send(go);
        let best = s.expect("bestmove ");
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "{go}: {:?}",
            t0.elapsed()
        );
        assert!(
            best.starts_with("bestmove e7") || best.contains(' '),
            "{go}: {best}"
        );
    }
    let errors = s
        .lines()
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert!(errors >= 3, "{:?}", s.lines());
    s.quit("quit");
}

/// A script that pipes its commands and a last `quit` is still answered: every line sent
/// before `quit` runs (Stockfish's reader reaches `quit` only after them), and since
/// nobody waits after `quit`, the running search and each later one stop at once.
#[test]
fn quit_behind_waiting_lines_still_answers_them() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 60");
    s.send("position startpos moves e2e4");
    s.send("go perft 1");
    s.send("isready");
    let t0 = Instant::now();
    s.send("quit");
    s.thread.take().unwrap().join().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    s.expect("bestmove ");
    // The perft runs from the position after 1. e4: twenty black moves.
    s.expect("Nodes searched: 20");
    s.expect("readyok");
}

/// Stockfish's loop waits for a search before the next `position` and `go` (its `go`
/// waits for the last search to finish): a driver that sends them without waiting for
/// `bestmove` gets every search it asked for, not one cut off after a node.
#[test]
fn a_position_and_go_sent_during_a_depth_search_wait_for_its_bestmove() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 7");
    s.send("position startpos moves e2e4");
    s.send("go depth 3");
    s.send("isready");
    let first = s.expect("bestmove ");
    let lines = s.lines();
    let at = lines.iter().position(|l| *l == first).unwrap();
    assert!(
        lines[..at].iter().any(|l| l.starts_with("info depth 7 ")),
        "the first search was cut short:\n{}",
        lines[..=at].join("\n")
    );
    // The second search answers from the position after 1. e4: a black move.
    let second = s.expect("bestmove ");
    let mv = second.split_whitespace().nth(1).unwrap();
    assert!(
        ["8", "7", "6", "5"].iter().any(|r| mv[1..2] == **r),
        "{second}"
    );
    // `readyok` waited behind the `go` sent before it: it came after the first search's
    // `bestmove` (as Stockfish's reader, blocked in that `go`, would read it).
    // It may come just before or after the second search's `bestmove`.
    let t0 = Instant::now();
    let ready = loop {
        if let Some(r) = s.lines().iter().position(|l| l == "readyok") {
            break r;
        }
        assert!(t0.elapsed() < Duration::from_secs(20), "no readyok");
        std::thread::sleep(Duration::from_millis(2));
    };
    assert!(ready > at, "{}", s.lines().join("\n"));
    s.quit("quit");
}

/// A `stop` behind a waiting `position` (no `go` waits) still ends the running search:
/// a deep `go depth` would otherwise hold the session until it finished by itself.
#[test]
fn a_stop_behind_a_waiting_position_ends_the_running_search() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 60");
    s.expect("info depth 3 ");
    s.send("position startpos moves e2e4");
    let took = s.answer_time("stop", "bestmove ");
    assert!(took < Duration::from_secs(2), "stop took {took:?}");
    // The waiting position was then taken: the next search answers for Black.
    s.send("go depth 2");
    let b = s.expect("bestmove ");
    let mv = b.split_whitespace().nth(1).unwrap();
    assert!(["8", "7", "6", "5"].iter().any(|r| mv[1..2] == **r), "{b}");
    s.quit("quit");
}

/// A `stop` behind a waiting `go` ends both the running search and the one that `go`
/// starts: nothing is left searching, and each answers.
#[test]
fn a_stop_behind_a_waiting_go_ends_both_searches() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 60");
    s.expect("info depth 3 ");
    s.send("position startpos moves e2e4");
    s.send("go depth 60");
    let t0 = Instant::now();
    s.send("stop");
    s.expect("bestmove ");
    s.expect("bestmove ");
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    s.send("isready");
    s.expect("readyok");
    s.quit("quit");
}

/// A `ponderhit` sent behind a waiting `go ponder` is meant for that ponder search, not
/// for the search still running: it waits its turn too (python-chess sends the next
/// position, `go ponder` and `ponderhit` as soon as it reads a `bestmove`, which the
/// search prints just before it ends).
#[test]
fn a_ponderhit_behind_a_waiting_go_ponder_reaches_the_ponder_search() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 6");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 2000 btime 2000");
    s.send("ponderhit");
    s.expect("bestmove ");
    // Without the ponderhit the ponder search would run until `stop`.
    let t0 = Instant::now();
    s.expect("bestmove ");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert!(
        !s.lines().iter().any(|l| l.contains("ponderhit without")),
        "{}",
        s.lines().join("\n")
    );
    s.quit("quit");
}

/// A referee tells the games an engine plays by its `UCI_Variant` list (cutechess-cli,
/// `tenfold match`): a game loaded from a file (`--variant-file`) is on it.
#[test]
fn the_uci_variant_option_lists_the_games_loaded_from_files() {
    mini();
    let mut s = Session::uci();
    s.send("uci");
    let l = s.expect("option name UCI_Variant ");
    let w: Vec<&str> = l.split_whitespace().collect();
    assert!(w.windows(2).any(|p| p == ["var", "mini"]), "{l}");
    assert!(w.windows(2).any(|p| p == ["var", "grand"]), "{l}");
    s.quit("quit");
}

/// The same for XBoard's `variants` feature.
#[test]
fn the_xboard_variants_feature_lists_the_games_loaded_from_files() {
    mini();
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    let l = s.expect("feature ping");
    let list = l
        .split("variants=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert!(list.split(',').any(|v| v == "mini"), "{l}");
    assert!(list.split(',').any(|v| v == "grand"), "{l}");
    s.quit("quit");
}

/// A search that never ends by itself (`go infinite`) is stopped by the next `position`
/// (waiting for it would hang the session), as before.
#[test]
fn a_position_sent_during_go_infinite_stops_it() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    s.send("position startpos moves e2e4");
    s.expect("bestmove ");
    s.send("go depth 2");
    let b = s.expect("bestmove ");
    assert!(b.starts_with("bestmove ") && !b.contains("(none)"), "{b}");
    s.quit("quit");
}

#[test]
fn a_go_depth_past_32_bits_is_an_error_not_depth_one() {
    let mut s = Session::uci();
    s.send("go depth 4294967296");
    s.expect("info string error go depth 4294967296 is out of range");
    s.send("stop");
    s.expect("bestmove ");
    s.quit("quit");
}

#[test]
fn uci_stop_in_a_crowded_position_is_answered_within_50_ms() {
    let mut s = Session::uci();
    s.send("setoption name UCI_Variant value combined-arms");
    s.send("position fen PQ3R1p/1qp1Q2B/2b2RpB/1Qk1p3/2qB1N1q/2pqqrr1/5Br1/7K b - - 37 64");
    // The best of three: one stop may wait for a core the machine gives elsewhere.
    let mut times = Vec::new();
    for _ in 0..3 {
        s.send("isready");
        s.expect("readyok");
        s.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        times.push(s.answer_time("stop", "bestmove "));
    }
    let best = times.iter().min().unwrap();
    assert!(*best < Duration::from_millis(50), "stops took {times:?}");
    assert!(
        times.iter().all(|t| *t < Duration::from_millis(250)),
        "{times:?}"
    );
    s.quit("quit");
}

/// `go perft N` as Stockfish answers it: the start position's 20 moves with their counts
/// at depth 3 (e2e4: 600; 8,902 in all, the published perft), then the loop goes on.
#[test]
fn uci_go_perft_divides_like_stockfish() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go perft 3");
    assert_eq!(s.expect("e2e4: "), "e2e4: 600");
    assert_eq!(s.expect("Nodes searched: "), "Nodes searched: 8902");
    s.send("setoption name UCI_Variant value grand");
    s.send("position startpos moves e3e4");
    s.send("go perft 2");
    // Fairy-Stockfish's count for the same position.
    assert_eq!(s.expect("Nodes searched: "), "Nodes searched: 4612");
    s.send("go perft x");
    s.expect("info string error go perft needs a depth");
    s.send("isready");
    s.expect("readyok");
    s.quit("quit");
}

/// A `go perft` deeper than perft counts (64 plies) is answered with an error and the
/// loop goes on: depth 1000 overflowed the stack and aborted the engine process.
#[test]
fn uci_go_perft_above_64_is_an_error_and_the_session_goes_on() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go perft 1000");
    s.expect("info string error perft depth 1000 is above the maximum of 64");
    s.send("go perft 1");
    assert_eq!(s.expect("Nodes searched: "), "Nodes searched: 20");
    s.quit("quit");
}

/// UCI: "searchmoves <move1> .... <movei>: restrict search to this moves only". A word in
/// the list that is no legal move is named as such, and the legal ones still hold.
#[test]
fn uci_searchmoves_names_a_move_it_cannot_play() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go depth 3 searchmoves a2a3 a1a1 depth 2");
    let e = s.expect("info string error searchmoves: ");
    assert!(e.contains("a1a1"), "{e}");
    s.expect("bestmove a2a3");
    s.quit("quit");
}

#[test]
fn uci_threads_past_the_machine_are_refused() {
    let mut s = Session::uci();
    s.send("setoption name Threads value 10000");
    s.expect("info string error Threads: 10000 threads is more than this machine runs");
    // None at all is refused too, and said so.
    s.send("setoption name Threads value 0");
    s.expect("info string error Threads: 0 threads is too few: at least 1 searches");
    s.quit("quit");
}

#[test]
fn a_line_of_bytes_that_are_not_utf8_is_read_as_a_bad_line_not_the_end() {
    let mut input: &[u8] = b"uci\n\xff\r\nisready\n";
    let lines: Vec<String> =
        std::iter::from_fn(|| tenfold::protocol::read_line_lossy(&mut input)).collect();
    assert_eq!(lines, ["uci", "\u{fffd}", "isready"]);
}

/// CECP counts ranks from 0 on boards with exactly 10 ranks: Grand's `c3c5` is `c2c4`
/// both ways, and the engine's own move comes back in that numbering.
#[test]
fn xboard_ranks_start_at_zero_on_ten_rank_boards() {
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "variant grand", "sd 2"]);
    s.send("usermove c2c4");
    let mv = s.expect("move ");
    let grand = registry::get("grand").unwrap();
    let mut p = Position::startpos(&grand);
    p.play_moves("c3c5").unwrap();
    let ours = tenfold::protocol::cecp_move::from_cecp(&p, &mv[5..]);
    assert!(ours.is_ok(), "{mv} is not a 0-based legal reply");
    // The c-pawn stands on Tenfold's c5, CECP's c4: its next step is `c4c5` on the wire.
    s.send("force");
    s.send("usermove c4c5");
    let seen = s.synced(1);
    assert!(seen.iter().all(|l| !l.starts_with("Illegal")), "{seen:?}");
    s.quit("quit");
}

/// A kill on a square the mover does not end on travels as legs: `c1e3,e3c1` shoots e3.
#[test]
fn xboard_multi_leg_moves_are_read_and_written() {
    let ca = registry::get("combined-arms").unwrap();
    let mut p = Position::startpos(&ca);
    let mut list = tenfold::core::moves::MoveList::new();
    // Find a position with a kill move by playing first moves until one appears.
    let mut played = Vec::new();
    let kill = loop {
        p.legal_moves(&mut list);
        if let Some(&k) = list.iter().find(|m| m.kill_count() > 0) {
            break k;
        }
        let m = list.as_slice()[played.len() % list.len()];
        played.push(p.move_to_string(m));
        p.make_move(m);
        assert!(played.len() < 40, "no kill move found");
    };
    let legs = tenfold::protocol::cecp_move::to_cecp(&p, kill);
    assert!(legs.contains(','), "{legs}");
    let mut s = Session::xboard();
    s.send_all(&[
        "xboard",
        "protover 2",
        "new",
        "variant combined-arms",
        "force",
    ]);
    for m in &played {
        s.send(&format!("usermove {m}"));
    }
    s.send(&format!("usermove {legs}"));
    s.send("ping 2");
    s.expect("pong 2");
    assert!(
        s.lines().iter().all(|l| !l.starts_with("Illegal")),
        "{legs}: {:?}",
        s.lines()
    );
    s.quit("quit");
}

/// Analyze mode: thinking output without a move, `.` answered with `stat01`, `exit`
/// leaves it; an unknown command gets the spec's `Error (unknown command): X`.
#[test]
fn xboard_analyzes_and_names_unknown_commands() {
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2"]);
    assert!(s.expect("feature ").contains("analyze=1"));
    s.send("new");
    s.send("post");
    s.send("analyze");
    s.expect("1 ");
    s.send(".");
    s.expect("stat01: ");
    s.send("usermove e2e4");
    s.expect("1 ");
    // A new game (here a new variant) is analysed as well: its depth-1 line starts
    // with a White move, where the chess game after 1. e4 had Black to move.
    s.send("variant grand");
    let line = s.expect("1 ");
    let first = line.split_whitespace().nth(4).unwrap_or_default();
    assert!(
        matches!(first.as_bytes().get(1), Some(b'0'..=b'3')),
        "{line}"
    );
    s.send("exit");
    s.send("frobnicate now");
    assert_eq!(s.expect("Error"), "Error (unknown command): frobnicate now");
    s.send("ping 4");
    s.expect("pong 4");
    assert!(
        s.lines().iter().all(|l| !l.starts_with("move ")),
        "analysis never moves"
    );
    s.quit("quit");
}

/// Pieces get XBoard's glyph for how they move, not for their letter: Shako's cannon
/// (`C`, mRcpR) is drawn as XBoard's cannon (slot O), not its Chancellor.
#[test]
fn xboard_glyphs_follow_movement() {
    let shako = registry::get("shako").unwrap();
    let setup = &tenfold::protocol::xboard::setup_lines(&shako)[0];
    let table = setup.split(['(', ')']).nth(1).unwrap();
    let slot_of = |c: char| {
        "PNBRQFEACWMOHIJGDVLSUK"
            .chars()
            .nth(table.find(c).unwrap())
            .unwrap()
    };
    assert_eq!(slot_of('C'), 'O', "{setup}");
    assert_eq!(slot_of('E'), 'E', "{setup}");
    let archmage = registry::get("archmage").unwrap();
    let setup = &tenfold::protocol::xboard::setup_lines(&archmage)[0];
    // Holdings for D and H; built on XBoard's castling-free parent, where a move onto a
    // friend swaps the two (ArchMage's switches).
    assert!(
        setup.contains("10x10+3_nocastle"),
        "holdings for D and H, parent nocastle: {setup}"
    );
}

/// XBoard 4.9 moves whatever stands in its Lance slot (`L`, the 19th) as a pawn: it
/// removes a piece "en passant" after a diagonal step to an empty square and appends a
/// queen to a move onto the last rank. ArchMage's Buffalo stood there, and its knight
/// leap `j1h0` reached the other engine as `j1h0q`. No game may put a non-pawn there.
#[test]
fn xboard_puts_no_piece_but_a_pawn_in_the_slot_it_moves_as_a_pawn() {
    let lance = "PNBRQFEACWMOHIJGDVLSUK".find('L').unwrap();
    for name in registry::names() {
        let v = registry::get(name).unwrap();
        let setup = &tenfold::protocol::xboard::setup_lines(&v)[0];
        let table = setup.split(['(', ')']).nth(1).unwrap();
        let held = table.chars().nth(lance).unwrap();
        let pawn = v
            .type_of_letter(held)
            .is_some_and(|t| v.pieces[t as usize].pawn);
        assert!(
            held == '.' || pawn,
            "{name}: {held} in the Lance slot: {setup}"
        );
    }
}
/// The info lines (`multipv 1` only unless `all`) of one search, up to its `bestmove`,
/// as (depth, multipv, score, first pv move, whole line).
fn info_lines(lines: &[String]) -> Vec<(u32, u32, i32, String, String)> {
    let field = |l: &str, k: &str| -> Option<String> {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == k)?;
        w.get(i + 1).map(|s| s.to_string())
    };
    lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|l| {
            (
                field(l, "depth").unwrap().parse().unwrap(),
                field(l, "multipv").unwrap().parse().unwrap(),
                field(l, "cp").map_or(0, |s| s.parse().unwrap()),
                field(l, "pv").unwrap(),
                l.clone(),
            )
        })
        .collect()
}

#[test]
fn uci_multipv_reports_distinct_lines_best_first() {
    let mut s = Session::uci();
    s.send("uci");
    s.expect("option name MultiPV type spin default 1 min 1 max ");
    s.send("setoption name MultiPV value 0");
    s.expect("info string error MultiPV wants");
    s.send("setoption name MultiPV value three");
    s.expect("info string error MultiPV wants");
    s.send("setoption name MultiPV value 3");
    s.send("position startpos moves e2e4 d7d5");
    s.send("go depth 5");
    let best = s.expect("bestmove ");
    let lines = info_lines(&s.lines());
    for d in 1..=5 {
        let at: Vec<_> = lines.iter().filter(|l| l.0 == d).take(3).collect();
        assert_eq!(
            at.iter().map(|l| l.1).collect::<Vec<_>>(),
            [1, 2, 3],
            "{lines:?}"
        );
        let firsts: std::collections::HashSet<_> = at.iter().map(|l| &l.3).collect();
        assert_eq!(firsts.len(), 3, "depth {d}: {at:?}");
        assert!(at[0].2 >= at[1].2 && at[1].2 >= at[2].2, "{at:?}");
        for l in &at {
            assert!(l.4.contains(" seldepth ") && l.4.contains(" hashfull "));
        }
    }
    let line1 = lines.iter().rfind(|l| l.0 == 5 && l.1 == 1).unwrap();
    assert_eq!(best.split_whitespace().nth(1).unwrap(), line1.3, "{best}");
    s.quit("quit");
}

#[test]
fn uci_every_depth_is_reported_with_two_threads() {
    for _ in 0..3 {
        let mut s = Session::uci();
        s.send("setoption name Threads value 2");
        s.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
        s.send("go depth 10");
        s.expect("bestmove ");
        let depths: Vec<u32> = info_lines(&s.lines())
            .iter()
            .filter(|l| l.1 == 1)
            .map(|l| l.0)
            .collect();
        let mut seen = depths.clone();
        seen.dedup();
        // Every depth in order; the final line repeats the last.
        assert_eq!(seen, (1..=10).collect::<Vec<_>>(), "{depths:?}");
        s.quit("quit");
    }
    // With several lines too: the main thread searches every depth itself.
    let mut s = Session::uci();
    s.send("setoption name Threads value 2");
    s.send("setoption name MultiPV value 2");
    s.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    s.send("go depth 9");
    s.expect("bestmove ");
    let lines = info_lines(&s.lines());
    for d in 1..=9 {
        let at: Vec<u32> = lines.iter().filter(|l| l.0 == d).map(|l| l.1).collect();
        assert!(at.starts_with(&[1, 2]), "depth {d}: {lines:?}");
    }
    s.quit("quit");
}

#[test]
fn uci_a_search_ends_with_its_final_counts_even_when_stopped_mid_iteration() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go infinite");
    s.expect("info depth 4 ");
    std::thread::sleep(Duration::from_millis(150));
    s.send("stop");
    s.expect("bestmove ");
    let lines = s.lines();
    let n = lines.len();
    let last = &lines[n - 2];
    let nodes = |l: &str| -> u64 {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "nodes").unwrap();
        w[i + 1].parse().unwrap()
    };
    let deepest = lines[..n - 2]
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.starts_with("info depth "), "{last}");
    // Stopped inside an iteration: the last line counts the nodes since the last depth.
    assert!(nodes(last) > nodes(deepest), "{deepest}\n{last}");
    // Not even depth 1: the counts alone.
    s.send("go nodes 1");
    s.expect("info nodes 1 nps ");
    s.expect("bestmove ");
    s.quit("quit");
}

#[test]
fn uci_bestmove_names_the_reply_to_ponder_on() {
    let mut s = Session::uci();
    s.send("uci");
    s.expect("option name Ponder type check");
    s.send("position startpos moves e2e4");
    s.send("go depth 6");
    let best = s.expect("bestmove ");
    let w: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(w.len(), 4, "{best}");
    assert_eq!(w[2], "ponder");
    let mut p = chess_start();
    p.play_moves(&format!("e2e4 {} {}", w[1], w[3])).unwrap();
    s.quit("quit");
}

#[test]
fn uci_go_ponder_ignores_the_clock_until_ponderhit() {
    let mut s = Session::uci();
    s.send("position startpos moves e2e4 e7e5");
    // 100 ms on the clock would end a normal search within 25 ms.
    s.send("go ponder wtime 100 btime 100");
    s.expect("info depth 3 ");
    std::thread::sleep(Duration::from_millis(400));
    s.send("isready");
    s.expect("readyok");
    assert!(
        !s.lines().iter().any(|l| l.starts_with("bestmove")),
        "a ponder search answered before ponderhit"
    );
    // From the ponderhit on, the 100 ms clock's plan holds (a few ms; the bound leaves
    // room for a loaded machine, a search still pondering would never answer).
    let took = s.answer_time("ponderhit", "bestmove ");
    assert!(took < Duration::from_millis(500), "{took:?}");
    // A ponderhit with nothing pondering is an error, not a crash.
    s.send("ponderhit");
    s.expect("info string error ponderhit");
    // `stop` ends pondering with a move too, even when the search is finished.
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    s.send("go ponder depth 3");
    s.expect("info depth 3 ");
    std::thread::sleep(Duration::from_millis(100));
    s.send("isready");
    s.expect("readyok");
    assert!(!s.unseen().iter().any(|l| l.starts_with("bestmove")));
    s.send("stop");
    assert_eq!(s.expect("bestmove "), "bestmove a1a8");
    s.quit("quit");
}

#[test]
fn uci_limit_strength_options_round_trip_and_refuse_bad_values() {
    let mut s = Session::uci();
    s.send("uci");
    s.expect("option name UCI_LimitStrength type check default false");
    s.expect("option name UCI_Elo type spin default 1675 min 500 max 2850");
    s.expect("uciok");
    for bad in [
        "setoption name UCI_Elo value 100",
        "setoption name UCI_Elo value 99999999999",
        "setoption name UCI_Elo value strong",
        "setoption name UCI_LimitStrength value maybe",
    ] {
        s.send(bad);
        s.expect("info string error UCI_");
    }
    s.send("setoption name UCI_Elo value 500");
    s.send("setoption name UCI_LimitStrength value true");
    s.expect("info string playing at about Elo 500");
    // Weakened, a search is capped in nodes whatever its depth, once depth 1 (the four
    // lines the weakened pick chooses among) is done: with a cap of 100 nodes depth 1
    // never ended, and the move was always the first legal one.
    s.send("position startpos");
    s.send("go depth 20");
    s.expect("bestmove ");
    let infos: Vec<String> = s
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 1 ")),
        "{infos:?}"
    );
    let last = infos.last().unwrap();
    let w: Vec<&str> = last.split_whitespace().collect();
    let field = |k: &str| -> u64 {
        w[w.iter().position(|x| *x == k).unwrap() + 1]
            .parse()
            .unwrap()
    };
    assert!(field("nodes") <= 200, "{last}");
    // Stopped as depth 2 began, the last line still has depth 1's selective depth (it
    // said `seldepth 0`).
    assert!(field("seldepth") >= field("depth"), "{last}");
    s.send("setoption name UCI_LimitStrength value false");
    s.send("go depth 6");
    s.expect("info depth 6 ");
    s.expect("bestmove ");
    s.quit("quit");
}

/// Combined Arms R-rules: the armor (N) moves by a three-step path, the queen by flight,
/// B and R shoot. Every `piece` line carries moves in XBoard's Betza dialect (none is
/// empty, B and R include their shots as a capture leg and the leg back), and the
/// setup ends with the line naming what XBoard's own check cannot follow.
#[test]
fn xboard_piece_lines_describe_paths_shots_and_flights() {
    let ca = registry::get("combined-arms").unwrap();
    let lines = tenfold::protocol::xboard::setup_lines(&ca);
    let desc = |letter: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(&format!("piece {letter}& ")))
            .unwrap_or_else(|| panic!("no piece line for {letter}: {lines:?}"))
            .to_string()
    };
    assert_eq!(
        desc("N"),
        "mcaffbbssmcaffbbssW",
        "three W steps, killing on the way"
    );
    assert!(!desc("Q").is_empty(), "{lines:?}");
    assert!(
        desc("B").starts_with("mB") && desc("B").contains("cFabbF"),
        "{}",
        desc("B")
    );
    assert!(
        desc("R").starts_with("mR") && desc("R").contains("cHabbH"),
        "{}",
        desc("R")
    );
    let unchecked = lines.last().unwrap();
    assert!(
        unchecked.starts_with(tenfold::protocol::xboard::UNCHECKED_PREFIX)
            && unchecked.contains("flight"),
        "{unchecked}"
    );
    // Games whose every mechanism XBoard's generator has: no such line.
    let shako = registry::get("shako").unwrap();
    assert!(tenfold::protocol::xboard::unchecked_mechanisms(&shako).is_empty());
}

/// XBoard reads direction letters on K and Q on an eight-point compass (moves.c: `fK` is
/// the one step forward), Tenfold and Fairy-Stockfish give them to each part (`fK` is
/// three moves forward). A table's `fK` reaches XBoard as `fWfF`, which both read alike,
/// so XBoard's move check allows the same moves as Tenfold.
#[test]
fn xboard_gets_directions_on_k_written_per_part() {
    let v = registry::load_text(
        "name = \"braveguard\"\nextends = \"chess\"\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBGR w KQkq - 0 1\"\n\
         [[piece]]\nletter = \"G\"\nname = \"Brave Guard\"\nbetza = \"fK\"\n",
        "braveguard.toml",
    )
    .unwrap();
    let t = v.type_of_letter('G').unwrap() as usize;
    assert_eq!(v.pieces[t].betza, "fK", "the table's own text is kept");
    assert_eq!(tenfold::protocol::xboard::piece_description(&v, t), "fWfF");
}

/// A free Knight Rider (taxonomy T4: `free` may leap a piece on a step's end) leaps to
/// (2,4) and (3,6) too, which no Betza letter names: XBoard's piece line keeps the N it
/// can read, with no `?` markers, and the setup says XBoard cannot check the game.
#[test]
fn xboard_piece_lines_leave_out_what_betza_cannot_write() {
    use tenfold::protocol::xboard::{piece_description, setup_lines, UNCHECKED_PREFIX};
    let v = registry::load_text(
        "name = \"freen\"\nextends = \"chess\"\nstart = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBZR w KQkq - 0 1\"\n\
         [[piece]]\nletter = \"Z\"\nname = \"Free Nightrider\"\ntaxonomy = \"free Knight Rider\"\n",
        "freen.toml",
    )
    .unwrap();
    let t = v.type_of_letter('Z').unwrap() as usize;
    assert_eq!(piece_description(&v, t), "N");
    let lines = setup_lines(&v);
    assert!(lines.iter().all(|l| !l.contains('?')), "{lines:?}");
    let unchecked = lines
        .iter()
        .find(|l| l.starts_with(UNCHECKED_PREFIX))
        .unwrap();
    assert!(unchecked.contains("Betza cannot write"), "{unchecked}");
}

/// XBoard moves a described piece by its Betza alone (moves.c), so the rules Tenfold keeps
/// apart from the pieces go into the `piece` lines: a pawn of a game with en passant takes
/// it through an `e` capture (XBoard's own pawn is `fmWfceFifmnD`), and a king whose
/// castling XBoard's built-in rule does not make castles by an `O` atom (Shako: king f2 to
/// h2 or d2 with the rook one file in from the edge). Without them XBoard forfeited
/// Tenfold for Embassy's `d4c3` and Shako's `f8h8`. Checked live: scripts/xboard_rules_check.sh.
#[test]
fn xboard_piece_lines_carry_en_passant_and_castling() {
    use tenfold::protocol::xboard::{piece_description, unchecked_mechanisms};
    let desc = |game: &str, letter: char| {
        let v = registry::get(game).unwrap();
        let t = v.type_of_letter(letter).unwrap() as usize;
        piece_description(&v, t)
    };
    assert_eq!(desc("embassy", 'P'), "fmWfceFifmnD");
    // Embassy's king castles as XBoard's own rule does (e1 to h1 or b1, rooks in the corners).
    assert_eq!(desc("embassy", 'K'), "K");
    assert_eq!(desc("shako", 'K'), "KisjO2");
    assert_eq!(desc("shako", 'P'), "fmWfceFifmnD");
    // Without en passant a pawn's captures stay as written.
    let v = registry::load_text(
        "name = \"embassy-no-ep\"\nextends = \"embassy\"\nen_passant = false\n",
        "test",
    )
    .unwrap();
    let t = v.type_of_letter('P').unwrap() as usize;
    assert_eq!(piece_description(&v, t), "fmWfcFifmnD");
    for game in ["embassy", "shako"] {
        assert!(unchecked_mechanisms(&registry::get(game).unwrap()).is_empty());
    }
}

/// Combined Arms: the armor on b1 walks b2, b3 (killing the pawns there) and takes on
/// b4 — Tenfold's `b1b4xb2xb3`. XBoard reads three legs only in its long form
/// (`b1b2xb3xb4`; its comma reader takes a three-leg move to end on the first leg's
/// square), so the engine writes that; XBoard relays it with commas, which are read.
#[test]
fn xboard_three_leg_kill_is_written_long_and_read_with_commas() {
    let fen = "4k3/8/8/8/1p6/1p6/1p6/1N2K3 w - - 0 1";
    let ca = registry::get("combined-arms").unwrap();
    let p = Position::from_fen(&ca, fen).unwrap();
    let m = p.parse_move("b1b4xb2xb3").unwrap();
    assert_eq!(tenfold::protocol::cecp_move::to_cecp(&p, m), "b1b2xb3xb4");
    let back = |t: &str| tenfold::protocol::cecp_move::from_cecp(&p, t).unwrap();
    assert_eq!(back("b1b2xb3xb4"), m);
    assert_eq!(back("b1b2,b2b3,b3b4"), m);
    let mut s = Session::xboard();
    s.send_all(&[
        "xboard",
        "protover 2",
        "new",
        "variant combined-arms",
        "force",
    ]);
    s.send(&format!("setboard {fen}"));
    s.send("usermove b1b2,b2b3,b3b4");
    let seen = s.synced(3);
    saw(&seen, "# FEN 4k3/8/8/8/1N6/8/8/4K3 b - - 0 1");
    s.quit("quit");
}

/// Thinking output is read by XBoard as moves, so its PV writes each move as `move` does:
/// the armor's capture of three pawns in passing (Combined Arms R9 `b1b4xb2xb3`) is
/// XBoard's long form `b1b2xb3xb4` there too, and every PV replays through `usermove`.
#[test]
fn xboard_thinking_output_writes_moves_as_the_move_command_does() {
    let fen = "4k3/8/8/8/1p6/1p6/1p6/1N2K3 w - - 0 1";
    let mut s = Session::xboard();
    s.send_all(&[
        "xboard",
        "protover 2",
        "new",
        "variant combined-arms",
        "force",
        &format!("setboard {fen}"),
        "post",
        "sd 3",
        "go",
    ]);
    let mv = s.expect("move ");
    assert_eq!(mv, "move b1b2xb3xb4");
    let ca = registry::get("combined-arms").unwrap();
    let root = Position::from_fen(&ca, fen).unwrap();
    let mut pvs = 0;
    for l in s.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() < 5 || f[0].parse::<u32>().is_err() {
            continue;
        }
        pvs += 1;
        let mut p = root.clone();
        for m in &f[4..] {
            let ours = tenfold::protocol::cecp_move::from_cecp(&p, m);
            assert!(ours.is_ok(), "{m} in {l} is no move for XBoard");
            p.make_move(ours.unwrap());
        }
        if f[0] == "3" {
            assert_eq!(f[4], "b1b2xb3xb4", "{l}");
        }
    }
    assert!(pvs > 0, "{:?}", s.lines());
    s.quit("quit");
}

/// Wildeurasian W2: a pawn whose move ends beyond the River becomes a Wazir, with no
/// suffix in Tenfold's notation. XBoard changes a type only when the move names it, so
/// the engine writes `e4e5w` (0-based ranks) and reads it back, with or without it.
#[test]
fn xboard_names_an_automatic_type_change_like_a_promotion() {
    let fen = "rnbmgtmbnr/1c1aqka1c1/p1pppppp1p/10/10/4P5/10/P1PP1PPP1P/1C1AQKA1C1/RNBMGTMBNR w A1J1a10j10 - 0 1";
    let we = registry::get("wildeurasian").unwrap();
    let p = Position::from_fen(&we, fen).unwrap();
    let m = p.parse_move("e5e6").unwrap();
    assert_eq!(tenfold::protocol::cecp_move::to_cecp(&p, m), "e4e5w");
    for t in ["e4e5w", "e4e5"] {
        assert_eq!(
            tenfold::protocol::cecp_move::from_cecp(&p, t).unwrap(),
            m,
            "{t}"
        );
    }
    // A suffix naming any other type is no move.
    assert!(tenfold::protocol::cecp_move::from_cecp(&p, "e4e5q").is_err());
}

/// Augsburg A3: a split leaves its remainder on the start square, which XBoard's board
/// empties (it moves one piece per move); the engine names such moves in a `#` line so a
/// GUI log says why the boards part. ArchMage M4's switch is shown: XBoard swaps a move
/// onto a friend in a game without castling rights, the parent ArchMage is set up on.
#[test]
fn xboard_names_the_moves_its_board_cannot_follow() {
    let am = registry::get("archmage").unwrap();
    let p = Position::startpos(&am);
    let mut list = tenfold::core::moves::MoveList::new();
    p.legal_moves(&mut list);
    let switch = list
        .iter()
        .copied()
        .find(|m| m.kind() == tenfold::core::moves::MoveKind::Switch)
        .expect("the start has switches");
    assert!(tenfold::protocol::xboard::unshown(switch).is_none());
    let plain = p.parse_move("c3c4").unwrap();
    assert!(tenfold::protocol::xboard::unshown(plain).is_none());
    // A Longbowman (Camel + Elephant) on e5 splits: the Camel lands on e7, the Elephant stays.
    let au = registry::get("augsburg").unwrap();
    let p = Position::from_fen(&au, "9k/10/10/10/10/4L5/10/10/10/K9 w - - 0 1").unwrap();
    let split = p.parse_move("e5e7c").unwrap();
    assert_eq!(split.kind(), tenfold::core::moves::MoveKind::Split);
    assert!(tenfold::protocol::xboard::unshown(split).is_some());
}

/// XBoard writes a Grand FEN with `[-]` for empty holdings and no en passant field
/// (`w - 0 1`); `setboard` reads it as the position it is.
#[test]
fn xboard_setboard_reads_xboards_own_fen_dialect() {
    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "variant grand", "force"]);
    s.send("setboard r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R[-] w - 0 1");
    s.send("usermove c2c4");
    let seen = s.synced(5);
    assert!(
        seen.iter()
            .all(|l| !l.starts_with("Error") && !l.starts_with("Illegal")),
        "{seen:?}"
    );
    s.quit("quit");
}

/// `setboard` keeps the FEN's castling rights: a chess start array with `Kk` has no
/// queenside castling, so after the pieces between have gone `e1c1` is illegal (as
/// `tenfold moves --fen "… w Kk - 0 1"` says). Only where XBoard has no form for the
/// rights (Wildeurasian W5's rook squares) or plays the game as `nocastle` (ArchMage,
/// whose pieces exchange squares), so that they reach the engine as `-`, does the start
/// array get the start's rights back: both engines of a two-machine game then keep them.
#[test]
fn xboard_setboard_keeps_the_fens_castling_rights() {
    let mut s = Session::xboard();
    s.send_all(&[
        "xboard",
        "protover 2",
        "new",
        "force",
        "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 1",
    ]);
    for m in "b1c3 b8c6 d2d3 d7d6 c1e3 c8e6 d1d2 d8d7".split(' ') {
        s.send(&format!("usermove {m}"));
    }
    s.send("usermove e1c1");
    let seen = s.synced(1);
    saw(
        &seen,
        "# FEN r3kbnr/pppqpppp/2npb3/8/8/2NPB3/PPPQPPPP/R3KBNR w Kk - 4 5",
    );
    saw(&seen, "Illegal move: e1c1");

    s.send_all(&[
        "new",
        "variant wildeurasian",
        "force",
        "setboard rnbmgtmbnr/1c1aqka1c1/p1pppppp1p/10/10/10/10/P1PPPPPP1P/1C1AQKA1C1/RNBMGTMBNR w - - 0 1",
        "usermove e2e3",
        "ping 2",
    ]);
    s.expect("pong 2");
    assert!(
        s.lines()
            .iter()
            .any(|l| l.starts_with("# FEN ") && l.ends_with(" b A1J1a10j10 - 0 1")),
        "{:?}",
        s.lines()
    );

    // XBoard's own words to the second engine of an ArchMage game (its FEN has no en
    // passant field).
    s.send_all(&[
        "new",
        "variant archmage",
        "force",
        "setboard grusqkmurg/tbcfaifcbt/pppppppppp/10/10/10/10/PPPPPPPPPP/TBCFAIFCBT/GRUSQKMURG[DHdh] w - 0 1",
        "usermove h0f3",
    ]);
    let seen = s.synced(3);
    saw(
        &seen,
        "# FEN grusqkmurg/tbcfaifcbt/pppppppppp/10/10/10/5U4/PPPPPPPPPP/TBCFAIFCBT/GRUSQKM1RG[DHdh] b KQkq - 1 1",
    );
    s.quit("quit");
}

/// Grand: a Pawn may stay one on its 8th and 9th ranks, and may only promote to a piece
/// its side has lost (rules/grand). XBoard 4.9 reads a bare Pawn move onto those ranks as
/// a queen promotion and relays `d6e7q`, so the engine writes its deferral with the
/// Pawn's own letter, `d6e7p`, and reads that back; a promotion to a queen White still
/// has stays illegal.
#[test]
fn xboard_grand_deferral_is_written_and_read_with_the_pawns_letter() {
    // White has lost nothing: d7xe8 can only stay a Pawn.
    let fen = "r4r4/1nbqkca1n1/pp1ppp1ppp/2pP2p3/4b5/10/2N7/PPP1PPPPPP/2BQKCABN1/R8R w - - 0 5";
    let grand = registry::get("grand").unwrap();
    let p = Position::from_fen(&grand, fen).unwrap();
    let m = p.parse_move("d7e8").unwrap();
    assert_eq!(m.promotion(), None);
    assert_eq!(tenfold::protocol::xboard::gui_move(&p, m), "d6e7p");
    // A move short of the zone gets nothing added.
    let quiet = p.parse_move("a3a4").unwrap();
    assert_eq!(tenfold::protocol::xboard::gui_move(&p, quiet), "a2a3");
    // XBoard's PGN says `dxe7=P` (its ranks); Tenfold's SAN reader takes the same form.
    assert_eq!(p.move_to_san(m), "dxe8");
    assert_eq!(p.parse_san("dxe8=P").unwrap(), m);
    assert!(p.parse_san("dxe8=Q").is_err());

    let mut s = Session::xboard();
    s.send_all(&["xboard", "protover 2", "new", "variant grand", "force"]);
    s.send(&format!("setboard {fen}"));
    s.send("usermove d6e7q");
    s.send("ping 1");
    s.expect("pong 1");
    assert!(
        s.lines().iter().any(|l| l == "Illegal move: d6e7q"),
        "{:?}",
        s.lines()
    );
    s.send("usermove d6e7p");
    let seen = s.synced(2);
    let refused: Vec<_> = seen.iter().filter(|l| l.starts_with("Illegal")).collect();
    assert_eq!(refused, ["Illegal move: d6e7q"], "{seen:?}");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("# FEN r4r4/1nbqkca1n1/pp1pPp1ppp/2p3p3/")),
        "{seen:?}"
    );
    s.quit("quit");
}

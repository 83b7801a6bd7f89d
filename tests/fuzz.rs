//! Bad files and strings never panic: seeded mutations of Betza strings, taxonomy names,
//! FENs and variant tables must each give a value or one clear error line.

mod common;

use common::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::movement::{betza, taxonomy};
use tenfold::registry;
use tenfold::variant::VariantError;
use tenfold::{Position, Variant};

/// `n` rounds, times `TENFOLD_FUZZ_SCALE` (default 1) for longer local runs.
fn rounds(n: usize) -> usize {
    let scale: usize = std::env::var("TENFOLD_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    n * scale.max(1)
}

/// A test's seed, shifted by `TENFOLD_FUZZ_SEED` (default 0) to explore other inputs.
fn seeded(base: u64) -> Rng {
    let shift: u64 = std::env::var("TENFOLD_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    // Spread the small seeds over all 64 bits (xorshift must not start at 0).
    Rng(base
        .wrapping_add(shift.wrapping_mul(0x1000_0001))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        | 1)
}

/// Numbers that break careless arithmetic.
const NASTY_NUMBERS: [&str; 12] = [
    "0",
    "-1",
    "-2147483648",
    "2147483647",
    "4294967296",
    "99999999999999999999",
    "255",
    "256",
    "128",
    "11",
    "13",
    "1e9",
];

/// One character-level mutation of `s`.
fn mutate_chars(rng: &mut Rng, s: &str, alphabet: &[char]) -> String {
    let mut c: Vec<char> = s.chars().collect();
    match rng.below(7) {
        0 if !c.is_empty() => {
            let i = rng.below(c.len());
            c.remove(i);
        }
        1 => {
            let i = rng.below(c.len() + 1);
            c.insert(i, *rng.pick(alphabet));
        }
        2 if !c.is_empty() => {
            let i = rng.below(c.len());
            c[i] = *rng.pick(alphabet);
        }
        3 if c.len() > 1 => {
            let (i, j) = (rng.below(c.len()), rng.below(c.len()));
            c.swap(i, j);
        }
        4 if !c.is_empty() => {
            // Duplicate a slice.
            let i = rng.below(c.len());
            let j = (i + 1 + rng.below(4)).min(c.len());
            let part: Vec<char> = c[i..j].to_vec();
            let at = rng.below(c.len() + 1);
            for (k, ch) in part.into_iter().enumerate() {
                c.insert(at + k, ch);
            }
        }
        5 => {
            let i = rng.below(c.len() + 1);
            let n = rng.pick(&NASTY_NUMBERS);
            for (k, ch) in n.chars().enumerate() {
                c.insert(i + k, ch);
            }
        }
        _ => {
            let i = rng.below(c.len() + 1);
            c.truncate(i);
        }
    }
    c.into_iter().collect()
}

/// Runs `f`, turning a panic into a failure report naming the input.
fn no_panic(what: &str, input: &str, f: impl FnOnce(), failures: &mut Vec<String>) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        failures.push(format!("{what} panicked on {input:?}"));
    }
}

fn report(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}

#[test]
fn betza_strings_never_panic() {
    let seeds = [
        "K",
        "Q",
        "fmWfcFifmnD",
        "RN",
        "mRcpR",
        "FyafsF",
        "WyafsW",
        "nN",
        "afsW",
        "NN",
        "R4",
        "ffrrN",
        "hlN",
        "fhN",
        "iW",
        "yafsF3",
        "cpB",
        "lvN",
        "sbF",
    ];
    let alphabet: Vec<char> = "KQRBNWFDAHCZGLJOfblrvshmcinpyaogjez0123456789 -?"
        .chars()
        .collect();
    let mut rng = seeded(7);
    let mut failures = Vec::new();
    for _ in 0..rounds(4000) {
        let mut s = rng.pick(&seeds).to_string();
        for _ in 0..1 + rng.below(4) {
            s = mutate_chars(&mut rng, &s, &alphabet);
        }
        no_panic(
            "betza",
            &s,
            || match betza::parse(&s) {
                Ok(atoms) => {
                    let again = betza::to_betza(&atoms);
                    if !again.contains('?') {
                        assert_eq!(
                            betza::parse(&again).ok(),
                            Some(atoms.clone()),
                            "{s} -> {again}"
                        );
                    }
                    if rng_light(&s) {
                        if let Some(n) = taxonomy::name_of(&atoms) {
                            assert_eq!(taxonomy::parse(&n).ok(), Some(atoms), "{s} -> {n}");
                        }
                    }
                }
                Err(e) => assert!(!e.to_string().contains('\n')),
            },
            &mut failures,
        );
    }
    report(&failures);
}

/// Names a deterministic tenth of the inputs (naming back searches, so it is the slow
/// part).
fn rng_light(s: &str) -> bool {
    s.bytes()
        .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(b as u32))
        % 10
        == 0
}

#[test]
fn taxonomy_names_never_panic() {
    let seeds = [
        "Wazir Rider",
        "far Wazir Rider",
        "far Ferz Rider",
        "Noble-Rook",
        "fire 3-step fell Bent Wazir Rider",
        "Fortified-Knight",
        "Noble-Queen",
        "Noble-Guard",
        "Fierce-Thief",
        "free 3-step Ferz Rider",
        "far Noble Riding 2-step Wazir Rider",
        "Fearless Wise Invincible Pawn Conqueror",
        "Valiant Noble-Wazir Charger",
        "High Loyal Walking Arch Duke Walker",
        "ring Crooked Waffle Rider",
    ];
    let words = [
        "far",
        "free",
        "fury",
        "fire",
        "fell",
        "ring",
        "3-step",
        "0-step",
        "300-step",
        "step",
        "Bent",
        "Errant",
        "Twisted",
        "Crooked",
        "Arch",
        "High",
        "Brave",
        "Fearless",
        "Valiant",
        "Daunted",
        "Vigilant",
        "Bereft",
        "Noble",
        "Regal",
        "Dragon",
        "Pawn",
        "Queen",
        "Knight",
        "Guard",
        "Rider",
        "Riding",
        "Charger",
        "Walker",
        "Companion",
        "Invincible",
        "Prince",
        "Conqueror",
        "Embattled",
        "Grandmaster",
        "Nobel",
        "-",
        "--",
        "9",
        "Ξ",
    ];
    let alphabet: Vec<char> = "abcdefgnorstwz -0123456789ÄΞ\t".chars().collect();
    let mut rng = seeded(11);
    let mut failures = Vec::new();
    for _ in 0..rounds(4000) {
        let mut ws: Vec<String> = rng.pick(&seeds).split(' ').map(str::to_string).collect();
        for _ in 0..1 + rng.below(3) {
            match rng.below(5) {
                0 if !ws.is_empty() => {
                    let i = rng.below(ws.len());
                    ws.remove(i);
                }
                1 => {
                    let i = rng.below(ws.len() + 1);
                    ws.insert(i, rng.pick(&words).to_string());
                }
                2 if ws.len() > 1 => {
                    let (i, j) = (rng.below(ws.len()), rng.below(ws.len()));
                    ws.swap(i, j);
                }
                3 if !ws.is_empty() => {
                    let i = rng.below(ws.len());
                    ws[i] = mutate_chars(&mut rng, &ws[i], &alphabet);
                }
                _ => {
                    let i = rng.below(ws.len() + 1);
                    ws.insert(i, rng.pick(&words).to_string());
                }
            }
        }
        let name = ws.join(if rng.below(2) == 0 { " " } else { "-" });
        no_panic(
            "taxonomy",
            &name,
            || match taxonomy::parse(&name) {
                Ok(atoms) => {
                    assert!(!atoms.is_empty());
                    assert_eq!(betza::normalize(&atoms), atoms);
                    assert!(taxonomy::parse_description(&name).is_ok());
                }
                Err(e) => {
                    let m = e.to_string();
                    assert!(
                        m.starts_with("taxonomy name \"") && !m.contains('\n'),
                        "{m}"
                    );
                }
            },
            &mut failures,
        );
    }
    report(&failures);
}

/// Plays every legal move one ply deep and back, checking the key is restored.
fn exercise(pos: &mut Position) {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let key = pos.key();
    for &m in list.iter() {
        pos.make_move(m);
        let mut replies = MoveList::new();
        pos.legal_moves(&mut replies);
        let _ = pos.game_result();
        let _ = pos.fen();
        pos.unmake_move();
        assert_eq!(pos.key(), key);
    }
}

#[test]
fn fens_never_panic_and_errors_are_one_line() {
    let shako = registry::get("shako").unwrap();
    let games: Vec<(Arc<Variant>, Vec<&str>)> = vec![
        (
            registry::get("chess").unwrap(),
            vec![
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
            ],
        ),
        (Arc::clone(&shako), vec![shako.start_fen.as_str()]),
    ];
    let alphabet: Vec<char> = "pnbrqkcePNBRQKCEw-/ 0123456789[]abcdefghij"
        .chars()
        .collect();
    let mut rng = seeded(13);
    let mut failures = Vec::new();
    let mut parsed = 0;
    for round in 0..rounds(3000) {
        let (v, fens) = &games[round % games.len()];
        let mut fen = rng.pick(fens).to_string();
        for _ in 0..1 + rng.below(3) {
            fen = mutate_chars(&mut rng, &fen, &alphabet);
        }
        no_panic(
            "from_fen",
            &fen,
            || match Position::from_fen(v, &fen) {
                Ok(mut pos) => {
                    parsed += 1;
                    let out = pos.fen();
                    assert!(Position::from_fen(v, &out).is_ok(), "{fen} -> {out}");
                    exercise(&mut pos);
                }
                Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
            },
            &mut failures,
        );
    }
    report(&failures);
    assert!(
        parsed > 100,
        "only {parsed} mutated FENs parsed: the test exercises too little"
    );
}

/// One line-level or value-level mutation of a TOML text.
fn mutate_toml(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len();
    match rng.below(8) {
        0 => {
            lines.remove(rng.below(n));
        }
        1 => {
            let i = rng.below(n);
            let l = lines[i].clone();
            lines.insert(rng.below(n + 1), l);
        }
        2 => {
            let (i, j) = (rng.below(n), rng.below(n));
            lines.swap(i, j);
        }
        3 => {
            // Replace a number with a nasty one.
            let i = rng.below(n);
            let l = &lines[i];
            if let Some(start) = l.find(|c: char| c.is_ascii_digit()) {
                let end = l[start..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(l.len(), |e| start + e);
                lines[i] = format!("{}{}{}", &l[..start], rng.pick(&NASTY_NUMBERS), &l[end..]);
            }
        }
        4 => {
            // Drop a key (or a value inside an inline table).
            let i = rng.below(n);
            if let Some(eq) = lines[i].find('=') {
                lines[i] = lines[i][..eq].to_string();
            }
        }
        5 => {
            let i = rng.below(n);
            let alphabet: Vec<char> = "\"=[]{},.0123456789abcdefghijkKQRBNPxyz-/ "
                .chars()
                .collect();
            lines[i] = mutate_chars(rng, &lines[i], &alphabet);
        }
        6 => {
            // A value from another line under this line's key.
            let (i, j) = (rng.below(n), rng.below(n));
            if let (Some(a), Some(b)) = (lines[i].find('='), lines[j].find('=')) {
                lines[i] = format!("{}{}", &lines[i][..a], &lines[j][b..]);
            }
        }
        _ => {
            let i = rng.below(n + 1);
            let extra = rng.pick(&[
                "files = 0",
                "ranks = 13",
                "files = 16",
                "ranks = 200",
                "letter = \"k\"",
                "betza = \"\"",
                "taxonomy = \"Noble-Rook\"",
                "promotion = { ranks = [0], to = \"Q\" }",
                "promotion = { ranks = [8], to = \"X\" }",
                "promotion = { ranks = [8], to = \"K\" }",
                "promotion = { ranks = [8], to = \"\" }",
                "initial_ranks = [99]",
                "value = -99999999999",
                "royal = true",
                "pawn = true",
                "start = \"8/8/8/8/8/8/8/8 w - - 0 1\"",
                "start = \"\"",
                "[[piece]]",
                "[castling]",
                "king_file = \"z\"",
                "rank = 0",
                "rank = 9",
                "kingside = { king_to = \"h\", rook_from = \"e\", rook_to = \"a\" }",
                "queenside = { king_to = \"e\", rook_from = \"e\", rook_to = \"e\" }",
            ]);
            lines.insert(i, extra.to_string());
        }
    }
    lines.join("\n")
}

#[test]
fn variant_tables_never_panic_and_errors_name_file_and_key() {
    let base = include_str!("../tables/chess.toml");
    let mut rng = seeded(17);
    let mut failures = Vec::new();
    let (mut compiled, mut refused) = (0, 0);
    for _ in 0..rounds(2500) {
        let mut text = base.to_string();
        for _ in 0..1 + rng.below(3) {
            text = mutate_toml(&mut rng, &text);
        }
        no_panic(
            "variant",
            &text,
            || match Variant::from_toml(&text, "fuzz.toml") {
                Ok(v) => {
                    compiled += 1;
                    let v = Arc::new(v);
                    let mut pos = Position::startpos(&v);
                    exercise(&mut pos);
                }
                Err(e) => {
                    refused += 1;
                    let m = e.to_string();
                    assert!(m.starts_with("fuzz.toml: ") && !m.contains('\n'), "{m}");
                    if let VariantError::Value { key, .. } = &e {
                        assert!(!key.is_empty() && m.contains(&format!(": {key}: ")), "{m}");
                    }
                }
            },
            &mut failures,
        );
    }
    report(&failures);
    assert!(
        compiled > 100 && refused > 500,
        "{compiled} compiled, {refused} refused"
    );
}

#[test]
fn a_start_fen_that_does_not_parse_is_refused_at_load() {
    // The table's `start` key is checked with the FEN parser when the variant loads.
    let base = include_str!("../tables/chess.toml");
    for (start, why) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "royal",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6",
        ),
    ] {
        let text = base.replace(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            start,
        );
        let e = Variant::from_toml(&text, "t.toml")
            .err()
            .unwrap()
            .to_string();
        assert!(e.starts_with("t.toml: start: ") && e.contains(why), "{e}");
    }
}

/// A random board of `files` x `ranks` with each side's king (if `kings`) and a few
/// other pieces from `letters`, as the placement and side fields of a FEN.
fn random_start(rng: &mut Rng, files: i64, ranks: i64, letters: &[char], kings: bool) -> String {
    let (f, r) = (files.clamp(1, 12) as usize, ranks.clamp(1, 14) as usize);
    let mut grid = vec![vec![None; f]; r];
    let mut put = |rng: &mut Rng, c: char| {
        let (x, y) = (rng.below(f), rng.below(r));
        if grid[y][x].is_none() {
            grid[y][x] = Some(c);
        }
    };
    if kings {
        put(rng, 'K');
        put(rng, 'k');
    }
    for _ in 0..rng.below(f * r / 4 + 1) {
        let c = *rng.pick(letters);
        let c = if rng.below(2) == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        };
        put(rng, c);
    }
    let rows: Vec<String> = grid
        .iter()
        .rev()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for sq in row {
                match sq {
                    Some(c) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(*c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    let castling = *rng.pick(&["-", "KQkq", "K", "q"]);
    format!(
        "{} {} {castling} - 0 1",
        rows.join("/"),
        rng.pick(&["w", "b"])
    )
}

/// Plays a random game of up to `plies` moves, checking the position's invariants after
/// each (key, planes, FEN round trip) and after every legal move at the end, then takes
/// them all back.
fn random_playout(rng: &mut Rng, pos: &mut Position, plies: usize) {
    let key = pos.key();
    let mut made = 0;
    for _ in 0..plies {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() || pos.game_result().is_some() {
            break;
        }
        let m = list.as_slice()[rng.below(list.len())];
        let _ = pos.move_to_string(m);
        pos.make_move(m);
        made += 1;
        if let Err(e) = pos.check_invariants() {
            panic!("after {}: {e}", pos.fen());
        }
    }
    // Every legal move of the last position keeps it sound too.
    tenfold::fuzz::exercise(pos);
    for _ in 0..made {
        pos.unmake_move();
    }
    assert_eq!(pos.key(), key);
}

#[test]
fn random_variants_never_panic_and_every_move_keeps_the_position_sound() {
    let mut base: toml::Table = toml::from_str(include_str!("../tables/chess.toml")).unwrap();
    // Chess's fitted weights name its pieces and eight ranks; the random pieces and boards
    // below start from the weights derived for them.
    base.remove("eval");
    let movements = [
        "K",
        "Q",
        "R",
        "B",
        "N",
        "W",
        "F",
        "fmWfcFifmnD",
        "mRcpR",
        "FyafsF",
        "WyafsW",
        "nN",
        "H",
        "GG",
        "iN",
        "fmW",
        "cF",
        "pR",
        "R2",
        "fmWfcFifmnDifmnH",
    ];
    let taxonomy_names = [
        "Noble-Rook",
        "far Knight Rider",
        "Pawn",
        "Guard",
        "fire Wazir Rider",
    ];
    let nasty: [i64; 6] = [0, 13, -1, 1 << 40, i64::MIN, 99];
    let mut rng = seeded(23);
    let mut failures = Vec::new();
    let (mut compiled, mut refused) = (0, 0);
    for _ in 0..rounds(1500) {
        let mut t = base.clone();
        let files: i64 = *rng.pick(&[8, 8, 8, 1, 2, 3, 5, 9, 10, 10, 10, 12]);
        let ranks: i64 = *rng.pick(&[8, 8, 8, 1, 2, 4, 10, 10, 12, 12, 13]);
        // Mostly a rank of the board, sometimes a nasty number.
        let rank = |rng: &mut Rng| -> toml::Value {
            if rng.below(8) == 0 {
                (*rng.pick(&nasty)).into()
            } else {
                (1 + rng.below(ranks.clamp(1, 12) as usize) as i64).into()
            }
        };
        let mut pieces: Vec<toml::Table> = t["piece"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p.as_table().cloned())
            .collect();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(pieces.len().max(1));
            match rng.below(12) {
                0 if !pieces.is_empty() => {
                    pieces.remove(i);
                }
                1 if !pieces.is_empty() => {
                    let mut p = pieces[i].clone();
                    p.insert(
                        "letter".into(),
                        rng.pick(&["X", "Y", "K", "P", "x", "1", "Z"])
                            .to_string()
                            .into(),
                    );
                    pieces.push(p);
                }
                2 if !pieces.is_empty() => {
                    pieces[i].insert("betza".into(), rng.pick(&movements).to_string().into());
                }
                3 if !pieces.is_empty() => {
                    pieces[i].remove("betza");
                    pieces[i].insert(
                        "taxonomy".into(),
                        rng.pick(&taxonomy_names).to_string().into(),
                    );
                }
                4 if !pieces.is_empty() => {
                    let flag = *rng.pick(&["royal", "pawn"]);
                    pieces[i].insert(flag.into(), (rng.below(2) == 0).into());
                }
                5 | 6 if !pieces.is_empty() => {
                    let mut pr = toml::Table::new();
                    let ranks: Vec<toml::Value> =
                        (0..rng.below(3)).map(|_| rank(&mut rng)).collect();
                    pr.insert("ranks".into(), ranks.into());
                    pr.insert(
                        "to".into(),
                        rng.pick(&["Q", "QRBN", "K", "P", "", "Z", "KQ"])
                            .to_string()
                            .into(),
                    );
                    if rng.below(2) == 0 {
                        let m: Vec<toml::Value> =
                            (0..rng.below(3)).map(|_| rank(&mut rng)).collect();
                        pr.insert("mandatory_ranks".into(), m.into());
                    }
                    pieces[i].insert("promotion".into(), pr.into());
                }
                7 if !pieces.is_empty() => {
                    let r: Vec<toml::Value> = (0..rng.below(3)).map(|_| rank(&mut rng)).collect();
                    pieces[i].insert("initial_ranks".into(), r.into());
                }
                8 if !pieces.is_empty() => {
                    pieces[i].insert("value".into(), rank(&mut rng));
                }
                9 => {
                    let c = t.get_mut("castling").and_then(|c| c.as_table_mut());
                    if let Some(c) = c {
                        let key = *rng.pick(&["king_file", "rank", "kingside", "queenside"]);
                        let file = || toml::Value::from(["a", "b", "d", "e", "h", "j", "z"][i % 7]);
                        let v: toml::Value = match key {
                            "rank" => rank(&mut rng),
                            "king_file" => file(),
                            _ => {
                                let mut s = toml::Table::new();
                                for k in ["king_to", "rook_from", "rook_to"] {
                                    let f = ["a", "b", "c", "e", "g", "h", "j"][rng.below(7)];
                                    s.insert(k.into(), f.into());
                                }
                                s.into()
                            }
                        };
                        c.insert(key.into(), v);
                    }
                }
                10 => {
                    t.remove("castling");
                }
                _ => {}
            }
        }
        if ranks != 8 && rng.below(4) != 0 {
            // Keep the promotion zones on the new board, most of the time.
            for p in pieces.iter_mut() {
                if let Some(pr) = p.get_mut("promotion").and_then(|v| v.as_table_mut()) {
                    pr.insert("ranks".into(), vec![toml::Value::from(ranks)].into());
                    pr.remove("mandatory_ranks");
                }
            }
        }
        let letters: Vec<char> = pieces
            .iter()
            .filter_map(|p| p.get("letter")?.as_str()?.chars().next())
            .filter(|c| *c != 'K')
            .collect();
        if files < 8 && rng.below(4) != 0 {
            t.remove("castling");
        }
        t.insert("files".into(), files.into());
        t.insert("ranks".into(), ranks.into());
        if files != 8 || ranks != 8 || rng.below(3) == 0 {
            let letters = if letters.is_empty() {
                vec!['P']
            } else {
                letters
            };
            let kings = rng.below(8) != 0;
            let start = random_start(&mut rng, files, ranks, &letters, kings);
            t.insert("start".into(), start.into());
        }
        t.insert(
            "piece".into(),
            toml::Value::Array(pieces.into_iter().map(toml::Value::Table).collect()),
        );
        let text = toml::to_string(&t).unwrap();
        let mut play = Rng(rng.next());
        no_panic(
            "random variant",
            &text,
            || match Variant::from_toml(&text, "random.toml") {
                Ok(v) => {
                    compiled += 1;
                    let v = Arc::new(v);
                    let mut pos = Position::startpos(&v);
                    exercise(&mut pos);
                    random_playout(&mut play, &mut pos, 60);
                }
                Err(e) => {
                    refused += 1;
                    let m = e.to_string();
                    assert!(m.starts_with("random.toml: ") && !m.contains('\n'), "{m}");
                    if let VariantError::Value { key, .. } = &e {
                        assert!(!key.is_empty() && m.contains(&format!(": {key}: ")), "{m}");
                    }
                }
            },
            &mut failures,
        );
    }
    report(&failures);
    assert!(
        compiled > 200 && refused > 200,
        "{compiled} compiled, {refused} refused"
    );
}

// ---------------------------------------------------------------------------------
// The library's fuzz targets (`tenfold::fuzz`, also run by `fuzz/` under libFuzzer) on
// seeded mutations of small corpora: together at least 10^5 cases, none may panic.

/// Cases per target; the cheap surfaces take the bulk, a protocol session costs a
/// table allocation and a search thread.
const CASES: [(&str, usize); 6] = [
    ("fen", 50_000),
    ("moves", 6_000),
    ("variant_table", 6_000),
    ("uci_lines", 2_000),
    ("xboard_lines", 2_000),
    ("pgn", 40_000),
];

fn cases(target: &str) -> usize {
    let n = CASES.iter().find(|(t, _)| *t == target).unwrap().1;
    rounds(n)
}

/// Bytes for a built-in game picked by its index, then `text`.
fn for_game(game: usize, text: &str) -> Vec<u8> {
    let mut d = vec![game as u8];
    d.extend_from_slice(text.as_bytes());
    d
}

/// Mutates `seed` a few times over: characters, then (for line-based input) whole lines.
fn mutate_text(rng: &mut Rng, seed: &str, alphabet: &[char]) -> String {
    let mut s = seed.to_string();
    for _ in 0..1 + rng.below(3) {
        if s.contains('\n') && rng.below(2) == 0 {
            let mut lines: Vec<&str> = s.lines().collect();
            let i = rng.below(lines.len());
            match rng.below(3) {
                0 => {
                    lines.remove(i);
                }
                1 => lines.insert(rng.below(lines.len() + 1), lines[i]),
                _ => {
                    let j = rng.below(lines.len());
                    lines.swap(i, j);
                }
            }
            s = lines.join("\n");
        } else {
            s = mutate_chars(rng, &s, alphabet);
        }
    }
    s
}

/// Runs `target` on `cases(name)` mutations of the corpus; reports every panic.
fn run_target(name: &str, seed: u64, corpus: &[Vec<u8>], alphabet: &[char]) {
    let target = tenfold::fuzz::TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap()
        .1;
    let mut rng = seeded(seed);
    let mut failures = Vec::new();
    let t0 = std::time::Instant::now();
    for _ in 0..cases(name) {
        let base = rng.pick(corpus);
        // The first byte of a game's input picks the game: keep it, mutate the text.
        let (head, text) = match name {
            "fen" | "moves" => (base[..1].to_vec(), &base[1..]),
            _ => (Vec::new(), &base[..]),
        };
        let text = String::from_utf8_lossy(text);
        let mut data = head;
        data.extend_from_slice(mutate_text(&mut rng, &text, alphabet).as_bytes());
        if rng.below(50) == 0 {
            // Now and then bytes that are not UTF-8 at all.
            let i = rng.below(data.len() + 1);
            data.insert(i, 0xff);
        }
        let shown = String::from_utf8_lossy(&data).into_owned();
        no_panic(name, &shown, || target(&data), &mut failures);
    }
    eprintln!("{name}: {} cases in {:?}", cases(name), t0.elapsed());
    report(&failures);
}

const FEN_ALPHABET: [char; 24] = [
    'p', 'P', 'k', 'K', 'q', 'Q', 'r', 'R', 'n', 'N', '1', '2', '8', '0', '/', ' ', '-', '[', ']',
    'w', 'b', 'e', '3', '6',
];
const TEXT_ALPHABET: [char; 20] = [
    'a', 'e', 'g', '1', '2', '4', '9', ' ', '\n', '"', '=', '[', ']', '{', '}', '(', ')', '@', '-',
    '.',
];

/// Start positions and positions a few random plies on, of every built-in.
fn game_positions(rng: &mut Rng) -> Vec<(usize, Position)> {
    let mut out = Vec::new();
    for (i, name) in registry::names().iter().enumerate().take(10) {
        let v = registry::get(name).unwrap();
        let mut p = Position::startpos(&v);
        out.push((i, p.clone()));
        for _ in 0..3 {
            for _ in 0..6 {
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                p.make_move(list.as_slice()[rng.below(list.len())]);
            }
            out.push((i, p.clone()));
        }
    }
    out
}

/// The game index `tenfold::fuzz` gives `name` (the order of its built-in list).
fn fuzz_index(name: &str) -> usize {
    [
        "chess",
        "capablanca",
        "embassy",
        "janus",
        "shako",
        "grand",
        "archmage",
        "wildeurasian",
        "augsburg",
        "combined-arms",
    ]
    .iter()
    .position(|n| *n == name)
    .unwrap_or(0)
}

#[test]
fn seeded_fen_cases_never_panic_nor_break_a_position() {
    let mut rng = seeded(101);
    let corpus: Vec<Vec<u8>> = game_positions(&mut rng)
        .into_iter()
        .map(|(_, p)| for_game(fuzz_index(&p.variant().name), &p.fen()))
        .collect();
    run_target("fen", 101, &corpus, &FEN_ALPHABET);
}

#[test]
fn seeded_move_lists_never_panic_nor_break_a_position() {
    let mut rng = seeded(102);
    let mut corpus = Vec::new();
    for (_, p) in game_positions(&mut rng) {
        let game = fuzz_index(&p.variant().name);
        let start = Position::startpos(p.variant());
        // The moves from the start that reach `p`, as text, when they can be replayed.
        let mut texts = Vec::new();
        let mut q = start.clone();
        let mut list = MoveList::new();
        for _ in 0..12 {
            q.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[rng.below(list.len())];
            texts.push(q.move_to_string(m));
            q.make_move(m);
        }
        corpus.push(for_game(game, &texts.join(" ")));
        p.legal_moves(&mut list);
        let all: Vec<String> = list.iter().map(|&m| p.move_to_string(m)).collect();
        corpus.push(for_game(game, &all.join(" ")));
    }
    run_target("moves", 102, &corpus, &TEXT_ALPHABET);
}

#[test]
fn seeded_variant_tables_never_panic_nor_start_broken() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tables");
    let mut corpus: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "toml").then(|| std::fs::read(p).unwrap())
        })
        .collect();
    for f in ["mini.toml", "chess-plus.toml", "tenten.toml"] {
        let p = format!("{}/tests/data/{f}", env!("CARGO_MANIFEST_DIR"));
        corpus.push(std::fs::read(p).unwrap());
    }
    run_target("variant_table", 103, &corpus, &TEXT_ALPHABET);
}

#[test]
fn seeded_uci_sessions_never_panic() {
    let corpus: Vec<Vec<u8>> = [
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 2\nisready\nquit",
        "setoption name UCI_Variant value shako\nposition startpos\ngo nodes 200\nstop\nd",
        "setoption name UCI_Variant value combined-arms\nposition startpos\ngo movetime 5\nd",
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1\ngo depth 1 searchmoves h1h8",
        "setoption name UCI_Variant value archmage\ngo wtime 100 btime 100 winc 1 binc 1\nstop",
        "go infinite\nstop\ngo mate 2\nponderhit\nstop\nsetoption name Clear Hash",
        "setoption name VariantPath value tests/data/mini.toml\nsetoption name UCI_Variant value mini\ngo depth 3",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    run_target("uci_lines", 104, &corpus, &TEXT_ALPHABET);
}

#[test]
fn seeded_xboard_sessions_never_panic() {
    let corpus: Vec<Vec<u8>> = [
        "xboard\nprotover 2\nnew\nforce\nusermove e2e4\nusermove e7e5\nsd 2\ngo\nping 1",
        "xboard\nnew\nvariant capablanca\nst 1\nsd 1\nusermove e2e4\nundo\nremove\npost\nping 2",
        "xboard\nsetboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1\nsd 2\ngo\nresult 1-0 {x}",
        "xboard\nnew\nvariant grand\nlevel 40 5 0\ntime 3000\notim 3000\nsd 1\ngo\nnps 100\n?",
        "xboard\nnew\nvariant wildeurasian\nforce\nedit\n#\nPe2\n.\nsd 1\ngo",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    run_target("xboard_lines", 105, &corpus, &TEXT_ALPHABET);
}

#[test]
fn seeded_pgn_files_never_panic() {
    let corpus: Vec<Vec<u8>> = [
        "[Event \"x\"]\n[Variant \"chess\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
        "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. e1g1 {castles} (1. Kd1) *\n",
        "[Variant \"shako\"]\n\n1. e3e4 ; comment\n e8e7 2. c2c4 $1 1/2-1/2\n\n[Event \"y\"]\n\n*\n",
        "1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 {long {nested} comment\n 4. b5a4 *",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    run_target("pgn", 106, &corpus, &TEXT_ALPHABET);
}

#[test]
fn the_seeded_targets_run_at_least_100000_cases_over_every_surface() {
    let total: usize = CASES.iter().map(|(_, n)| n).sum();
    assert!(total >= 100_000, "{total} cases");
    for (name, _) in tenfold::fuzz::TARGETS {
        assert!(
            CASES.iter().any(|(t, _)| *t == name),
            "{name} has no budget"
        );
    }
}

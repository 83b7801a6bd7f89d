//! Pictures: every built-in start position, a position with hands and one with stacks
//! rendered by `rsvg-convert` (the PNG has the SVG's size) and parsed as XML; `describe
//! --svg` marks exactly the squares `describe` lists; the CLI writes and refuses as its
//! contract says.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use tenfold::diagram::{self, position_svg, BoardOptions, MatchPlot};
use tenfold::{inspect, registry};

/// The width and height an SVG declares.
fn svg_size(svg: &str) -> (u32, u32) {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let dim = |a: &str| {
        let v: f64 = root.attribute(a).expect(a).parse().expect("a number");
        v.ceil() as u32
    };
    (dim("width"), dim("height"))
}

/// Renders `svg` to PNG and returns the PNG's size, or None where `rsvg-convert` is
/// missing outside CI (CI installs it, so there its absence fails the test).
fn rsvg_png_size(svg: &str, name: &str) -> Option<(u32, u32)> {
    let found = Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "rsvg-convert is missing: CI must install librsvg2-bin"
        );
        eprintln!("skipping the PNG check of {name}: rsvg-convert is not installed (apt-get install librsvg2-bin)");
        return None;
    }
    let (src, png) = (
        common::temp_path(&format!("{name}.svg")),
        common::temp_path(&format!("{name}.png")),
    );
    std::fs::write(&src, svg).unwrap();
    let out = Command::new("rsvg-convert")
        .arg(&src)
        .arg("-o")
        .arg(&png)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG", "{name}");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    // IHDR: width and height follow the 8-byte signature and the chunk's length and type.
    let size = (be(16), be(20));
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&png);
    Some(size)
}

/// Checks the SVG parses and renders at its declared size, on a board-sized picture.
fn check_render(svg: &str, name: &str, files: u32, ranks: u32) {
    let (w, h) = svg_size(svg);
    let sq = diagram::frame::SQ as u32;
    assert!(w >= files * sq && h >= ranks * sq, "{name}: {w}x{h}");
    if let Some(png) = rsvg_png_size(svg, name) {
        assert_eq!(png, (w, h), "{name}");
    }
}

#[test]
fn every_built_in_start_position_renders() {
    for v in inspect::builtins().unwrap() {
        let pos = inspect::position(&v, None, None).unwrap();
        let svg = position_svg(&pos, &BoardOptions::default());
        check_render(&svg, &v.name, v.board.files as u32, v.board.ranks as u32);
        // Every piece is drawn: a glyph group per occupied square.
        let groups = svg.matches("<g transform=").count();
        assert_eq!(
            groups,
            pos.occupied().count() as usize + hand_types(&pos),
            "{}",
            v.name
        );
    }
}

/// The number of (colour, type) entries shown in the hands.
fn hand_types(pos: &tenfold::Position) -> usize {
    let v = pos.variant();
    let mut n = 0;
    for c in tenfold::Color::BOTH {
        n += (0..v.pieces.len())
            .filter(|&t| pos.hand(c, t as u8) > 0)
            .count();
    }
    n
}

#[test]
fn hands_stacks_moves_kills_and_flips_render() {
    let cases = [
        // Hands beside the board.
        ("archmage", None, Some("e3e5"), 1),
        // Stacks as badges, after a split.
        ("augsburg", None, Some("c2b4f a9a7"), 1),
        // A rifle shot's kill square marked.
        (
            "combined-arms",
            Some("4k3/8/8/8/8/4p3/8/2B1K3 w - - 0 1"),
            Some("c1c1xe3"),
            1,
        ),
        ("wildeurasian", None, Some("c3c4"), 1),
    ];
    for (game, fen, moves, _) in cases {
        let v = registry::get(game).unwrap();
        let pos = inspect::position(&v, fen, moves).unwrap();
        for flip in [false, true] {
            let opts = BoardOptions {
                flip,
                arrows: diagram::parse_arrows(&v.board, "a1b2 c3c5").unwrap(),
            };
            let svg = position_svg(&pos, &opts);
            assert!(svg.contains("last move"), "{game}");
            check_render(
                &svg,
                &format!("{game}-{flip}"),
                v.board.files as u32,
                v.board.ranks as u32,
            );
        }
    }
    let v = registry::get("archmage").unwrap();
    let svg = position_svg(&tenfold::Position::startpos(&v), &BoardOptions::default());
    assert!(svg.contains("×1"), "hands show their counts");
    let v = registry::get("augsburg").unwrap();
    let svg = position_svg(&tenfold::Position::startpos(&v), &BoardOptions::default());
    assert!(svg.contains(">4F 4W</text>"), "a Queen's stack badge");
    let v = registry::get("combined-arms").unwrap();
    let pos = inspect::position(
        &v,
        Some("4k3/8/8/8/8/4p3/8/2B1K3 w - - 0 1"),
        Some("c1c1xe3"),
    )
    .unwrap();
    assert!(position_svg(&pos, &BoardOptions::default()).contains(">killed</text>"));
}

/// The (square, mark) pairs an SVG names, and those a described diagram lists.
fn svg_marks(svg: &str) -> BTreeSet<(String, String)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    doc.descendants()
        .filter_map(|n| {
            Some((
                n.attribute("data-square")?.to_string(),
                n.attribute("data-mark")?.to_string(),
            ))
        })
        .collect()
}

fn listed_marks(d: &tenfold::describe::Described) -> BTreeSet<(String, String)> {
    let ranks = d.diagram.len();
    let mut out = BTreeSet::new();
    for (i, row) in d.diagram.iter().enumerate() {
        for (f, m) in row.split(' ').enumerate() {
            if m != "." && m != "O" {
                let sq = format!("{}{}", (b'a' + f as u8) as char, ranks - i);
                out.insert((sq, m.to_string()));
            }
        }
    }
    out
}

#[test]
fn describe_svg_marks_exactly_the_listed_squares() {
    let mut checked = 0;
    for v in inspect::builtins().unwrap() {
        for def in &v.pieces {
            let letter = def.letter.to_string();
            let (d, svg) = diagram::describe_with_picture(Some(&letter), None, &v).unwrap();
            assert_eq!(svg_marks(&svg), listed_marks(&d), "{} {letter}", v.name);
            checked += 1;
        }
    }
    let chess = registry::get("chess").unwrap();
    for betza in ["mRcpR", "FyafsF", "fmWfcFifmnD", "nN", "KmnD", "mQcpQ"] {
        let (d, svg) = diagram::describe_with_picture(Some(betza), None, &chess).unwrap();
        assert!(!listed_marks(&d).is_empty(), "{betza}");
        assert_eq!(svg_marks(&svg), listed_marks(&d), "{betza}");
        check_render(&svg, &format!("describe-{betza}"), 9, 9);
    }
    // In a position: moves, captures and the squares an armor path kills.
    let ca = registry::get("combined-arms").unwrap();
    let pos = inspect::position(&ca, Some("8/8/8/3p4/1p6/2N5/8/4K2k w - - 0 1"), None).unwrap();
    let (d, svg) = diagram::describe_with_picture(None, Some((&pos, "c3")), &ca).unwrap();
    let marks = svg_marks(&svg);
    assert_eq!(marks, listed_marks(&d));
    assert!(
        marks.contains(&("b4".to_string(), "x".to_string())),
        "{marks:?}"
    );
    assert!(
        marks.contains(&("d5".to_string(), "c".to_string())),
        "{marks:?}"
    );
    assert!(checked > 60);
}

#[test]
fn a_grasshopper_has_no_move_on_the_empty_board_but_its_lines_are_drawn() {
    // Betza `g` needs a hurdle: the empty-board diagram marks nothing for gQ, the rook
    // moves of mRmgQ only, and the picture draws and names the grasshop lines.
    let chess = registry::get("chess").unwrap();
    let (d, svg) = diagram::describe_with_picture(Some("gQ"), None, &chess).unwrap();
    assert!(listed_marks(&d).is_empty());
    assert!(svg.contains("grasshop: lands just past the first piece"));
    check_render(&svg, "describe-gQ", 9, 9);
    let (d, svg) = diagram::describe_with_picture(Some("mRmgQ"), None, &chess).unwrap();
    assert_eq!(d.betza, "mRmgQ");
    assert_eq!(listed_marks(&d).len(), 16);
    assert_eq!(svg_marks(&svg), listed_marks(&d));
}

#[test]
fn describe_from_refuses_bad_squares_and_other_pieces() {
    let v = registry::get("chess").unwrap();
    let pos = tenfold::Position::startpos(&v);
    for (piece, sq, want) in [
        (None, "e5", "no piece on e5"),
        (None, "z9", "not a square"),
        (Some("Q"), "g1", "holds N (Knight), not \"Q\""),
    ] {
        let e = diagram::describe_with_picture(piece, Some((&pos, sq)), &v).unwrap_err();
        assert!(e.to_string().contains(want), "{e}");
    }
    // The side not to move shows its moves too.
    let (d, _) = diagram::describe_with_picture(Some("n"), Some((&pos, "g8")), &v).unwrap();
    assert_eq!(listed_marks(&d).len(), 2);
}

#[test]
fn match_plot_renders_elo_and_llr() {
    let p = MatchPlot::new(
        "A vs B",
        tenfold::arena::stats::Sprt::parse("elo0=0 elo1=5")
            .ok()
            .as_ref(),
    );
    let svg = p.svg();
    svg_size(&svg);
    rsvg_png_size(&svg, "plot");
}

fn tenfold_cmd(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn cli_writes_pictures_and_refuses_bad_input_in_one_line() {
    let out = tenfold_cmd(&["diagram", "--variant", "shako", "--arrows", "e2e4"]);
    assert!(out.status.success());
    svg_size(&String::from_utf8(out.stdout).unwrap());
    let file = common::temp_path("cli-diagram.svg");
    let path = file.to_str().unwrap();
    let out = tenfold_cmd(&["diagram", "--variant", "archmage", "--flip", "--svg", path]);
    assert!(out.status.success() && out.stdout.is_empty());
    svg_size(&std::fs::read_to_string(&file).unwrap());
    let out = tenfold_cmd(&["describe", "--variant", "augsburg", "L", "--svg", path]);
    assert!(out.status.success());
    svg_size(&std::fs::read_to_string(&file).unwrap());
    let _ = std::fs::remove_file(&file);
    for bad in [
        vec!["diagram", "--arrows", "e2e9"],
        vec!["diagram", "--svg", "/nonexistent/dir/x.svg"],
        vec!["describe", "--from", "e4"],
        vec!["describe", "Xq", "--svg", "/tmp/never-written.svg"],
    ] {
        let out = tenfold_cmd(&bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
    }
    assert!(!Path::new("/tmp/never-written.svg").exists());
}

/// DESIGN.md: "`--json` prints one JSON object on stdout instead of the human text" —
/// for `diagram` the SVG as a string, or the file it was written to with `--svg` (it
/// printed the bare SVG, and nothing at all with `--svg`).
#[test]
fn diagram_json_is_one_object_with_the_svg_or_its_file() {
    let out = tenfold_cmd(&["diagram", "--variant", "shako", "--json"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    assert_eq!(v.as_object().unwrap().len(), 1, "{text}");
    svg_size(v["svg"].as_str().expect("the SVG as a string"));
    let file = common::temp_path("cli-diagram-json.svg");
    let path = file.to_str().unwrap();
    let out = tenfold_cmd(&["diagram", "--svg", path, "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v, serde_json::json!({ "file": path }));
    svg_size(&std::fs::read_to_string(&file).unwrap());
    let _ = std::fs::remove_file(&file);
}

/// `describe --svg FILE --json` names its file as `diagram --svg --json` does (the key
/// was missing), beside the description itself; without `--svg` there is no such key.
#[test]
fn describe_json_names_the_svg_file_it_wrote() {
    let file = common::temp_path("cli-describe-json.svg");
    let path = file.to_str().unwrap();
    let out = tenfold_cmd(&["describe", "N", "--svg", path, "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["file"], path);
    assert_eq!(v["betza"], "N");
    svg_size(&std::fs::read_to_string(&file).unwrap());
    let _ = std::fs::remove_file(&file);
    let out = tenfold_cmd(&["describe", "N", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(v.get("file").is_none(), "{v}");
}

#[test]
fn match_plot_is_rewritten_after_each_game() {
    let file = common::temp_path("cli-plot.svg");
    let path = file.to_str().unwrap();
    let out = tenfold_cmd(&[
        "match",
        "--engine",
        "name=G,player=greedy",
        "--engine",
        "name=R,player=random",
        "--games",
        "4",
        "--maxmoves",
        "30",
        "--sprt",
        "elo0=0 elo1=50",
        "--plot",
        path,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    svg_size(&svg);
    assert!(svg.contains("H1 ") && svg.contains("Elo ± 95%"));
    // One Elo line point per game.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let elo_line = doc
        .descendants()
        .find(|n| n.has_tag_name("polyline"))
        .and_then(|n| n.attribute("points"))
        .unwrap();
    assert_eq!(elo_line.split(' ').count(), 4);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_committed_pictures_are_what_the_commands_make() {
    // The same commands as scripts/pictures.sh.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures");
    let fen = "4k3/8/3p4/2p5/3N1p2/8/3P4/4K3 w - - 0 1";
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            "wildeurasian.svg".into(),
            vec!["diagram", "--variant", "wildeurasian"],
        ),
        (
            "archmage.svg".into(),
            vec!["diagram", "--variant", "archmage"],
        ),
        (
            "augsburg.svg".into(),
            vec!["diagram", "--variant", "augsburg"],
        ),
        (
            "combined-arms.svg".into(),
            vec!["diagram", "--variant", "combined-arms"],
        ),
        (
            "wildeurasian-cannon.svg".into(),
            vec!["describe", "--variant", "wildeurasian", "C"],
        ),
        (
            "archmage-griffon.svg".into(),
            vec!["describe", "--variant", "archmage", "G"],
        ),
        (
            "augsburg-longbowman.svg".into(),
            vec!["describe", "--variant", "augsburg", "L"],
        ),
        (
            "combined-arms-armor.svg".into(),
            vec![
                "describe",
                "--variant",
                "combined-arms",
                "--fen",
                fen,
                "--from",
                "d4",
            ],
        ),
    ];
    for (name, mut args) in cases {
        let fresh = common::temp_path(&format!("fresh-{name}"));
        args.extend(["--svg", fresh.to_str().unwrap()]);
        assert!(tenfold_cmd(&args).status.success(), "{name}");
        let made = std::fs::read_to_string(&fresh).unwrap();
        let _ = std::fs::remove_file(&fresh);
        let committed = std::fs::read_to_string(dir.join(&name)).unwrap();
        assert!(
            made == committed,
            "docs/pictures/{name} is stale: run scripts/pictures.sh"
        );
    }
}

#[test]
fn svg_output_follows_a_link_and_leaves_a_device_in_place() {
    use std::os::unix::fs::FileTypeExt;
    // A link keeps being a link, and its target gets the picture.
    let target = common::temp_path("linked-target.svg");
    let link = common::temp_path("link.svg");
    std::fs::write(&target, "old").unwrap();
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = tenfold_cmd(&["diagram", "--svg", link.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    svg_size(&std::fs::read_to_string(&target).unwrap());
    // Checked only after the link: a device is written into, never replaced.
    let out = tenfold_cmd(&["diagram", "--svg", "/dev/null"]);
    assert!(out.status.success(), "{out:?}");
    let null = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device());
}

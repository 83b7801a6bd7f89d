//! Helpers shared by the integration tests (`mod common;` in each test file, once in
//! `games/main.rs` for the games' modules). Not every test file uses every helper.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;
use tenfold::perft::suite::{parse_suite, SuiteLine};
use tenfold::{MoveList, Position};

/// Xorshift64 (13, 7, 17): a tiny deterministic generator, so that a failing seeded test
/// fails the same way on every machine. The state must not be zero.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform enough in `0..n` (0 when `n` is 0, so that an empty list does not panic
    /// here but where it is indexed).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// The legal moves of `p` as written by the engine, sorted: the form every comparison
/// with a reference generator or with a ruling's expected list uses.
pub fn sorted_moves(p: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| p.move_to_string(m)).collect();
    v.sort();
    v
}

/// Fails with the moves only one side generates; both lists sorted.
pub fn assert_same_moves(engine: &[String], reference: &[String], context: &str) {
    if engine != reference {
        let only_e: Vec<_> = engine.iter().filter(|m| !reference.contains(m)).collect();
        let only_r: Vec<_> = reference.iter().filter(|m| !engine.contains(m)).collect();
        panic!(
            "{context}: engine only {only_e:?}, reference only {only_r:?} \
             (both empty: a move is listed twice)"
        );
    }
}

/// The lines of `perft/<name>.epd`.
pub fn suite(name: &str) -> Vec<SuiteLine> {
    let origin = format!("perft/{name}.epd");
    let path = format!("{}/{origin}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_suite(&text, &origin).unwrap()
}

/// The path `name` in a directory of this test process's own, so that parallel test
/// binaries and earlier runs never see each other's files.
pub fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tenfold-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs the `tenfold` binary with `args`: exit code (-1 if killed), stdout, stderr.
pub fn tenfold<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(args)
        .output()
        .expect("run tenfold");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`tenfold`], killed after `secs` seconds: `None` if it had not finished by then, so
/// that a hang fails its test instead of stalling the suite.
pub fn tenfold_within<S: AsRef<OsStr>>(args: &[S], secs: u64) -> Option<(i32, String, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tenfold"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run tenfold");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().expect("wait for tenfold").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("read tenfold's output");
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

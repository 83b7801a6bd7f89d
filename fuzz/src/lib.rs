//! Runs a fuzz target on saved inputs when libFuzzer is not there (stable Rust).

use std::io::Read;

/// Runs `target` on each file named on the command line, or on stdin if none is.
pub fn replay(target: tenfold::fuzz::Target) {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        let mut data = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut data) {
            eprintln!("stdin: {e}");
            std::process::exit(2);
        }
        target(&data);
        return;
    }
    for p in paths {
        match std::fs::read(&p) {
            Ok(data) => {
                target(&data);
                println!("{p}: ok");
            }
            Err(e) => {
                eprintln!("{p}: {e}");
                std::process::exit(2);
            }
        }
    }
}

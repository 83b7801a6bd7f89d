//! What a command shows once it is done, as text or as one JSON object (`--json`), so
//! that a front end only chooses between the two and prints.

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use std::io::Write as _;

/// A command's final output in both of its forms.
pub trait Report {
    /// The text form; every line, the last included, ends in `\n`.
    fn text(&self) -> String;
    /// The JSON form: one object.
    fn to_json(&self) -> Value;
}

/// A usage error as clap renders it, on one line: the paragraph that says what is wrong
/// (with the arguments a missing-argument error lists beneath it), without the `error: `
/// label, the usage and the `--help` hint that follow.
pub fn one_line_usage(rendered: &str) -> String {
    let what = rendered.split("\n\n").next().unwrap_or_default();
    let line = what
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).to_string()
}

/// The command line with every option taking a negative number as its value, so that
/// `--depth -1` is refused as a bad depth, naming `--depth`, not as an unknown option `-1`.
pub fn negative_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| a.allow_negative_numbers(true))
        .mut_subcommands(negative_values)
}

/// Ends the process on a command-line error: help and version print as clap prints
/// them (status 0); a usage error is one line, as every other error is, with status 2.
pub fn exit_on_usage_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind as K;
    if let K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand =
        e.kind()
    {
        e.exit()
    }
    let line = match (e.kind(), invalid_utf8_argument(std::env::args_os())) {
        (K::InvalidUtf8, Some(named)) => named,
        _ => one_line_usage(&e.render().to_string()),
    };
    eprintln!("tenfold: {line}");
    std::process::exit(2)
}

/// clap's error for an argument that is not UTF-8 names none: this names the first
/// such argument (its bytes escaped) by its place and the argument before it, or by its
/// option when written `--option=value`.
fn invalid_utf8_argument(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<String> {
    let args: Vec<_> = args.into_iter().collect();
    let i = args.iter().position(|a| a.to_str().is_none())?;
    let bytes = args[i].as_encoded_bytes();
    if let Some(eq) = bytes.iter().position(|&b| b == b'=') {
        if bytes.starts_with(b"--") && bytes[..eq].is_ascii() {
            let option = String::from_utf8_lossy(&bytes[..eq]);
            let value = bytes[eq + 1..].escape_ascii();
            return Some(format!("the value of {option}, \"{value}\", is not UTF-8"));
        }
    }
    // The argument before it may be a flag rather than the option it is the value of:
    // it is named as a place only.
    let value = bytes.escape_ascii();
    Some(match args[..i].last().and_then(|a| a.to_str()) {
        Some(before) if i > 1 => format!("argument {i}, \"{value}\" after {before}, is not UTF-8"),
        _ => format!("argument {i}, \"{value}\", is not UTF-8"),
    })
}

/// Prints text whose lines already end in `\n` on stdout. When the reader has gone
/// (`tenfold moves | head -1`) the process ends quietly with the status a program killed
/// by SIGPIPE has in a shell (141), not 0: a perft suite cut off there has checked
/// nothing, and `set -o pipefail` must not see it pass. Any other failure to write (a
/// full disk) is an error line and status 2.
pub fn put(text: &str) {
    if let Err(e) = std::io::stdout().write_all(text.as_bytes()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
        eprintln!("tenfold: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// Prints one line on stdout, as quietly on a broken pipe as [`put`].
pub fn say(line: &str) {
    put(&format!("{line}\n"));
}

/// Finished items (suite lines, games) counted on a bar with each item's line printed
/// above it; with no terminal to draw on, the lines go to stdout, and with JSON nowhere.
pub struct LineBar {
    bar: Option<ProgressBar>,
    lines: bool,
}

impl LineBar {
    /// A bar of `len` items drawn with `template` when `terminal` and not `json`.
    pub fn new(terminal: bool, json: bool, len: usize, template: &str) -> LineBar {
        let bar = (terminal && !json).then(|| {
            ProgressBar::new(len as u64).with_style(
                ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            )
        });
        LineBar { bar, lines: !json }
    }

    /// One finished item's line, then the status after it (the bar's message) if any.
    pub fn item(&self, line: &str, status: Option<&str>) {
        match &self.bar {
            Some(b) => {
                b.println(line);
                if let Some(s) = status {
                    b.set_message(s.to_string());
                }
                b.inc(1);
            }
            None if self.lines => {
                say(line);
                status.into_iter().for_each(say);
            }
            None => {}
        }
    }

    /// Clears the bar before the result is printed.
    pub fn finish(&self) {
        self.bar.iter().for_each(ProgressBar::finish_and_clear);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_usage_error_keeps_what_is_wrong_on_one_line() {
        let invalid = "error: invalid value '3/3' for '--shard <SHARD>': index 3 is not below 3\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line_usage(invalid),
            "invalid value '3/3' for '--shard <SHARD>': index 3 is not below 3"
        );
        // The arguments missing are listed beneath the first line: they stay.
        let missing = "error: the following required arguments were not provided:\n  --data <DATA>...\n\nUsage: tenfold tune --data <DATA>...\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line_usage(missing),
            "the following required arguments were not provided: --data <DATA>..."
        );
    }
}

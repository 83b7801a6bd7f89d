//! What a command shows once it is done, as text or as one JSON object (`--json`), so
//! that a front end only chooses between the two and prints.

use serde_json::Value;

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

/// Ends the process on a command-line error: help and version print as clap prints
/// them (status 0); a usage error is one line, as every other error is, with status 2.
pub fn exit_on_usage_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind as K;
    if let K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand =
        e.kind()
    {
        e.exit()
    }
    eprintln!("tenfold: {}", one_line_usage(&e.render().to_string()));
    std::process::exit(2)
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

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

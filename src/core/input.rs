//! Reading a user's text file with a size cap: a path such as `/dev/zero` or a runaway
//! file must end in an error, not in reading until memory runs out.

use std::io::Read;

/// Largest variant table read (real tables are a few KB).
pub const MAX_TABLE_BYTES: u64 = 1 << 20;
/// Largest suite, PGN or opening file read.
pub const MAX_LIST_BYTES: u64 = 256 << 20;

/// Why a file could not be read as text.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Opening or reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file goes on past the cap.
    #[error("larger than {0} bytes")]
    TooLarge(u64),
    /// The bytes are not UTF-8 text.
    #[error("not UTF-8 text")]
    NotText,
}

/// The text of the file at `path`, refused when longer than `cap` bytes.
pub fn read_text(path: &str, cap: u64) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_refused_at_the_cap() {
        assert!(matches!(
            read_text("/dev/zero", 1000),
            Err(ReadError::TooLarge(1000))
        ));
    }
}

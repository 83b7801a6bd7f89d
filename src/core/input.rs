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

/// The UTF-8 byte order mark some editors (Notepad among them) put at a file's start.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text of the file at `path`, refused when longer than `cap` bytes. A leading byte
/// order mark is dropped: it is no character of the text, and left in it would be read
/// as part of the first FEN, key or tag.
pub fn read_text(path: &str, cap: u64) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
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

    #[test]
    fn a_byte_order_mark_at_the_start_is_not_part_of_the_text() {
        let dir = std::env::temp_dir().join(format!("tenfold-bom-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("suite.epd");
        std::fs::write(&path, b"\xEF\xBB\xBF8/8 w - - 0 1 ;D1 3\n").unwrap();
        let text = read_text(path.to_str().unwrap(), 1000).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text, "8/8 w - - 0 1 ;D1 3\n");
    }
}

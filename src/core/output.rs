//! Output files written whole: a regular file (or a new one) is written beside itself
//! and renamed into place, so that a reader never sees half of it and a run that fails
//! leaves the old file as it was; anything else is written where it is.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Devices and the process's own streams live here: written in place, never replaced.
fn is_special(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// The regular file a rename must land on for `path`, or `None` when `path` is to be
/// written in place: a device, a fifo, or a link to one (`/dev/stdout`). A link to a
/// regular file is followed, so that the link survives and its target is the one
/// updated.
fn rename_target(path: &Path) -> Option<PathBuf> {
    if is_special(path) {
        return None;
    }
    match std::fs::symlink_metadata(path) {
        // Absent, or not to be looked at: creating the file will say why not.
        Err(_) => Some(path.to_path_buf()),
        Ok(m) if m.file_type().is_file() => Some(path.to_path_buf()),
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path)
            .ok()
            .filter(|real| !is_special(real) && real.is_file()),
        Ok(_) => None,
    }
}

/// An output file being written; [`Output::commit`] makes it visible. Dropped without
/// a commit, it leaves the path as it was (for a file written in place, as far as it
/// got).
pub struct Output {
    file: io::BufWriter<File>,
    /// The temporary file and the path it is renamed to.
    rename: Option<(PathBuf, PathBuf)>,
}

impl Output {
    /// Starts writing `path`; nothing at `path` changes yet unless it is written in place.
    pub fn create(path: &str) -> io::Result<Output> {
        let (file, rename) = match rename_target(Path::new(path)) {
            Some(target) => {
                let mut tmp = target.clone().into_os_string();
                tmp.push(format!(".tmp{}", std::process::id()));
                let tmp = PathBuf::from(tmp);
                (File::create(&tmp)?, Some((tmp, target)))
            }
            None => (File::create(path)?, None),
        };
        Ok(Output {
            file: io::BufWriter::new(file),
            rename,
        })
    }

    /// Flushes the file and puts it in place.
    pub fn commit(mut self) -> io::Result<()> {
        self.file.flush()?;
        match self.rename.take() {
            Some((tmp, target)) => std::fs::rename(&tmp, &target).inspect_err(|_| {
                let _ = std::fs::remove_file(&tmp);
            }),
            None => Ok(()),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some((tmp, _)) = &self.rename {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Writes `bytes` to `path` whole (see the module's comment).
pub fn write_whole(path: &str, bytes: &[u8]) -> io::Result<()> {
    let mut out = Output::create(path)?;
    out.write_all(bytes)?;
    out.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_links_to_them_are_written_in_place() {
        assert_eq!(rename_target(Path::new("/dev/null")), None);
        assert_eq!(rename_target(Path::new("/dev/stdout")), None);
    }
}

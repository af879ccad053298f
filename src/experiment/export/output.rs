//! One file being written: whole under its final name or not at all, or in place where the
//! destination is a device or a FIFO, with every failure reported with the file's name.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{ExportError, write_error};

/// How a destination is written, found out before anything is.
#[derive(Debug)]
pub(crate) enum Destination {
    /// A regular file, or none yet: written under a temporary name beside the file (the link's
    /// target, for a symbolic link) and renamed over it once complete.
    Replace(PathBuf),
    /// An existing file that is not a regular file (a character device such as `/dev/full` or
    /// `/dev/stdout`, a FIFO): written in place, since renaming over it would replace the
    /// node itself, and its errors (no space left on `/dev/full`) would never be seen.
    InPlace,
}

/// How `path` is to be written. A missing file's directory is created here, so that a run
/// that cannot write its results fails before its work.
///
/// # Errors
/// [`ExportError::Directory`] for a directory, [`ExportError::Write`] with the system's reason
/// when the path cannot be looked up (a component that is a regular file, say) or its
/// directory cannot be created.
pub(crate) fn destination(path: &Path) -> Result<Destination, ExportError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(ExportError::Directory {
            path: path.display().to_string(),
        }),
        // Renaming over a symbolic link would replace the link: write beside its target.
        Ok(meta) if meta.is_file() => std::fs::canonicalize(path)
            .map(Destination::Replace)
            .map_err(write_error(path)),
        Ok(_) => Ok(Destination::InPlace),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(write_error(path))?;
            }
            Ok(Destination::Replace(path.to_path_buf()))
        }
        Err(error) => Err(write_error(path)(error)),
    }
}

/// The temporary name a file is written under before it is renamed to `path`. It carries the
/// process id, so that processes writing the same file at once (the tasks of a job array in
/// one folder) never take each other's temporary away: the last rename wins, whole.
fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// A temporary file and the name it takes once complete.
#[derive(Debug)]
struct Rename {
    temporary: PathBuf,
    destination: PathBuf,
}

/// A file being written. Its errors name the path it was created with.
/// Dropped before [`Output::finish`], it removes its temporary file, so that a failed run
/// leaves nothing half-written behind.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    writer: BufWriter<File>,
    /// `None` once renamed into place, and for a file written in place.
    rename: Option<Rename>,
}

impl Output {
    /// Opens `path` for writing (its directory is created when missing).
    ///
    /// # Errors
    /// [`ExportError`] naming `path` when it is a directory or cannot be opened.
    pub fn create(path: &Path) -> Result<Output, ExportError> {
        let (file, rename) = match destination(path)? {
            Destination::Replace(destination) => {
                let temporary = temporary(&destination);
                let file = File::create(&temporary).map_err(write_error(path))?;
                let rename = Rename {
                    temporary,
                    destination,
                };
                (file, Some(rename))
            }
            Destination::InPlace => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(write_error(path))?;
                (file, None)
            }
        };
        Ok(Output {
            path: path.to_path_buf(),
            writer: BufWriter::new(file),
            rename,
        })
    }

    /// Checks, before a long run whose file is written at its end, that `path` can be opened
    /// as [`Output::create`] opens it, leaving nothing behind (the temporary file of a regular
    /// file is created and removed), so that an interrupted run leaves no empty file either.
    /// A device or a FIFO is not opened: a FIFO would wait for its reader, then lose it.
    ///
    /// # Errors
    /// As [`Output::create`].
    pub fn check(path: &Path) -> Result<(), ExportError> {
        match destination(path)? {
            Destination::Replace(destination) => {
                let temporary = temporary(&destination);
                File::create(&temporary)
                    .and_then(|_| std::fs::remove_file(&temporary))
                    .map_err(write_error(path))
            }
            Destination::InPlace => Ok(()),
        }
    }

    /// The path the file was created with.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Completes the file: flushes it and, for a regular file, syncs it to disk (so that a
    /// write the system only fails at that point is seen) and renames it into place.
    ///
    /// # Errors
    /// [`ExportError::Write`] naming the file, with the system's reason.
    pub fn finish(mut self) -> Result<(), ExportError> {
        self.writer.flush().map_err(write_error(&self.path))?;
        if let Some(rename) = &self.rename {
            self.writer
                .get_ref()
                .sync_all()
                .and_then(|()| std::fs::rename(&rename.temporary, &rename.destination))
                .map_err(write_error(&self.path))?;
            self.rename = None;
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.writer.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(rename) = &self.rename {
            // Nobody is left to tell if this fails; the error that mattered was the first.
            let _ = std::fs::remove_file(&rename.temporary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        crate::experiment::scratch_dir(&format!("output-{name}"))
    }

    #[test]
    fn an_unfinished_file_leaves_nothing_and_the_old_file_stays() {
        let dir = scratch("drop");
        let path = dir.join("a.csv");
        std::fs::write(&path, "old").unwrap();
        let mut output = Output::create(&path).unwrap();
        output.write_all(b"new, but never finished").unwrap();
        drop(output);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_check_leaves_nothing_behind_and_refuses_what_create_refuses() {
        let dir = scratch("check");
        Output::check(&dir.join("sub").join("a.csv")).unwrap();
        assert_eq!(std::fs::read_dir(dir.join("sub")).unwrap().count(), 0);
        let error = Output::check(&dir).unwrap_err();
        assert!(matches!(error, ExportError::Directory { .. }), "{error}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_stays_a_link_to_the_new_file() {
        let dir = scratch("link");
        let (target, link) = (dir.join("target.csv"), dir.join("link.csv"));
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut output = Output::create(&link).unwrap();
        output.write_all(b"new").unwrap();
        output.finish().unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_directory_or_a_path_under_a_file_is_refused_naming_the_path() {
        let dir = scratch("refused");
        let error = Output::create(&dir).unwrap_err();
        assert!(matches!(error, ExportError::Directory { .. }), "{error}");
        let file = dir.join("file");
        std::fs::write(&file, "").unwrap();
        let under = file.join("x.csv");
        let error = Output::create(&under).unwrap_err().to_string();
        assert!(error.contains(&under.display().to_string()), "{error}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_written_in_place_and_its_errors_are_seen() {
        use std::os::unix::fs::FileTypeExt;
        let full = Path::new("/dev/full");
        if !full
            .metadata()
            .is_ok_and(|m| m.file_type().is_char_device())
        {
            return;
        }
        let mut output = Output::create(full).unwrap();
        let _ = output.write_all(b"row\n");
        let error = output.finish().unwrap_err().to_string();
        assert!(error.starts_with("cannot write /dev/full: "), "{error}");
        assert!(full.metadata().unwrap().file_type().is_char_device());
    }
}

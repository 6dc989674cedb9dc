//! The files a user names: read bounded, written whole, at the path meant.
//!
//! # Reading
//!
//! [`read_capped`] reads a regular file of at most a stated size. A named
//! pipe would block until a writer appears and a device like `/dev/zero`
//! never ends, so anything that is not a regular file (after following
//! symbolic links) is refused before it is opened, and a file that grows
//! past the limit while it is read is refused once the limit is passed —
//! never read to the end. The limits ([`MAX_TEXT_BYTES`],
//! [`MAX_RULEBASE_BYTES`]) are far above any real input: a 1000×1000 field's
//! `values.csv` is about 2 MB, the order-3 rulebase 2.2 MB.
//!
//! # Writing
//!
//! [`write_whole`] replaces a file so that it is always either the old
//! file or the new one, never a part:
//!
//! 1. the path is resolved through symbolic links to the file they name
//!    (writing *through* a link, the link itself left as it is);
//! 2. a target that exists and is not a regular file — a folder, a device
//!    such as `/dev/null`, a pipe — is refused: it is never replaced by a
//!    regular file;
//! 3. the bytes go to a hidden temporary file beside the target
//!    (`.NAME.tmp-PID`, same folder, so the rename stays on one file
//!    system), which is synced to disk and renamed over the target, and the
//!    folder is synced so the rename itself survives a crash;
//! 4. on any error, or a panic, the temporary file is removed. A process
//!    killed outright cannot clean up: temporary files of processes that no
//!    longer run are removed by the next write to the same target.
//!
//! # Updating under a lock
//!
//! [`FolderLock`] holds an exclusive advisory lock on the target's folder
//! (`flock`, through [`std::fs::File::lock`]) while a caller reads, merges
//! and writes a file, so two processes updating the same file one after the
//! other lose nothing (`solve --learn`).

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Most bytes read from a text input (a field's CSV file, a position).
pub const MAX_TEXT_BYTES: u64 = 64 << 20;
/// Most bytes read from a rulebase file.
pub const MAX_RULEBASE_BYTES: u64 = 256 << 20;
/// Symbolic links followed when resolving a path to write.
const MAX_LINKS: usize = 40;

/// A file could not be read or written: which file, and what is wrong,
/// in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct FileError {
    /// The file as the caller named it (a folder, for [`FolderLock`]).
    pub path: PathBuf,
    /// What is wrong with it, in words (no OS error number).
    pub reason: String,
}

impl FileError {
    fn new(path: &Path, reason: impl Into<String>) -> FileError {
        FileError {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }

    fn io(path: &Path, doing: &str, e: &std::io::Error) -> FileError {
        FileError::new(path, format!("{doing}: {}", describe_io(e)))
    }
}

/// An I/O error in words, without the OS error number.
pub fn describe_io(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match e.kind() {
        NotFound => "file or folder not found".into(),
        PermissionDenied => "permission denied".into(),
        IsADirectory => "is a folder, expected a file".into(),
        NotADirectory => "a part of the path is a file, not a folder".into(),
        StorageFull => "no space left on the device".into(),
        ReadOnlyFilesystem => "the file system is read-only".into(),
        _ => {
            // Keep the OS's words, drop "(os error N)".
            let text = e.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}

/// What a path that is not a regular file is, for messages.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// The bytes of the regular file at `path` (symbolic links followed), at
/// most `limit` of them.
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let (file, len) = open_capped(path, limit)?;
    // Sized for the file as it is now (plus the byte that tells "grew past
    // the limit"): a large file is read into one allocation, never copied
    // from a smaller one while it grows.
    read_limited(file, limit, len as usize + 1).map_err(|e| match e {
        Limited::TooLarge => too_large(path, limit),
        Limited::Io(e) => FileError::io(path, "cannot read", &e),
    })
}

/// The regular file at `path` (symbolic links followed), open for reading,
/// and its length, which is at most `limit`: for a file read as a stream
/// (a reader must still stop at the length it was given, as the file may
/// grow).
pub fn open_capped(path: &Path, limit: u64) -> Result<(File, u64), FileError> {
    let meta = std::fs::metadata(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            FileError::new(path, "file not found")
        } else {
            FileError::io(path, "cannot read", &e)
        }
    })?;
    if !meta.is_file() {
        return Err(FileError::new(
            path,
            format!("is {}, expected a regular file", kind_of(&meta)),
        ));
    }
    if meta.len() > limit {
        return Err(too_large(path, limit));
    }
    let file = File::open(path).map_err(|e| FileError::io(path, "cannot read", &e))?;
    Ok((file, meta.len()))
}

/// At most `limit` bytes from a stream (standard input); more is an error
/// naming `name`.
pub fn read_stream_capped(
    stream: impl Read,
    name: &Path,
    limit: u64,
) -> Result<Vec<u8>, FileError> {
    read_limited(stream, limit, 4096).map_err(|e| match e {
        Limited::TooLarge => too_large(name, limit),
        Limited::Io(e) => FileError::io(name, "cannot read", &e),
    })
}

enum Limited {
    TooLarge,
    Io(std::io::Error),
}

fn read_limited(stream: impl Read, limit: u64, capacity: usize) -> Result<Vec<u8>, Limited> {
    let mut bytes = Vec::with_capacity(capacity);
    // One byte past the limit tells "exactly at the limit" from "more".
    stream
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Limited::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Limited::TooLarge);
    }
    Ok(bytes)
}

fn too_large(path: &Path, limit: u64) -> FileError {
    FileError::new(
        path,
        format!(
            "is larger than {} MB, more than any input sapper reads; refusing to read it",
            limit >> 20
        ),
    )
}

/// Most bytes of one line of a line protocol (`sapper engine`): a
/// position of 1,000,000 cells as JSON rows takes about 1 MB.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// What [`LineReader::next_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line is in the buffer (its line end removed).
    Read,
    /// The line passed the limit: it is reported at once, without waiting
    /// for its end, and the rest of it is skipped (never held) before the
    /// next line is read; the buffer is empty.
    TooLong,
    /// The stream ended: no more lines.
    End,
}

/// Lines of a stream, each held only up to a limit: what a line protocol
/// (`sapper engine`) reads, so that no input makes it grow. A line longer
/// than the limit is reported as soon as it passes the limit — a client
/// that sends one gets an answer even if the line never ends — and its
/// remainder is skipped. A last line without a line end counts.
pub struct LineReader<R> {
    stream: R,
    limit: usize,
    /// Inside a line already reported as too long.
    skipping: bool,
}

impl<R: std::io::BufRead> LineReader<R> {
    /// Lines of `stream`, each of at most `limit` bytes.
    pub fn new(stream: R, limit: usize) -> LineReader<R> {
        LineReader {
            stream,
            limit,
            skipping: false,
        }
    }

    /// Reads the next line into `buf` (cleared first).
    pub fn next_line(&mut self, buf: &mut Vec<u8>) -> std::io::Result<Line> {
        buf.clear();
        if self.skipping {
            // The rest of a line already answered: drop it.
            loop {
                let chunk = self.stream.fill_buf()?;
                if chunk.is_empty() {
                    return Ok(Line::End);
                }
                match chunk.iter().position(|&b| b == b'\n') {
                    Some(at) => {
                        self.stream.consume(at + 1);
                        self.skipping = false;
                        break;
                    }
                    None => {
                        let n = chunk.len();
                        self.stream.consume(n);
                    }
                }
            }
        }
        let mut any = false;
        loop {
            let chunk = self.stream.fill_buf()?;
            if chunk.is_empty() {
                return Ok(if any { Line::Read } else { Line::End });
            }
            any = true;
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(at) => (at, true),
                None => (chunk.len(), false),
            };
            if buf.len() + take > self.limit {
                buf.clear();
                buf.shrink_to(4096);
                // Drop what is in hand; the rest of the line is skipped
                // on the next call.
                self.stream.consume(if done { take + 1 } else { take });
                self.skipping = !done;
                return Ok(Line::TooLong);
            }
            buf.extend_from_slice(&chunk[..take]);
            self.stream.consume(if done { take + 1 } else { take });
            if done {
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(Line::Read);
            }
        }
    }
}

/// The file a write to `path` should replace: `path` with every symbolic
/// link along it (the last component included) followed. The target need
/// not exist yet; its folder must.
pub fn write_target(path: &Path) -> Result<PathBuf, FileError> {
    if path.as_os_str().is_empty() {
        return Err(FileError::new(path, "an empty path; expected a file name"));
    }
    let ends_with_separator = path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::MAIN_SEPARATOR);
    if ends_with_separator || path.file_name().is_none() {
        return Err(FileError::new(
            path,
            "names a folder (it ends with a separator); expected a file name",
        ));
    }
    let mut target = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&target)
                    .map_err(|e| FileError::io(path, "cannot follow the symbolic link", &e))?;
                target = match target.parent() {
                    Some(parent) => parent.join(link),
                    None => link,
                };
            }
            Ok(meta) if !meta.is_file() => {
                let shown = if target == path {
                    String::new()
                } else {
                    format!(" (the link leads to {})", target.display())
                };
                return Err(FileError::new(
                    path,
                    format!(
                        "is {}{shown}; refusing to replace it with a regular file",
                        kind_of(&meta)
                    ),
                ));
            }
            Ok(_) => return Ok(target),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let folder = folder_of(&target);
                return match std::fs::metadata(folder) {
                    Ok(meta) if meta.is_dir() => Ok(target),
                    Ok(_) => Err(FileError::new(
                        path,
                        format!("{} is not a folder", folder.display()),
                    )),
                    Err(_) => Err(FileError::new(
                        path,
                        format!("the folder {} does not exist", folder.display()),
                    )),
                };
            }
            Err(e) => return Err(FileError::io(path, "cannot write", &e)),
        }
    }
    Err(FileError::new(
        path,
        format!("more than {MAX_LINKS} symbolic links to follow (a loop?)"),
    ))
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Replaces the file at `path` (through symbolic links) with `bytes`, whole
/// or not at all (see the module doc). Returns the file written.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<PathBuf, FileError> {
    let mut file = WholeFile::create(path)?;
    file.write_all(bytes)
        .map_err(|e| FileError::io(path, "cannot write", &e))?;
    file.commit()
}

/// A file written as a stream that replaces the file at `path` (through
/// symbolic links) whole or not at all: the bytes go to a temporary file
/// beside it, moved into place by [`WholeFile::commit`]; dropped without a
/// commit (an error, a panic), the temporary file is removed and `path` is
/// untouched. Creating it checks at once that the file can be written, so
/// a long computation is not wasted on an output that would fail; errors
/// name `path`, not the temporary file.
pub struct WholeFile {
    path: PathBuf,
    target: PathBuf,
    folder: PathBuf,
    file: std::io::BufWriter<File>,
    temporary: Temporary,
}

impl WholeFile {
    /// Opens the temporary file beside `path`'s target.
    pub fn create(path: &Path) -> Result<WholeFile, FileError> {
        let target = write_target(path)?;
        let folder = folder_of(&target).to_path_buf();
        let name = target
            .file_name()
            .expect("write_target returns a file name")
            .to_string_lossy()
            .into_owned();
        remove_stale_temporaries(&folder, &name);
        let temporary = Temporary {
            path: folder.join(format!(".{name}.tmp-{}", std::process::id())),
        };
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temporary.path)
            .map_err(|e| FileError::io(path, "cannot create a temporary file beside it", &e))?;
        Ok(WholeFile {
            path: path.to_path_buf(),
            target,
            folder,
            file: std::io::BufWriter::with_capacity(1 << 16, file),
            temporary,
        })
    }

    /// Flushes, syncs and moves the file into place. Returns the file
    /// written.
    pub fn commit(self) -> Result<PathBuf, FileError> {
        let fail = |doing: &str, e: &std::io::Error| FileError::io(&self.path, doing, e);
        let file = self
            .file
            .into_inner()
            .map_err(|e| fail("cannot write", e.error()))?;
        file.sync_all()
            .map_err(|e| fail("cannot sync to disk", &e))?;
        drop(file);
        std::fs::rename(&self.temporary.path, &self.target)
            .map_err(|e| fail("cannot move the new file into place", &e))?;
        self.temporary.committed();
        // The rename is in the folder's entries: sync the folder too (where
        // the platform lets a folder be opened and synced).
        if let Ok(dir) = File::open(&self.folder) {
            let _ = dir.sync_all();
        }
        Ok(self.target)
    }

    /// An I/O error of this file in words, naming `path`.
    pub fn error(&self, e: &std::io::Error) -> FileError {
        FileError::io(&self.path, "cannot write", e)
    }
}

impl Write for WholeFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// A temporary file removed when dropped (on every error path, and when a
/// panic unwinds), unless it was renamed into place.
struct Temporary {
    path: PathBuf,
}

impl Temporary {
    fn committed(self) {
        std::mem::forget(self);
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Removes `.NAME.tmp-PID` files in `folder` left by processes that no
/// longer run (killed before they could clean up). Only where running
/// processes can be told (`/proc`); elsewhere nothing is removed.
fn remove_stale_temporaries(folder: &Path, name: &str) {
    let proc_root = Path::new("/proc/self");
    if !proc_root.exists() {
        return;
    }
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// An exclusive advisory lock on the folder of a file, held until dropped:
/// processes that take it before reading and writing the file run one
/// after the other.
pub struct FolderLock {
    _folder: File,
}

impl fmt::Debug for FolderLock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FolderLock")
    }
}

impl FolderLock {
    /// Waits for the lock on the folder holding `path` (after following
    /// symbolic links, so every path to one file takes the same lock).
    pub fn acquire(path: &Path) -> Result<FolderLock, FileError> {
        let target = write_target(path)?;
        let folder = folder_of(&target);
        let handle = File::open(folder)
            .map_err(|e| FileError::io(folder, "cannot open the folder to lock it", &e))?;
        handle
            .lock()
            .map_err(|e| FileError::io(folder, "cannot lock the folder", &e))?;
        Ok(FolderLock { _folder: handle })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct TempDir(PathBuf);
    impl TempDir {
        fn new(tag: &str) -> TempDir {
            let dir =
                std::env::temp_dir().join(format!("sapper-files-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn hidden_files(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect()
    }

    #[test]
    fn a_whole_file_replaces_the_old_one_and_leaves_nothing_beside_it() {
        let dir = TempDir::new("whole");
        let path = dir.0.join("out.rules");
        std::fs::write(&path, b"old").unwrap();
        assert_eq!(write_whole(&path, b"new bytes").unwrap(), path);
        assert_eq!(std::fs::read(&path).unwrap(), b"new bytes");
        assert!(hidden_files(&dir.0).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through_and_kept() {
        let dir = TempDir::new("link");
        let real = dir.0.join("real.rules");
        let link = dir.0.join("link.rules");
        std::fs::write(&real, b"old").unwrap();
        std::os::unix::fs::symlink("real.rules", &link).unwrap();
        assert_eq!(write_whole(&link, b"new").unwrap(), real);
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // A dangling link creates its target.
        let dangling = dir.0.join("dangling.rules");
        std::os::unix::fs::symlink("created.rules", &dangling).unwrap();
        write_whole(&dangling, b"x").unwrap();
        assert_eq!(std::fs::read(dir.0.join("created.rules")).unwrap(), b"x");
        // A loop is an error, not a hang.
        let looped = dir.0.join("loop");
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        let err = write_whole(&looped, b"x").unwrap_err();
        assert!(err.reason.contains("symbolic links"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_pipes_and_folders_are_never_replaced() {
        let err = write_whole(Path::new("/dev/null"), b"x").unwrap_err();
        assert_eq!(
            err.to_string(),
            "/dev/null: is a character device; refusing to replace it with a regular file"
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        let dir = TempDir::new("dev");
        let err = write_whole(&dir.0, b"x").unwrap_err();
        assert!(err.reason.contains("is a folder"), "{err}");
        let err = write_whole(&dir.0.join("missing/x.rules"), b"x").unwrap_err();
        assert!(err.reason.contains("does not exist"), "{err}");
        let with_slash = PathBuf::from(format!("{}/newdir/", dir.0.display()));
        let err = write_whole(&with_slash, b"x").unwrap_err();
        assert!(err.reason.contains("names a folder"), "{err}");
    }

    #[test]
    fn temporaries_of_dead_processes_are_cleaned_up() {
        let dir = TempDir::new("stale");
        let path = dir.0.join("out.rules");
        // No process has this id (above the kernel's pid_max).
        let stale = dir.0.join(".out.rules.tmp-4294967294");
        std::fs::write(&stale, b"half").unwrap();
        let other = dir.0.join(".other.tmp-4294967294");
        std::fs::write(&other, b"not ours").unwrap();
        write_whole(&path, b"x").unwrap();
        if Path::new("/proc/self").exists() {
            assert!(!stale.exists());
        }
        assert!(other.exists());
    }

    #[cfg(unix)]
    #[test]
    fn reads_refuse_devices_pipes_and_oversized_files() {
        let err = read_capped(Path::new("/dev/zero"), MAX_TEXT_BYTES).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/dev/zero: is a character device, expected a regular file"
        );
        let dir = TempDir::new("read");
        let fifo = dir.0.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let err = read_capped(&fifo, MAX_TEXT_BYTES).unwrap_err();
            assert!(err.reason.contains("named pipe"), "{err}");
        }
        let big = dir.0.join("big");
        std::fs::write(&big, vec![b'?'; 2049]).unwrap();
        assert_eq!(read_capped(&big, 2049).unwrap().len(), 2049);
        let err = read_capped(&big, 2048).unwrap_err();
        assert!(err.reason.contains("larger than"), "{err}");
        let err = read_stream_capped(&b"abc"[..], Path::new("-"), 2).unwrap_err();
        assert!(err.to_string().starts_with("-: is larger than"), "{err}");
        let err = read_capped(&dir.0.join("missing"), 10).unwrap_err();
        assert_eq!(err.reason, "file not found");
    }

    /// Lines come whole up to the limit; a longer one is reported before
    /// its end (an endless line gets an answer) and its rest skipped.
    #[test]
    fn lines_are_held_only_up_to_the_limit() {
        let text = b"ab\r\n\n0123456789xyz\nlast";
        let mut lines = LineReader::new(&text[..], 8);
        let mut buf = Vec::new();
        let mut got = Vec::new();
        loop {
            let line = lines.next_line(&mut buf).unwrap();
            if line == Line::End {
                break;
            }
            got.push((line, String::from_utf8(buf.clone()).unwrap()));
        }
        let expected = [
            (Line::Read, "ab"),
            (Line::Read, ""),
            (Line::TooLong, ""),
            (Line::Read, "last"),
        ];
        assert_eq!(got, expected.map(|(l, t)| (l, t.to_string())).to_vec());

        // An endless line: answered once, then read on without growing.
        let endless = std::io::BufReader::with_capacity(64, std::io::repeat(b'0').take(1 << 20));
        let mut lines = LineReader::new(endless, 1000);
        assert_eq!(lines.next_line(&mut buf).unwrap(), Line::TooLong);
        assert_eq!(lines.next_line(&mut buf).unwrap(), Line::End);
        assert!(buf.capacity() <= 4096);
    }
}

//! A corpus: the walk that finds its field folders, and their natural
//! order.

use super::*;

/// The field folders of a corpus and the entries that could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corpus {
    /// In natural order of their relative paths.
    pub fields: Vec<FieldRef>,
    /// Sub-folders that could not be listed, links that lead nowhere or
    /// in a loop: each an error naming the entry. The fields found
    /// elsewhere are still listed.
    pub unreadable: Vec<FormatError>,
}

/// The field folders of `path`: `path` itself if it holds `field_info.csv`,
/// otherwise every folder below it (at any depth) that does, in natural
/// order of their relative paths (`field_2` before `field_10`, see
/// [`natural_cmp`]). Hidden folders (name starting with `.`) are skipped; a
/// field folder is not searched further. A path that does not exist, is not
/// a folder or cannot be listed, or (with nothing unreadable below it)
/// holds no field, is an error; an entry below it that cannot be read is
/// listed in [`Corpus::unreadable`] and the search goes on.
pub fn list_corpus(path: &Path) -> Result<Corpus, FormatError> {
    let meta = std::fs::metadata(path).map_err(|e| {
        let what = if e.kind() == std::io::ErrorKind::NotFound {
            "no such folder".to_string()
        } else {
            format!("cannot read: {e}")
        };
        FormatError::new(
            path,
            format!("{what}; expected a field folder (holding {FIELD_INFO_FILE}) or a corpus"),
        )
    })?;
    if !meta.is_dir() {
        return Err(FormatError::new(
            path,
            format!(
                "is a file; expected a field folder (holding {FIELD_INFO_FILE}) or a corpus \
                 (a folder of field folders)"
            ),
        ));
    }
    if path.join(FIELD_INFO_FILE).is_file() {
        return Ok(Corpus {
            fields: vec![FieldRef {
                name: folder_name(path),
                dir: path.to_path_buf(),
            }],
            unreadable: Vec::new(),
        });
    }

    let entries = std::fs::read_dir(path)
        .map_err(|e| FormatError::new(path, format!("cannot list folder: {}", describe_io(&e))))?;
    let mut found: Vec<(Vec<String>, PathBuf)> = Vec::new();
    let mut unreadable = Vec::new();
    let mut visited = HashSet::new();
    let canonical = path.canonicalize().ok();
    if let Some(c) = &canonical {
        visited.insert(c.clone());
    }
    let mut walk = Walk {
        visited: &mut visited,
        found: &mut found,
        unreadable: &mut unreadable,
    };
    walk.search(path, entries, canonical.as_deref(), &mut Vec::new());
    if found.is_empty() && unreadable.is_empty() {
        return Err(FormatError::new(
            path,
            format!(
                "no field found; expected a folder holding {FIELD_INFO_FILE}, or folders of \
                 such folders"
            ),
        ));
    }
    found.sort_by(|(a, _), (b, _)| {
        a.iter()
            .zip(b)
            .map(|(x, y)| natural_cmp(x, y))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.len().cmp(&b.len()))
    });
    Ok(Corpus {
        fields: found
            .into_iter()
            .map(|(components, dir)| FieldRef {
                name: components.join("/"),
                dir,
            })
            .collect(),
        unreadable,
    })
}

/// [`list_corpus`], where an unreadable entry is an error too (for callers
/// that need every field, like benchmarks).
pub fn find_fields(path: &Path) -> Result<Vec<FieldRef>, FormatError> {
    let corpus = list_corpus(path)?;
    match corpus.unreadable.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(corpus.fields),
    }
}

/// The error number of "too many levels of symbolic links".
#[cfg(target_os = "linux")]
pub(super) const ELOOP: Option<i32> = Some(40);
#[cfg(any(target_os = "macos", target_os = "freebsd", target_os = "openbsd"))]
pub(super) const ELOOP: Option<i32> = Some(62);
#[cfg(not(any(
    target_os = "linux",
    target_os = "macos",
    target_os = "freebsd",
    target_os = "openbsd"
)))]
pub(super) const ELOOP: Option<i32> = None;

/// The state of a corpus search.
pub(super) struct Walk<'a> {
    /// Canonical paths of the folders entered: stops cycles of links.
    visited: &'a mut HashSet<PathBuf>,
    found: &'a mut Vec<(Vec<String>, PathBuf)>,
    unreadable: &'a mut Vec<FormatError>,
}

impl Walk<'_> {
    /// Depth-first search of a folder's `entries` (the folder reached by
    /// the relative components `rel`; `canonical` is its canonical path,
    /// when known). Symbolic links to folders are followed; `visited`
    /// stops cycles. A real sub-folder's canonical path is its parent's
    /// joined with its name — no system call; only symbolic links are
    /// resolved.
    fn search(
        &mut self,
        dir: &Path,
        entries: std::fs::ReadDir,
        canonical: Option<&Path>,
        rel: &mut Vec<String>,
    ) {
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    self.unreadable.push(FormatError::new(
                        dir,
                        format!("cannot list folder: {}", describe_io(&e)),
                    ));
                    return;
                }
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let sub = entry.path();
            // The entry's own type comes with the listing; a symbolic link
            // (or an unknown type) is asked about what it points to.
            let real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !real_dir {
                match std::fs::metadata(&sub) {
                    Ok(meta) if meta.is_dir() => {}
                    Ok(_) => continue, // a file: not part of the search
                    Err(e) => {
                        let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
                        let what = if is_link && e.raw_os_error() == ELOOP {
                            "a symbolic link in a loop".to_string()
                        } else if is_link && e.kind() == std::io::ErrorKind::NotFound {
                            "a symbolic link to nothing".to_string()
                        } else {
                            format!("cannot read: {}", describe_io(&e))
                        };
                        self.unreadable.push(FormatError::new(&sub, what));
                        continue;
                    }
                }
            }
            let sub_canonical = match (real_dir, canonical) {
                (true, Some(c)) => Some(c.join(entry.file_name())),
                _ => sub.canonicalize().ok(),
            };
            if let Some(c) = &sub_canonical {
                if !self.visited.insert(c.clone()) {
                    continue;
                }
            }
            rel.push(name);
            if sub.join(FIELD_INFO_FILE).is_file() {
                self.found.push((rel.clone(), sub));
            } else {
                match std::fs::read_dir(&sub) {
                    Ok(entries) => self.search(&sub, entries, sub_canonical.as_deref(), rel),
                    Err(e) => self.unreadable.push(FormatError::new(
                        &sub,
                        format!("cannot list folder: {}", describe_io(&e)),
                    )),
                }
            }
            rel.pop();
        }
    }
}

pub(super) fn folder_name(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_os_string()).or_else(|| {
        path.canonicalize()
            .ok()?
            .file_name()
            .map(|n| n.to_os_string())
    });
    match name {
        Some(n) => n.to_string_lossy().into_owned(),
        None => path.display().to_string(),
    }
}

/// Natural order of names: runs of ASCII digits compare as numbers
/// (`field_2 < field_10`), other runs as text, a digit run before a text
/// run; names equal under these rules (`007` and `7`) fall back to plain
/// text order, so this is a total order.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let run_end = |s: &[u8], from: usize| {
        let digit = s[from].is_ascii_digit();
        from + s[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit() == digit)
            .count()
    };
    let (mut i, mut j) = (0, 0);
    while i < ab.len() && j < bb.len() {
        let (ei, ej) = (run_end(ab, i), run_end(bb, j));
        // Runs end at ASCII boundaries, so slicing the `str`s is safe.
        let (x, y) = (&a[i..ei], &b[j..ej]);
        let order = match (ab[i].is_ascii_digit(), bb[j].is_ascii_digit()) {
            (true, true) => {
                let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                x.len().cmp(&y.len()).then_with(|| x.cmp(y))
            }
            (false, false) => x.cmp(y),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        };
        if order.is_ne() {
            return order;
        }
        (i, j) = (ei, ej);
    }
    (ab.len() - i).cmp(&(bb.len() - j)).then_with(|| a.cmp(b))
}

//! The one reader of fields for `solve`, `bench` and `metrics`: field
//! folders, corpora and MBF boards.

use rayon::prelude::*;
use sapper_engine::formats::thesis::{list_corpus, read_field, FieldRef};
use sapper_engine::Field;
use std::path::{Path, PathBuf};

/// The fields one PATH of `solve` or `bench` names, each with its name and
/// folder (or file), read or not; or why PATH itself could not be read.
pub type Input = (
    PathBuf,
    Result<Vec<(FieldRef, Result<Field, String>)>, String>,
);

/// Reads the fields of every PATH, in the order given, each PATH's fields
/// in natural order: a field folder, a corpus of them (its unreadable
/// entries reported as unreadable fields, the others still read), an MBF
/// file or a folder of MBF boards (started at `start`, else at the
/// folder's `starts.csv`, else at (3,3)). The one reader of fields for
/// every command.
pub fn read_inputs(paths: &[PathBuf], start: Option<(usize, usize)>) -> Vec<Input> {
    paths
        .iter()
        .map(|path| {
            if let Some(boards) = mbf_boards(path) {
                let fields = boards.and_then(|boards| {
                    // Where play starts on each board: --start, else
                    // the folder's starts file, else (3,3).
                    let starts: std::collections::HashMap<std::ffi::OsString, (usize, usize)> =
                        mbf_starts(path)?
                            .into_iter()
                            .map(|(board, at)| (board.into(), at))
                            .collect();
                    Ok(boards
                        .into_iter()
                        .map(|file| {
                            let name = file.file_name().unwrap_or_default();
                            let start = start.or_else(|| starts.get(name).copied());
                            let field = read_mbf_field(&file, start);
                            let name = file
                                .strip_prefix(path)
                                .ok()
                                .filter(|n| !n.as_os_str().is_empty())
                                .unwrap_or(&file)
                                .display()
                                .to_string();
                            (FieldRef { name, dir: file }, field)
                        })
                        .collect())
                });
                return (path.clone(), fields);
            }
            let fields = list_corpus(path).map_err(|e| e.to_string()).map(|corpus| {
                let mut fields: Vec<(FieldRef, Result<Field, String>)> = corpus
                    .fields
                    .into_par_iter()
                    .map(|r| {
                        let f = read_field(&r.dir).map_err(|e| e.to_string());
                        (r, f)
                    })
                    .collect();
                // An entry that could not be read is reported like
                // a field that could not be read; the others are
                // still solved.
                fields.extend(corpus.unreadable.into_iter().map(|e| {
                    let name = e.path.strip_prefix(path).unwrap_or(&e.path);
                    let r = FieldRef {
                        name: name.display().to_string(),
                        dir: e.path.clone(),
                    };
                    (r, Err(e.to_string()))
                }));
                fields
            });
            (path.clone(), fields)
        })
        .collect()
}

/// The MBF boards PATH names: itself if it is a `.mbf` file, the `.mbf`
/// files in it (natural order) if it is a folder holding some; `None` when
/// PATH is not about MBF (a field or a corpus).
fn mbf_boards(path: &std::path::Path) -> Option<Result<Vec<PathBuf>, String>> {
    let is_mbf = |p: &std::path::Path| p.extension().is_some_and(|e| e == "mbf");
    if is_mbf(path) && !path.is_dir() {
        return Some(Ok(vec![path.to_path_buf()]));
    }
    let entries = std::fs::read_dir(path).ok()?;
    let mut boards: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_mbf(p) && p.is_file())
        .collect();
    if boards.is_empty() {
        return None;
    }
    boards.sort_by(|a, b| {
        sapper_engine::formats::thesis::natural_cmp(
            &a.file_name().unwrap_or_default().to_string_lossy(),
            &b.file_name().unwrap_or_default().to_string_lossy(),
        )
    });
    Some(Ok(boards))
}

/// The starts file beside the MBF boards of folder `path`, if it has one.
fn mbf_starts(path: &Path) -> Result<sapper_engine::formats::mbf::Starts, String> {
    let file = path.join(sapper_engine::formats::mbf::MBF_STARTS);
    if !path.is_dir() || !file.exists() {
        return Ok(Vec::new());
    }
    sapper_engine::formats::mbf::read_starts(&file).map_err(|e| e.to_string())
}

/// An MBF board as a field open at `start` (default (3,3), clamped).
fn read_mbf_field(file: &std::path::Path, start: Option<(usize, usize)>) -> Result<Field, String> {
    let (grid, layout) = sapper_engine::formats::mbf::read_mbf(file).map_err(|e| e.to_string())?;
    let (r, c) = start.unwrap_or((3.min(grid.h - 1), 3.min(grid.w - 1)));
    if r >= grid.h || c >= grid.w {
        return Err(format!(
            "{}: --start ({r},{c}) is off the {}×{} board",
            file.display(),
            grid.h,
            grid.w
        ));
    }
    let start = grid.index(r, c) as usize;
    if layout[start] {
        return Err(format!(
            "{}: the start ({r},{c}) is a mine (give --start, or a starts.csv beside the boards)",
            file.display()
        ));
    }
    let mut open = vec![false; grid.len()];
    open[start] = true;
    Ok(Field::from_mines(grid, layout, open))
}

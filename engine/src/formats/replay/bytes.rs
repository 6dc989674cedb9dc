//! A cursor over a binary replay that never reads past its end: every read
//! either returns the bytes or a [`FormatError`] naming the file, the byte
//! offset where the missing or bad data starts, and what was being read.
//! The binary formats' mine counts and lists of cells are read here
//! ([`Bytes::mine_count`], [`Bytes::cells`]), and text fields are decoded
//! here, leniently ([`utf8_text`], [`legacy_text`]).

use crate::formats::FormatError;
use std::path::Path;

/// Reads big-endian integers, fixed and NUL-terminated byte strings from a
/// slice, keeping the offset for errors.
pub(crate) struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl<'a> Bytes<'a> {
    /// A cursor at the start of `data`; `path` names the file in errors.
    pub(crate) fn new(data: &'a [u8], path: &'a Path) -> Bytes<'a> {
        Bytes { data, at: 0, path }
    }

    /// The file's name, for errors.
    pub(crate) fn path(&self) -> &'a Path {
        self.path
    }

    /// The offset of the next byte to read.
    pub(crate) fn offset(&self) -> usize {
        self.at
    }

    /// How many bytes are left.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.at
    }

    /// An error at byte offset `at`.
    pub(crate) fn error_at(&self, at: usize, message: impl Into<String>) -> FormatError {
        FormatError::at_byte(self.path, at as u64, message)
    }

    /// The next `n` bytes; `what` names them if the file ends first.
    #[inline]
    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], FormatError> {
        if n > self.remaining() {
            return Err(self.ends_inside(n, what));
        }
        let bytes = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(bytes)
    }

    /// The error of a read of `n` bytes past the end (out of line: the
    /// reads are the readers' inner loop).
    #[cold]
    #[inline(never)]
    fn ends_inside(&self, n: usize, what: &str) -> FormatError {
        self.error_at(
            self.at,
            format!(
                "the file ends inside {what}: {n} bytes needed, {} left",
                self.remaining()
            ),
        )
    }

    /// Skips `n` bytes; `what` names them if the file ends first.
    #[inline]
    pub(crate) fn skip(&mut self, n: usize, what: &str) -> Result<(), FormatError> {
        self.take(n, what).map(|_| ())
    }

    /// One byte.
    #[inline]
    pub(crate) fn u8(&mut self, what: &str) -> Result<u8, FormatError> {
        Ok(self.take(1, what)?[0])
    }

    /// A big-endian 16-bit unsigned integer.
    #[inline]
    pub(crate) fn u16(&mut self, what: &str) -> Result<u16, FormatError> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    /// A big-endian 16-bit two's-complement integer.
    #[inline]
    pub(crate) fn i16(&mut self, what: &str) -> Result<i16, FormatError> {
        let b = self.take(2, what)?;
        Ok(i16::from_be_bytes([b[0], b[1]]))
    }

    /// A big-endian 24-bit unsigned integer.
    #[inline]
    pub(crate) fn u24(&mut self, what: &str) -> Result<u32, FormatError> {
        let b = self.take(3, what)?;
        Ok(u32::from_be_bytes([0, b[0], b[1], b[2]]))
    }

    /// A big-endian 32-bit unsigned integer.
    #[inline]
    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, FormatError> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A big-endian 64-bit unsigned integer.
    #[inline]
    pub(crate) fn u64(&mut self, what: &str) -> Result<u64, FormatError> {
        let b = self.take(8, what)?;
        let mut word = [0u8; 8];
        word.copy_from_slice(b);
        Ok(u64::from_be_bytes(word))
    }

    /// The bytes up to the next NUL, which is consumed but not returned.
    pub(crate) fn until_nul(&mut self, what: &str) -> Result<&'a [u8], FormatError> {
        let rest = &self.data[self.at..];
        match rest.iter().position(|&b| b == 0) {
            Some(n) => {
                self.at += n + 1;
                Ok(&rest[..n])
            }
            None => Err(self.error_at(
                self.at,
                format!("the file ends inside {what}: no NUL byte ends it"),
            )),
        }
    }
}

/// The order of a cell's two coordinates in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// The row, then the column (`.avf`).
    RowCol,
    /// The column, then the row (`.rmv`, `.mvf`).
    ColRow,
}

/// How a file lists cells: one byte a coordinate, in `order`, each
/// counted from `base`; `noun` names a cell of the list in errors
/// (`mine`, `pre-flag`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CellList {
    /// What a cell of the list is: `mine 3 at row 2, column 9 …`.
    pub(crate) noun: &'static str,
    /// The order of the two coordinates.
    pub(crate) order: Order,
    /// The number the first row and column are.
    pub(crate) base: u8,
}

impl CellList {
    /// A list of mines.
    pub(crate) const fn mines(order: Order, base: u8) -> CellList {
        CellList {
            noun: "mine",
            order,
            base,
        }
    }
}

impl Bytes<'_> {
    /// A mine count (u16) of a board of `rows` × `cols`, refused if there
    /// are fewer cells.
    pub(crate) fn mine_count(&mut self, rows: usize, cols: usize) -> Result<usize, FormatError> {
        let at = self.at;
        let count = self.u16("the mine count")? as usize;
        if count > rows * cols {
            return Err(self.error_at(
                at,
                format!("{count} mines do not fit on {rows}×{cols} cells"),
            ));
        }
        Ok(count)
    }

    /// `count` cells of a `rows` × `cols` board, listed as `list` says:
    /// the board with them marked (row-major). `each` gets every cell,
    /// `(row, col)` from 0, in file order. A pair with a coordinate below
    /// the base, a cell off the board or listed twice is an error naming
    /// the pair's byte and the cell's number in the list (from 1), the
    /// coordinates as the file has them for the first and from 0 for the
    /// others; a file that ends inside the list names the coordinate.
    pub(crate) fn cells(
        &mut self,
        list: CellList,
        count: usize,
        (rows, cols): (usize, usize),
        mut each: impl FnMut(usize, usize),
    ) -> Result<Vec<bool>, FormatError> {
        let CellList { noun, order, base } = list;
        let names = match order {
            Order::RowCol => ["row", "column"],
            Order::ColRow => ["column", "row"],
        };
        let what = names.map(|name| format!("a {noun}'s {name}"));
        let mut marked = vec![false; rows * cols];
        for k in 1..=count {
            let at = self.at;
            let pair = [self.u8(&what[0])?, self.u8(&what[1])?];
            if pair[0] < base || pair[1] < base {
                return Err(self.error_at(
                    at,
                    format!(
                        "{noun} {k} at {} {}, {} {}: both count from {base}",
                        names[0], pair[0], names[1], pair[1]
                    ),
                ));
            }
            let [first, second] = pair.map(|v| usize::from(v - base));
            let (row, col) = match order {
                Order::RowCol => (first, second),
                Order::ColRow => (second, first),
            };
            if row >= rows || col >= cols {
                return Err(self.error_at(
                    at,
                    format!("{noun} {k} at row {row}, column {col} is off the {rows}×{cols} board"),
                ));
            }
            if std::mem::replace(&mut marked[row * cols + col], true) {
                return Err(self.error_at(
                    at,
                    format!("{noun} {k} at row {row}, column {col} is listed twice"),
                ));
            }
            each(row, col);
        }
        Ok(marked)
    }

    /// `count` mines listed as `list` says: [`Bytes::cells`]' board.
    pub(crate) fn mines(
        &mut self,
        list: CellList,
        count: usize,
        shape: (usize, usize),
    ) -> Result<Vec<bool>, FormatError> {
        self.cells(list, count, shape, |_, _| {})
    }
}

/// Text a format declares UTF-8: decoded as UTF-8, any invalid sequence
/// replaced by U+FFFD (a damaged name does not make the game unreadable).
pub(crate) fn utf8_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Text in the legacy code page of the machine that wrote it, which the
/// file does not name: GB18030 (a superset of GBK, what Chinese Windows
/// writes) when the bytes are valid in it, else Windows-1252 (Western
/// Windows), which maps every byte. Pure ASCII reads the same either way.
/// This is the order ms_toollib tries; it misreads some Western names that
/// happen to be valid GB18030 (no decoder can tell them apart).
pub(crate) fn legacy_text(bytes: &[u8]) -> String {
    if bytes.is_ascii() {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let (text, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    if !had_errors {
        return text.into_owned();
    }
    let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
    text.into_owned()
}

/// Text that may be UTF-8 or a legacy code page: UTF-8 when valid, else
/// [`legacy_text`].
pub(crate) fn utf8_or_legacy_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => legacy_text(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_end_with_the_offset_and_what_was_read() {
        let p = Path::new("g.rmv");
        let mut b = Bytes::new(&[1, 2, 3, 4, 5], p);
        assert_eq!(b.u16("the width").unwrap(), 0x0102);
        assert_eq!(b.u24("a time").unwrap(), 0x030405);
        assert_eq!(b.remaining(), 0);
        let e = b.u8("the mine count").unwrap_err();
        assert_eq!(e.byte, Some(5));
        assert_eq!(
            e.to_string(),
            "g.rmv: byte 5: the file ends inside the mine count: 1 bytes needed, 0 left"
        );
        let mut b = Bytes::new(&[0xff, 0xfe, b'a', 0, b'b'], p);
        assert_eq!(b.i16("x").unwrap(), -2);
        assert_eq!(b.until_nul("a name").unwrap(), b"a");
        assert_eq!(b.offset(), 4);
        let e = b.until_nul("the player").unwrap_err();
        assert_eq!(e.byte, Some(4));
        assert!(e.message.contains("no NUL"), "{e}");
    }

    #[test]
    fn a_cell_list_is_read_in_its_order_from_its_base() {
        let p = Path::new("g.avf");
        // Rows then columns from 1: (1, 3) and (2, 1) on a 2×3 board.
        let mut b = Bytes::new(&[1, 3, 2, 1, 9], p);
        let mut seen = vec![];
        let list = CellList::mines(Order::RowCol, 1);
        let marked = b.cells(list, 2, (2, 3), |r, c| seen.push((r, c))).unwrap();
        assert_eq!(marked, [false, false, true, true, false, false]);
        assert_eq!(seen, [(0, 2), (1, 0)]);
        assert_eq!(b.offset(), 4);
        // Columns then rows from 0: the same cells.
        let mut b = Bytes::new(&[2, 0, 0, 1], p);
        let marked = b
            .mines(CellList::mines(Order::ColRow, 0), 2, (2, 3))
            .unwrap();
        assert_eq!(marked, [false, false, true, true, false, false]);
        let mut b = Bytes::new(&[], p);
        assert_eq!(
            b.mines(CellList::mines(Order::ColRow, 0), 0, (1, 1))
                .unwrap(),
            [false]
        );
    }

    #[test]
    fn a_bad_cell_list_names_the_pairs_byte_and_the_cells_number() {
        let p = Path::new("g.mvf");
        let err = |bytes: &[u8], list: CellList, count| {
            let mut b = Bytes::new(bytes, p);
            b.cells(list, count, (2, 3), |_, _| {})
                .unwrap_err()
                .to_string()
        };
        let mines = CellList::mines(Order::ColRow, 1);
        assert_eq!(
            err(&[1, 1, 3, 0], mines, 2),
            "g.mvf: byte 2: mine 2 at column 3, row 0: both count from 1"
        );
        assert_eq!(
            err(&[1, 1, 0, 1], CellList::mines(Order::RowCol, 1), 2),
            "g.mvf: byte 2: mine 2 at row 0, column 1: both count from 1"
        );
        assert_eq!(
            err(&[4, 1], mines, 1),
            "g.mvf: byte 0: mine 1 at row 0, column 3 is off the 2×3 board"
        );
        assert_eq!(
            err(&[1, 3], mines, 1),
            "g.mvf: byte 0: mine 1 at row 2, column 0 is off the 2×3 board"
        );
        let flags = CellList {
            noun: "pre-flag",
            order: Order::ColRow,
            base: 0,
        };
        assert_eq!(
            err(&[0, 1, 2, 0, 0, 1], flags, 3),
            "g.mvf: byte 4: pre-flag 3 at row 1, column 0 is listed twice"
        );
        assert_eq!(
            err(&[0, 1, 2], flags, 2),
            "g.mvf: byte 3: the file ends inside a pre-flag's row: 1 bytes needed, 0 left"
        );
        assert_eq!(
            err(&[1, 1], mines, 2),
            "g.mvf: byte 2: the file ends inside a mine's column: 1 bytes needed, 0 left"
        );
    }

    #[test]
    fn a_mine_count_must_fit_the_board() {
        let p = Path::new("g.rmv");
        assert_eq!(Bytes::new(&[0, 6], p).mine_count(2, 3).unwrap(), 6);
        let e = Bytes::new(&[0, 7], p).mine_count(2, 3).unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.rmv: byte 0: 7 mines do not fit on 2×3 cells"
        );
        let e = Bytes::new(&[0], p).mine_count(2, 3).unwrap_err();
        assert!(e.message.contains("ends inside the mine count"), "{e}");
    }

    #[test]
    fn text_is_decoded_leniently() {
        assert_eq!(utf8_text("Müller".as_bytes()), "Müller");
        assert_eq!(utf8_text(b"a\xffb"), "a\u{fffd}b");
        // 王嘉宁 in GBK.
        assert_eq!(legacy_text(&[0xcd, 0xf5, 0xbc, 0xce, 0xc4, 0xfe]), "王嘉宁");
        // Not valid GB18030 (0x80 alone): Windows-1252 maps it to the euro.
        assert_eq!(legacy_text(b"\x80 5"), "€ 5");
        assert_eq!(utf8_or_legacy_text("ȑ".as_bytes()), "ȑ");
        assert_eq!(utf8_or_legacy_text(&[0xcd, 0xf5]), "王");
    }
}

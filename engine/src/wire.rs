//! The one wire format of sapper's binary files: the rulebase
//! (`rules::format`, magic `SAPPERRB`) and the frozen rule index
//! (`rules::index::frozen`, magic `SAPPERIX`).
//!
//! Both start the same way — 8 magic bytes, then a little-endian `u32`
//! format version — and both end their checked bytes with a checksum. This
//! module holds what they share, as regex-automata's `util/wire.rs` does
//! for its automata:
//!
//! - [`Format`]: a file kind's name, magic and version, and
//!   [`Format::write_header`] / [`Format::read_header`], which refuse
//!   another kind of file or another version with one vocabulary;
//! - [`WireError`]: the one error type for bytes that are not a valid file
//!   of their kind (each format adds only its own checks beside it);
//! - [`Writer`]: little-endian numbers, counts, records and tables;
//!   [`Reader`]: the same read back from bytes in memory, every read
//!   checked against the end (a corrupt count never allocates more than
//!   the bytes left);
//! - tables used where they lie: a file's [`Bytes`] (mapped into memory,
//!   a `static`, or a copy) and the [`Shared`] tables borrowed from them,
//!   so that a 38 MB saved index loads without being copied — tables are
//!   written aligned to [`TABLE_ALIGN`] in the file for this;
//! - the checksums: [`crc32`] (the rulebase, fixed by version 1) and
//!   [`checksum64`] (the index, ten times faster on its 2 MB).
//!
//! The cell codes both forms share are in `rules::cell_code`.

/// A kind of binary file: its name in messages, its magic and the version
/// this build writes and reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// As errors name it: "rulebase", "rule index".
    pub name: &'static str,
    /// The 8 bytes every file of this kind starts with (`SAPPERRB`,
    /// `SAPPERIX`).
    pub magic: &'static [u8; 8],
    /// The format version this build writes, and the only one it reads.
    pub version: u32,
}

impl Format {
    /// Appends the magic and the version.
    pub fn write_header(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.magic);
        out.extend_from_slice(&self.version.to_le_bytes());
    }

    /// Checks the magic and the version at the start of `bytes` and returns
    /// a reader positioned after them. Bytes that do not even start like
    /// the magic are [`WireError::BadMagic`]; a prefix of it is truncated.
    pub fn read_header<'a>(&self, bytes: &'a [u8]) -> Result<Reader<'a>, WireError> {
        let mut r = Reader::new(self.name, bytes, 0);
        let bad_magic = WireError::BadMagic {
            format: self.name,
            magic: std::str::from_utf8(self.magic).unwrap_or("?"),
        };
        match r.take(self.magic.len(), "magic bytes") {
            Ok(magic) if magic == self.magic => {}
            Err(e) if self.magic.starts_with(bytes) => return Err(e),
            _ => return Err(bad_magic),
        }
        let found = r.u32("format version")?;
        if found != self.version {
            return Err(WireError::UnsupportedVersion {
                format: self.name,
                found,
                supported: self.version,
            });
        }
        Ok(r)
    }
}

/// Why bytes are not a valid file of their format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// The bytes do not start with the magic of their format: another kind
    /// of file, or no sapper file at all.
    #[error("not a sapper {format} (it does not start with the magic bytes \"{magic}\")")]
    BadMagic {
        /// The kind of file, as errors name it ([`Format::name`]).
        format: &'static str,
        /// The magic expected ([`Format::magic`]), as text.
        magic: &'static str,
    },
    /// The magic is right but the format version is not the one this build
    /// reads: the file was written by an older or a newer sapper.
    #[error("{}", unsupported_version_message(format, *found, *supported))]
    UnsupportedVersion {
        /// The kind of file, as errors name it ([`Format::name`]).
        format: &'static str,
        /// The version in the file.
        found: u32,
        /// The one version this build reads ([`Format::version`]).
        supported: u32,
    },
    /// The bytes end inside a field, or a count announces more than the
    /// bytes left.
    #[error("truncated {format}: the {what} at byte {offset} is cut off")]
    Truncated {
        /// The kind of file, as errors name it ([`Format::name`]).
        format: &'static str,
        /// What was being read ("magic bytes", "format version", a
        /// section's name).
        what: &'static str,
        /// Where it starts, in bytes from the start of the whole file.
        offset: usize,
    },
    /// Bytes follow the end of everything the format holds.
    #[error("{count} unexpected bytes after the {format} at byte {offset}")]
    TrailingBytes {
        /// The kind of file, as errors name it ([`Format::name`]).
        format: &'static str,
        /// How many bytes are left over.
        count: usize,
        /// Where they start, in bytes from the start of the whole file.
        offset: usize,
    },
    /// The checksum stored in the file is not the one of the bytes it
    /// covers: the file was changed or damaged.
    #[error(
        "checksum mismatch (stored {stored:#x}, computed {computed:#x}): the {format} is corrupted"
    )]
    ChecksumMismatch {
        /// The kind of file, as errors name it ([`Format::name`]).
        format: &'static str,
        /// The checksum in the file.
        stored: u64,
        /// The checksum of its contents, as read.
        computed: u64,
    },
    /// What the bytes say is not valid for the format: nonzero padding, a
    /// value out of range, a section that does not decode (the rulebase
    /// writer also reports a file it cannot encode this way).
    #[error("corrupt {format}: {reason}")]
    Corrupt {
        /// The kind of file, as errors name it ([`Format::name`]).
        format: &'static str,
        /// What is wrong, in words.
        reason: String,
    },
}

fn unsupported_version_message(format: &str, found: u32, supported: u32) -> String {
    if found > supported {
        format!(
            "{format} format version {found} is newer than this sapper supports ({supported}); \
             regenerate it or upgrade"
        )
    } else {
        format!(
            "{format} format version {found} is not supported (this sapper reads version \
             {supported}); regenerate it"
        )
    }
}

/// Appends little-endian numbers.
#[derive(Default)]
pub struct Writer {
    /// The bytes written so far.
    pub out: Vec<u8>,
}

impl Writer {
    /// Appends one byte.
    pub fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    /// Appends `v` as 2 little-endian bytes.
    pub fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    /// Appends `v` as 4 little-endian bytes.
    pub fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    /// Appends `v` as 8 little-endian bytes.
    pub fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    /// A count of items.
    pub fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).expect("fewer than 2^32 items"));
    }
    /// A count, then each value as a `u32` ([`Reader::u32s`] reads it
    /// back).
    pub fn u32s(&mut self, v: &[u32]) {
        self.len(v.len());
        v.iter().for_each(|&x| self.u32(x));
    }
    /// Zero bytes up to a multiple of `to` (offsets counted from the start
    /// of `out`: the caller puts `out` at an offset of the file that is a
    /// multiple of [`TABLE_ALIGN`]).
    pub fn align(&mut self, to: usize) {
        self.out.resize(self.out.len().next_multiple_of(to), 0);
    }
    /// A table [`Reader::table`] can borrow in place: its count, padding to
    /// [`TABLE_ALIGN`], then the values' little-endian bytes.
    pub fn table<T: LittleEndian>(&mut self, values: &[T]) {
        self.len(values.len());
        self.align(TABLE_ALIGN);
        for &v in values {
            self.out.extend_from_slice(bytemuck::bytes_of(&v.le()));
        }
    }
    /// A count, then each value as a `u64` ([`Reader::usizes`] reads it
    /// back).
    pub fn usizes(&mut self, v: &[usize]) {
        self.len(v.len());
        v.iter().for_each(|&x| self.u64(x as u64));
    }
}

/// Reads the fields, sections and tables of bytes held in memory, every
/// read checked against the end (a corrupt count never allocates more than
/// the bytes left). Offsets in errors are in the whole file: `base` is
/// where `bytes` start in it. A reader over a file's [`Bytes`]
/// ([`Reader::in_file`]) also reads tables, borrowed from them.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes` in the whole file, for error messages.
    base: usize,
    /// What the bytes are, for error messages ("rulebase", "rule index").
    format: &'static str,
    /// The whole file, when `bytes` are its bytes from `base` on.
    file: Option<&'a Bytes>,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes`, which start at byte `base` of a file of kind
    /// `format` (its name in errors, [`Format::name`]). It reads no tables:
    /// those need [`Reader::in_file`].
    pub fn new(format: &'static str, bytes: &'a [u8], base: usize) -> Reader<'a> {
        Reader {
            bytes,
            pos: 0,
            base,
            format,
            file: None,
        }
    }

    /// The bytes of `file` from byte `start` on, whose tables
    /// [`Reader::table`] borrows from `file`.
    pub fn in_file(format: &'static str, file: &'a Bytes, start: usize) -> Reader<'a> {
        Reader {
            file: Some(file),
            ..Reader::new(format, &file.as_slice()[start..], start)
        }
    }

    /// Where the next read starts, in the whole file.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    /// Checks that every byte has been read: anything left is
    /// [`WireError::TrailingBytes`].
    pub fn expect_end(&self) -> Result<(), WireError> {
        match self.rest().len() {
            0 => Ok(()),
            count => Err(WireError::TrailingBytes {
                format: self.format,
                count,
                offset: self.offset(),
            }),
        }
    }

    /// A [`WireError::Truncated`]: `what`, at byte `offset`, is cut off.
    pub fn truncated(&self, what: &'static str, offset: usize) -> WireError {
        WireError::Truncated {
            format: self.format,
            what,
            offset,
        }
    }

    /// A [`WireError::Corrupt`] about these bytes.
    pub fn corrupt(&self, reason: impl Into<String>) -> WireError {
        WireError::Corrupt {
            format: self.format,
            reason: reason.into(),
        }
    }

    /// The next `n` bytes; fewer left is [`WireError::Truncated`], naming
    /// them `what`.
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], WireError> {
        let rest = &self.bytes[self.pos..];
        if n > rest.len() {
            return Err(self.truncated(what, self.base + self.pos));
        }
        self.pos += n;
        Ok(&rest[..n])
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], WireError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, what)?);
        Ok(a)
    }
    /// One byte; `what` names it if it is cut off.
    pub fn u8(&mut self, what: &'static str) -> Result<u8, WireError> {
        Ok(self.array::<1>(what)?[0])
    }
    /// A little-endian `u16`; `what` names it if it is cut off.
    pub fn u16(&mut self, what: &'static str) -> Result<u16, WireError> {
        self.array(what).map(u16::from_le_bytes)
    }
    /// A little-endian `u32`; `what` names it if it is cut off.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, WireError> {
        self.array(what).map(u32::from_le_bytes)
    }
    /// A little-endian `u64`; `what` names it if it is cut off.
    pub fn u64(&mut self, what: &'static str) -> Result<u64, WireError> {
        self.array(what).map(u64::from_le_bytes)
    }

    /// A count of items of `item_bytes` bytes each, which must fit in
    /// what is left.
    pub fn count(&mut self, what: &'static str, item_bytes: usize) -> Result<usize, WireError> {
        let at = self.offset();
        let n = self.u32(what)? as usize;
        if n.saturating_mul(item_bytes) > self.rest().len() {
            return Err(self.truncated(what, at));
        }
        Ok(n)
    }

    /// A count and that many records of `item_bytes` bytes, each decoded
    /// by `item`, into a new vector (for small tables; large ones are
    /// [`Reader::table`]s).
    pub fn records<T>(
        &mut self,
        what: &'static str,
        item_bytes: usize,
        item: impl FnMut(&[u8]) -> T,
    ) -> Result<Vec<T>, WireError> {
        let n = self.count(what, item_bytes)?;
        let bytes = self.take(n * item_bytes, what)?;
        Ok(bytes.chunks_exact(item_bytes.max(1)).map(item).collect())
    }

    /// A count and that many `u32`s, as [`Writer::u32s`] wrote them.
    pub fn u32s(&mut self, what: &'static str) -> Result<Vec<u32>, WireError> {
        self.records(what, 4, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    }
    /// A count and that many 8-byte values, as [`Writer::usizes`] wrote
    /// them; a value too large for a `usize` here is
    /// [`WireError::Corrupt`].
    pub fn usizes(&mut self, what: &'static str) -> Result<Vec<usize>, WireError> {
        let n = self.count(what, 8)?;
        let words = self.take(n * 8, what)?;
        words
            .chunks_exact(8)
            .map(|w| {
                usize::try_from(le_u64(w)).map_err(|_| self.corrupt(format!("{what}: too large")))
            })
            .collect()
    }

    /// Skips the zero bytes [`Writer::align`] wrote to bring the offset in
    /// the whole file to a multiple of `to`; a nonzero one is corrupt.
    pub fn align(&mut self, to: usize, what: &'static str) -> Result<(), WireError> {
        let pad = self.offset().next_multiple_of(to) - self.offset();
        if self.take(pad, what)?.iter().any(|&b| b != 0) {
            return Err(self.corrupt(format!("{what}: nonzero padding")));
        }
        Ok(())
    }

    /// A table [`Writer::table`] wrote, as a [`Shared`] that borrows it
    /// from the file without copying (only a reader made by
    /// [`Reader::in_file`] reads tables).
    pub fn table<T: LittleEndian>(&mut self, what: &'static str) -> Result<Shared<T>, WireError> {
        let file = self.file.expect("tables are read through Reader::in_file");
        let size = std::mem::size_of::<T>();
        let n = self.count(what, size)?;
        self.align(TABLE_ALIGN, what)?;
        let start = self.offset();
        self.take(n * size, what)?;
        Ok(Shared::read_le(file, start..start + n * size))
    }
}

/// Where tables start in a file, in bytes: every [`LittleEndian`] type
/// sapper stores is aligned to at most 8.
pub const TABLE_ALIGN: usize = 8;

/// CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`) of `bytes` — the
/// same function as zlib's `crc32`. Any change of a single byte, and any
/// burst of up to 32 changed bits, changes it.
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = !0u32;
    for &b in bytes {
        crc = TABLE[((crc ^ b as u32) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

/// The 64-bit checksum of the source rulebase and of the body. Much faster
/// than [`crc32`] on the 2 MB index body (a CRC-32, even 16 bytes at
/// a time, costs about ten times more); and for the source a CRC-32 would not
/// do at all: a rulebase file ends with the CRC-32 of what precedes it, and
/// the CRC-32 of anything followed by its own CRC-32 is one constant
/// (`0x2144DF1C`), the same for every rulebase file.
///
/// Eight lanes each fold one 8-byte word of every 64 bytes with
/// `(lane ^ word) · K` (K odd) rotated; the tail bytes and the lanes are
/// then folded the same way into one value, starting from the length. Each
/// fold is a bijection of the running value for a given word, so a change
/// confined to one 8-byte word (a flipped bit or byte in particular)
/// always changes the checksum. Changes to several words are caught unless
/// they happen to cancel, which the rotation (carrying high bits down)
/// makes unlikely, but unlike a CRC nothing guarantees it for bursts.
pub fn checksum64(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let fold = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(31);
    let mut lanes: [u64; 8] = std::array::from_fn(|k| 0x243F_6A88_85A3_08D3 ^ k as u64);
    let mut blocks = bytes.chunks_exact(64);
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = fold(*lane, le_u64(word));
        }
    }
    let mut h = bytes.len() as u64;
    for &b in blocks.remainder() {
        h = fold(h, b as u64);
    }
    lanes.into_iter().fold(h, fold)
}

/// The bytes of a whole file, which the tables read from it borrow
/// ([`Shared`]) instead of copying: the file mapped into memory, a
/// `static` (the embedded default index), or a copy. Cloning shares them.
/// Always 8-aligned, so that a table at an aligned offset can be borrowed
/// as `&[u64]`.
#[derive(Clone)]
pub struct Bytes(std::sync::Arc<Store>);

enum Store {
    Static(&'static [u8]),
    Mapped(memmap2::Mmap),
    /// A copy, in words for their alignment: the first `len` bytes.
    Copied {
        words: Vec<u64>,
        len: usize,
    },
}

impl Bytes {
    /// `bytes` in place if they are 8-aligned (see [`Aligned`]), otherwise
    /// a copy.
    pub fn from_static(bytes: &'static [u8]) -> Bytes {
        if bytes.as_ptr().align_offset(8) == 0 {
            Bytes(std::sync::Arc::new(Store::Static(bytes)))
        } else {
            Bytes::copy_from(bytes)
        }
    }

    /// A copy of `bytes`.
    pub fn copy_from(bytes: &[u8]) -> Bytes {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        Bytes(std::sync::Arc::new(Store::Copied {
            words,
            len: bytes.len(),
        }))
    }

    /// The whole of `file` mapped into memory, read only: pages are read
    /// from the page cache as they are first touched, never copied.
    ///
    /// # Safety
    ///
    /// The file must not be changed in place, nor truncated, while the
    /// returned bytes (or any clone of them) live: what every memory map
    /// asks. Truncating it would stop the process (`SIGBUS`); rewriting it
    /// in place would change bytes that safe code holds as immutable.
    /// sapper itself never does either — it writes files whole under a new
    /// name and renames them over the old ([`crate::files::write_whole`]),
    /// and a mapping keeps the old file — so mapping a file only sapper
    /// writes is sound; the caller answers for other writers.
    pub unsafe fn map(file: &std::fs::File) -> std::io::Result<Bytes> {
        // SAFETY: read-only mapping of a regular file, under the caller's
        // contract above.
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(Bytes(std::sync::Arc::new(Store::Mapped(map))))
    }

    /// The bytes, starting at an 8-aligned address.
    pub fn as_slice(&self) -> &[u8] {
        match &*self.0 {
            Store::Static(bytes) => bytes,
            Store::Mapped(map) => map,
            Store::Copied { words, len } => &bytemuck::cast_slice(words)[..*len],
        }
    }

    /// Whether the bytes are a file mapped into memory.
    pub fn is_mapped(&self) -> bool {
        matches!(*self.0, Store::Mapped(_))
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &*self.0 {
            Store::Static(_) => "static",
            Store::Mapped(_) => "mapped",
            Store::Copied { .. } => "copied",
        };
        write!(f, "Bytes({kind}, {} bytes)", self.as_slice().len())
    }
}

/// 8-aligned bytes for a `static`, so that [`Bytes::from_static`] can use
/// them in place:
/// `static INDEX: &Aligned<[u8]> = &Aligned(*include_bytes!("x.index"));`
#[repr(C, align(8))]
pub struct Aligned<B: ?Sized>(pub B);

/// A plain-data type stored in files as its little-endian bytes:
/// [`LittleEndian::le`] turns a value read on this machine into the value
/// meant, and back (the identity on little-endian machines).
pub trait LittleEndian: bytemuck::Pod {
    /// The value whose little-endian bytes are this value's bytes in
    /// memory: the identity on a little-endian machine, a byte swap on a
    /// big-endian one, and its own inverse either way.
    fn le(self) -> Self;
}

impl LittleEndian for u32 {
    fn le(self) -> u32 {
        u32::from_le(self)
    }
}

impl LittleEndian for u64 {
    fn le(self) -> u64 {
        u64::from_le(self)
    }
}

impl LittleEndian for [u64; 2] {
    fn le(self) -> [u64; 2] {
        self.map(u64::from_le)
    }
}

/// A read-only table of `T`: a vector (as built), or borrowed from the
/// [`Bytes`] of the file it was read from (as loaded: nothing copied, so a
/// 38 MB saved index loads in milliseconds). [`Shared::to_mut`] turns a
/// borrowed table into an owned one.
pub struct Shared<T: LittleEndian>(Repr<T>);

enum Repr<T> {
    Owned(Vec<T>),
    /// `len` values at `ptr`, inside `bytes` and aligned for `T`
    /// (checked by [`Shared::read_le`], the one place that makes one).
    Borrowed {
        bytes: Bytes,
        ptr: std::ptr::NonNull<T>,
        len: usize,
    },
}

// SAFETY: a `Shared` is a `Vec<T>` or a shared read-only view of `Bytes`
// (immutable, and `Send + Sync`: a `&'static [u8]`, a read-only map or a
// vector behind an `Arc`); `T` is plain data.
unsafe impl<T: LittleEndian + Send + Sync> Send for Shared<T> {}
unsafe impl<T: LittleEndian + Send + Sync> Sync for Shared<T> {}

impl<T: LittleEndian> Shared<T> {
    /// The values whose little-endian bytes are `file[range]`: borrowed
    /// when this machine is little-endian and the range is aligned for
    /// `T`, decoded into a vector otherwise. `range` must hold a whole
    /// number of values.
    pub fn read_le(file: &Bytes, range: std::ops::Range<usize>) -> Shared<T> {
        let raw = &file.as_slice()[range];
        let size = std::mem::size_of::<T>();
        assert_eq!(raw.len() % size, 0, "a whole number of values");
        if cfg!(target_endian = "little") {
            if let Ok(values) = bytemuck::try_cast_slice::<u8, T>(raw) {
                return Shared(Repr::Borrowed {
                    bytes: file.clone(),
                    ptr: std::ptr::NonNull::from(values).cast(),
                    len: values.len(),
                });
            }
        }
        Shared::decoded(raw)
    }

    /// The values of `raw` (little-endian, any alignment) copied into a
    /// vector.
    fn decoded(raw: &[u8]) -> Shared<T> {
        let size = std::mem::size_of::<T>();
        Shared(Repr::Owned(
            raw.chunks_exact(size)
                .map(|v| bytemuck::pod_read_unaligned::<T>(v).le())
                .collect(),
        ))
    }

    /// The values as a vector, copied first if they are borrowed.
    pub fn to_mut(&mut self) -> &mut Vec<T> {
        if let Repr::Borrowed { .. } = self.0 {
            self.0 = Repr::Owned(self.to_vec());
        }
        match &mut self.0 {
            Repr::Owned(values) => values,
            Repr::Borrowed { .. } => unreachable!("just made owned"),
        }
    }

    /// Whether the values are borrowed from a file's bytes.
    pub fn is_borrowed(&self) -> bool {
        matches!(self.0, Repr::Borrowed { .. })
    }
}

impl<T: LittleEndian> std::ops::Deref for Shared<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match &self.0 {
            Repr::Owned(values) => values,
            // SAFETY: `ptr` and `len` describe values inside `bytes`,
            // aligned for `T` (`read_le`), which live and stay unchanged as
            // long as this `Shared` holds `bytes`.
            Repr::Borrowed { ptr, len, .. } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), *len)
            },
        }
    }
}

impl<T: LittleEndian> From<Vec<T>> for Shared<T> {
    fn from(values: Vec<T>) -> Shared<T> {
        Shared(Repr::Owned(values))
    }
}

impl<T: LittleEndian> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared(Repr::Owned(Vec::new()))
    }
}

impl<T: LittleEndian> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(match &self.0 {
            Repr::Owned(values) => Repr::Owned(values.clone()),
            Repr::Borrowed { bytes, ptr, len } => Repr::Borrowed {
                bytes: bytes.clone(),
                ptr: *ptr,
                len: *len,
            },
        })
    }
}

impl<T: LittleEndian + std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl<T: LittleEndian + PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        **self == **other
    }
}

impl<T: LittleEndian + Eq> Eq for Shared<T> {}

/// `word` (8 bytes) as a little-endian u64.
#[inline]
pub fn le_u64(word: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(word);
    u64::from_le_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOY: Format = Format {
        name: "toy file",
        magic: b"SAPPERTY",
        version: 3,
    };

    fn header(version: u32) -> Vec<u8> {
        let mut out = Vec::new();
        Format { version, ..TOY }.write_header(&mut out);
        out
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn checksum64_changes_with_any_single_byte() {
        // 203 bytes: three blocks of 64 and a tail of 11.
        let bytes: Vec<u8> = (0..203u32).map(|i| (i * 37 % 251) as u8).collect();
        let sum = checksum64(&bytes);
        for i in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = bytes.clone();
                bad[i] ^= flip;
                assert_ne!(checksum64(&bad), sum, "byte {i} ^ {flip:#x}");
            }
        }
        // The length is folded in: a zero byte more or a byte fewer is
        // another sum.
        let mut longer = bytes.clone();
        longer.push(0);
        assert_ne!(checksum64(&longer), sum);
        assert_ne!(checksum64(&bytes[..202]), sum);
    }

    const CHECKSUM64_OF_1000: u64 = 0x9e60_52f2_2cc6_d2e0;
    const CHECKSUM64_OF_77: u64 = 0xefc2_b06c_e8f6_017d;
    const CHECKSUM64_OF_EMPTY: u64 = 0xbece_fc7f_993f_5c1f;

    #[test]
    fn checksum64_is_the_same_function_it_was() {
        // The values of version 3 of the index format, where it was
        // computed in pieces: a change of the function must be a change of
        // the index format's version.
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 101 % 253) as u8).collect();
        assert_eq!(checksum64(&bytes), CHECKSUM64_OF_1000);
        assert_eq!(checksum64(&bytes[..77]), CHECKSUM64_OF_77);
        assert_eq!(checksum64(b""), CHECKSUM64_OF_EMPTY);
    }

    /// A file written with a table of each stored type between fields that
    /// leave it unaligned, and the values written.
    fn file_with_tables() -> (Vec<u8>, Vec<u64>, Vec<u32>, Vec<[u64; 2]>) {
        let big: Vec<u64> = (0..20_000u64).map(|i| i * i).collect();
        let small: Vec<u32> = vec![7, 8, 9];
        let pairs: Vec<[u64; 2]> = vec![[1, u64::MAX], [3, 4]];
        let mut w = Writer::default();
        w.u8(1);
        w.table(&big);
        w.u16(0x0203);
        w.table(&small);
        w.table(&pairs);
        w.u32(5);
        (w.out, big, small, pairs)
    }

    #[test]
    fn a_table_reads_back_borrowed_in_place_from_aligned_bytes() {
        let (out, big, small, pairs) = file_with_tables();
        let file = Bytes::copy_from(&out);
        let mut r = Reader::in_file("toy file", &file, 0);
        assert_eq!(r.u8("a").unwrap(), 1);
        let read_big = r.table::<u64>("big").unwrap();
        assert_eq!(r.u16("b").unwrap(), 0x0203);
        let read_small = r.table::<u32>("small").unwrap();
        let read_pairs = r.table::<[u64; 2]>("pairs").unwrap();
        assert_eq!(r.u32("c").unwrap(), 5);
        r.expect_end().unwrap();
        assert_eq!(*read_big, big[..]);
        assert_eq!(*read_small, small[..]);
        assert_eq!(*read_pairs, pairs[..]);
        let borrowed = cfg!(target_endian = "little");
        assert_eq!(read_big.is_borrowed(), borrowed);
        assert_eq!(read_pairs.is_borrowed(), borrowed);
        // Borrowed tables outlive the reader and every other handle on the
        // bytes.
        drop(file);
        assert_eq!(read_big[19_999], 19_999 * 19_999);
    }

    #[test]
    fn a_table_at_an_unaligned_place_is_decoded_into_an_equal_copy() {
        // The path a big-endian machine takes for every table.
        let values: Vec<u64> = vec![0x0102_0304_0506_0708, 9, u64::MAX];
        let mut raw = vec![0xAA];
        for v in &values {
            raw.extend_from_slice(&v.to_le_bytes());
        }
        let file = Bytes::copy_from(&raw);
        let table = Shared::<u64>::read_le(&file, 1..raw.len());
        assert!(!table.is_borrowed());
        assert_eq!(*table, values[..]);
        assert_eq!(Shared::<u64>::decoded(&raw[1..]), table);
    }

    #[test]
    fn changing_a_borrowed_table_copies_it_and_leaves_the_file_alone() {
        let (out, big, ..) = file_with_tables();
        let file = Bytes::copy_from(&out);
        let mut r = Reader::in_file("toy file", &file, 0);
        r.u8("a").unwrap();
        let mut table = r.table::<u64>("big").unwrap();
        let shared = table.clone();
        table.to_mut()[0] = 42;
        assert!(!table.is_borrowed());
        assert_eq!(table[0], 42);
        assert_eq!(shared[0], big[0]);
        assert_eq!(file.as_slice(), &out[..]);
    }

    #[test]
    fn nonzero_padding_before_a_table_is_corrupt() {
        let (mut out, ..) = file_with_tables();
        // The u8, the count (bytes 1..5), then padding to byte 8.
        out[6] = 1;
        let file = Bytes::copy_from(&out);
        let mut r = Reader::in_file("toy file", &file, 0);
        r.u8("a").unwrap();
        assert_eq!(
            r.table::<u64>("big").unwrap_err(),
            WireError::Corrupt {
                format: "toy file",
                reason: "big: nonzero padding".into()
            }
        );
    }

    #[test]
    fn a_mapped_file_is_its_bytes() {
        let (out, ..) = file_with_tables();
        let path = std::env::temp_dir().join(format!("sapper-wire-map-{}", std::process::id()));
        std::fs::write(&path, &out).unwrap();
        // SAFETY: a file this test wrote and nothing else touches.
        let file = unsafe { Bytes::map(&std::fs::File::open(&path).unwrap()) }.unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(file.is_mapped());
        assert_eq!(file.as_slice(), &out[..]);
        assert_eq!(file.as_slice().as_ptr().align_offset(TABLE_ALIGN), 0);
    }

    #[test]
    fn static_bytes_are_used_in_place_when_aligned_and_copied_when_not() {
        static ALIGNED: &Aligned<[u8]> = &Aligned([1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let in_place = Bytes::from_static(&ALIGNED.0);
        assert_eq!(in_place.as_slice().as_ptr(), ALIGNED.0.as_ptr());
        let unaligned = Bytes::from_static(&ALIGNED.0[1..]);
        assert_eq!(unaligned.as_slice(), &ALIGNED.0[1..]);
        assert_eq!(unaligned.as_slice().as_ptr().align_offset(8), 0);
    }

    #[test]
    fn a_header_reads_back_and_the_reader_starts_after_it() {
        let mut bytes = header(3);
        bytes.extend_from_slice(&[7, 0, 0, 0]);
        let mut r = TOY.read_header(&bytes).unwrap();
        assert_eq!(r.offset(), 12);
        assert_eq!(r.u32("value").unwrap(), 7);
        assert!(r.rest().is_empty());
    }

    #[test]
    fn another_magic_a_cut_magic_and_other_versions_are_named() {
        let err = TOY.read_header(b"SAPPERRB\x03\0\0\0").unwrap_err();
        assert_eq!(
            err,
            WireError::BadMagic {
                format: "toy file",
                magic: "SAPPERTY"
            }
        );
        assert_eq!(
            err.to_string(),
            "not a sapper toy file (it does not start with the magic bytes \"SAPPERTY\")"
        );
        // Garbage shorter than the magic is not this format; a prefix of
        // the magic is a cut file.
        assert!(matches!(
            TOY.read_header(b"hi"),
            Err(WireError::BadMagic { .. })
        ));
        assert_eq!(
            TOY.read_header(b"SAPP").unwrap_err(),
            WireError::Truncated {
                format: "toy file",
                what: "magic bytes",
                offset: 0
            }
        );
        assert!(matches!(
            TOY.read_header(&header(3)[..10]),
            Err(WireError::Truncated { offset: 8, .. })
        ));
        let newer = TOY.read_header(&header(4)).unwrap_err();
        assert_eq!(
            newer.to_string(),
            "toy file format version 4 is newer than this sapper supports (3); regenerate it or upgrade"
        );
        let older = TOY.read_header(&header(2)).unwrap_err();
        assert_eq!(
            older,
            WireError::UnsupportedVersion {
                format: "toy file",
                found: 2,
                supported: 3
            }
        );
        assert!(
            older.to_string().contains("version 2 is not supported"),
            "{older}"
        );
    }

    #[test]
    fn what_a_writer_writes_a_reader_reads() {
        let mut w = Writer::default();
        w.u8(1);
        w.u32(0x0405_0607);
        w.u64(u64::MAX - 1);
        w.u32s(&[9, 10]);
        let mut r = Reader::new("toy file", &w.out, 100);
        assert_eq!(r.u8("a").unwrap(), 1);
        assert_eq!(r.u32("c").unwrap(), 0x0405_0607);
        assert_eq!(r.u64("d").unwrap(), u64::MAX - 1);
        assert_eq!(r.u32("count").unwrap(), 2);
        assert_eq!(r.take(8, "e").unwrap(), [9, 0, 0, 0, 10, 0, 0, 0]);
        r.expect_end().unwrap();
        assert_eq!(r.offset(), 100 + w.out.len());
    }

    #[test]
    fn a_count_larger_than_the_bytes_left_is_truncation_not_allocation() {
        let mut w = Writer::default();
        w.u32(u32::MAX); // a count of 2^32 - 1 eight-byte items
        w.u64(5);
        let mut r = Reader::new("toy file", &w.out, 40);
        assert_eq!(
            r.usizes("table").unwrap_err(),
            WireError::Truncated {
                format: "toy file",
                what: "table",
                offset: 40
            }
        );
        // A read past the end names where it starts, in the whole file.
        let mut r = Reader::new("toy file", &[1, 2, 3], 40);
        r.u8("first").unwrap();
        assert_eq!(
            r.u32("second").unwrap_err(),
            WireError::Truncated {
                format: "toy file",
                what: "second",
                offset: 41
            }
        );
        assert_eq!(
            r.expect_end().unwrap_err(),
            WireError::TrailingBytes {
                format: "toy file",
                count: 2,
                offset: 41
            }
        );
    }
}

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
//! - [`Writer`]: little-endian numbers, counts and records; [`Reader`]:
//!   the fixed fields and sections of bytes in memory; [`StreamReader`]:
//!   numbers, counts and records from a stream through a small window, so
//!   a large file (a saved index) is decoded as it is read and never held
//!   whole beside its tables — every read checked against the end (a
//!   corrupt count never allocates more than the bytes left);
//! - the checksums: [`crc32`] (the rulebase, fixed by version 1) and
//!   [`checksum64`] (the index, ten times faster on its 2 MB), also in
//!   pieces as [`Checksum64`].
//!
//! The cell codes both forms share are in `rules::cell_code`.

/// A kind of binary file: its name in messages, its magic and the version
/// this build writes and reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// As errors name it: "rulebase", "rule index".
    pub name: &'static str,
    pub magic: &'static [u8; 8],
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
    #[error("not a sapper {format} (it does not start with the magic bytes \"{magic}\")")]
    BadMagic {
        format: &'static str,
        magic: &'static str,
    },
    #[error("{}", unsupported_version_message(format, *found, *supported))]
    UnsupportedVersion {
        format: &'static str,
        found: u32,
        supported: u32,
    },
    #[error("truncated {format}: the {what} at byte {offset} is cut off")]
    Truncated {
        format: &'static str,
        what: &'static str,
        offset: usize,
    },
    #[error("{count} unexpected bytes after the {format} at byte {offset}")]
    TrailingBytes {
        format: &'static str,
        count: usize,
        offset: usize,
    },
    /// `stored` is the checksum in the file, `computed` the one of its
    /// contents.
    #[error(
        "checksum mismatch (stored {stored:#x}, computed {computed:#x}): the {format} is corrupted"
    )]
    ChecksumMismatch {
        format: &'static str,
        stored: u64,
        computed: u64,
    },
    #[error("corrupt {format}: {reason}")]
    Corrupt {
        format: &'static str,
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
    pub out: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    /// A count of items.
    pub fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).expect("fewer than 2^32 items"));
    }
    pub fn u32s(&mut self, v: &[u32]) {
        self.len(v.len());
        v.iter().for_each(|&x| self.u32(x));
    }
    pub fn u64s(&mut self, v: &[u64]) {
        self.len(v.len());
        v.iter().for_each(|&x| self.u64(x));
    }
    pub fn usizes(&mut self, v: &[usize]) {
        self.len(v.len());
        v.iter().for_each(|&x| self.u64(x as u64));
    }
}

/// Reads the fixed fields and sections of bytes held in memory (headers,
/// the rulebase file), every read checked against the end. Tables too
/// large to hold twice are read with [`StreamReader`].
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes` in the whole file, for error messages.
    base: usize,
    /// What the bytes are, for error messages ("rulebase", "rule index").
    format: &'static str,
}

impl<'a> Reader<'a> {
    pub fn new(format: &'static str, bytes: &'a [u8], base: usize) -> Reader<'a> {
        Reader {
            bytes,
            pos: 0,
            base,
            format,
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
    pub fn u8(&mut self, what: &'static str) -> Result<u8, WireError> {
        Ok(self.array::<1>(what)?[0])
    }
    pub fn u32(&mut self, what: &'static str) -> Result<u32, WireError> {
        self.array(what).map(u32::from_le_bytes)
    }
    pub fn u64(&mut self, what: &'static str) -> Result<u64, WireError> {
        self.array(what).map(u64::from_le_bytes)
    }
}

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
    let mut sum = Checksum64::new(bytes.len());
    sum.update(bytes);
    sum.finish()
}

/// [`checksum64`] of bytes that arrive in pieces (a file read as a
/// stream), for a total length known from the start.
#[derive(Clone, Debug)]
pub struct Checksum64 {
    lanes: [u64; 8],
    /// The bytes of the current 64-byte block so far.
    block: [u8; 64],
    filled: usize,
    len: usize,
}

impl Checksum64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    #[inline]
    fn fold(h: u64, w: u64) -> u64 {
        (h ^ w).wrapping_mul(Self::K).rotate_left(31)
    }

    /// A checksum of `len` bytes, none seen yet.
    pub fn new(len: usize) -> Checksum64 {
        Checksum64 {
            lanes: std::array::from_fn(|k| 0x243F_6A88_85A3_08D3 ^ k as u64),
            block: [0; 64],
            filled: 0,
            len,
        }
    }

    fn eat(&mut self, block: &[u8]) {
        for (lane, word) in self.lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = Self::fold(*lane, le_u64(word));
        }
    }

    /// The next bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        if self.filled > 0 {
            let n = bytes.len().min(64 - self.filled);
            self.block[self.filled..self.filled + n].copy_from_slice(&bytes[..n]);
            self.filled += n;
            bytes = &bytes[n..];
            if self.filled < 64 {
                return;
            }
            let block = self.block;
            self.eat(&block);
            self.filled = 0;
        }
        let mut blocks = bytes.chunks_exact(64);
        for block in &mut blocks {
            self.eat(block);
        }
        let rest = blocks.remainder();
        self.block[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// The checksum: the tail bytes and the lanes folded into one value,
    /// starting from the length. (Bytes seen that differ in number from
    /// the length announced give some other value.)
    pub fn finish(&self) -> u64 {
        let mut h = self.len as u64;
        for &b in &self.block[..self.filled] {
            h = Self::fold(h, b as u64);
        }
        self.lanes.into_iter().fold(h, Self::fold)
    }
}

/// Reads little-endian numbers from a stream of known length (a file too
/// large to hold twice: its tables are decoded as its bytes arrive, through
/// a small window), folding every byte into a [`Checksum64`] as it goes.
/// What it decodes must not be trusted before [`StreamReader::checksum`]
/// is compared; every count is checked against the bytes left, so a
/// corrupt one never allocates more than the stream holds.
pub struct StreamReader<R> {
    input: R,
    /// Bytes read from `input` and not consumed yet: `window[pos..end]`.
    window: Vec<u8>,
    pos: usize,
    end: usize,
    /// Offset in the whole file of `window[pos]`.
    offset: usize,
    /// Offset in the whole file where the stream ends.
    stop: usize,
    sum: Checksum64,
    format: &'static str,
}

/// The window's size: large enough that refills are rare, small next to
/// the tables decoded through it.
const WINDOW: usize = 1 << 16;

impl<R: std::io::Read> StreamReader<R> {
    /// `len` bytes from `input`, which start at byte `base` of the file.
    pub fn new(format: &'static str, input: R, len: usize, base: usize) -> StreamReader<R> {
        StreamReader {
            input,
            window: vec![0; WINDOW],
            pos: 0,
            end: 0,
            offset: base,
            stop: base + len,
            sum: Checksum64::new(len),
            format,
        }
    }

    /// Where the next read starts, in the whole file.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The bytes not read yet.
    pub fn left(&self) -> usize {
        self.stop - self.offset
    }

    /// A [`WireError::Corrupt`] about these bytes.
    pub fn corrupt(&self, reason: impl Into<String>) -> WireError {
        WireError::Corrupt {
            format: self.format,
            reason: reason.into(),
        }
    }

    fn truncated(&self, what: &'static str, offset: usize) -> WireError {
        WireError::Truncated {
            format: self.format,
            what,
            offset,
        }
    }

    /// The next `n` bytes (valid until the next read).
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], WireError> {
        if n > self.left() {
            return Err(self.truncated(what, self.offset));
        }
        if self.end - self.pos < n {
            // Move what is left to the front, grow for a long read, refill.
            self.window.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            if self.window.len() < n {
                self.window.resize(n, 0);
            }
            while self.end < n {
                let want = (self.window.len() - self.end).min(self.left() - self.end);
                match self.input.read(&mut self.window[self.end..self.end + want]) {
                    Ok(0) => return Err(self.truncated(what, self.offset)),
                    Ok(k) => self.end += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        return Err(self.corrupt(format!("reading the {what}: {e}")));
                    }
                }
            }
        }
        let bytes = &self.window[self.pos..self.pos + n];
        self.sum.update(bytes);
        self.pos += n;
        self.offset += n;
        Ok(bytes)
    }

    pub fn u8(&mut self, what: &'static str) -> Result<u8, WireError> {
        Ok(self.take(1, what)?[0])
    }
    pub fn u16(&mut self, what: &'static str) -> Result<u16, WireError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub fn u32(&mut self, what: &'static str) -> Result<u32, WireError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u64(&mut self, what: &'static str) -> Result<u64, WireError> {
        Ok(le_u64(self.take(8, what)?))
    }

    /// A count of items of `item_bytes` bytes each, which must fit in
    /// what is left.
    pub fn count(&mut self, what: &'static str, item_bytes: usize) -> Result<usize, WireError> {
        let at = self.offset;
        let n = self.u32(what)? as usize;
        if n.saturating_mul(item_bytes) > self.left() {
            return Err(self.truncated(what, at));
        }
        Ok(n)
    }

    /// A count and that many records of `item_bytes` bytes, each decoded
    /// by `item` (read a window at a time).
    pub fn records<T>(
        &mut self,
        what: &'static str,
        item_bytes: usize,
        mut item: impl FnMut(&[u8]) -> T,
    ) -> Result<Vec<T>, WireError> {
        let n = self.count(what, item_bytes)?;
        let mut out = Vec::with_capacity(n);
        let per_read = (WINDOW / item_bytes.max(1)).max(1);
        let mut done = 0;
        while done < n {
            let k = per_read.min(n - done);
            out.extend(
                self.take(k * item_bytes, what)?
                    .chunks_exact(item_bytes)
                    .map(&mut item),
            );
            done += k;
        }
        Ok(out)
    }

    pub fn u32s(&mut self, what: &'static str) -> Result<Vec<u32>, WireError> {
        self.records(what, 4, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    }
    pub fn u64s(&mut self, what: &'static str) -> Result<Vec<u64>, WireError> {
        self.records(what, 8, le_u64)
    }
    pub fn usizes(&mut self, what: &'static str) -> Result<Vec<usize>, WireError> {
        let words = self.u64s(what)?;
        words
            .into_iter()
            .map(|w| usize::try_from(w).map_err(|_| self.corrupt(format!("{what}: too large"))))
            .collect()
    }

    /// Checks that the stream is read to its announced end, and that the
    /// input has nothing after it: otherwise [`WireError::TrailingBytes`].
    pub fn expect_end(&mut self) -> Result<(), WireError> {
        let mut extra = self.left();
        if extra == 0 {
            // One byte past the announced end: the input is longer.
            use std::io::Read as _;
            let mut probe = Vec::new();
            extra = (&mut self.input)
                .take(1)
                .read_to_end(&mut probe)
                .unwrap_or(0);
        }
        match extra {
            0 => Ok(()),
            count => Err(WireError::TrailingBytes {
                format: self.format,
                count,
                offset: self.offset,
            }),
        }
    }

    /// Reads whatever is left of the announced length (after an error, to
    /// tell a damaged file by its checksum), ignoring what it holds.
    pub fn skip_rest(&mut self) {
        while self.left() > 0 {
            let n = self.left().min(WINDOW);
            if self.take(n, "rest").is_err() {
                return;
            }
        }
    }

    /// The [`checksum64`] of everything read so far (of the whole stream
    /// once it has been read to its end).
    pub fn checksum(&self) -> u64 {
        self.sum.finish()
    }
}

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

    #[test]
    fn checksum64_in_pieces_is_checksum64_at_once() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 101 % 253) as u8).collect();
        let mut rng = crate::test_rng::XorShift64::new(5);
        for _ in 0..200 {
            let len = rng.below(bytes.len() + 1);
            let mut sum = Checksum64::new(len);
            let mut at = 0;
            while at < len {
                let n = (1 + rng.below(150)).min(len - at);
                sum.update(&bytes[at..at + n]);
                at += n;
            }
            assert_eq!(sum.finish(), checksum64(&bytes[..len]), "length {len}");
        }
    }

    /// A reader that hands out at most 3 bytes a call, as a pipe may.
    struct Trickle<'a>(&'a [u8]);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(3).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_stream_reads_what_a_writer_wrote_and_its_checksum() {
        let mut w = Writer::default();
        w.u8(1);
        w.u16(0x0203);
        w.u32(7);
        let big: Vec<u64> = (0..20_000u64).map(|i| i * i).collect();
        w.u64s(&big);
        w.usizes(&[3, 4]);
        let mut r = StreamReader::new("toy file", Trickle(&w.out), w.out.len(), 10);
        assert_eq!(r.u8("a").unwrap(), 1);
        assert_eq!(r.u16("b").unwrap(), 0x0203);
        assert_eq!(r.u32("c").unwrap(), 7);
        assert_eq!(r.u64s("d").unwrap(), big);
        assert_eq!(r.usizes("e").unwrap(), [3, 4]);
        r.expect_end().unwrap();
        assert_eq!(r.offset(), 10 + w.out.len());
        assert_eq!(r.checksum(), checksum64(&w.out));
    }

    #[test]
    fn a_stream_shorter_or_longer_than_announced_is_an_error() {
        let mut w = Writer::default();
        w.u64s(&[1, 2, 3]);
        // Announced longer than it is: the read past the end is truncated.
        let mut r = StreamReader::new("toy file", &w.out[..], w.out.len() + 8, 0);
        r.u64s("table").unwrap();
        assert!(matches!(
            r.u64("more"),
            Err(WireError::Truncated { offset: 28, .. })
        ));
        // A count beyond the announced length allocates nothing.
        let mut r = StreamReader::new("toy file", &w.out[..], 10, 0);
        assert!(matches!(
            r.u64s("table"),
            Err(WireError::Truncated { offset: 0, .. })
        ));
        // More input than announced: trailing bytes.
        let mut r = StreamReader::new("toy file", &w.out[..], 4 + 2 * 8, 0);
        assert_eq!(r.u32("count").unwrap(), 3);
        r.u64("one").unwrap();
        r.u64("two").unwrap();
        assert!(matches!(
            r.expect_end(),
            Err(WireError::TrailingBytes { offset: 20, .. })
        ));
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
        let mut r = StreamReader::new("toy file", &w.out[..], w.out.len(), 40);
        assert_eq!(
            r.u64s("table").unwrap_err(),
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

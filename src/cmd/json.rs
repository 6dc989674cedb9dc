//! JSON lines of the engine's answers ([`sapper_engine::report`]),
//! written with `serde_json` and a formatter that keeps the text of the
//! last few floats it wrote: a probability report has hundreds of entries
//! but a few dozen values (every interior cell has the same, and a row goes
//! back and forth between it and its frontier cells'), and formatting one
//! costs hundreds of instructions. The bytes are `serde_json`'s own.

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io;

/// `value` as one JSON line (with its `\n`), written into a buffer of
/// `capacity` bytes to start with.
pub fn line<T: Serialize + ?Sized>(value: &T, capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, KeptFloats::default());
    // Writing into memory fails only for a map keyed by something other
    // than a string, which no answer has.
    value
        .serialize(&mut ser)
        .expect("an answer serialises to JSON");
    out.push(b'\n');
    out
}

/// serde_json's compact formatter, with the text of recent floats kept.
struct KeptFloats {
    number: ryu::Buffer,
    /// Each kept value's bits, and its text (length, bytes).
    kept: [(u64, u8, [u8; 24]); 8],
    /// The entry the last value found is in; the next entry to replace.
    last: usize,
    next: usize,
}

impl Default for KeptFloats {
    fn default() -> Self {
        KeptFloats {
            number: ryu::Buffer::new(),
            // NaN bits: never a finite float's, so never found.
            kept: [(f64::NAN.to_bits(), 0, [0; 24]); 8],
            last: 0,
            next: 0,
        }
    }
}

impl Formatter for KeptFloats {
    /// A finite float (serde_json writes the others as `null` without
    /// asking), shortest round-trip as serde_json writes it.
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        let bits = value.to_bits();
        if self.kept[self.last].0 != bits {
            match self.kept.iter().position(|k| k.0 == bits) {
                Some(k) => self.last = k,
                None => {
                    let text = self.number.format_finite(value).as_bytes();
                    let entry = &mut self.kept[self.next];
                    entry.0 = bits;
                    entry.1 = text.len() as u8;
                    entry.2[..text.len()].copy_from_slice(text);
                    self.last = self.next;
                    self.next = (self.next + 1) % self.kept.len();
                }
            }
        }
        let (_, len, text) = &self.kept[self.last];
        writer.write_all(&text[..*len as usize])
    }
}

/// A request of type `T` read from one JSON object (a protocol line, a
/// request body). The error says whether the bytes are not JSON at all
/// ("not JSON: ..."), not an object, or an object of the wrong shape (the
/// field at fault, from the request type).
pub fn request<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{')
        && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
    {
        return Err("expected a JSON object".into());
    }
    serde_json::from_slice(bytes).map_err(|e| {
        if e.is_data() {
            e.to_string()
        } else {
            format!("not JSON: {e}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept texts are serde_json's own, whatever the order of values.
    #[test]
    fn kept_floats_write_the_bytes_serde_json_writes() {
        let mut values = vec![0.1, 0.25, 1e-300, 0.0, 1.0, f64::NAN, 123456.789, -2.5e-7];
        for k in 0..200 {
            values.push(values[(k * 7) % 8] * if k % 3 == 0 { 1.0 } else { 0.5 });
        }
        let mine = line(&values, 0);
        let theirs = serde_json::to_vec(&values).unwrap();
        assert_eq!(&mine[..mine.len() - 1], &theirs[..]);
    }
}

//! The unpadded base64 that gnubg's IDs use (standard alphabet).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Encodes `bytes` and keeps the first `chars` characters (gnubg drops the
/// padding, and the dropped bits of a Position ID are always zero).
pub fn encode(bytes: &[u8], chars: usize) -> String {
    let mut out = String::with_capacity(chars + 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out.truncate(chars);
    out
}

/// Decodes `text` into exactly `len` bytes; `None` on a character outside
/// the alphabet. Missing trailing bits are zero.
pub fn decode(text: &str, len: usize) -> Option<Vec<u8>> {
    let mut bits: u64 = 0;
    let mut nbits = 0;
    let mut out = Vec::with_capacity(len);
    for &c in text.as_bytes() {
        bits = bits << 6 | value(c)? as u64;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    out.resize(len, 0);
    Some(out)
}

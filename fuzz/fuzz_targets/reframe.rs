//! Rewrites the frame header of fuzz input so that its length and FNV-1a
//! checksum are right (magic and version are left to the fuzzer): the
//! decoders behind the frame see hostile payloads, as a file written by
//! another program would give them.
#![allow(dead_code)]

const HEADER: usize = 8 + 4 + 8 + 8;

pub fn with_checksum(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < HEADER {
        return None;
    }
    let mut out = data.to_vec();
    let payload = &data[HEADER..];
    let sum = payload.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    out[12..20].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    out[20..28].copy_from_slice(&sum.to_le_bytes());
    Some(out)
}

//! The unpadded base64 that gnubg's IDs use (standard alphabet), through
//! the `base64` crate: no padding written or accepted, and the bits past
//! the last whole byte ignored (gnubg writes them as zero; a hand-typed ID
//! need not).

use ::base64::Engine;
use ::base64::alphabet::STANDARD;
use ::base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

const IDS: GeneralPurpose = GeneralPurpose::new(
    &STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// `bytes` as unpadded base64 (10 bytes give a Position ID's 14
/// characters, 9 a Match ID's 12).
pub fn encode(bytes: &[u8]) -> String {
    IDS.encode(bytes)
}

/// Decodes `text` into exactly `len` bytes; `None` on a character outside
/// the alphabet or another length.
pub fn decode(text: &str, len: usize) -> Option<Vec<u8>> {
    IDS.decode(text).ok().filter(|bytes| bytes.len() == len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_bad_text_is_refused() {
        let key = [0x4f, 0x1c, 0xe0, 0x01, 0x00, 0x00, 0x78, 0x30, 0x03, 0x00];
        let text = encode(&key);
        assert_eq!(text.len(), 14);
        assert_eq!(decode(&text, 10), Some(key.to_vec()));
        // Bits past the last byte are ignored, as a reader of gnubg's IDs must.
        let mut loose = text.clone().into_bytes();
        loose[13] = b'B';
        assert_eq!(
            decode(std::str::from_utf8(&loose).unwrap(), 10),
            Some(key.to_vec())
        );
        assert_eq!(decode("4HPwATDgc/ABM=", 10), None);
        assert_eq!(decode("4HPwATDgc/AB!A", 10), None);
        assert_eq!(decode("4HPwATDgc/ABMA", 9), None);
    }
}

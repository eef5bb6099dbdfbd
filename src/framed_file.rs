//! A small frame around binary payloads written to disk (model files,
//! training checkpoints): magic bytes, a format version, the payload length
//! and an FNV-1a checksum. It lets a truncated, corrupted or foreign file be
//! refused with one clear line before any decoding is tried.

const HEADER: usize = 8 + 4 + 8 + 8;

#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum FrameError {
    #[error("not a {kind} file (bad magic bytes)")]
    Magic { kind: &'static str },
    #[error("{kind} file format {found} is not supported (this build reads {supported})")]
    Format {
        kind: &'static str,
        found: u32,
        supported: u32,
    },
    #[error("{kind} file is truncated ({found} of {expected} bytes)")]
    Truncated {
        kind: &'static str,
        found: usize,
        expected: usize,
    },
    #[error("{kind} file is corrupt (checksum mismatch)")]
    Checksum { kind: &'static str },
}

/// What can go wrong with a framed file of any kind (a model of either
/// game, a training checkpoint), with the kind of file in each message:
/// one enum, so that a fix to how files are read, written or decoded
/// reaches every kind.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {what} {path}: {error}")]
    Read {
        what: &'static str,
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("cannot write {what} {path}: {error}")]
    Write {
        what: &'static str,
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Frame(#[from] FrameError),
    #[error("{what} payload cannot be decoded: {message}")]
    Decode { what: &'static str, message: String },
}

/// The bytes of the file at `path` (`what` names the kind in errors).
pub fn read_file(what: &'static str, path: &std::path::Path) -> Result<Vec<u8>, FileError> {
    std::fs::read(path).map_err(|error| FileError::Read {
        what,
        path: path.to_owned(),
        error,
    })
}

/// Writes `payload` framed as `kind` to `path`, atomically.
pub fn write_file(
    what: &'static str,
    kind: &FrameKind,
    path: &std::path::Path,
    payload: &[u8],
) -> Result<(), FileError> {
    crate::atomic_file::write(path, &frame(kind, payload)).map_err(|error| FileError::Write {
        what,
        path: path.to_owned(),
        error,
    })
}

/// The most bytes a payload may claim for its strings and arrays. The
/// largest real file (a training checkpoint with its Adam moments and two
/// models) is a few megabytes; without a limit a hostile length field
/// made the decoder ask for 5 exabytes and abort the process.
const DECODE_LIMIT: usize = 1 << 28;

/// A payload decoded with bincode's standard configuration, lengths
/// bounded by `DECODE_LIMIT`.
pub fn decode_payload<T: serde::de::DeserializeOwned>(
    what: &'static str,
    payload: &[u8],
) -> Result<T, FileError> {
    decode_payload_prefix(what, payload).map(|(value, _)| value)
}

/// Decodes a value from the front of `payload` and says how many bytes it
/// took, for payloads that carry a later format's additions after it.
pub fn decode_payload_prefix<T: serde::de::DeserializeOwned>(
    what: &'static str,
    payload: &[u8],
) -> Result<(T, usize), FileError> {
    let config = bincode::config::standard().with_limit::<DECODE_LIMIT>();
    bincode::serde::decode_from_slice(payload, config).map_err(|e| FileError::Decode {
        what,
        message: e.to_string(),
    })
}

/// What a frame says about itself.
pub struct FrameKind {
    /// Name used in error messages ("model", "checkpoint").
    pub name: &'static str,
    pub magic: &'static [u8; 8],
    pub version: u32,
}

/// FNV-1a, 64 bit: enough to catch corruption, not meant against tampering.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

pub fn frame(kind: &FrameKind, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(kind.magic);
    out.extend_from_slice(&kind.version.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of a frame, after every check.
pub fn unframe<'a>(kind: &FrameKind, bytes: &'a [u8]) -> Result<&'a [u8], FrameError> {
    unframe_since(kind, kind.version, bytes).map(|(_, payload)| payload)
}

/// The format version and payload of a frame written by any version from
/// `oldest` to the current one, for readers that still decode older
/// layouts.
pub fn unframe_since<'a>(
    kind: &FrameKind,
    oldest: u32,
    bytes: &'a [u8],
) -> Result<(u32, &'a [u8]), FrameError> {
    let name = kind.name;
    if bytes.len() < 8 || &bytes[..8] != kind.magic {
        return Err(FrameError::Magic { kind: name });
    }
    if bytes.len() < HEADER {
        return Err(FrameError::Truncated {
            kind: name,
            found: bytes.len(),
            expected: HEADER,
        });
    }
    let word = |at: usize, n: usize| {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&bytes[at..at + n]);
        u64::from_le_bytes(b)
    };
    let version = word(8, 4) as u32;
    if !(oldest..=kind.version).contains(&version) {
        return Err(FrameError::Format {
            kind: name,
            found: version,
            supported: kind.version,
        });
    }
    let expected = HEADER.saturating_add(word(12, 8) as usize);
    if bytes.len() != expected {
        return Err(FrameError::Truncated {
            kind: name,
            found: bytes.len(),
            expected,
        });
    }
    let payload = &bytes[HEADER..];
    if checksum(payload) != word(20, 8) {
        return Err(FrameError::Checksum { kind: name });
    }
    Ok((version, payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIND: FrameKind = FrameKind {
        name: "test",
        magic: b"KOTRATST",
        version: 3,
    };

    #[test]
    fn round_trip_and_every_kind_of_damage() {
        let framed = frame(&KIND, b"payload bytes");
        assert_eq!(unframe(&KIND, &framed).unwrap(), b"payload bytes");
        assert!(matches!(
            unframe(&KIND, b"garbage!"),
            Err(FrameError::Magic { .. })
        ));
        assert!(matches!(
            unframe(&KIND, &framed[..framed.len() - 1]),
            Err(FrameError::Truncated { .. })
        ));
        let mut flipped = framed.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(
            unframe(&KIND, &flipped),
            Err(FrameError::Checksum { .. })
        ));
        let mut future = framed.clone();
        future[8] = 9;
        assert!(matches!(
            unframe(&KIND, &future),
            Err(FrameError::Format { found: 9, .. })
        ));
        let mut older = framed.clone();
        older[8] = 2;
        assert!(matches!(
            unframe(&KIND, &older),
            Err(FrameError::Format { found: 2, .. })
        ));
        assert_eq!(
            unframe_since(&KIND, 2, &older).unwrap(),
            (2, &b"payload bytes"[..])
        );
    }
}

//! The learning curve: one row per measurement, kept in the checkpoint and
//! written out as CSV and as a PNG chart after every measurement.

use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub games: u64,
    pub seconds: f64,
    pub loss_contact: f64,
    pub loss_race: f64,
    pub ppg_pubeval: f64,
    pub se_pubeval: f64,
    pub ppg_previous: f64,
    pub se_previous: f64,
    /// Mean error on the dev set in millipoints; NaN when no set was given.
    pub dev_mp: f64,
    /// NaN when the model has no crashed network.
    pub loss_crashed: f64,
}

impl CurvePoint {
    /// The strength figures as a progress line shows them.
    /// Figures that were not measured (NaN) are left out.
    pub fn strength(&self) -> String {
        let mut parts = Vec::new();
        if self.ppg_pubeval.is_finite() {
            parts.push(format!(
                "vs PubEval {:+.3} ± {:.3} ppg",
                self.ppg_pubeval, self.se_pubeval
            ));
        }
        if self.ppg_previous.is_finite() {
            parts.push(format!(
                "vs previous {:+.3} ± {:.3}",
                self.ppg_previous, self.se_previous
            ));
        }
        if self.dev_mp.is_finite() {
            parts.push(format!("dev {:.2} mp", self.dev_mp));
        }
        if parts.is_empty() {
            "no strength measured".into()
        } else {
            parts.join(", ")
        }
    }
}

pub fn to_csv(points: &[CurvePoint]) -> String {
    let mut s = String::from(
        "games,seconds,loss_contact,loss_race,ppg_pubeval,se_pubeval,ppg_previous,se_previous,dev_mp,loss_crashed\n",
    );
    for p in points {
        let _ = writeln!(
            s,
            "{},{:.1},{:.6},{:.6},{:.4},{:.4},{:.4},{:.4},{:.3},{:.6}",
            p.games,
            p.seconds,
            p.loss_contact,
            p.loss_race,
            p.ppg_pubeval,
            p.se_pubeval,
            p.ppg_previous,
            p.se_previous,
            p.dev_mp,
            p.loss_crashed
        );
    }
    s
}

/// Writes `curve.csv` and `curve.png` into `dir`.
pub fn write(dir: &Path, points: &[CurvePoint]) -> std::io::Result<()> {
    crate::atomic_file::write(&dir.join("curve.csv"), to_csv(points).as_bytes())?;
    let ppg: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.ppg_pubeval.is_finite())
        .map(|p| (p.games as f64, p.ppg_pubeval))
        .collect();
    let dev: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.dev_mp.is_finite())
        .map(|p| (p.games as f64, p.dev_mp))
        .collect();
    let png = chart(&[(&ppg, [30, 90, 200]), (&dev, [200, 50, 40])]);
    crate::atomic_file::write(&dir.join("curve.png"), &png)
}

/// Points (x, y) and the colour to draw them in.
type Series<'a> = (&'a [(f64, f64)], [u8; 3]);

const W: usize = 640;
const H: usize = 400;
const MARGIN: usize = 30;

/// A line chart: each series scaled to its own range over the same x axis
/// (blue: ppg against PubEval, rising is better; red: dev-set error in mp,
/// falling is better), light grid lines at tenths. Exact values are in
/// the CSV.
fn chart(series: &[Series]) -> Vec<u8> {
    let mut img = vec![255u8; W * H * 3];
    let put = |img: &mut Vec<u8>, x: usize, y: usize, c: [u8; 3]| {
        if x < W && y < H {
            img[(y * W + x) * 3..][..3].copy_from_slice(&c);
        }
    };
    for k in 0..=10 {
        let y = MARGIN + k * (H - 2 * MARGIN) / 10;
        let x = MARGIN + k * (W - 2 * MARGIN) / 10;
        for i in MARGIN..=W - MARGIN {
            put(&mut img, i, y, [225, 225, 225]);
        }
        for j in MARGIN..=H - MARGIN {
            put(&mut img, x, j, [225, 225, 225]);
        }
    }
    let xmax = series
        .iter()
        .flat_map(|(s, _)| s.iter().map(|p| p.0))
        .fold(1.0, f64::max);
    for &(points, colour) in series {
        if points.is_empty() {
            continue;
        }
        let lo = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let hi = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let span = (hi - lo).max(1e-9);
        let to_px = |&(x, y): &(f64, f64)| {
            let px = MARGIN as f64 + x / xmax * (W - 2 * MARGIN) as f64;
            let py = (H - MARGIN) as f64 - (y - lo) / span * (H - 2 * MARGIN) as f64;
            (px, py)
        };
        let mut prev = to_px(&points[0]);
        for p in points {
            let cur = to_px(p);
            let steps = ((cur.0 - prev.0).abs().max((cur.1 - prev.1).abs()) as usize).max(1);
            for s in 0..=steps {
                let t = s as f64 / steps as f64;
                let (x, y) = (prev.0 + t * (cur.0 - prev.0), prev.1 + t * (cur.1 - prev.1));
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    put(&mut img, x as usize + dx, y as usize + dy, colour);
                }
            }
            prev = cur;
        }
    }
    png_rgb(W, H, &img)
}

/// A minimal PNG encoder: RGB, 8 bits, stored (uncompressed) deflate blocks.
fn png_rgb(w: usize, h: usize, rgb: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(h * (w * 3 + 1));
    for row in rgb.chunks_exact(w * 3) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, b) in blocks.iter().enumerate() {
        z.push((i + 1 == blocks.len()) as u8);
        z.extend_from_slice(&(b.len() as u16).to_le_bytes());
        z.extend_from_slice(&(!(b.len() as u16)).to_le_bytes());
        z.extend_from_slice(b);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + byte as u32) % 65_521;
        b = (b + a) % 65_521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(w as u32).to_be_bytes());
    ihdr.extend_from_slice(&(h as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(kind.iter().chain(data));
    out.extend_from_slice(&crc.to_be_bytes());
}

fn crc32<'a>(bytes: impl Iterator<Item = &'a u8>) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_and_png_structure() {
        assert_eq!(crc32(b"IEND".iter()), 0xae42_6082);
        let png = chart(&[(&[(0.0, 0.1), (10.0, 0.4)], [0, 0, 255])]);
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[png.len() - 8..png.len() - 4], b"IEND");
    }

    #[test]
    fn the_progress_line_leaves_out_what_was_not_measured() {
        let point = CurvePoint {
            games: 1,
            seconds: 1.0,
            loss_contact: 1e-4,
            loss_race: f64::NAN,
            ppg_pubeval: 0.61,
            se_pubeval: 0.01,
            ppg_previous: f64::NAN,
            se_previous: f64::NAN,
            dev_mp: 4.38,
            loss_crashed: f64::NAN,
        };
        assert_eq!(
            point.strength(),
            "vs PubEval +0.610 ± 0.010 ppg, dev 4.38 mp"
        );
        let nothing = CurvePoint {
            ppg_pubeval: f64::NAN,
            se_pubeval: f64::NAN,
            dev_mp: f64::NAN,
            ..point
        };
        assert_eq!(nothing.strength(), "no strength measured");
    }
}

//! The evaluator's copy of a network, laid out for speed: the first
//! layer's weights in half precision.
//!
//! A contact evaluation adds one first-layer row per non-zero input, about
//! seventy rows of 256 weights, and at 4 bytes a weight those rows do not
//! fit in the level-1 cache: the sums wait on memory, not on arithmetic.
//! At 2 bytes a weight (IEEE binary16, widened by the F16C instruction on
//! load) the same rows stream twice as fast. Rounding a weight to 11
//! significant bits moves an output by about 1e-4, far below what
//! separates moves; training keeps the full f32 weights in [`Mlp`].

use super::network::{MAX_HIDDEN, Mlp, OUTPUTS, hidden_layer, output_layer, sigmoid};

pub struct FastNet {
    inputs: usize,
    hidden: usize,
    /// `[inputs][hidden]`, binary16 bits.
    w1_half: Vec<u16>,
    /// The same weights widened back to f32, for CPUs without AVX2/F16C,
    /// so both paths compute with the same values.
    w1_rounded: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: [f32; OUTPUTS],
}

impl From<&Mlp> for FastNet {
    fn from(m: &Mlp) -> FastNet {
        let w1_half: Vec<u16> = m.w1.iter().map(|&w| f16_bits(w)).collect();
        FastNet {
            inputs: m.inputs,
            hidden: m.hidden,
            w1_rounded: w1_half.iter().map(|&h| f16_value(h)).collect(),
            w1_half,
            b1: m.b1.clone(),
            w2: m.w2.clone(),
            b2: m.b2,
        }
    }
}

impl FastNet {
    /// The five output probabilities for `input` (length `inputs`).
    #[inline]
    pub fn forward(&self, input: &[f32]) -> [f32; OUTPUTS] {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("f16c")
        {
            // SAFETY: the CPU supports the features the function is built for.
            return unsafe { self.forward_avx2(input) };
        }
        self.forward_portable(input)
    }

    fn forward_portable(&self, input: &[f32]) -> [f32; OUTPUTS] {
        let mut scratch = [0f32; MAX_HIDDEN];
        let hidden = &mut scratch[..self.hidden];
        hidden_layer(&self.w1_rounded, &self.b1, input, hidden);
        output_layer(&self.w2, &self.b2, hidden)
    }

    /// The non-zero inputs are gathered first; then each block of 64
    /// hidden units is accumulated in eight registers over all of them, so
    /// the accumulators never touch memory.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn forward_avx2(&self, input: &[f32]) -> [f32; OUTPUTS] {
        use std::arch::x86_64::*;
        let h = self.hidden;
        assert!(
            input.len() == self.inputs
                && self.w1_half.len() == self.inputs * h
                && h <= MAX_HIDDEN
                && self.inputs <= 512
        );
        let mut nz_index = [0u32; 512];
        let mut nz_value = [0f32; 512];
        let mut n = 0;
        for (i, &x) in input.iter().enumerate() {
            nz_index[n] = i as u32;
            nz_value[n] = x;
            n += (x != 0.0) as usize;
        }
        let mut hidden = [0f32; MAX_HIDDEN];
        let w = self.w1_half.as_ptr();
        let nonzero = || nz_index[..n].iter().zip(&nz_value[..n]);
        let row_weights = |i: u32, block: usize, k: usize| {
            // SAFETY: i < inputs and block + 8k + 8 <= h, so the eight
            // weights lie inside w1_half.
            unsafe {
                let p = w.add(i as usize * h + block + 8 * k);
                _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i))
            }
        };
        let mut block = 0;
        // SAFETY (the loads and stores below): block + lane < h, and
        // hidden and b1 hold h values.
        unsafe {
            while block + 64 <= h {
                let b = self.b1.as_ptr().add(block);
                let mut acc = [_mm256_setzero_ps(); 8];
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_loadu_ps(b.add(8 * k));
                }
                for (&i, &v) in nonzero() {
                    let x = _mm256_set1_ps(v);
                    for (k, a) in acc.iter_mut().enumerate() {
                        *a = _mm256_fmadd_ps(x, row_weights(i, block, k), *a);
                    }
                }
                for (k, a) in acc.iter().enumerate() {
                    _mm256_storeu_ps(hidden.as_mut_ptr().add(block + 8 * k), *a);
                }
                block += 64;
            }
            while block < h {
                let mut a = _mm256_loadu_ps(self.b1.as_ptr().add(block));
                for (&i, &v) in nonzero() {
                    a = _mm256_fmadd_ps(_mm256_set1_ps(v), row_weights(i, block, 0), a);
                }
                _mm256_storeu_ps(hidden.as_mut_ptr().add(block), a);
                block += 8;
            }
        }
        let hidden = &mut hidden[..h];
        for a in hidden.iter_mut() {
            *a = sigmoid(*a);
        }
        output_layer(&self.w2, &self.b2, hidden)
    }
}

/// `x` rounded to the nearest binary16 (ties to even), as its bits.
/// Magnitudes beyond binary16's range saturate at its largest finite value:
/// a weight that large would be a broken network anyway.
pub fn f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7bff;
    }
    let (kept, rest, shift) = if e <= 0 {
        // Subnormal in binary16 (or zero): value = m × 2^-24.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        (m >> shift, m & ((1 << shift) - 1), shift)
    } else {
        (((e as u32) << 10) | (man >> 13), man & 0x1fff, 13)
    };
    let halfway = 1u32 << (shift - 1);
    let up = rest > halfway || (rest == halfway && kept & 1 == 1);
    // A carry out of the significand correctly bumps the exponent.
    let r = (kept + up as u32).min(0x7bff);
    sign | r as u16
}

/// The f32 value of binary16 bits (finite values).
pub fn f16_value(h: u16) -> f32 {
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let magnitude = if exp == 0 {
        man as f32 * (1.0 / 16_777_216.0)
    } else {
        f32::from_bits(((exp + 112) << 23) | (man << 13))
    };
    if h & 0x8000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_rounding_is_nearest_and_exact_where_it_can_be() {
        // Values binary16 holds exactly come back unchanged.
        for v in [
            0.0f32,
            1.0,
            -2.5,
            0.000_061_035_156,
            65504.0,
            5.960_464_5e-8,
        ] {
            assert_eq!(f16_value(f16_bits(v)), v, "{v}");
        }
        // Elsewhere the rounding error is at most half a unit in the last
        // place: at most 2^-11 relative for normal values.
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = f32::from_bits((s as u32) & 0x7fff_ffff) % 1000.0;
            if !v.is_finite() || v < 1e-4 {
                continue;
            }
            let r = f16_value(f16_bits(v));
            assert!((r - v).abs() <= v * (1.0 / 2048.0), "{v} -> {r}");
            assert_eq!(f16_value(f16_bits(-v)), -r);
        }
        assert_eq!(f16_value(f16_bits(1e9)), 65504.0);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn half_rounding_agrees_with_the_f16c_instruction() {
        if !std::is_x86_feature_detected!("f16c") {
            return;
        }
        use std::arch::x86_64::*;
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = f32::from_bits(s as u32);
            if !v.is_finite() || v.abs() > 65504.0 {
                continue;
            }
            // SAFETY: F16C is present (checked above).
            let hw = unsafe { _mm_extract_epi16(_mm_cvtps_ph(_mm_set1_ps(v), 0), 0) as u16 };
            assert_eq!(f16_bits(v), hw, "{v}");
        }
    }

    #[test]
    fn vector_and_portable_paths_agree() {
        for hidden in [8, 72, 128, 256] {
            let net = FastNet::from(&Mlp::random(50, hidden, hidden as u64));
            let input: Vec<f32> = (0..50)
                .map(|i| {
                    if i % 4 == 1 {
                        0.0
                    } else {
                        (i % 7) as f32 / 3.0
                    }
                })
                .collect();
            let (fast, portable) = (net.forward(&input), net.forward_portable(&input));
            for o in 0..OUTPUTS {
                assert!(
                    (portable[o] - fast[o]).abs() < 1e-5,
                    "hidden {hidden}: {portable:?} vs {fast:?}"
                );
            }
        }
    }

    #[test]
    fn half_weights_change_outputs_by_a_hair() {
        let m = Mlp::random(230, 64, 5);
        let fast = FastNet::from(&m);
        let input: Vec<f32> = (0..230)
            .map(|i| {
                if i % 4 == 0 {
                    (i % 7) as f32 / 3.0
                } else {
                    0.0
                }
            })
            .collect();
        for (a, b) in fast.forward(&input).iter().zip(m.forward(&input)) {
            assert!((a - b).abs() < 1e-3, "{a} vs {b}");
        }
    }
}

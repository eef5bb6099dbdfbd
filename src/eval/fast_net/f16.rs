//! IEEE binary16 by hand, for the first layer's half-precision weights.

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

//! The integer layers' per-width steps: one pair-wise multiply-add into
//! 32-bit sums, `acc + pmaddwd(x, w)`, and the sums turned back into
//! floats and added to an output. Their passes are written once as macros
//! over these ([`super::feature_rows`], [`super::point_rows`],
//! [`super::quantized_mid`]).

/// `acc + pmaddwd(x, w)`, 8 lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn dot_avx2(
    acc: std::arch::x86_64::__m256i,
    x: std::arch::x86_64::__m256i,
    w: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    _mm256_add_epi32(acc, _mm256_madd_epi16(x, w))
}

/// `acc + pmaddwd(x, w)`, 16 lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn dot_avx512(
    acc: std::arch::x86_64::__m512i,
    x: std::arch::x86_64::__m512i,
    w: std::arch::x86_64::__m512i,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    _mm512_add_epi32(acc, _mm512_madd_epi16(x, w))
}

/// The same in one instruction: `vpdpwssd` wraps as the add does, and
/// no pair of products here comes near the i32 range.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
#[inline]
pub(super) fn dot_vnni(
    acc: std::arch::x86_64::__m512i,
    x: std::arch::x86_64::__m512i,
    w: std::arch::x86_64::__m512i,
) -> std::arch::x86_64::__m512i {
    std::arch::x86_64::_mm512_dpwssd_epi32(acc, x, w)
}

/// `out[..8] += a · unit`, each lane's i32 sum as a float.
///
/// # Safety
/// The CPU has AVX2 and FMA; `out` holds eight floats.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
pub(super) unsafe fn scale_add_avx2(out: *mut f32, a: std::arch::x86_64::__m256i, unit: f32) {
    use std::arch::x86_64::*;
    // SAFETY: as the caller promises.
    unsafe {
        let x = _mm256_fmadd_ps(
            _mm256_cvtepi32_ps(a),
            _mm256_set1_ps(unit),
            _mm256_loadu_ps(out),
        );
        _mm256_storeu_ps(out, x);
    }
}

/// `out[..16] += a · unit`: the same per lane as [`scale_add_avx2`].
///
/// # Safety
/// The CPU has AVX-512F; `out` holds sixteen floats.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) unsafe fn scale_add_avx512(out: *mut f32, a: std::arch::x86_64::__m512i, unit: f32) {
    use std::arch::x86_64::*;
    // SAFETY: as the caller promises.
    unsafe {
        let x = _mm512_fmadd_ps(
            _mm512_cvtepi32_ps(a),
            _mm512_set1_ps(unit),
            _mm512_loadu_ps(out),
        );
        _mm512_storeu_ps(out, x);
    }
}

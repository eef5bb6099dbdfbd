//! One pair-wise multiply-add into 32-bit sums, `acc + pmaddwd(x, w)`,
//! at each vector width: the integer layers' passes are written once as
//! macros over it ([`super::feature_rows`], [`super::quantized_mid`]).

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

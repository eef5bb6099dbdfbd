use super::sparse::LEFT_PACK;
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

/// A fixed stream of random words from `seed`.
fn xorshift(mut s: u64) -> impl FnMut() -> u64 {
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// A float in 0..1 from a word's top 24 bits.
fn unit_float(s: u64) -> f32 {
    (s >> 40) as f32 / (1u64 << 24) as f32
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_output_lanes_are_the_fused_output_layer_bit_for_bit() {
    if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")) {
        return;
    }
    for m in [Mlp::random(50, 64, 1), Mlp::random_deep(50, 128, 64, 2)] {
        let net = FastNet::from(&m);
        let mut word = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let upper: Vec<f32> = (0..m.last_hidden()).map(|_| unit_float(word())).collect();
            let reference = output_layer::<true>(&m.w2, &m.b2, &upper);
            // SAFETY: the CPU has AVX2 and FMA, checked above.
            let lanes = unsafe { net.output_lanes(&upper) };
            assert_eq!(reference.map(f32::to_bits), lanes.map(f32::to_bits));
        }
    }
}

#[test]
fn vector_and_portable_paths_agree() {
    let nets = [8, 72, 128, 256]
        .map(|hidden| Mlp::random(50, hidden, hidden as u64))
        .into_iter()
        .chain([
            Mlp::random_deep(50, 128, 32, 3),
            Mlp::random_deep(50, 128, 24, 7),
        ]);
    for m in nets {
        let (hidden, net) = (m.hidden, FastNet::from(&m));
        let input: Vec<f32> = (0..50)
            .map(|i| {
                if i % 4 == 1 {
                    0.0
                } else {
                    (i % 7) as f32 / 3.0
                }
            })
            .collect();
        let portable = net.forward_portable(&input);
        let mut paths = vec![("dispatch", net.forward(&input))];
        // SAFETY (each call): the pass detected covers the features of
        // every pass below it.
        #[cfg(target_arch = "x86_64")]
        match net.pass {
            Pass::Avx512 => {
                paths.push(("avx512", unsafe { net.forward_avx512(&input) }));
                paths.push(("avx2", unsafe { net.forward_avx2(&input) }));
            }
            Pass::Avx2 => paths.push(("avx2", unsafe { net.forward_avx2(&input) })),
            Pass::Portable => {}
        }
        for (name, out) in paths {
            for o in 0..OUTPUTS {
                assert!(
                    (portable[o] - out[o]).abs() < 1e-5,
                    "hidden {hidden}, {name}: {portable:?} vs {out:?}"
                );
            }
        }
    }
}

/// `count` inputs of 230, each non-zero with chance 1/3, drawn from
/// a fixed seed.
fn sparse_inputs(count: usize) -> Vec<Vec<f32>> {
    let mut word = xorshift(0x2545_f491_4f6c_dd1d);
    let mut next = move || {
        let s = word();
        if s.is_multiple_of(3) {
            unit_float(s)
        } else {
            0.0
        }
    };
    (0..count)
        .map(|_| (0..230).map(|_| next()).collect())
        .collect()
}

#[test]
fn sparse_inputs_of_every_pattern_give_the_portable_answer() {
    let m = Mlp::random_deep(230, 128, 64, 9);
    let net = FastNet::from(&m);
    for input in sparse_inputs(200) {
        let (portable, fast) = (net.forward_portable(&input), net.forward(&input));
        for o in 0..OUTPUTS {
            assert!(
                (portable[o] - fast[o]).abs() < 1e-5,
                "{portable:?} vs {fast:?}"
            );
        }
    }
    for (mask, order) in LEFT_PACK.iter().enumerate() {
        let lanes: Vec<i32> = (0..8).filter(|l| mask >> l & 1 == 1).collect();
        assert_eq!(&order[..lanes.len()], &lanes[..], "mask {mask:08b}");
    }
}

#[test]
fn a_memo_gives_the_full_pass_answer_along_a_walk() {
    let (a, b) = (
        FastNet::from(&Mlp::random_deep(230, 128, 64, 4)),
        FastNet::from(&Mlp::random_deep(230, 128, 64, 5)),
    );
    let mut memo = FirstLayerMemo::new();
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut input = vec![0f32; 230];
    for step in 0..400 {
        // Mostly a few inputs changed, now and then most of them, and
        // now and then the other network: every path of the memo.
        let changes = if step % 37 == 0 { 200 } else { 1 + step % 9 };
        for _ in 0..changes {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let i = (s % 230) as usize;
            input[i] = if s >> 60 < 6 {
                0.0
            } else {
                (s >> 40) as f32 / (1u64 << 24) as f32
            };
        }
        let net = if step % 50 < 45 { &a } else { &b };
        let (full, walked) = (
            net.forward(&input),
            net.forward_with_memo(&input, &mut memo),
        );
        for o in 0..OUTPUTS {
            assert!(
                (full[o] - walked[o]).abs() < 1e-5,
                "step {step}: {full:?} vs {walked:?}"
            );
        }
    }
}

#[test]
fn a_layer_too_large_for_integers_runs_in_floats_on_every_pass() {
    let mut m = Mlp::random_deep(230, 128, 64, 12);
    m.mid.as_mut().unwrap().w[5] = 300.0;
    let net = FastNet::from(&m);
    assert!(matches!(net.mid, Some(SecondLayer::Floats(_))));
    for input in sparse_inputs(50) {
        let (portable, fast, reference) = (
            net.forward_portable(&input),
            net.forward(&input),
            m.forward(&input),
        );
        for o in 0..OUTPUTS {
            assert!(
                (portable[o] - fast[o]).abs() < 1e-5,
                "{portable:?} vs {fast:?}"
            );
            assert!(
                (reference[o] - fast[o]).abs() < 1e-3,
                "{reference:?} vs {fast:?}"
            );
        }
    }
}

#[test]
fn half_weights_change_outputs_by_a_hair() {
    for m in [Mlp::random(230, 64, 5), Mlp::random_deep(230, 64, 16, 5)] {
        half_weights_change_outputs_of(&m);
    }
}

fn half_weights_change_outputs_of(m: &Mlp) {
    let fast = FastNet::from(m);
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

//! Polyak averaging of the weights: Adam at a small learning rate still
//! jitters the weights around the point the targets pull them to, and the
//! dev error moves by a few tenths of a millipoint between measurements.
//! An exponential moving average of the weights over the last few hundred
//! steps sits nearer that point than any single step's weights.

use crate::eval::Model;
use crate::eval::network::Mlp;

/// Moves `avg` towards `current`: `avg = decay · avg + (1 − decay) · current`.
/// A network `avg` lacks (or of another shape) is copied whole.
pub fn blend(avg: &mut Model, current: &Model, decay: f32) {
    blend_net(&mut avg.contact, &current.contact, decay);
    blend_net(&mut avg.race, &current.race, decay);
    match (&mut avg.crashed, &current.crashed) {
        (Some(a), Some(c)) => blend_net(a, c, decay),
        (a, c) => a.clone_from(c),
    }
    avg.meta = current.meta.clone();
}

fn blend_net(avg: &mut Mlp, current: &Mlp, decay: f32) {
    if avg.inputs != current.inputs
        || avg.hidden != current.hidden
        || avg.mid.is_some() != current.mid.is_some()
        || avg.last_hidden() != current.last_hidden()
    {
        avg.clone_from(current);
        return;
    }
    let mut pairs: Vec<(&mut [f32], &[f32])> = vec![
        (&mut avg.w1, &current.w1),
        (&mut avg.b1, &current.b1),
        (&mut avg.w2, &current.w2),
        (&mut avg.b2, &current.b2),
    ];
    if let (Some(a), Some(c)) = (avg.mid.as_mut(), current.mid.as_ref()) {
        pairs.push((&mut a.w, &c.w));
        pairs.push((&mut a.b, &c.b));
    }
    for (a, c) in pairs {
        for (a, c) in a.iter_mut().zip(c) {
            *a = decay * *a + (1.0 - decay) * c;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_average_moves_part_way_and_copies_what_it_lacks() {
        let a0 = Model::random(16, 8, 1);
        let mut current = Model::random(16, 8, 2);
        current.crashed = Some(current.contact.clone());
        let mut avg = a0.clone();
        blend(&mut avg, &current, 0.75);
        let expect = 0.75 * a0.contact.w1[5] + 0.25 * current.contact.w1[5];
        assert!((avg.contact.w1[5] - expect).abs() < 1e-7);
        let expect = 0.75 * a0.race.b2[1] + 0.25 * current.race.b2[1];
        assert!((avg.race.b2[1] - expect).abs() < 1e-7);
        assert_eq!(avg.crashed, current.crashed);
        // Decay 0 is the current weights.
        blend(&mut avg, &current, 0.0);
        assert_eq!(avg, current);
    }
}

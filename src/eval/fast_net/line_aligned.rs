//! Weights that start on a cache line.
//!
//! The vector passes read the network's weights with 32- and 64-byte
//! loads at multiples of their size from the start of each array. A `Vec`
//! of 16-bit weights starts wherever the allocator puts it, 16 bytes
//! aligned on this target, and there every other 32-byte load straddles
//! two cache lines: the level-1 cache serves it as two accesses, and the
//! layers are bound by how fast their weights arrive.

use std::marker::PhantomData;
use std::ops::Deref;

/// One 64-byte cache line of storage.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// A fixed slice of `T` whose first element starts a cache line.
pub(super) struct LineAligned<T: Copy> {
    lines: Vec<Line>,
    len: usize,
    _items: PhantomData<T>,
}

impl<T: Copy> LineAligned<T> {
    /// A copy of `items`, starting on a cache line.
    pub(super) fn copied(items: &[T]) -> LineAligned<T> {
        const { assert!(std::mem::align_of::<T>() <= 64) };
        let bytes = std::mem::size_of_val(items);
        let mut lines = vec![Line([0; 64]); bytes.div_ceil(64)];
        // SAFETY: `lines` holds at least `bytes` bytes, the two do not
        // overlap, and a byte copy of `Copy` values is a copy of them.
        unsafe {
            std::ptr::copy_nonoverlapping(
                items.as_ptr() as *const u8,
                lines.as_mut_ptr() as *mut u8,
                bytes,
            );
        }
        LineAligned {
            lines,
            len: items.len(),
            _items: PhantomData,
        }
    }
}

impl<T: Copy> Deref for LineAligned<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` items were copied in from valid `T`s by
        // `copied`, at an address aligned for `T` (64 >= its alignment),
        // and nothing writes to them after.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr() as *const T, self.len) }
    }
}

impl<T: Copy> FromIterator<T> for LineAligned<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        LineAligned::copied(&iter.into_iter().collect::<Vec<T>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_starts_a_line_and_holds_the_items() {
        for n in [0, 1, 31, 32, 33, 1000] {
            let items: Vec<i16> = (0..n).map(|k| (k * 7 - 300) as i16).collect();
            let aligned = LineAligned::copied(&items);
            assert_eq!(&*aligned, &items[..]);
            assert_eq!(aligned.as_ptr() as usize % 64, 0);
        }
        let lanes: LineAligned<[f32; 8]> = (0..5).map(|k| [k as f32; 8]).collect();
        assert_eq!(lanes[4], [4.0; 8]);
        assert_eq!(lanes.as_ptr() as usize % 64, 0);
    }
}

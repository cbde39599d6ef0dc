//! What a `for` loop with an ask in its body has yet to visit, saved with the loop's state:
//! the remaining items, or, for a range, only its bounds.

use std::{
    collections::VecDeque,
    ops::{Range, RangeInclusive},
};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::saved::SavedItem;

/// The items of a loop over anything but a range, collected up front, so that the rest of
/// the iteration can be saved with the loop's state.
pub fn remaining<I>(items: I) -> VecDeque<I::Item>
where
    I: IntoIterator,
    I::Item: SavedItem,
{
    items.into_iter().collect()
}

/// The items of a loop over `a..b` or `a..=b`: the range itself, so a state carries its two
/// bounds however many items are left.
pub fn range<R: KeepRange>(range: R) -> R::Kept {
    range.keep()
}

/// A range a loop can keep as it is.
pub trait KeepRange {
    type Kept;
    fn keep(self) -> Self::Kept;
}

impl<T: SavedItem> KeepRange for Range<T>
where
    Range<T>: Iterator<Item = T>,
{
    type Kept = KeptRange<T>;
    fn keep(self) -> KeptRange<T> {
        KeptRange(self)
    }
}

impl<T: SavedItem + PartialOrd + Clone> KeepRange for RangeInclusive<T>
where
    RangeInclusive<T>: Iterator<Item = T>,
{
    type Kept = KeptInclusive<T>;
    fn keep(self) -> KeptInclusive<T> {
        KeptInclusive(self)
    }
}

/// `a..b`, saved as its bounds.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KeptRange<T>(Range<T>);

impl<T> KeptRange<T>
where
    Range<T>: Iterator<Item = T>,
{
    /// The next item, as `VecDeque::pop_front` gives the next of collected items.
    pub fn pop_front(&mut self) -> Option<T> {
        self.0.next()
    }
}

/// `a..=b`, saved as its bounds and whether it is used up (serde's own form of a
/// `RangeInclusive` forgets that, and would visit the last item twice).
#[derive(Debug)]
pub struct KeptInclusive<T>(RangeInclusive<T>);

impl<T> KeptInclusive<T>
where
    RangeInclusive<T>: Iterator<Item = T>,
{
    /// The next item, as `VecDeque::pop_front` gives the next of collected items.
    pub fn pop_front(&mut self) -> Option<T> {
        self.0.next()
    }
}

impl<T: Serialize + PartialOrd> Serialize for KeptInclusive<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.0.start(), self.0.end(), self.0.is_empty()).serialize(serializer)
    }
}

impl<'de, T> Deserialize<'de> for KeptInclusive<T>
where
    T: Deserialize<'de> + Clone,
    RangeInclusive<T>: Iterator<Item = T>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (start, end, used_up) = <(T, T, bool)>::deserialize(deserializer)?;
        let range = match used_up {
            false => start..=end,
            true => {
                // An empty range with these bounds' type: one item, then taken.
                let mut empty = end.clone()..=end;
                empty.next();
                empty
            }
        };
        Ok(Self(range))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes `taken` items, saves and restores what is left, and returns the rest.
    fn resumed<K, T>(mut kept: K, taken: usize, pop: fn(&mut K) -> Option<T>) -> Vec<T>
    where
        K: Serialize + for<'de> Deserialize<'de>,
    {
        for _ in 0..taken {
            pop(&mut kept);
        }
        let bytes = postcard::to_allocvec(&kept).unwrap();
        let mut restored: K = postcard::from_bytes(&bytes).unwrap();
        std::iter::from_fn(|| pop(&mut restored)).collect()
    }

    #[test]
    fn a_restored_range_visits_exactly_the_items_left() {
        for end in 0..6u32 {
            for taken in 0..=(end as usize + 1) {
                let all: Vec<u32> = (0..end).collect();
                let left = all.get(taken..).unwrap_or_default().to_vec();
                assert_eq!(resumed(range(0..end), taken, KeptRange::pop_front), left);
                let all: Vec<u32> = (0..=end).collect();
                let left = all.get(taken..).unwrap_or_default().to_vec();
                assert_eq!(
                    resumed(range(0..=end), taken, KeptInclusive::pop_front),
                    left,
                    "0..={end} after {taken}"
                );
            }
        }
        // Empty from the start, and at the top of the type's range.
        let (high, low) = (std::hint::black_box(5u8), 3u8);
        assert_eq!(
            resumed(range(high..=low), 0, KeptInclusive::pop_front),
            Vec::<u8>::new()
        );
        assert_eq!(
            resumed(range(254..=u8::MAX), 1, KeptInclusive::pop_front),
            vec![255]
        );
        assert_eq!(
            resumed(range(254..=u8::MAX), 2, KeptInclusive::pop_front),
            Vec::<u8>::new()
        );
    }

    #[test]
    fn a_range_saves_its_bounds_not_its_items() {
        let kept = postcard::to_allocvec(&range(0..=1_000_000u32)).unwrap();
        assert!(kept.len() <= 9, "{} bytes", kept.len());
    }
}

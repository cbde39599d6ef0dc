//! What a `for` loop with an ask in its body has yet to visit, saved with the loop's state:
//! the remaining items, or, for a range, only its bounds.

use std::{
    collections::VecDeque,
    ops::{Range, RangeFrom, RangeInclusive},
};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::saved::SavedItem;

/// The most items collected from an iterator that does not know its length.
const MOST_UNSIZED_ITEMS: usize = 1 << 20;

/// The items of a loop over anything but a range, collected up front, so that the rest of
/// the iteration can be saved with the loop's state. `Err` for an iterator that is endless
/// (`repeat`, `(1..).map(..)`) or yields more than [`MOST_UNSIZED_ITEMS`] without a bound.
pub(crate) fn remaining<I>(items: I) -> Result<VecDeque<I::Item>, Endless>
where
    I: IntoIterator,
    I::Item: SavedItem,
{
    let items = items.into_iter();
    match items.size_hint() {
        (usize::MAX, None) => Err(Endless::Endless),
        (_, Some(_)) => Ok(items.collect()),
        (_, None) => {
            let collected: VecDeque<_> = items.take(MOST_UNSIZED_ITEMS + 1).collect();
            match collected.len() > MOST_UNSIZED_ITEMS {
                true => Err(Endless::TooMany),
                false => Ok(collected),
            }
        }
    }
}

/// Why a loop's items could not be collected.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Endless {
    /// The iterator says it never ends.
    Endless,
    /// It yielded more than [`MOST_UNSIZED_ITEMS`].
    TooMany,
}

impl std::fmt::Display for Endless {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self {
            Endless::Endless => "is endless".to_owned(),
            Endless::TooMany => format!("yields more than {MOST_UNSIZED_ITEMS} items"),
        };
        write!(
            f,
            "the iterator of a `for` loop whose body asks {what}; such a loop collects its items \
             up front to save those left at each ask. Loop over a finite collection or a range \
             (`a..`, `a..b`, `a..=b`), or write a `loop` with a counter"
        )
    }
}

/// The items of a loop over `a..`, `a..b` or `a..=b`: the range itself, so a state carries its
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

impl<T: SavedItem> KeepRange for RangeFrom<T>
where
    RangeFrom<T>: Iterator<Item = T>,
{
    type Kept = KeptFrom<T>;
    fn keep(self) -> KeptFrom<T> {
        KeptFrom(self)
    }
}

/// `a..`, saved as where it has got to.
#[derive(Debug)]
pub struct KeptFrom<T>(RangeFrom<T>);

impl<T> KeptFrom<T>
where
    RangeFrom<T>: Iterator<Item = T>,
{
    /// The next item, as `VecDeque::pop_front` gives the next of collected items.
    pub fn pop_front(&mut self) -> Option<T> {
        self.0.next()
    }
}

impl<T: Serialize> Serialize for KeptFrom<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.start.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for KeptFrom<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Self(T::deserialize(deserializer)?..))
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
    fn an_open_range_resumes_where_it_got_to() {
        for taken in 0..4 {
            let left: Vec<u32> = resumed(range(7u32..), taken, |kept: &mut KeptFrom<u32>| {
                kept.pop_front().filter(|item| *item < 12)
            });
            assert_eq!(left, (7 + taken as u32..12).collect::<Vec<_>>());
        }
    }

    #[test]
    fn endless_or_unbounded_iterators_are_refused_not_collected() {
        assert_eq!(remaining(std::iter::repeat(1u8)), Err(Endless::Endless));
        assert_eq!(remaining((1u64..).map(|n| n * 2)), Err(Endless::Endless));
        let unbounded = std::iter::successors(Some(0u32), |n| Some(n + 1));
        assert_eq!(remaining(unbounded), Err(Endless::TooMany));
        let short = std::iter::successors(Some(0u32), |n| (*n < 2).then_some(n + 1));
        assert_eq!(remaining(short), Ok(VecDeque::from([0, 1, 2])));
        assert_eq!(remaining(vec![1u8, 2]), Ok(VecDeque::from([1, 2])));
        let message = Endless::Endless.to_string();
        assert!(
            message.contains("is endless") && message.contains("`a..`"),
            "{message}"
        );
    }

    #[test]
    fn a_range_saves_its_bounds_not_its_items() {
        let kept = postcard::to_allocvec(&range(0..=1_000_000u32)).unwrap();
        assert!(kept.len() <= 9, "{} bytes", kept.len());
    }
}

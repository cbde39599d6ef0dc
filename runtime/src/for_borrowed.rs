//! A `for` loop whose body asks and whose items borrow from a held collection (`for x in &v`,
//! `v.iter()`, `text.lines()`): the state keeps only how many items the loop has taken. The
//! collection is saved as a local, and on resume its items are read again from it, in the
//! same order, up to the one the loop was at.

use std::collections::{BTreeMap, BTreeSet, LinkedList, VecDeque};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many items a loop over borrowed items has taken. Read back from a state, it knows the
/// loop is resuming at its last item.
#[derive(Debug, Default)]
pub struct Visited {
    taken: u64,
    resumed: bool,
}

impl Visited {
    pub fn new() -> Self {
        Self::default()
    }

    /// The loop's iterator, made again on every round. Resumed, it is moved to the item the
    /// loop was at, which the next [`next`](Self::next) gives again; `None` if the collection
    /// no longer has it, which a collection of [`Revisit`] read back never causes.
    pub fn resume<I: IntoIterator>(&mut self, items: I) -> Option<Walk<I::IntoIter>> {
        let mut items = items.into_iter();
        let mut current = None;
        if std::mem::take(&mut self.resumed) {
            let at = self.taken.checked_sub(1)?;
            current = Some(items.nth(usize::try_from(at).ok()?)?);
        }
        Some(Walk { items, current })
    }

    /// The loop's next item.
    pub fn next<I: Iterator>(&mut self, walk: &mut Walk<I>) -> Option<I::Item> {
        if let Some(current) = walk.current.take() {
            return Some(current);
        }
        let item = walk.items.next();
        self.taken += u64::from(item.is_some());
        item
    }
}

/// The iterator of a loop over borrowed items, and on resume the item it was at.
pub struct Walk<I: Iterator> {
    items: I,
    current: Option<I::Item>,
}

impl Serialize for Visited {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.taken.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Visited {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Self {
            taken: u64::deserialize(deserializer)?,
            resumed: true,
        })
    }
}

/// A collection whose items a loop, or a `let` made again on resume (`text.split(' ').next()`),
/// may borrow across an `ask!`: one whose saved copy yields its items in the same order as the
/// original.
#[diagnostic::on_unimplemented(
    message = "the items of this `for` loop, or of this `let`'s iterator, borrow from a `{Self}`, whose order mrtr cannot count on",
    label = "an ask follows, so on resume mrtr reads the items again from this, in order",
    note = "a loop that asks, or a `let` that takes an item held across an ask, may borrow from \
            a `Vec`, `VecDeque`, array, slice, `BTreeMap`, `BTreeSet`, `LinkedList`, `String`, \
            `str` or `Option` held there; a `HashMap`'s or `HashSet`'s order changes when it is \
            read back: iterate owned items instead (`items.clone()`, `items.into_iter()`, \
            `.cloned()` after the item), or sort them into a `Vec` first"
)]
pub trait Revisit {}

impl<T> Revisit for Vec<T> {}
impl<T> Revisit for VecDeque<T> {}
impl<T> Revisit for LinkedList<T> {}
impl<T> Revisit for [T] {}
impl<T, const N: usize> Revisit for [T; N] {}
impl<K, V> Revisit for BTreeMap<K, V> {}
impl<T> Revisit for BTreeSet<T> {}
impl<T> Revisit for Option<T> {}
impl Revisit for String {}
impl Revisit for str {}
impl<T: Revisit + ?Sized> Revisit for &T {}
impl<T: Revisit + ?Sized> Revisit for Box<T> {}

/// The collection a loop borrows its items from, checked to be one it can read again.
pub fn revisited<T: Revisit + ?Sized>(items: &T) -> &T {
    items
}

/// The iterator of a loop over borrowed items through `filter` or `map` with a closure, or
/// through `chain`, boxed. Held across an ask in the tool's future, the closure's own type
/// would have rustc prove it for every lifetime of its item, which it cannot
/// ("implementation of `FnOnce` is not general enough"), and so would `chain`'s two
/// iterators of one item type ("one type is more general than the other"); the box holds
/// either under a type that names neither.
pub fn boxed_items<'a, I: Iterator + Send + 'a>(
    items: I,
) -> Box<dyn Iterator<Item = I::Item> + Send + 'a> {
    Box::new(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resumed(saved: &Visited) -> Visited {
        postcard::from_bytes(&postcard::to_allocvec(saved).unwrap()).unwrap()
    }

    #[test]
    fn a_resumed_loop_gives_its_last_item_again_then_goes_on() {
        let items = vec!["a", "b", "c", "d"];
        for stop in 1..=items.len() {
            let mut visited = Visited::new();
            let mut walk = visited.resume(&items).unwrap();
            let mut seen = Vec::new();
            while seen.len() < stop {
                seen.push(*visited.next(&mut walk).unwrap());
            }
            let mut again = resumed(&visited);
            let mut walk = again.resume(&items).unwrap();
            let mut rest = Vec::new();
            while let Some(item) = again.next(&mut walk) {
                rest.push(*item);
            }
            assert_eq!(rest, items[stop - 1..], "stopped at item {stop}");
        }
    }

    #[test]
    fn a_new_loop_starts_at_the_first_item() {
        let mut visited = Visited::new();
        let mut walk = visited.resume([1, 2]).unwrap();
        assert_eq!(visited.next(&mut walk), Some(1));
        assert_eq!(visited.taken, 1);
    }

    #[test]
    fn a_resumed_count_past_the_end_or_of_none_is_refused() {
        for bytes in [&[200, 1][..], &[3], &[0]] {
            let mut visited: Visited = postcard::from_bytes(bytes).unwrap();
            assert!(visited.resume([1, 2]).is_none(), "{bytes:?}");
        }
    }
}

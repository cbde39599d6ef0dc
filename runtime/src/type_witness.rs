//! `TypeOf<T>`: the type of a binding, held without its value. A local moved and then given a
//! new value in its own block becomes a new binding (`macros/src/tool/given_anew.rs`); its value
//! still takes the old one's type from this, as an assignment would have given it.

use std::marker::PhantomData;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Saved as nothing: postcard writes a unit struct as no bytes.
#[doc(hidden)]
pub struct TypeOf<T>(PhantomData<fn() -> T>);

impl<T> TypeOf<T> {
    /// Taken just after the binding's `let`, where it surely holds a value.
    pub fn of(_value: &T) -> Self {
        TypeOf(PhantomData)
    }

    /// Gives the new binding the type of the one it replaces.
    pub fn is(self, _value: &T) {}
}

impl<T> Clone for TypeOf<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TypeOf<T> {}

impl<T> Serialize for TypeOf<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_struct("TypeOf")
    }
}

impl<'de, T> Deserialize<'de> for TypeOf<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Unit;
        impl<'de> serde::de::Visitor<'de> for Unit {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a unit struct")
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
                Ok(())
            }
        }
        deserializer.deserialize_unit_struct("TypeOf", Unit)?;
        Ok(TypeOf(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::TypeOf;

    #[test]
    fn is_saved_as_no_bytes_and_read_back() {
        let witness = TypeOf::of(&vec![1u8]);
        let bytes = postcard::to_allocvec(&witness).unwrap();
        assert!(bytes.is_empty());
        let read: TypeOf<Vec<u8>> = postcard::from_bytes(&bytes).unwrap();
        read.is(&vec![2]);
    }
}

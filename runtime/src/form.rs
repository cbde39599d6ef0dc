//! Flat elicitation forms, checked at compile time.
//!
//! MCP form elicitation accepts only a flat object of string, number, integer, boolean and
//! enum properties. `#[derive(Form)]` on a struct asserts that every field is a [`FormField`];
//! on a unit-only enum it makes the enum a single-select choice.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

/// A struct that can be asked for with [`elicit`](crate::elicit): flat, deserializable and
/// described by a JSON schema. Implement it with `#[derive(mrtr::Form)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an elicitation form",
    label = "this type is asked for with `elicit`",
    note = "a form is a struct with named fields: a single value (`String`, a number, `bool`) or \
            an enum that derives `Form` (a choice) is one of its fields, as in \
            `struct Pick {{ color: Color }}`, asked with `elicit::<Pick>(..)`",
    note = "for a struct of your own, derive it: `#[derive(serde::Serialize, \
            serde::Deserialize, schemars::JsonSchema, mrtr::Form)]` (`Serialize` lets the answer \
            be held across a later `ask!`)"
)]
pub trait Form: FormParts {}

/// What a form needs besides `#[derive(Form)]`: to be read from the answer, and described.
#[diagnostic::on_unimplemented(
    message = "`{Self}` needs `serde::Deserialize` and `schemars::JsonSchema` to be a form",
    label = "the answer is deserialized into this type, and its schema is sent with the question",
    note = "derive them alongside `mrtr::Form`: \
            `#[derive(serde::Deserialize, schemars::JsonSchema, mrtr::Form)]`"
)]
pub trait FormParts: DeserializeOwned + JsonSchema {}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema> FormParts for T {}

/// A type that may be a property of a [`Form`]: a string, number, integer, boolean, a unit-only
/// enum with `#[derive(mrtr::Form)]`, an `Option` of one of those, or a `Vec` of such enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an elicitation form",
    label = "forms are flat: this field must be a string, number, integer, boolean or enum",
    note = "MCP forms allow only primitive properties; split nested data into separate asks, or \
            use a unit-only enum with `#[derive(mrtr::Form)]` for a choice"
)]
pub trait FormField {}

/// A unit-only enum that a form shows as a choice. `Vec<T>` of it is a multi-select.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a choice",
    label = "a `Vec` field is a multi-select, so it must hold a choice",
    note = "use a unit-only enum with `#[derive(mrtr::Form)]` for a multi-select, or a single \
            `String` field for free text"
)]
pub trait FormChoice: FormField {}

macro_rules! form_fields {
    ($($ty:ty),* $(,)?) => { $(impl FormField for $ty {})* };
}

form_fields!(
    String,
    bool,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    std::borrow::Cow<'static, str>
);

impl<T: FormField> FormField for Option<T> {}
impl<T: FormChoice> FormField for Vec<T> {}

/// Used by `#[derive(Form)]` to check one field, with the error on the field's type.
#[doc(hidden)]
pub const fn assert_form_field<T: FormField + ?Sized>() {}

//! Every identifier the generated code introduces, in one place. Locals are mixed-site, so they
//! can neither see nor shadow the user's names; all start with `__mrtr` or `__`.

use proc_macro2::{Ident, Span};

fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// `ident` located at `span`, so that an error of the generated code around it points at the
/// user's code there, not at the attribute.
pub(crate) fn located(ident: &Ident, span: Span) -> Ident {
    Ident::new(&ident.to_string(), ident.span().located_at(span))
}

/// The round's resume cursor (`&Machine`).
pub(crate) fn machine() -> Ident {
    local("__mrtr")
}

/// The extra parameter that brings the round (`Round`).
pub(crate) fn round() -> Ident {
    local("__mrtr_round")
}

/// The `const` that describes the tool's layout.
pub(crate) fn layout() -> Ident {
    local("__MRTR_LAYOUT")
}

/// The error of a round that did not start.
pub(crate) fn error() -> Ident {
    local("__error")
}

/// The user's body as a future, pinned where the tool's future holds it.
pub(crate) fn body() -> Ident {
    local("__mrtr_body")
}

/// The server's engine.
pub(crate) fn engine() -> Ident {
    local("__engine")
}

/// How the round records what the function returned (`Wire::record` of its method).
pub(crate) fn record() -> Ident {
    local("__mrtr_record")
}

/// The `Saver` an ask's closure fills.
pub(crate) fn saver() -> Ident {
    local("__saved")
}

/// A binding's snapshot, taken before the statement that consumes it.
pub(crate) fn snapshot(index: u32) -> Ident {
    local(&format!("__mrtr_snapshot_{index}"))
}

/// A hidden borrow of an outer binding that an inner `let` shadows.
pub(crate) fn outer(index: u32) -> Ident {
    local(&format!("__mrtr_outer_{index}"))
}

/// A desugared loop's or match's helper, located at the user's code for error messages.
pub(crate) fn fresh(stem: &str, index: u32, located: Span) -> Ident {
    Ident::new(
        &format!("__mrtr_{stem}{index}"),
        Span::mixed_site().located_at(located),
    )
}

/// An operand evaluated before an ask of its statement, bound first (`bound_first`), located
/// at the operand for error messages.
pub(crate) fn bound_first(index: u32, located: Span) -> Ident {
    fresh(BOUND_FIRST, index, located)
}

const BOUND_FIRST: &str = "operand";

/// Whether `ident` is a [`bound_first`] operand's, which errors describe rather than name.
pub(crate) fn is_bound_first(ident: &Ident) -> bool {
    is_fresh(&ident.to_string(), BOUND_FIRST)
}

/// Whether `name` is one [`fresh`] made with `stem`.
fn is_fresh(name: &str, stem: &str) -> bool {
    name.strip_prefix("__mrtr_")
        .and_then(|rest| rest.strip_prefix(stem))
        .is_some_and(|index| !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
}

/// What a `let` that borrows from the name it binds (`let name = name.trim();`) borrows from,
/// moved under a hidden name so that it is saved, and the `let` made again from it on resume.
pub(crate) fn kept(index: u32, located: Span) -> Ident {
    fresh(KEPT, index, located)
}

const KEPT: &str = "kept";

/// Whether `name` is a [`kept`] local's.
pub(crate) fn is_kept(name: &str) -> bool {
    is_fresh(name, KEPT)
}

/// The enum that names the arm a desugared `match` enters.
pub(crate) fn arm_enum(located: Span) -> Ident {
    Ident::new("__MrtrArm", Span::mixed_site().located_at(located))
}

/// An arm's bindings, carried in the arm enum.
pub(crate) fn bound() -> Ident {
    local("__bound")
}

/// The answer of a compound assignment, read before its place (`v[i] += ask!(..)`).
pub(crate) fn operand() -> Ident {
    local("__mrtr_operand")
}

/// The value a region of statements gives a `let` without a value declared before it.
pub(crate) fn given() -> Ident {
    local("__mrtr_given")
}

/// The value a `match` takes apart, or an `if` tests, made after the statements moved before
/// it in its scrutinee or condition.
pub(crate) fn scrutinee() -> Ident {
    local("__mrtr_scrutinee")
}

/// The value of an arm that does not ask.
pub(crate) fn value() -> Ident {
    local("__value")
}

/// The user's function under another name, next to signature errors (keeps the user's span).
pub(crate) fn unrouted(name: &Ident) -> Ident {
    Ident::new(&format!("__mrtr_unrouted_{name}"), name.span())
}

//! Compile-time diagnostics of `#[mrtr_tool]`, `ask!` and `#[derive(Form)]`.
//!
//! Each `ui/*.rs` must fail to compile with exactly the errors in its `.stderr`; each
//! `ui/pass/*.rs` must compile. Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test -p mrtr-tests --test diagnostics`, then read every changed
//! `.stderr`: each error should point at the user's code and say how to fix it.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
    cases.pass("ui/pass/*.rs");
}

//! Part of stage 3: a `for` loop whose body asks and whose items borrow from a collection
//! the body holds: `for x in &items`, `items.iter().enumerate()`, `text.lines()`,
//! `map.keys()`. Its items cannot be saved, but the collection can, so the loop keeps only a
//! count (`::mrtr::__private::Visited`) and reads its items again from the saved collection
//! on resume. `desugar` builds that loop; this finds the loops it applies to.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::{
    Block, Expr, Pat,
    spanned::Spanned,
    visit::{self, Visit},
};

use super::remade::{changed_in, filtered_or_mapped, steady};

/// Methods whose items are `&str`s of the text they are called on.
pub(crate) const SPLITTING: &[&str] = &[
    "lines",
    "split",
    "rsplit",
    "splitn",
    "rsplitn",
    "split_terminator",
    "split_inclusive",
    "split_whitespace",
    "split_ascii_whitespace",
];

/// Methods whose items borrow from the collection they are called on.
const COLLECTION_ITEMS: &[&str] = &[
    "iter",
    "keys",
    "values",
    "windows",
    "chunks",
    "chunks_exact",
];

/// Whether the items of `method` borrow from what it is called on, in an order that depends
/// only on it (`SPLITTING`, `COLLECTION_ITEMS`). A `let` made again on resume takes an item of
/// one too (`remade::taken`).
pub(crate) fn borrowing_items(method: &str) -> bool {
    SPLITTING.contains(&method) || COLLECTION_ITEMS.contains(&method)
}

/// Adapters that keep borrowed items borrowed and run none of the user's code.
pub(crate) const KEEPING: &[&str] = &["enumerate", "rev", "skip", "take", "step_by"];

/// Adapters that join the items with those of a second iterable, their one argument.
const JOINING: &[&str] = &["zip", "chain"];

/// Whether `call`, an adapter after the method that borrows the items, gives again on resume
/// the items it gave: one of `KEEPING` with steady arguments, `filter`, `skip_while` or
/// `take_while` with a closure that only reads its item (`|l| !l.trim().is_empty()`), `map`,
/// `filter_map` or `map_while` with one that only picks a borrow out of it (`|s| s.trim()`,
/// `String::as_str`, `|l| l.strip_prefix("- ")`), as `remade::filtered_or_mapped` takes them,
/// or `zip` or `chain` with a second iterable that gives its items again too
/// (`joined_items`). No `move` closure, which would read a copy the
/// body may change, and no local that the body changes (`body`'s `changed_in`).
fn keeps_items(call: &syn::ExprMethodCall, body: &Block, outer_items: &[String]) -> bool {
    let method = call.method.to_string();
    if KEEPING.contains(&method.as_str()) {
        return call.args.iter().all(|arg| steady_argument(arg, body));
    }
    if JOINING.contains(&method.as_str()) {
        return joined_items(call, body, outer_items).is_some();
    }
    let moves = |arg: &Expr| matches!(arg, Expr::Closure(closure) if closure.capture.is_some());
    let mut read = Vec::new();
    !call.args.iter().any(moves)
        && filtered_or_mapped(call, &mut read)
        && !changed_in(&body.stmts, &read)
}

/// The argument of a `zip` or `chain`, if it gives the same items again on resume: a range
/// with steady bounds (`zip(1..)`), or items borrowed from a held place as a loop's own may be
/// (`zip(args.items.iter())`, `chain(&extra)`), checked the same way.
fn joined_items(
    call: &syn::ExprMethodCall,
    body: &Block,
    outer_items: &[String],
) -> Option<TokenStream> {
    let [other] = &call.args.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    match other {
        Expr::Range(range) if range.start.is_some() => {
            steady_argument(other, body).then(|| quote!(#range))
        }
        _ => borrowed_items(other, body, outer_items),
    }
}

/// An argument that gives the same on resume: it only reads (`remade::steady`: literals,
/// locals, fields, arithmetic, `len()`, `as` casts) locals that the loop's body does not change.
fn steady_argument(arg: &Expr, body: &Block) -> bool {
    let mut read = Vec::new();
    steady(arg, &mut read) && !changed_in(&body.stmts, &read)
}

/// The loop's iterable with the collection it borrows from checked by
/// `::mrtr::__private::revisited`, if the items borrow from a place the body holds: the
/// iterable runs again on every round, so it may read only that place and, as arguments and
/// in its closures, locals the loop's body does not change. `None` for any other loop.
///
/// `outer_items` names the items of the borrowed loops around this one that are references
/// (`values` in `for (key, values) in &map`): a loop over one of them by name borrows too.
pub(crate) fn borrowed_items(
    iterable: &Expr,
    body: &Block,
    outer_items: &[String],
) -> Option<TokenStream> {
    match iterable {
        Expr::Paren(inner) => borrowed_items(&inner.expr, body, outer_items),
        Expr::Path(path)
            if path
                .path
                .get_ident()
                .is_some_and(|ident| outer_items.contains(&ident.to_string())) =>
        {
            Some(quote_spanned! {path.span()=> ::mrtr::__private::revisited(#path) })
        }
        Expr::Reference(reference)
            if reference.mutability.is_none() && held_place(&reference.expr) =>
        {
            Some(checked(&reference.expr))
        }
        Expr::MethodCall(_) => {
            let mut calls = Vec::new();
            let mut base = iterable;
            while let Expr::MethodCall(call) = base {
                calls.push(call);
                base = &call.receiver;
            }
            let (first, adapters) = calls.split_last()?;
            if !borrowing_items(&first.method.to_string()) || !held_place(base) {
                return None;
            }
            let fits = first.args.iter().all(|arg| steady_argument(arg, body))
                && adapters
                    .iter()
                    .all(|call| keeps_items(call, body, outer_items));
            if !fits || calls.iter().any(|call| call.turbofish.is_some()) {
                return None;
            }
            let mut tokens = checked(base);
            for call in calls.iter().rev() {
                let method = &call.method;
                let joined = JOINING.contains(&method.to_string().as_str());
                let args = match joined.then(|| joined_items(call, body, outer_items)) {
                    Some(Some(other)) => other,
                    _ => call.args.to_token_stream(),
                };
                tokens = quote!(#tokens.#method(#args));
            }
            // Closures, and `chain`'s two iterators of one item type, rustc cannot prove
            // `Send` for every lifetime of the items when held across an ask: boxed, they are.
            let boxed = adapters.iter().any(|call| {
                !KEEPING.contains(&call.method.to_string().as_str()) && call.method != "zip"
            });
            if boxed {
                tokens =
                    quote_spanned! {iterable.span()=> ::mrtr::__private::boxed_items(#tokens) };
            }
            Some(tokens)
        }
        _ => None,
    }
}

/// The bindings of a borrowed loop's pattern that hold references, and that its body never
/// binds again: not those under a `&` pattern, which are copies (`for &n in &numbers`).
pub(crate) fn reference_items(pat: &Pat, body: &Block) -> Vec<String> {
    /// The names a pattern or block binds, through `&` patterns or not.
    struct Bound {
        names: BTreeSet<String>,
        through_references: bool,
    }
    impl<'ast> Visit<'ast> for Bound {
        fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
            self.names.insert(pat.ident.to_string());
            visit::visit_pat_ident(self, pat);
        }
        fn visit_pat_reference(&mut self, pat: &'ast syn::PatReference) {
            if self.through_references {
                visit::visit_pat_reference(self, pat);
            }
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut items = Bound {
        names: BTreeSet::new(),
        through_references: false,
    };
    items.visit_pat(pat);
    let mut again = Bound {
        names: BTreeSet::new(),
        through_references: true,
    };
    again.visit_block(body);
    items.names.difference(&again.names).cloned().collect()
}

/// `::mrtr::__private::revisited(&place)`, spanned at the place for its error.
fn checked(place: &Expr) -> TokenStream {
    quote_spanned! {place.span()=> ::mrtr::__private::revisited(&#place) }
}

/// A local, a parameter or a constant, or a field of one: not `self`, whose fields are the
/// server's and may differ on the instance that takes the retry.
fn held_place(expr: &Expr) -> bool {
    match expr {
        Expr::Path(path) => path.path.get_ident().is_some_and(|ident| ident != "self"),
        Expr::Field(field) => held_place(&field.base),
        Expr::Paren(inner) => held_place(&inner.expr),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn revisits(iterable: &str, body: &str) -> Option<String> {
        let iterable: Expr = syn::parse_str(iterable).unwrap();
        let body: Block = syn::parse_str(body).unwrap();
        borrowed_items(&iterable, &body, &["values".to_owned()])
            .map(|tokens| tokens.to_string().replace(' ', ""))
    }

    #[test]
    fn borrowed_items_of_a_held_place_are_revisited() {
        for (iterable, checked) in [
            ("&names", "::mrtr::__private::revisited(&names)"),
            ("&args.items", "::mrtr::__private::revisited(&args.items)"),
            (
                "names.iter()",
                "::mrtr::__private::revisited(&names).iter()",
            ),
            (
                "pairs.iter().enumerate().skip(1)",
                "::mrtr::__private::revisited(&pairs).iter().enumerate().skip(1)",
            ),
            (
                "text.split(',')",
                "::mrtr::__private::revisited(&text).split(',')",
            ),
            (
                "text.split(sep)",
                "::mrtr::__private::revisited(&text).split(sep)",
            ),
            (
                "QUESTIONS.iter()",
                "::mrtr::__private::revisited(&QUESTIONS).iter()",
            ),
            // A closure that only reads or picks: run again on resume, boxed.
            (
                "names.iter().filter(|n| n.len() > min)",
                "::mrtr::__private::boxed_items(::mrtr::__private::revisited(&names).iter().filter(|n| n.len() > min))",
            ),
            (
                "text.lines().map(|l| l.trim()).enumerate()",
                "::mrtr::__private::boxed_items(::mrtr::__private::revisited(&text).lines().map(|l| l.trim()).enumerate())",
            ),
            // A second iterable joined on is checked as the loop's own; a range is kept.
            (
                "labels.iter().zip(args.items.iter())",
                "::mrtr::__private::revisited(&labels).iter().zip(::mrtr::__private::revisited(&args.items).iter())",
            ),
            (
                "names.iter().zip(1..).rev()",
                "::mrtr::__private::revisited(&names).iter().zip(1..).rev()",
            ),
            (
                "names.iter().chain(&extra)",
                "::mrtr::__private::boxed_items(::mrtr::__private::revisited(&names).iter().chain(::mrtr::__private::revisited(&extra)))",
            ),
            (
                "names.iter().zip(text.lines().filter(|l| !l.is_empty()))",
                "::mrtr::__private::revisited(&names).iter().zip(::mrtr::__private::boxed_items(::mrtr::__private::revisited(&text).lines().filter(|l| !l.is_empty())))",
            ),
            (
                "text.lines().skip_while(|l| l.starts_with('#')).filter_map(|l| l.strip_prefix(\"- \"))",
                "::mrtr::__private::boxed_items(::mrtr::__private::revisited(&text).lines().skip_while(|l| l.starts_with('#')).filter_map(|l| l.strip_prefix(\"- \")))",
            ),
            (
                "names.iter().map(String::as_str)",
                "::mrtr::__private::boxed_items(::mrtr::__private::revisited(&names).iter().map(String::as_str))",
            ),
        ] {
            let revisited = revisits(iterable, "{ ask(); }").map(|t| t.replace(' ', ""));
            assert_eq!(revisited.as_deref(), Some(&*checked.replace(' ', "")));
        }
        // Arguments and closures may read locals the body reads but does not change.
        for iterable in [
            "names.iter().take(n)",
            "names.iter().take(args.n as usize)",
            "names.iter().skip(names.len() - n)",
            "names.iter().filter(|m| m.len() > n)",
        ] {
            let body = "{ f(n, &args.name); ask(); }";
            assert!(revisits(iterable, body).is_some(), "{iterable}");
            // Not where the body binds what they read again.
            let rebinds = "{ let (n, args, names) = make(); f(n, args, names); ask(); }";
            assert!(revisits(iterable, rebinds).is_none(), "{iterable}");
        }
    }

    #[test]
    fn other_loops_keep_their_items() {
        for iterable in [
            "names",
            "names.clone()",
            "names.iter().cloned()",
            "text.chars()",
            "&mut names",
            "names.iter_mut()",
            "self.names.iter()",
            "&self.names",
            "make().iter()",
            "\"a b\".split(' ')",
            // Closures that run the user's code, `move` ones, and ones that read a local the
            // body names.
            "names.iter().filter(|m| wanted(m))",
            "names.iter().filter(move |m| m.len() > k)",
            "names.iter().filter(|m| m.len() > n)",
            "names.iter().map(|m| m.to_lowercase())",
            "names.iter().for_each(|m| m.len())",
            "text.lines().take_while(|l| keep(l))",
            "text.lines().filter_map(|l| l.parse().ok())",
            "text.split(sep())",
            "names.iter().take(n)",
            // Joined on: owned items, `self`'s, a range the body changes, and two arguments.
            "names.iter().zip(others)",
            "names.iter().zip(others.clone())",
            "names.iter().zip(self.names.iter())",
            "names.iter().zip(0..n)",
            "names.iter().zip(..3)",
            "names.iter().zip(a.iter(), b.iter())",
            "other",
        ] {
            assert_eq!(revisits(iterable, "{ n += 1; }"), None, "{iterable}");
        }
    }

    #[test]
    fn reference_items_are_those_bound_outside_a_reference_pattern_and_not_again() {
        let items = |pat: &str, body: &str| {
            let pat = syn::parse::Parser::parse_str(Pat::parse_single, pat).unwrap();
            reference_items(&pat, &syn::parse_str(body).unwrap())
        };
        assert_eq!(items("(key, values)", "{ ask(); }"), ["key", "values"]);
        assert_eq!(items("(i, &n)", "{ ask(); }"), ["i"]);
        assert_eq!(
            items("(key, values)", "{ let values = values.clone(); }"),
            ["key"]
        );
        assert_eq!(
            items("(key, values)", "{ if let Some(key) = f() {} }"),
            ["values"]
        );
    }
}

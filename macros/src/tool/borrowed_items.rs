//! Part of stage 3: a `for` loop whose body asks and whose items borrow from a collection
//! the body holds: `for x in &items`, `items.iter().enumerate()`, `text.lines()`,
//! `map.keys()`. Its items cannot be saved, but the collection can, so the loop keeps only a
//! count (`::mrtr::__private::Visited`) and reads its items again from the saved collection
//! on resume. `desugar` builds that loop; this finds the loops it applies to.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Block, Expr, spanned::Spanned};

use super::syntax::names_in_stmt;

/// Methods whose items borrow from what they are called on, in an order that depends only on
/// it.
const BORROWING_ITEMS: &[&str] = &[
    "iter",
    "lines",
    "split",
    "rsplit",
    "splitn",
    "rsplitn",
    "split_terminator",
    "split_inclusive",
    "split_whitespace",
    "split_ascii_whitespace",
    "keys",
    "values",
    "windows",
    "chunks",
    "chunks_exact",
];

/// Adapters that keep borrowed items borrowed and run none of the user's code.
const KEEPING: &[&str] = &["enumerate", "rev", "skip", "take", "step_by"];

/// The loop's iterable with the collection it borrows from checked by
/// `::mrtr::__private::revisited`, if the items borrow from a place the body holds: the
/// iterable runs again on every round, so it may read only that place and, as arguments,
/// literals and locals the loop's body does not name. `None` for any other loop.
pub(crate) fn borrowed_items(iterable: &Expr, body: &Block) -> Option<TokenStream> {
    let named_in_body = || {
        body.stmts
            .iter()
            .flat_map(names_in_stmt)
            .collect::<std::collections::BTreeSet<_>>()
    };
    match iterable {
        Expr::Paren(inner) => borrowed_items(&inner.expr, body),
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
            let fits = BORROWING_ITEMS.contains(&first.method.to_string().as_str())
                && adapters
                    .iter()
                    .all(|call| KEEPING.contains(&call.method.to_string().as_str()));
            if !fits || !held_place(base) {
                return None;
            }
            let named = named_in_body();
            let plain_argument = |arg: &Expr| match arg {
                Expr::Lit(_) => true,
                Expr::Path(path) => path
                    .path
                    .get_ident()
                    .is_some_and(|ident| !named.contains(&ident.to_string())),
                _ => false,
            };
            if calls
                .iter()
                .any(|call| call.turbofish.is_some() || !call.args.iter().all(plain_argument))
            {
                return None;
            }
            let mut tokens = checked(base);
            for call in calls.iter().rev() {
                let method = &call.method;
                let args = &call.args;
                tokens = quote!(#tokens.#method(#args));
            }
            Some(tokens)
        }
        _ => None,
    }
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
        borrowed_items(&iterable, &body).map(|tokens| tokens.to_string().replace(' ', ""))
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
        ] {
            assert_eq!(revisits(iterable, "{ ask(); }").as_deref(), Some(checked));
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
            "names.iter().filter(|n| n.is_empty())",
            "text.split(sep())",
            "names.iter().take(n)",
        ] {
            assert_eq!(revisits(iterable, "{ n += 1; }"), None, "{iterable}");
        }
    }
}

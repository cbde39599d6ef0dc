//! Part of stage 3: a `for` loop whose body asks and whose items borrow from a collection
//! the body holds: `for x in &items`, `items.iter().enumerate()`, `text.lines()`,
//! `map.keys()`. Its items cannot be saved, but the collection can, so the loop keeps only a
//! count (`::mrtr::__private::Visited`) and reads its items again from the saved collection
//! on resume. `desugar` builds that loop; this finds the loops it applies to.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{
    Block, Expr, Pat,
    spanned::Spanned,
    visit::{self, Visit},
};

use super::syntax::names_in_stmt;

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

/// The loop's iterable with the collection it borrows from checked by
/// `::mrtr::__private::revisited`, if the items borrow from a place the body holds: the
/// iterable runs again on every round, so it may read only that place and, as arguments,
/// literals and locals the loop's body does not name. `None` for any other loop.
///
/// `outer_items` names the items of the borrowed loops around this one that are references
/// (`values` in `for (key, values) in &map`): a loop over one of them by name borrows too.
pub(crate) fn borrowed_items(
    iterable: &Expr,
    body: &Block,
    outer_items: &[String],
) -> Option<TokenStream> {
    let named_in_body = || {
        body.stmts
            .iter()
            .flat_map(names_in_stmt)
            .collect::<BTreeSet<_>>()
    };
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
            let fits = borrowing_items(&first.method.to_string())
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

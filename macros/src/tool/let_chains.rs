//! Part of stage 3 (desugar): an `if` or `while` whose condition chains `let`s (`if let p = e
//! && c && let q = f { .. }`), with an ask in a branch or in the body, as shapes the rest of
//! the pipeline handles: the chain is evaluated into an `Option` of the bindings the body
//! reads, by nested `if`s in the same order and with the same short-circuits, and
//!
//! - `if chain { a } else { b }` becomes `match chain? { Some((x, ..)) => a, None => b }`;
//! - `while chain { .. }` becomes `loop { let (x, ..) = chain?; .. }`, like a `while let`,
//!   where the chain's value is the bindings and each `else` is `break`.
//!
//! A binding that only the later conditions read is not carried, so it is not an unused
//! variable in the arm. A `mut` binding is `mut` in the arm's pattern, where the body changes
//! it; a `ref` one is carried as the reference it is.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::{BinOp, Expr, spanned::Spanned, visit::Visit};

use super::desugar::strip_mut_where;
use super::syntax::{Binding, assigned_place, bindings_tuple, names_in_expr, pattern_bindings};

/// The conditions of a `&&` chain, left to right.
pub(crate) fn conjuncts(cond: &Expr) -> Vec<&Expr> {
    match cond {
        Expr::Binary(binary) if matches!(binary.op, BinOp::And(_)) => {
            let mut out = conjuncts(&binary.left);
            out.extend(conjuncts(&binary.right));
            out
        }
        other => vec![other],
    }
}

/// A chain of conditions, ready to be evaluated into the bindings a body reads.
pub(crate) struct Chain {
    /// The conditions, their `let` patterns without the `mut` of the bindings carried out.
    conds: Vec<Expr>,
    /// The bindings carried out, in source order, each name once (the last `let` of a name is
    /// the one the body sees).
    pub(crate) carried: Vec<Binding>,
    /// Where the generated tokens stand: hygienic, located at the condition.
    site: Span,
}

impl Chain {
    /// The chain of `cond`, carrying the bindings that `body` reads.
    pub(crate) fn new(cond: &Expr, body: &Expr) -> Chain {
        let read = names_in_expr(body);
        let mut conds: Vec<Expr> = conjuncts(cond).into_iter().cloned().collect();
        // The binding each name last gets, by condition.
        let mut last: Vec<(usize, Binding)> = Vec::new();
        for (index, cond) in conds.iter().enumerate() {
            if let Expr::Let(let_expr) = cond {
                for binding in pattern_bindings(&let_expr.pat) {
                    last.retain(|(_, b)| b.ident != binding.ident);
                    last.push((index, binding));
                }
            }
        }
        last.retain(|(_, binding)| read.contains(&binding.ident.to_string()));
        for index in 0..conds.len() {
            let (head, later) = conds.split_at_mut(index + 1);
            let Expr::Let(let_expr) = &mut head[index] else {
                continue;
            };
            // A binding a later condition changes keeps its `mut` (a method that takes `&mut
            // self` is not seen: conditions seldom call one).
            let stripped: BTreeSet<String> = last
                .iter()
                .filter(|(from, _)| *from == index)
                .map(|(_, binding)| binding.ident.to_string())
                .filter(|name| !later.iter().any(|cond| changes(cond, name)))
                .collect();
            strip_mut_where(&mut let_expr.pat, |ident| {
                stripped.contains(&ident.to_string())
            });
        }
        Chain {
            conds,
            site: Span::mixed_site().located_at(cond.span()),
            carried: last.into_iter().map(|(_, binding)| binding).collect(),
        }
    }

    /// The chain as nested `if`s whose innermost value is `success` and whose every `else` is
    /// `failure`.
    fn nested(&self, success: TokenStream, failure: &TokenStream) -> TokenStream {
        let site = self.site;
        self.conds.iter().rev().fold(success, |inner, cond| {
            let head = match cond {
                Expr::Let(let_expr) => {
                    let (let_token, pat, eq, value) = (
                        &let_expr.let_token,
                        &let_expr.pat,
                        &let_expr.eq_token,
                        &let_expr.expr,
                    );
                    quote!(#let_token #pat #eq #value)
                }
                other => other.to_token_stream(),
            };
            quote_spanned!(site=> if #head { #inner } else { #failure })
        })
    }

    /// `Some((x, ..))` when every condition holds, else `None`.
    pub(crate) fn as_option(&self) -> TokenStream {
        let carried = bindings_tuple(&self.carried, false);
        let site = self.site;
        self.nested(
            quote_spanned!(site=> ::core::option::Option::Some(#carried)),
            &quote_spanned!(site=> ::core::option::Option::None),
        )
    }

    /// Where the generated tokens stand.
    pub(crate) fn site(&self) -> Span {
        self.site
    }

    /// The pattern of the carried bindings, with the user's `mut`s.
    pub(crate) fn pattern(&self) -> TokenStream {
        bindings_tuple(&self.carried, true)
    }

    /// The bindings as a value when every condition holds; `break` otherwise.
    pub(crate) fn or_break(&self) -> TokenStream {
        let carried = bindings_tuple(&self.carried, false);
        self.nested(carried, &quote_spanned!(self.site=> break))
    }
}

/// Whether `expr` assigns to `name` or borrows it mutably (`name.f = ..`, `&mut name`).
fn changes(expr: &Expr, name: &str) -> bool {
    struct Find<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'e> Visit<'e> for Find<'_> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            let changed = match expr {
                Expr::Reference(r) if r.mutability.is_some() => Some(&*r.expr),
                other => assigned_place(other),
            };
            if changed.is_some_and(|place| root_is(place, self.name)) {
                self.found = true;
            }
            syn::visit::visit_expr(self, expr);
        }
    }
    fn root_is(place: &Expr, name: &str) -> bool {
        match place {
            Expr::Path(path) => path.path.is_ident(name),
            Expr::Field(e) => root_is(&e.base, name),
            Expr::Index(e) => root_is(&e.expr, name),
            Expr::Paren(e) => root_is(&e.expr, name),
            _ => false,
        }
    }
    let mut find = Find { name, found: false };
    find.visit_expr(expr);
    find.found
}

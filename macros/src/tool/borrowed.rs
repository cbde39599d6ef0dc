//! Part of stage 2: borrows that would be held across an ask where the type system's own error
//! would not say so. A `&str` passes the `Persist` bound's trait check and fails only as a
//! lifetime error at the attribute, so the common ways to get one are caught here, by their
//! syntax: a `for` over string slices whose body asks, and a `match` or `if let` on a borrow
//! whose asking arm still uses a binding after its ask, unless `remade_arms` binds it again.

use std::collections::BTreeSet;

use syn::{
    Block, Expr, Pat, Stmt,
    visit::{self, Visit},
};

use super::borrowed_items::borrowed_items;
use super::remade_arms::{arm_stmts, rebinds};
use super::syntax::{
    Captures, asks_in_block, asks_in_expr, asks_in_stmt, borrows, macro_items, names_in_stmt,
    pattern_bindings, str_literal,
};
use crate::diagnostics::Diagnostics;

pub(crate) fn check(body: &Block, diagnostics: &mut Diagnostics) {
    Check { diagnostics }.visit_block(body);
}

struct Check<'d> {
    diagnostics: &'d mut Diagnostics,
}

impl<'ast> Visit<'ast> for Check<'_> {
    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        // Items borrowed from a held collection are read again from it on resume.
        let asks =
            !asks_in_block(&e.body).is_empty() && borrowed_items(&e.expr, &e.body, &[]).is_none();
        if asks && let Some((field, owned)) = self_items(&e.expr) {
            self.diagnostics.error(
                &e.expr,
                format!(
                    "this `for` loop's body asks, so the items it has yet to visit are saved into \
                     `requestState`, but they borrow from `{field}`: `self` is not saved, and \
                     the instance that takes the retry may hold other values. Iterate owned \
                     copies: {owned}"
                ),
            );
        } else if asks && let Some(method) = str_items(&e.expr) {
            self.diagnostics.error(
                &e.expr,
                format!(
                    "this `for` loop's body asks, so the items it has yet to visit are saved into \
                     `requestState`, but `{method}` hands out `&str` slices, which borrow. \
                     Iterate owned strings: add `.map(str::to_owned)` right after \
                     `{method}(..)`; or borrow them from a `String` held across the ask, with \
                     no adapter after `{method}(..)` but `enumerate`, `rev`, `skip`, `take`, \
                     `step_by`, `zip` or `chain` with a range or such items, `filter` with a \
                     closure that only reads its item and `map` \
                     with one that only picks from it (`|s| s.trim()`)"
                ),
            );
        } else if asks && let Some(method) = mutable_items(&e.expr) {
            self.diagnostics.error(
                &e.expr,
                format!(
                    "this `for` loop's body asks, so the items it has yet to visit are saved into \
                     `requestState`, but {method} hands out mutable borrows of the items, which \
                     cannot be saved. Loop over the positions and change each item in place: \
                     `for i in 0..items.len() {{ .. items[i] .. }}` (for a map, over \
                     `map.keys().cloned().collect::<Vec<_>>()`, through `map.get_mut(&key)`)"
                ),
            );
        } else if asks && literal_str_refs(&e.expr) {
            self.diagnostics.error(
                &e.expr,
                "this `for` loop's body asks, so the items it has yet to visit are saved into \
                 `requestState`, but its items are references to string literals, `&&str`, \
                 which cannot be saved. Iterate the literals themselves: drop the `&`, call \
                 `.into_iter()` rather than `.iter()`, or add `.copied()`",
            );
        }
        visit::visit_expr_for_loop(self, e);
    }

    fn visit_expr_match(&mut self, e: &'ast syn::ExprMatch) {
        for arm in &e.arms {
            if rebinds(&arm.pat, &e.expr, &arm_stmts(&arm.body)) {
                continue;
            }
            self.arm(&e.expr, &arm.pat, &arm.body);
        }
        visit::visit_expr_match(self, e);
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        if let Expr::Let(condition) = &*e.cond
            && !rebinds(&condition.pat, &condition.expr, &e.then_branch.stmts)
        {
            let then = Expr::Block(syn::ExprBlock {
                attrs: Vec::new(),
                label: None,
                block: e.then_branch.clone(),
            });
            self.arm(&condition.expr, &condition.pat, &then);
        }
        visit::visit_expr_if(self, e);
    }
}

impl Check<'_> {
    /// An arm, or an `if let`'s block: its bindings that come from a borrow and are used after
    /// an ask in it.
    fn arm(&mut self, scrutinee: &Expr, pat: &Pat, body: &Expr) {
        let asks = asks_in_expr(body);
        if asks.is_empty() {
            return;
        }
        let body = Stmt::Expr(body.clone(), None);
        for (scrutinee, pat) in borrowed_parts(scrutinee, pat) {
            for binding in borrowing_bindings(pat) {
                if borrows_mutably(scrutinee) {
                    if !named_from_first_ask(&body, &binding.ident) {
                        continue;
                    }
                    // A copy would lose the change: the answer is what must come first.
                    self.diagnostics.error(
                        &binding.ident,
                        format!(
                            "`{0}` borrows mutably from `{1}` and is used after an `ask!` in \
                             this arm, so it would be saved into `requestState`, which cannot \
                             hold a borrow. Ask before the `if let` or `match` (`let answer = \
                             ask!(..);`), then change `{0}` with the answer",
                            binding.ident,
                            spelled(scrutinee),
                        ),
                    );
                    continue;
                }
                let dead: BTreeSet<u32> =
                    super::liveness::dead_asks(&body, &binding.ident, &Captures::new());
                if asks.iter().all(|ask| dead.contains(ask)) {
                    continue;
                }
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "`{0}` borrows from `{1}` and is used after an `ask!` in this arm, so it \
                         would be saved into `requestState`, which cannot hold a borrow. Make an \
                         owned copy before the ask (`let {0} = {0}.to_owned();`), or match on an \
                         owned value",
                        binding.ident,
                        spelled(scrutinee),
                    ),
                );
            }
        }
    }
}

/// The bindings of a pattern matched against a borrow that borrow too: not those under a `&`
/// pattern, which copy (`&[first, ..]`, `Some(&n)`).
fn borrowing_bindings(pat: &Pat) -> Vec<super::syntax::Binding> {
    struct Copied(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Copied {
        fn visit_pat_reference(&mut self, reference: &'ast syn::PatReference) {
            let bound = pattern_bindings(&reference.pat);
            self.0.extend(bound.iter().map(|b| b.ident.to_string()));
        }
    }
    let mut copied = Copied(BTreeSet::new());
    copied.visit_pat(pat);
    pattern_bindings(pat)
        .into_iter()
        .filter(|binding| !copied.0.contains(&binding.ident.to_string()))
        .collect()
}

/// An expression as the user would write it, near enough for a message.
fn spelled(expr: &Expr) -> String {
    quote::quote!(#expr)
        .to_string()
        .replace(" . ", ".")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace("& ", "&")
}

/// The parts of a scrutinee that borrow, each with the part of the pattern matched against it:
/// the whole, or the elements of a tuple matched by a tuple pattern.
fn borrowed_parts<'a>(scrutinee: &'a Expr, pat: &'a Pat) -> Vec<(&'a Expr, &'a Pat)> {
    match (scrutinee, pat) {
        (Expr::Tuple(tuple), Pat::Tuple(pats)) if tuple.elems.len() == pats.elems.len() => tuple
            .elems
            .iter()
            .zip(&pats.elems)
            .filter(|(part, _)| borrows(part))
            .collect(),
        (Expr::Paren(inner), pat) => borrowed_parts(&inner.expr, pat),
        (scrutinee, pat) if borrows(scrutinee) || borrows_mutably(scrutinee) => {
            vec![(scrutinee, pat)]
        }
        _ => Vec::new(),
    }
}

/// Whether a statement of `body` that asks, or one after it, names `name`: a mutable borrow
/// named there is alive at the ask, `*slot += ask!(..)..` too (the place stays borrowed while
/// the ask saves what it borrows from).
fn named_from_first_ask(body: &Stmt, name: &syn::Ident) -> bool {
    let stmts = match body {
        Stmt::Expr(Expr::Block(block), _) => block.block.stmts.as_slice(),
        other => std::slice::from_ref(other),
    };
    let name = name.to_string();
    stmts
        .iter()
        .skip_while(|stmt| asks_in_stmt(stmt).is_empty())
        .any(|stmt| names_in_stmt(stmt).contains(&name))
}

/// A mutable borrow, or a method that picks a mutable borrow out of what it is called on:
/// `&mut x`, `map.get_mut(&k)`, `items.last_mut()`, `slot.as_mut()`.
fn borrows_mutably(expr: &Expr) -> bool {
    const PICKING_MUT: &[&str] = &[
        "get_mut",
        "first_mut",
        "last_mut",
        "as_mut",
        "as_deref_mut",
        "front_mut",
        "back_mut",
        "peek_mut",
        "split_first_mut",
        "split_last_mut",
    ];
    match expr {
        Expr::Reference(reference) => reference.mutability.is_some(),
        Expr::MethodCall(call) => PICKING_MUT.contains(&call.method.to_string().as_str()),
        Expr::Paren(inner) => borrows_mutably(&inner.expr),
        _ => false,
    }
}

/// How `iterable` hands out mutable borrows of its items, when it does, for a message:
/// `v.iter_mut()`, `map.values_mut()`, `&mut v`, through adapters that keep the items.
fn mutable_items(iterable: &Expr) -> Option<String> {
    match unadapted(iterable, &[]) {
        Expr::MethodCall(call)
            if ["iter_mut", "values_mut"].contains(&call.method.to_string().as_str()) =>
        {
            Some(format!("`{}()`", call.method))
        }
        Expr::Reference(reference) if reference.mutability.is_some() => {
            Some(format!("`{}`", spelled(iterable)))
        }
        _ => None,
    }
}

/// The field of `self` whose items `iterable` borrows, when it does, and how to iterate owned
/// copies, for a message: `&self.x`, `self.x.iter()`, `self.text.lines()`, through adapters
/// that keep the items.
fn self_items(iterable: &Expr) -> Option<(String, String)> {
    fn of_self(expr: &Expr) -> bool {
        match expr {
            Expr::Field(field) => of_self(&field.base),
            Expr::Paren(inner) => of_self(&inner.expr),
            Expr::Path(path) => path.path.is_ident("self"),
            _ => false,
        }
    }
    let (field, owned) = match unadapted(iterable, &[]) {
        Expr::Reference(reference) if reference.mutability.is_none() => {
            let field = spelled(&reference.expr);
            let owned = format!("`{field}.clone()` or `{field}.iter().cloned()`");
            (&reference.expr, owned)
        }
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            let owned = if ["iter", "keys", "values"].contains(&method.as_str()) {
                format!("add `.cloned()` right after `{method}()`")
            } else if STR_SLICES.contains(&method.as_str()) {
                format!("add `.map(str::to_owned)` right after `{method}(..)`")
            } else {
                return None;
            };
            (&call.receiver, owned)
        }
        _ => return None,
    };
    (matches!(**field, Expr::Field(_)) && of_self(field)).then(|| (spelled(field), owned))
}

/// Whether `iterable` hands out references to string literals (`&&str`): an array or `vec!`
/// of them borrowed, or through `iter()`, with no `copied()` or `cloned()` after.
fn literal_str_refs(iterable: &Expr) -> bool {
    fn literals(expr: &Expr) -> bool {
        match expr {
            Expr::Array(array) => array.elems.iter().any(str_literal),
            Expr::Paren(inner) => literals(&inner.expr),
            Expr::Macro(mac) if mac.mac.path.is_ident("vec") => {
                macro_items(&mac.mac).is_some_and(|items| items.iter().any(str_literal))
            }
            _ => false,
        }
    }
    match unadapted(iterable, &[]) {
        Expr::Reference(reference) => literals(&reference.expr),
        Expr::MethodCall(call) if call.method == "iter" => {
            literals(&call.receiver) || literal_str_refs(&call.receiver)
        }
        Expr::MethodCall(call) if call.method == "into_iter" => literal_str_refs(&call.receiver),
        _ => false,
    }
}

/// `iterable` without its parentheses and the adapters that keep its items (`enumerate`,
/// `rev`, `skip`, ..), nor the methods of `also`.
fn unadapted<'e>(iterable: &'e Expr, also: &[&str]) -> &'e Expr {
    const KEEPING: &[&str] = &[
        "enumerate",
        "rev",
        "skip",
        "take",
        "step_by",
        "filter",
        "peekable",
        "skip_while",
        "take_while",
        "fuse",
    ];
    match iterable {
        Expr::Paren(inner) => unadapted(&inner.expr, also),
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            if KEEPING.contains(&method.as_str()) || also.contains(&method.as_str()) {
                unadapted(&call.receiver, also)
            } else {
                iterable
            }
        }
        _ => iterable,
    }
}

/// The methods that make an iterator of string slices.
const STR_SLICES: &[&str] = &[
    "split",
    "rsplit",
    "splitn",
    "rsplitn",
    "split_terminator",
    "rsplit_terminator",
    "split_inclusive",
    "split_whitespace",
    "split_ascii_whitespace",
    "lines",
    "matches",
    "rmatches",
];

/// The method that makes an iterator of string slices, when `iterable` is one: `s.split(..)`,
/// `s.lines()`, through adapters that keep the items (`enumerate`, `rev`, `skip`, ..), but not
/// of a string literal.
fn str_items(iterable: &Expr) -> Option<String> {
    match unadapted(iterable, &[]) {
        // A literal's slices are `&'static str`s, which are saved.
        Expr::MethodCall(call) if str_literal(&call.receiver) => None,
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            STR_SLICES.contains(&method.as_str()).then_some(method)
        }
        _ => None,
    }
}

//! Part of stage 3: narrow each binding's scope to its last use.
//!
//! At an ask point the machine saves every binding in scope. A binding that is dead by then,
//! because it was moved, shadowed or simply not used again, must not be saved: it may not
//! even be borrowable. So the statements from such a binding's `let` through its last use
//! are folded into one block that hands out only what is used later:
//!
//! ```text
//! let x = a();           let x = {
//! ask!(q1);                  let x = a();
//! let x = x.trim();  =>      ask!(q1);
//! ask!(q2);                  let x = x.trim(); x
//! use(x);                };
//!                        ask!(q2); use(x);
//! ```

use std::collections::BTreeSet;

use quote::quote;
use syn::{
    Block, Expr, Ident, Stmt,
    visit_mut::{self, VisitMut},
};

use super::deferred_init::{assigned_later, mentions};
use super::idents;
use super::overwritten::overwritten_by;
use super::remade::remade_let;
use super::remade_arms::unbind;
use super::syntax::{
    Binding, Captures, asks_in_stmt, bindings_tuple, kept_for_drop, made_every_round,
    names_in_expr, names_in_stmt, parse_stmt, pattern_bindings, recreated_closure, revisits_items,
    with_captures,
};

/// Folds every block of the body, innermost last. Reading a re-created closure reads what it
/// captures (`captures`): those bindings live as long as the closure.
pub(crate) fn narrow_scopes(block: &mut Block, captures: &Captures) {
    fold_block(block, captures);
    let mut nested = Nested(captures);
    for stmt in &mut block.stmts {
        nested.visit_stmt_mut(stmt);
    }
}

struct Nested<'c>(&'c Captures);

impl VisitMut for Nested<'_> {
    fn visit_block_mut(&mut self, block: &mut Block) {
        narrow_scopes(block, self.0);
    }

    // Closures and async blocks hold no ask points; leave them as written.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
    }
}

/// What a statement declares and reads, and whether it asks.
pub(crate) struct StmtFacts {
    pub(crate) declares: Vec<Binding>,
    pub(crate) uses: BTreeSet<String>,
    pub(crate) asks: bool,
}

pub(crate) fn facts(stmt: &Stmt, captures: &Captures) -> StmtFacts {
    let (declares, uses) = match stmt {
        Stmt::Local(local) => {
            let mut uses = BTreeSet::new();
            if let Some(init) = &local.init {
                uses.extend(names_in_expr(&init.expr));
                if let Some((_, diverge)) = &init.diverge {
                    uses.extend(names_in_expr(diverge));
                }
            }
            (pattern_bindings(&local.pat), uses)
        }
        other => (Vec::new(), names_in_stmt(other)),
    };
    StmtFacts {
        declares,
        uses: with_captures(uses, captures),
        asks: !asks_in_stmt(stmt).is_empty(),
    }
}

/// The last statement after `start` that reads `name` as declared at `start`: later uses
/// of a redeclared `name` belong to the new binding. A `_guard` that is never read lives, as
/// in Rust, to the end of its block: it is kept for what its `Drop` does.
fn last_use(facts: &[StmtFacts], start: usize, name: &Ident) -> usize {
    if kept_for_drop(name) {
        let text = name.to_string();
        let read = facts[start + 1..]
            .iter()
            .any(|fact| fact.uses.contains(&text));
        let redeclared = facts[start + 1..]
            .iter()
            .any(|fact| fact.declares.iter().any(|b| b.ident == *name));
        if !read && !redeclared {
            return facts.len() - 1;
        }
    }
    let mut last = start;
    for (j, later) in facts.iter().enumerate().skip(start + 1) {
        if later.uses.contains(&name.to_string()) {
            last = j;
        }
        if later.declares.iter().any(|b| b.ident == *name) {
            break;
        }
    }
    last
}

/// The bindings declared in `stmts[start..=end]`, latest declaration per name, that a
/// statement after `end` reads.
fn exports(facts: &[StmtFacts], start: usize, end: usize) -> Vec<Binding> {
    let mut exports: Vec<Binding> = Vec::new();
    for index in start..=end {
        for binding in &facts[index].declares {
            exports.retain(|b| b.ident != binding.ident);
            if last_use(facts, index, &binding.ident) > end {
                exports.push(binding.clone());
            }
        }
    }
    exports
}

fn fold_block(block: &mut Block, captures: &Captures) {
    let mut skip = BTreeSet::new();
    while let Some((start, end)) = next_region(&block.stmts, &skip, captures) {
        let facts: Vec<StmtFacts> = block.stmts.iter().map(|s| facts(s, captures)).collect();
        let exports = exports(&facts, start, end);
        // Folding one `let` into a block that hands all of its bindings back changes nothing;
        // nor does folding one made again on every round, which `made_again_out_of` would only
        // move after the empty block, to be found again.
        let made_again = matches!(&block.stmts[start], Stmt::Local(local)
            if made_every_round(local));
        if start == end && (exports.len() == facts[start].declares.len() || made_again) {
            skip.insert(start);
            continue;
        }
        let given = exports
            .is_empty()
            .then(|| {
                given_within(&block.stmts, start, end).or_else(|| {
                    overwritten_within(&block.stmts[start..=end], &facts[start..=end], captures)
                })
            })
            .flatten();
        let inner: Vec<Stmt> = block.stmts.drain(start..=end).collect();
        let (hoisted, inner, mut redefined) = items_out_of(inner);
        let (inner, exports) = made_again_out_of(inner, exports, &mut redefined);
        let folded = match given.and_then(|name| giving_region(&inner, &name)) {
            Some(giving) => giving,
            None => region(inner, &exports),
        };
        let folded = hoisted.into_iter().chain([folded]).chain(redefined);
        block.stmts.splice(start..start, folded);
        skip.clear();
    }
}

/// The first `let` whose bindings die before a later ask point of the same block: its
/// statements from the `let` through the last use, earliest last use first. The region then
/// grows, up to the statement before that ask, to cover the last uses of what it declares,
/// so that nothing borrowed from a dying binding is handed out of it.
fn next_region(
    stmts: &[Stmt],
    skip: &BTreeSet<usize>,
    captures: &Captures,
) -> Option<(usize, usize)> {
    let facts: Vec<StmtFacts> = stmts.iter().map(|s| facts(s, captures)).collect();
    let mut best: Option<(usize, usize)> = None;
    for (start, fact) in facts.iter().enumerate() {
        // A loop's item or iterator over borrowed items is made on every round, never saved.
        let revisits = matches!(&stmts[start], Stmt::Local(local) if revisits_items(local));
        if skip.contains(&start) || revisits {
            continue;
        }
        for binding in &fact.declares {
            let last = last_use(&facts, start, &binding.ident);
            let ask_after = facts[last + 1..].iter().any(|f| f.asks);
            if ask_after && best.is_none_or(|(s, e)| (last, start) < (e, s)) {
                best = Some((start, last));
            }
        }
    }
    let (start, mut end) = best?;
    let limit = (end + 1..facts.len()).find(|&j| facts[j].asks)?;
    loop {
        let grown = (start..=end)
            .flat_map(|index| facts[index].declares.iter().map(move |b| (index, b)))
            .map(|(index, binding)| last_use(&facts, index, &binding.ident))
            .filter(|&last| last < limit)
            .fold(end, usize::max);
        if grown == end {
            return Some((start, end));
        }
        end = grown;
    }
}

/// Items stay visible to the statements after a region. Most may stand anywhere in their
/// block, so they move before it. A `macro_rules!` is seen only after its definition, and may
/// name the region's bindings, so it stays, and is defined again after the region, where those
/// of its bindings used later are handed out under the same names.
fn items_out_of(stmts: Vec<Stmt>) -> (Vec<Stmt>, Vec<Stmt>, Vec<Stmt>) {
    let mut hoisted = Vec::new();
    let mut kept = Vec::new();
    let mut redefined = Vec::new();
    for stmt in stmts {
        match &stmt {
            Stmt::Item(syn::Item::Macro(item)) if item.ident.is_some() => {
                redefined.push(stmt.clone());
                kept.push(stmt);
            }
            Stmt::Item(_) => hoisted.push(stmt),
            _ => kept.push(stmt),
        }
    }
    (hoisted, kept, redefined)
}

/// A re-created closure, or a `let` made again on every round (`remade`), that the region
/// would hand out is made again after it instead, from the bindings it reads, which the region
/// hands out in its place: handed out, it would be a value to save. It moves out of the region
/// if nothing there reads it, else it is copied.
fn made_again_out_of(
    mut stmts: Vec<Stmt>,
    exports: Vec<Binding>,
    redefined: &mut Vec<Stmt>,
) -> (Vec<Stmt>, Vec<Binding>) {
    let declared_at = |stmts: &[Stmt], binding: &Binding| {
        stmts.iter().rposition(|stmt| {
            matches!(stmt, Stmt::Local(local)
                if pattern_bindings(&local.pat).iter().any(|b| b.ident == binding.ident))
        })
    };
    let made_again = |stmt: &Stmt| {
        matches!(stmt, Stmt::Local(local)
            if recreated_closure(local).is_some() || remade_let(local))
    };
    let exported: BTreeSet<String> = exports.iter().map(|b| b.ident.to_string()).collect();
    let mut again: Vec<usize> = exports
        .iter()
        .filter_map(|binding| declared_at(&stmts, binding))
        .filter(|&index| made_again(&stmts[index]))
        .collect();
    again.sort_unstable();
    again.dedup();
    let kept = exports
        .into_iter()
        .filter(|binding| declared_at(&stmts, binding).is_none_or(|index| !again.contains(&index)))
        .collect();
    let mut after = Vec::new();
    for &index in again.iter().rev() {
        let Stmt::Local(local) = &stmts[index] else {
            continue;
        };
        let names: Vec<String> = pattern_bindings(&local.pat)
            .iter()
            .map(|b| b.ident.to_string())
            .collect();
        let read_inside: BTreeSet<String> = names
            .iter()
            .filter(|name| {
                stmts[index + 1..]
                    .iter()
                    .any(|stmt| names_in_stmt(stmt).contains(*name))
            })
            .cloned()
            .collect();
        if !read_inside.is_empty() {
            // The copy after binds what the rest of the block reads; the one inside, what the
            // region reads, and what nothing reads, for rustc to warn of once.
            let mut copy = stmts[index].clone();
            if let Stmt::Local(copy) = &mut copy {
                unbind(&mut copy.pat, &exported);
            }
            if let Stmt::Local(inside) = &mut stmts[index] {
                let kept = names
                    .iter()
                    .filter(|name| read_inside.contains(*name) || !exported.contains(*name))
                    .cloned()
                    .collect();
                unbind(&mut inside.pat, &kept);
            }
            after.push(copy);
        } else {
            after.push(stmts.remove(index));
        }
    }
    redefined.extend(after.into_iter().rev());
    (stmts, kept)
}

/// The name of a `let x;` before `start` whose value `x = value;` among `stmts[start..=end]`
/// gives (`deferred_init::assigned_later`).
fn given_within(stmts: &[Stmt], start: usize, end: usize) -> Option<Ident> {
    (0..start).find_map(|index| {
        let at = assigned_later(stmts, index)?;
        let Stmt::Local(local) = &stmts[index] else {
            return None;
        };
        (start..=end)
            .contains(&at)
            .then(|| pattern_bindings(&local.pat).pop())
            .flatten()
            .map(|binding| binding.ident)
    })
}

/// A binding of an outer statement that `x = value;` in the region gives a new value without
/// reading it (`overwritten::overwritten_by`): as for a `let x;`, the region becomes that
/// assignment, which lowering then finds in the block where later asks save `x`, and may
/// restore `x` at (`consume(x); let a = ask!(..); x = a;`).
fn overwritten_within(stmts: &[Stmt], facts: &[StmtFacts], captures: &Captures) -> Option<Ident> {
    stmts.iter().rev().find_map(|stmt| {
        let Stmt::Expr(Expr::Assign(assign), Some(_)) = stmt else {
            return None;
        };
        let name = overwritten_by(assign, captures)?;
        let declared = facts
            .iter()
            .any(|fact| fact.declares.iter().any(|b| b.ident == *name));
        (!declared).then(|| name.clone())
    })
}

/// A region that hands nothing out but holds `x = value;` for a `let x;` before it, as that
/// assignment of the region's value: `x = { ..; let given = value; ..; given };`, so that `x`
/// is given its value by a statement of the block that declares it, where lowering saves it
/// from. Not when a statement after the assignment in the region names `x`.
fn giving_region(stmts: &[Stmt], name: &Ident) -> Option<Stmt> {
    let at = stmts.iter().position(|stmt| mentions(stmt, name))?;
    let Stmt::Expr(Expr::Assign(assign), Some(_)) = &stmts[at] else {
        return None;
    };
    if stmts[at + 1..].iter().any(|stmt| mentions(stmt, name)) {
        return None;
    }
    let (before, after) = (&stmts[..at], &stmts[at + 1..]);
    let (left, value) = (&assign.left, &assign.right);
    let tokens = if after.is_empty() {
        quote! { #left = { #(#before)* #value }; }
    } else {
        let given = idents::given();
        quote! { #left = { #(#before)* let #given = #value; #(#after)* #given }; }
    };
    syn::parse2(tokens).ok()
}

fn region(stmts: Vec<Stmt>, exports: &[Binding]) -> Stmt {
    let allow = exports
        .iter()
        .any(|b| b.mutable)
        .then(|| quote!(#[allow(unused_mut)]));
    let pattern = bindings_tuple(exports, true);
    let names = bindings_tuple(exports, false);
    let tokens = match exports {
        [] => quote! { { #(#stmts)* } },
        _ => quote! { #allow let #pattern = { #(#stmts)* #names }; },
    };
    parse_stmt(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    #[test]
    fn a_let_made_again_whose_bindings_die_apart_is_left_in_place() {
        // `value` dies before the loop's ask, `key` after it: the `let .. else`, made again
        // on every round, is left where it is rather than folded over and over.
        let mut block: Block = syn::parse_str(
            "{ let parts = ::mrtr::__private::remade(text.split_once('=')); \
             let Some((key, value)) = ::mrtr::__private::remade(parts) else { return 0; }; \
             loop { let a = __mrtr_ask_1(q(key)); } \
             let b = __mrtr_ask_2(q()); use_it(key, b); }",
        )
        .unwrap();
        narrow_scopes(&mut block, &Captures::new());
        let text = block.to_token_stream().to_string();
        assert!(
            text.contains("let Some ((key , value)) = :: mrtr :: __private :: remade (parts)"),
            "{text}"
        );
    }

    #[test]
    fn the_copies_of_a_let_made_again_bind_only_what_each_side_reads() {
        // `value` is read in the region only, `key` after it only: each copy binds its own,
        // and rustc warns of neither.
        let mut block: Block = syn::parse_str(
            "{ let Some((key, value)) = ::mrtr::__private::remade(t.split_once('=')) else { return 0; }; \
             let shown = value.len(); \
             let a = __mrtr_ask_1(q()); use_it(key, shown, a); }",
        )
        .unwrap();
        narrow_scopes(&mut block, &Captures::new());
        let text = block.to_token_stream().to_string();
        assert!(
            text.contains("let Some ((_ , value)) =") && text.contains("let Some ((key , _)) ="),
            "{text}"
        );
    }
}

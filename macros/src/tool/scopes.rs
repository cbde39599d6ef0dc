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
    Block, Expr, Stmt,
    visit_mut::{self, VisitMut},
};

use super::syntax::{
    Binding, asks_in_stmt, bindings_tuple, names_in_expr, names_in_stmt, pattern_bindings,
};

/// Folds every block of the body, innermost last.
pub(crate) fn narrow_scopes(block: &mut Block) {
    fold_block(block);
    let mut nested = Nested;
    for stmt in &mut block.stmts {
        nested.visit_stmt_mut(stmt);
    }
}

struct Nested;

impl VisitMut for Nested {
    fn visit_block_mut(&mut self, block: &mut Block) {
        narrow_scopes(block);
    }

    // Closures and async blocks hold no ask points; leave them as written.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
    }
}

struct StmtFacts {
    declares: Vec<Binding>,
    uses: BTreeSet<String>,
    asks: bool,
}

fn facts(stmt: &Stmt) -> StmtFacts {
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
        uses,
        asks: !asks_in_stmt(stmt).is_empty(),
    }
}

fn fold_block(block: &mut Block) {
    while let Some((start, end)) = next_region(&block.stmts) {
        let facts: Vec<StmtFacts> = block.stmts.iter().map(facts).collect();
        let used_after: BTreeSet<&String> = facts[end + 1..].iter().flat_map(|f| &f.uses).collect();
        // The latest declaration of each name in the region that is read after it.
        let mut exports: Vec<Binding> = Vec::new();
        for binding in facts[start..=end].iter().flat_map(|f| &f.declares) {
            exports.retain(|b| b.ident != binding.ident);
            if used_after.contains(&binding.ident.to_string()) {
                exports.push(binding.clone());
            }
        }
        let inner: Vec<Stmt> = block.stmts.drain(start..=end).collect();
        block.stmts.insert(start, region(inner, &exports));
    }
}

/// The first `let` whose bindings die before a later ask point of the same block: its
/// statements from the `let` through the last use. Earliest last use first.
fn next_region(stmts: &[Stmt]) -> Option<(usize, usize)> {
    let facts: Vec<StmtFacts> = stmts.iter().map(facts).collect();
    let mut best: Option<(usize, usize)> = None;
    for (start, fact) in facts.iter().enumerate() {
        for binding in &fact.declares {
            let name = binding.ident.to_string();
            let mut last = start;
            for (j, later) in facts.iter().enumerate().skip(start + 1) {
                if later.uses.contains(&name) {
                    last = j;
                }
                if later.declares.iter().any(|b| b.ident == binding.ident) {
                    break;
                }
            }
            let ask_after = facts[last + 1..].iter().any(|f| f.asks);
            if ask_after && best.is_none_or(|(s, e)| (last, start) < (e, s)) {
                best = Some((start, last));
            }
        }
    }
    best
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
    syn::parse2(tokens).expect("a region of statements re-parses as a statement")
}

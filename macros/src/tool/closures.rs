//! Part of stage 2: re-created closures that cannot be made again on resume, each said at the
//! user's code rather than as a failure to save the closure or a borrow conflict at the ask:
//! - a closure whose captured binding a later `let` of the same block shadows before an ask,
//!   while the closure is still used after it: the saved binding can no longer be named;
//! - a closure that changes what it captures (`let mut bump = || count += 1;`), used on both
//!   sides of an ask: it holds a mutable borrow of what must be saved at the ask.

use syn::{
    Block, Stmt,
    visit::{self, Visit},
};

use super::syntax::{
    asks_in_stmt, assigned_place, names_in_expr, names_in_stmt, pattern_bindings, pattern_binds,
    recreated_closure,
};
use crate::diagnostics::Diagnostics;

pub(crate) fn check(body: &Block, diagnostics: &mut Diagnostics) {
    Check { diagnostics }.visit_block(body);
}

struct Check<'d> {
    diagnostics: &'d mut Diagnostics,
}

impl<'ast> Visit<'ast> for Check<'_> {
    fn visit_block(&mut self, block: &'ast Block) {
        self.block(&block.stmts);
        visit::visit_block(self, block);
    }
}

impl Check<'_> {
    fn block(&mut self, stmts: &[Stmt]) {
        let first_ask_from = |start: usize| {
            (start..stmts.len()).find(|&index| !asks_in_stmt(&stmts[index]).is_empty())
        };
        for (made, stmt) in stmts.iter().enumerate() {
            let Stmt::Local(local) = stmt else { continue };
            let Some(closure) = recreated_closure(local) else {
                continue;
            };
            let Some(name) = pattern_bindings(&local.pat)
                .first()
                .map(|b| b.ident.clone())
            else {
                continue;
            };
            let captured = names_in_expr(&syn::Expr::Closure(closure.clone()));
            // Until a `let` binds the name again; its initializer may still read this one.
            let rebound = (made + 1..stmts.len()).find(|&index| {
                matches!(&stmts[index], Stmt::Local(l) if pattern_binds(&l.pat, &name.to_string()))
            });
            let used_from = |start: usize| {
                let end = rebound.unwrap_or(stmts.len());
                let reads_at_rebinding = rebound.is_some_and(|index| match &stmts[index] {
                    Stmt::Local(local) => local
                        .init
                        .as_ref()
                        .is_some_and(|init| names_in_expr(&init.expr).contains(&name.to_string())),
                    _ => false,
                });
                stmts[start.min(end)..end]
                    .iter()
                    .any(|stmt| names_in_stmt(stmt).contains(&name.to_string()))
                    || (start <= end && reads_at_rebinding)
            };
            if binds_mut(&local.pat)
                && changes_captures(closure)
                && let Some(ask) = first_ask_from(made + 1)
                && used_from(ask)
            {
                self.diagnostics.error(
                    &name,
                    format!(
                        "the closure `{name}` changes what it captures and is used after an \
                         `ask!`: it holds a mutable borrow of those bindings, which must be saved \
                         at the ask. Define `{name}` after the ask, or write the change out where \
                         it is called"
                    ),
                );
            }
            for (shadows, later) in stmts.iter().enumerate().skip(made + 1) {
                let Stmt::Local(shadowing) = later else {
                    continue;
                };
                if pattern_binds(&shadowing.pat, &name.to_string()) {
                    break;
                }
                let Some(ask) = first_ask_from(shadows) else {
                    break;
                };
                if !used_from(ask) {
                    break;
                }
                for binding in pattern_bindings(&shadowing.pat) {
                    if captured.contains(&binding.ident.to_string()) {
                        self.diagnostics.error(
                            &binding.ident,
                            format!(
                                "this `let` shadows the `{0}` that the closure `{1}` reads, and \
                                 `{1}` is used after an `ask!`: on resume `{1}` is made again \
                                 from the saved `{0}`, which can no longer be named here. Rename \
                                 this `{0}`, or define `{1}` after the ask",
                                binding.ident, name
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// `let mut f = ..`: a closure that is `FnMut`.
fn binds_mut(pat: &syn::Pat) -> bool {
    pattern_bindings(pat).first().is_some_and(|b| b.mutable)
}

/// Whether a closure's body assigns, or calls a method on a name it does not take as a
/// parameter (`items.push(x)`): what a `FnMut` closure does to its captures.
fn changes_captures(closure: &syn::ExprClosure) -> bool {
    struct Changes {
        params: Vec<String>,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Changes {
        fn visit_expr(&mut self, expr: &'ast syn::Expr) {
            match expr {
                _ if assigned_place(expr).is_some() => self.found = true,
                syn::Expr::MethodCall(call) => {
                    if let syn::Expr::Path(path) = &*call.receiver
                        && let Some(ident) = path.path.get_ident()
                        && !self.params.contains(&ident.to_string())
                    {
                        self.found = true;
                    }
                }
                _ => {}
            }
            visit::visit_expr(self, expr);
        }
    }
    let params = closure
        .inputs
        .iter()
        .flat_map(pattern_bindings)
        .map(|b| b.ident.to_string())
        .collect();
    let mut changes = Changes {
        params,
        found: false,
    };
    changes.visit_expr(&closure.body);
    changes.found
}

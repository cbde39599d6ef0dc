//! Part of stage 2: a re-created closure whose captured binding a later `let` of the same block
//! shadows before an ask, while the closure is still used after that ask. On resume the closure
//! is made again from the saved binding, which can no longer be named there; say so at the
//! shadowing `let`, rather than let the closure fail to save.

use syn::{
    Block, Stmt,
    visit::{self, Visit},
};

use super::syntax::{
    asks_in_stmt, names_in_expr, names_in_stmt, pattern_bindings, recreated_closure,
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
            for (shadows, later) in stmts.iter().enumerate().skip(made + 1) {
                let Stmt::Local(shadowing) = later else {
                    continue;
                };
                if shadowing_binds(&shadowing.pat, &name.to_string()) {
                    break;
                }
                let Some(ask) = first_ask_from(shadows) else {
                    break;
                };
                let used_after = stmts[ask..]
                    .iter()
                    .any(|stmt| names_in_stmt(stmt).contains(&name.to_string()));
                if !used_after {
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

fn shadowing_binds(pat: &syn::Pat, name: &str) -> bool {
    pattern_bindings(pat).iter().any(|b| b.ident == name)
}

//! Part of stage 3: a local that may have been moved, then given a new value by a statement of
//! its own block, becomes a new binding there.
//!
//! ```text
//! let mut s = a();                      let mut s = a();
//!                                       let __mrtr_type_of1 = TypeOf::of(&s);
//! let n = consume(s);         =>        let n = consume(s);
//! s = ask!(q)..;                        let mut s = ask!(q)..;
//!                                       __mrtr_type_of1.is(&s);
//! use(s);                               use(s);
//! ```
//!
//! The old binding then dies where it is last read, so no ask saves it moved, and the new
//! one is saved from its `let` on, like any other. The witness, which is saved as no bytes,
//! gives the new value the old one's type, as the assignment did (`s = iter.collect()`).
//! Only an assignment that does not read the local and cannot `break` or `continue` out of
//! its value is rewritten, after a statement that names the local, in a block that asks.
//! An assignment in an inner block is lowered instead (`lower::given_anew`).

use syn::{
    Block, Expr, Stmt,
    visit_mut::{self, VisitMut},
};

use super::{
    deferred_init::mentions,
    idents,
    overwritten::overwritten_by,
    syntax::{Captures, asks_in_stmt, pattern_bindings},
};

pub(crate) fn rebind(body: &mut Block) {
    GivenAnew { witnesses: 0 }.visit_block_mut(body);
}

struct GivenAnew {
    witnesses: u32,
}

impl VisitMut for GivenAnew {
    fn visit_block_mut(&mut self, block: &mut Block) {
        visit_mut::visit_block_mut(self, block);
        if block.stmts.iter().all(|stmt| asks_in_stmt(stmt).is_empty()) {
            return;
        }
        let mut index = 0;
        while index < block.stmts.len() {
            if let Some((declared, [rebound, typed], witnessed)) =
                self.rebound_at(&block.stmts, index)
            {
                // No longer assigned: its `mut` is for the statement rewritten.
                if let Stmt::Local(local) = &mut block.stmts[declared] {
                    local.attrs.push(syn::parse_quote!(#[allow(unused_mut)]));
                }
                block.stmts[index] = rebound;
                block.stmts.insert(index + 1, typed);
                block.stmts.insert(declared + 1, witnessed);
                index += 2;
            }
            index += 1;
        }
    }

    // Closures, async blocks and items hold no ask points.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl GivenAnew {
    /// When `stmts[index]` is `x = value;` that gives a new value to an `x` declared with a
    /// value earlier in the block and named between: the index of that `let`, the new `let`
    /// with the statement that gives it the old one's type, and the witness to put after the
    /// old one.
    fn rebound_at(&mut self, stmts: &[Stmt], index: usize) -> Option<(usize, [Stmt; 2], Stmt)> {
        let Stmt::Expr(Expr::Assign(assign), Some(_)) = &stmts[index] else {
            return None;
        };
        let name = overwritten_by(assign, &Captures::new())?;
        let declared = stmts[..index].iter().rposition(|stmt| {
            matches!(stmt, Stmt::Local(local)
                if pattern_bindings(&local.pat).iter().any(|binding| binding.ident == *name))
        })?;
        let Stmt::Local(local) = &stmts[declared] else {
            return None;
        };
        let named_between = stmts[declared + 1..index]
            .iter()
            .any(|stmt| mentions(stmt, name));
        if local.init.is_none() || !named_between {
            return None;
        }
        let witness = idents::fresh("type_of", self.witnesses, name.span());
        self.witnesses += 1;
        let (value, attrs) = (&assign.right, &assign.attrs);
        let rebound = syn::parse_quote! {
            #(#attrs)*
            #[allow(unused_mut)]
            let mut #name = #value;
        };
        let typed = syn::parse_quote! { #witness.is(&#name); };
        let witnessed = syn::parse_quote! {
            let #witness = ::mrtr::__private::TypeOf::of(&#name);
        };
        Some((declared, [rebound, typed], witnessed))
    }
}

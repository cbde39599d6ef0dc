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
//! its value is rewritten, after a statement that names the local, when an ask comes before
//! the local's last use (in a branch after which nothing reads it: when an ask follows in the
//! branch). The old value, if not moved, is then dropped at the end of the block (or of the
//! region that scope narrowing folds it into), not at the assignment. An `if` or `match` that
//! gives the local its value in each branch counts as one assignment (`one_assignment`).
//! An assignment in an inner block is lowered instead (`lower::given_anew`).

use syn::{
    Block, Expr, Ident, Stmt,
    visit_mut::{self, VisitMut},
};

use super::{
    deferred_init::{assigned_value, mentions},
    idents,
    overwritten::{escapes, overwritten_by, rebinds},
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
        for index in 0..block.stmts.len() {
            if let Some(assignment) = one_assignment(&block.stmts, index) {
                block.stmts[index] = assignment;
            }
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
        self.rebind_in_branches(block);
    }

    // Closures, async blocks and items hold no ask points.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl GivenAnew {
    /// A `let x = ..;` whose last statement to name `x` is an `if`, `match` or block, or a
    /// `let` whose value is one: an assignment `x = value;` in one of its branches, whose value
    /// nothing after that branch reads, is a new binding of the branch, rewritten as in the
    /// block itself.
    fn rebind_in_branches(&mut self, block: &mut Block) {
        let mut index = 0;
        while index < block.stmts.len() {
            let names = match &block.stmts[index] {
                Stmt::Local(local) if local.init.is_some() => pattern_bindings(&local.pat),
                _ => Vec::new(),
            };
            for binding in names.into_iter().filter(|binding| binding.mutable) {
                let name = binding.ident;
                let rest = &block.stmts[index + 1..];
                let Some(last) = rest.iter().rposition(|stmt| mentions(stmt, &name)) else {
                    continue;
                };
                if rest[..last]
                    .iter()
                    .any(|stmt| rebinds(stmt, &name.to_string()))
                {
                    continue;
                }
                let witness = idents::fresh("type_of", self.witnesses, name.span());
                // A `let` whose value branches gives that value to its own bindings.
                let branches = match &mut block.stmts[index + 1 + last] {
                    Stmt::Expr(branches, _) => branches,
                    Stmt::Local(local) => match &mut local.init {
                        Some(init) if init.diverge.is_none() => &mut *init.expr,
                        _ => continue,
                    },
                    _ => continue,
                };
                if !shadow_in_branches(branches, &name, &witness) {
                    continue;
                }
                self.witnesses += 1;
                if let Stmt::Local(local) = &mut block.stmts[index] {
                    local.attrs.push(syn::parse_quote!(#[allow(unused_mut)]));
                }
                block.stmts.insert(
                    index + 1,
                    syn::parse_quote!(let #witness = ::mrtr::__private::TypeOf::of(&#name);),
                );
            }
            index += 1;
        }
    }

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
        if local.init.is_none() || !given_anew_after(stmts, declared, index, name) {
            return None;
        }
        let witness = idents::fresh("type_of", self.witnesses, name.span());
        self.witnesses += 1;
        let rebound = rebound(assign, name, &witness);
        let witnessed = syn::parse_quote! {
            let #witness = ::mrtr::__private::TypeOf::of(&#name);
        };
        Some((declared, rebound, witnessed))
    }
}

/// Whether `stmts[index]`, which gives `name` a new value, may become a new binding after the
/// one at `declared`: a statement between names it, and it is held across an ask, and so
/// `Serialize` (a guard or a pooled connection given a new value is dropped there, as written,
/// not at the block's end).
fn given_anew_after(stmts: &[Stmt], declared: usize, index: usize, name: &Ident) -> bool {
    let named_between = stmts[declared + 1..index]
        .iter()
        .any(|stmt| mentions(stmt, name));
    let last_named = stmts.iter().rposition(|stmt| mentions(stmt, name));
    let held = last_named.is_some_and(|last| {
        stmts[declared + 1..=last]
            .iter()
            .any(|stmt| !asks_in_stmt(stmt).is_empty())
    });
    named_between && held
}

/// Rewrites, in the branches of an `if`, `match` or block, `name = value;` that is held across
/// an ask there as `let mut name = value;`, typed by `witness`. Whether it rewrote one.
fn shadow_in_branches(expr: &mut Expr, name: &Ident, witness: &Ident) -> bool {
    match expr {
        Expr::If(branch) => {
            // An `if let` that binds the name hides it in its first branch.
            let hidden = matches!(&*branch.cond, Expr::Let(cond)
                if pattern_bindings(&cond.pat).iter().any(|b| b.ident == *name));
            let then = !hidden && shadow_in_block(&mut branch.then_branch, name, witness);
            let otherwise = branch
                .else_branch
                .as_mut()
                .is_some_and(|(_, other)| shadow_in_branches(other, name, witness));
            then || otherwise
        }
        Expr::Match(matched) => {
            let mut any = false;
            for arm in &mut matched.arms {
                let binds = pattern_bindings(&arm.pat).iter().any(|b| b.ident == *name);
                if !binds && arm.guard.is_none() {
                    any |= shadow_in_branches(&mut arm.body, name, witness);
                }
            }
            any
        }
        Expr::Block(block) if block.label.is_none() => {
            shadow_in_block(&mut block.block, name, witness)
        }
        _ => false,
    }
}

/// In a branch: the first `name = value;` (as `rebound_at` takes it) when an ask follows it
/// in the branch; else the last statement to name it, if that is an `if`, `match` or block,
/// or a `let` whose value is one.
fn shadow_in_block(block: &mut Block, name: &Ident, witness: &Ident) -> bool {
    let stmts = &mut block.stmts;
    let Some(last) = stmts.iter().rposition(|stmt| mentions(stmt, name)) else {
        return false;
    };
    for index in 0..=last {
        if rebinds(&stmts[index], &name.to_string()) {
            return false;
        }
        if let Stmt::Expr(Expr::Assign(assign), Some(_)) = &stmts[index]
            && overwritten_by(assign, &Captures::new()) == Some(name)
        {
            // An ask anywhere after it in the branch would save the local given anew there.
            let held = stmts[index..]
                .iter()
                .any(|stmt| !asks_in_stmt(stmt).is_empty());
            if !held {
                return false;
            }
            let [rebound, typed] = rebound(assign, name, witness);
            stmts[index] = rebound;
            stmts.insert(index + 1, typed);
            rebind_later(stmts, index, name, witness);
            return true;
        }
    }
    match &mut stmts[last] {
        Stmt::Expr(branches, _) => shadow_in_branches(branches, name, witness),
        // A `let` whose value branches, as `rebind_in_branches` takes one (`deferred_init`
        // makes one of `let d; if c { d = a } else { d = b }`).
        Stmt::Local(local) => match &mut local.init {
            Some(init) if init.diverge.is_none() => {
                shadow_in_branches(&mut init.expr, name, witness)
            }
            _ => false,
        },
        _ => false,
    }
}

/// After the branch's new binding at `declared`, each later `name = value;` that `rebound_at`
/// would take in a block, as a new binding too (seed 1217): else the first binding would be
/// handed out of the region that scope narrowing folds it into, moved, for the assignment.
fn rebind_later(stmts: &mut Vec<Stmt>, mut declared: usize, name: &Ident, witness: &Ident) {
    let mut index = declared + 1;
    while index < stmts.len() {
        if rebinds(&stmts[index], &name.to_string()) {
            return;
        }
        if let Stmt::Expr(Expr::Assign(assign), Some(_)) = &stmts[index]
            && overwritten_by(assign, &Captures::new()) == Some(name)
            && given_anew_after(stmts, declared, index, name)
        {
            let [rebound, typed] = rebound(assign, name, witness);
            stmts[index] = rebound;
            stmts.insert(index + 1, typed);
            declared = index;
        }
        index += 1;
    }
}

/// An `if`, `match` or block, in a block that asks, each of whose branches ends by giving a
/// local a new value (or leaves): as the one assignment `name = value;`, which the rest of the
/// rewrite (and `lower::given_anew`) then takes like any other.
fn one_assignment(stmts: &[Stmt], index: usize) -> Option<Stmt> {
    let Stmt::Expr(branches @ (Expr::If(_) | Expr::Match(_) | Expr::Block(_)), _) = &stmts[index]
    else {
        return None;
    };
    if escapes(branches) {
        return None;
    }
    let mut assigned = Assigned(Vec::new());
    syn::visit::Visit::visit_expr(&mut assigned, branches);
    assigned.0.into_iter().find_map(|name| {
        let value = assigned_value(branches, &name)?;
        // Only where each branch ends by assigning it, so that the old value drops there.
        (!mentions(&value, &name)).then(|| syn::parse_quote!(#name = #value;))
    })
}

/// The locals a walk assigns as a whole (`name = ..`), outside closures and async blocks.
struct Assigned(Vec<Ident>);

impl<'ast> syn::visit::Visit<'ast> for Assigned {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        match expr {
            Expr::Assign(assign) => {
                if let Expr::Path(place) = &*assign.left
                    && let Some(name) = place.path.get_ident()
                    && place.qself.is_none()
                    && !self.0.contains(name)
                {
                    self.0.push(name.clone());
                }
                syn::visit::visit_expr(self, expr);
            }
            Expr::Closure(_) | Expr::Async(_) => {}
            _ => syn::visit::visit_expr(self, expr),
        }
    }
}

/// `name = value;` as `let mut name = value;` and the statement that gives it the type
/// `witness` holds.
fn rebound(assign: &syn::ExprAssign, name: &Ident, witness: &Ident) -> [Stmt; 2] {
    let (value, attrs) = (&assign.right, &assign.attrs);
    [
        syn::parse_quote! {
            #(#attrs)*
            #[allow(unused_mut)]
            let mut #name = #value;
        },
        syn::parse_quote! { #witness.is(&#name); },
    ]
}

//! Part of stage 3, before the desugar: an arm, `if let` or `while let` whose pattern binds a
//! borrow that a later ask outlives binds it again in a `let .. else`, which `remade` may then
//! make again on every round rather than save.
//!
//! ```text
//! if let Some(first) = items.first() {        if let Some(_) = items.first() {
//!     let a = ask!(q)..;                 =>        let Some(first) = items.first() else {
//!     use(first, a);                                   __mrtr.lost().await
//! }                                                };
//!                                                  let a = ask!(q)..;
//!                                                  use(first, a);
//!                                              }
//! ```
//!
//! The desugar saves which arm was taken; the arm's own bindings it would save too, and a
//! borrow cannot be saved. The `let .. else` runs again on resume from what the tool holds,
//! picks the same value, and so matches again. Only a pick `remade` takes
//! (`remade::borrow_pick`) is rebound, by a pattern without `mut` or `&`
//! (`remade::rebinding_pattern`). An arm's guard still reads the arm's own bindings. Should
//! `remade` not take the `let`, lowering saves the bindings as it would have, and says why the
//! borrow cannot be saved.

use std::collections::BTreeSet;

use proc_macro2::Ident;
use syn::{
    Block, Expr, Pat, Stmt,
    spanned::Spanned,
    visit_mut::{self, VisitMut},
};

use super::remade::{borrow_pick, plain_pattern, rebinding_pattern, uses};
use super::syntax::{asks_in_stmt, names_in_expr, pattern_bindings};

pub(crate) fn rebind_in_arms(body: &mut Block, machine: &Ident) {
    Arms { machine }.visit_block_mut(body);
}

struct Arms<'m> {
    machine: &'m Ident,
}

impl VisitMut for Arms<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
        match expr {
            Expr::If(branch) => {
                let Expr::Let(cond) = &mut *branch.cond else {
                    return;
                };
                if let Some(local) =
                    self.rebinding(&cond.pat, &cond.expr, &branch.then_branch.stmts)
                {
                    unbind(&mut cond.pat, &BTreeSet::new());
                    branch.then_branch.stmts.insert(0, local);
                }
            }
            Expr::While(looping) => {
                let Expr::Let(cond) = &mut *looping.cond else {
                    return;
                };
                if let Some(local) = self.rebinding(&cond.pat, &cond.expr, &looping.body.stmts) {
                    unbind(&mut cond.pat, &BTreeSet::new());
                    looping.body.stmts.insert(0, local);
                }
            }
            Expr::Match(matched) => {
                for arm in &mut matched.arms {
                    let stmts = arm_stmts(&arm.body);
                    let Some(local) = self.rebinding(&arm.pat, &matched.expr, &stmts) else {
                        continue;
                    };
                    // A guard reads the arm's own bindings, where the arm is chosen; the body
                    // reads those of the `let`.
                    let guarded = arm.guard.as_ref().map(|(_, guard)| names_in_expr(guard));
                    unbind(&mut arm.pat, &guarded.unwrap_or_default());
                    match &mut *arm.body {
                        Expr::Block(block) if block.label.is_none() && block.attrs.is_empty() => {
                            block.block.stmts.insert(0, local);
                        }
                        other => *other = syn::parse_quote!({ #local #other }),
                    }
                }
            }
            _ => {}
        }
    }

    // Closures, async blocks and items hold no ask points.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl Arms<'_> {
    /// `let pat = scrutinee else { lost };` for the arm whose body is `stmts`, if `rebinds`;
    /// a plain `let` where the pattern cannot fail.
    fn rebinding(&self, pat: &Pat, scrutinee: &Expr, stmts: &[Stmt]) -> Option<Stmt> {
        if !rebinds(pat, scrutinee, stmts) {
            return None;
        }
        let machine = self.machine;
        Some(if plain_pattern(pat) {
            syn::parse_quote! { let #pat = #scrutinee; }
        } else {
            // `Wrapper(x)` or `Repo { name, .. }` may not fail either.
            syn::parse_quote! {
                #[allow(irrefutable_let_patterns)]
                let #pat = #scrutinee else { #machine.lost().await };
            }
        })
    }
}

/// Whether the arm, `if let` or `while let` that binds `pat` from `scrutinee` and runs `stmts`
/// binds its pattern again in a `let`: its bindings borrow from a pick `remade` takes, and an
/// ask of `stmts` outlives them. `borrowed::check` leaves such an arm to `remade`.
pub(crate) fn rebinds(pat: &Pat, scrutinee: &Expr, stmts: &[Stmt]) -> bool {
    let bindings = pattern_bindings(pat);
    !bindings.is_empty()
        && rebinding_pattern(pat)
        && borrow_pick(scrutinee)
        && held_across_an_ask(&bindings, stmts)
}

/// The statements of an arm's body, with a block's own.
pub(crate) fn arm_stmts(body: &Expr) -> Vec<Stmt> {
    match body {
        Expr::Block(block) if block.label.is_none() && block.attrs.is_empty() => {
            block.block.stmts.clone()
        }
        other => vec![Stmt::Expr(other.clone(), None)],
    }
}

/// Whether `stmts` read one of `bindings`, or a `let` made from them, after their first ask,
/// or around it in a loop, branch or block.
fn held_across_an_ask(bindings: &[super::syntax::Binding], stmts: &[Stmt]) -> bool {
    let Some(first) = stmts.iter().position(|stmt| !asks_in_stmt(stmt).is_empty()) else {
        return false;
    };
    uses(bindings, stmts)
        .into_iter()
        .any(|index| index > first || (index == first && nests_blocks(&stmts[index])))
}

/// A statement whose ask may run more than once, or after code that reads what it holds: a
/// loop, a branch or a block, or a `let` of one.
fn nests_blocks(stmt: &Stmt) -> bool {
    let value = match stmt {
        Stmt::Local(local) => local.init.as_ref().map(|init| &*init.expr),
        Stmt::Expr(expr, _) => Some(expr),
        _ => None,
    };
    matches!(
        value,
        Some(
            Expr::If(_)
                | Expr::Match(_)
                | Expr::While(_)
                | Expr::ForLoop(_)
                | Expr::Loop(_)
                | Expr::Block(_)
                | Expr::Unsafe(_)
        )
    )
}

/// The pattern with its bindings made `_`, or, for `x @ p`, `p`, but those `kept` (that a
/// guard reads): the arm is still taken as before, and binds nothing its body reads.
fn unbind(pat: &mut Pat, kept: &BTreeSet<String>) {
    struct Unbind<'k>(&'k BTreeSet<String>);
    impl Unbind<'_> {
        /// A binding, not a constant or a unit variant (`None`, `MAX`: `pattern_bindings`), and
        /// not one of those kept.
        fn unbound(&self, pat: &Pat) -> bool {
            matches!(pat, Pat::Ident(ident)
                if !ident.ident.to_string().starts_with(char::is_uppercase)
                    && !self.0.contains(&ident.ident.to_string()))
        }
    }
    impl VisitMut for Unbind<'_> {
        fn visit_pat_mut(&mut self, pat: &mut Pat) {
            while self.unbound(pat)
                && let Pat::Ident(ident) = pat
            {
                let span = ident.ident.span();
                *pat = match ident.subpat.take() {
                    Some((_, sub)) => *sub,
                    None => Pat::Wild(syn::PatWild {
                        attrs: Vec::new(),
                        underscore_token: syn::Token![_](span),
                    }),
                };
            }
            visit_mut::visit_pat_mut(self, pat);
        }

        // `Person { name, .. }` becomes `Person { name: _, .. }`.
        fn visit_field_pat_mut(&mut self, field: &mut syn::FieldPat) {
            if field.colon_token.is_none() && self.unbound(&field.pat) {
                field.colon_token = Some(syn::Token![:](field.member.span()));
            }
            visit_mut::visit_field_pat_mut(self, field);
        }
    }
    Unbind(kept).visit_pat_mut(pat);
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    /// `block` as `rebind_in_arms` leaves it, without spaces.
    fn rebound(block: &str) -> String {
        let mut block: Block = syn::parse_str(block).unwrap();
        rebind_in_arms(&mut block, &Ident::new("m", proc_macro2::Span::call_site()));
        block.to_token_stream().to_string().replace(' ', "")
    }

    const ASK: &str = "let a = __mrtr_ask_1(q());";

    #[test]
    fn arms_that_hold_a_borrow_across_an_ask_bind_it_again() {
        let cases = [
            (
                format!("{{ if let Some(first) = items.first() {{ {ASK} f(first, a); }} }}"),
                "{ifletSome(_)=items.first(){#[allow(irrefutable_let_patterns)]letSome(first)=items.first()else{m.lost().await};",
            ),
            (
                format!("{{ match cmd.as_str() {{ \"q\" => 1, other => {{ {ASK} f(other) }} }} }}"),
                "{matchcmd.as_str(){\"q\"=>1,_=>{letother=cmd.as_str();",
            ),
            (
                format!(
                    "{{ match t.split_once('=') {{ Some((k, v)) => {{ {ASK} f(k, v) }} None => 0 }} }}"
                ),
                "{matcht.split_once('='){Some((_,_))=>{#[allow(irrefutable_let_patterns)]letSome((k,v))=",
            ),
            (
                format!(
                    "{{ match &people[i] {{ Person {{ name, .. }} => {{ {ASK} f(name) }} }} }}"
                ),
                "{match&people[i]{Person{name:_,..}=>{#[allow(irrefutable_let_patterns)]letPerson{name,..}=&people[i]else",
            ),
            (
                format!("{{ if let whole @ Some(_) = items.get(1) {{ {ASK} f(whole); }} }}"),
                "{ifletSome(_)=items.get(1){#[allow(irrefutable_let_patterns)]letwhole@Some(_)=items.get(1)else",
            ),
            // Read in a loop around the ask.
            (
                format!(
                    "{{ if let Some(x) = items.last() {{ for i in 0..2 {{ {ASK} f(x, i); }} }} }}"
                ),
                "{ifletSome(_)=items.last(){#[allow(irrefutable_let_patterns)]letSome(x)=",
            ),
            // A guard, which reads the arm's own bindings; one it does not read is unbound.
            (
                format!(
                    "{{ match items.first() {{ Some(x) if x.ok() => {{ {ASK} f(x) }} _ => 0 }} }}"
                ),
                "{matchitems.first(){Some(x)ifx.ok()=>{#[allow(irrefutable_let_patterns)]letSome(x)=",
            ),
            (
                format!(
                    "{{ match t.split_once('=') {{ Some((k, v)) if k.is_empty() => {{ {ASK} f(k, v) }} _ => 0 }} }}"
                ),
                "{matcht.split_once('='){Some((k,_))ifk.is_empty()=>{#[allow(irrefutable_let_patterns)]letSome((k,v))=",
            ),
            // A `while let`, whose index changes after the ask.
            (
                format!("{{ while let Some(x) = items.get(i) {{ {ASK} f(x); i += 1; }} }}"),
                "{whileletSome(_)=items.get(i){#[allow(irrefutable_let_patterns)]letSome(x)=",
            ),
            // Through a `let` made from it.
            (
                format!("{{ if let Some(x) = items.last() {{ let n = &x.name; {ASK} f(n); }} }}"),
                "{ifletSome(_)=items.last(){#[allow(irrefutable_let_patterns)]letSome(x)=",
            ),
        ];
        for (block, start) in cases {
            let out = rebound(&block);
            assert!(out.starts_with(start), "{block}\n=> {out}");
        }
    }

    #[test]
    fn other_arms_are_left_as_they_are() {
        for block in [
            // Not read after the ask.
            format!("{{ if let Some(first) = items.first() {{ f(first); {ASK} }} }}"),
            // No ask.
            "{ if let Some(first) = items.first() { f(first) } }".to_owned(),
            // A copy out of a `&`, a `mut` binding.
            format!("{{ if let Some(&n) = items.first() {{ {ASK} f(n); }} }}"),
            format!("{{ if let Some(mut x) = items.first() {{ {ASK} f(x); }} }}"),
            // Not a pick made again: a temporary, `self`, a method of the user's.
            format!("{{ if let Some(x) = make().first() {{ {ASK} f(x); }} }}"),
            format!("{{ if let Some(x) = self.items.first() {{ {ASK} f(x); }} }}"),
            format!("{{ if let Some(x) = items.iter().filter(f).max() {{ {ASK} f(x); }} }}"),
        ] {
            let before: Block = syn::parse_str(&block).unwrap();
            let before = before.to_token_stream().to_string().replace(' ', "");
            assert_eq!(rebound(&block), before, "{block}");
        }
    }
}

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

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::Ident;
use syn::{
    Block, Expr, Pat, Stmt,
    spanned::Spanned,
    visit::{self, Visit},
    visit_mut::{self, VisitMut},
};

use super::remade::{borrow_pick, plain_pattern, rebinding_pattern, uses};
use super::syntax::{asks_in_stmt, names_in_expr, pattern_bindings};

pub(crate) fn rebind_in_arms(body: &mut Block, machine: &Ident) {
    let mut in_patterns = InPatterns(BTreeMap::new());
    in_patterns.visit_block(body);
    Arms {
        machine,
        lets: Vec::new(),
        in_patterns: in_patterns.0,
    }
    .visit_block_mut(body);
}

/// The names bound by patterns other than a `let`'s (of arms, loops, `if let`, closures),
/// each with how many such patterns bind it.
struct InPatterns(BTreeMap<String, usize>);

impl InPatterns {
    fn bind(&mut self, pat: &Pat) {
        for binding in pattern_bindings(pat) {
            *self.0.entry(binding.ident.to_string()).or_default() += 1;
        }
    }
}

impl<'ast> Visit<'ast> for InPatterns {
    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        self.bind(&arm.pat);
        visit::visit_arm(self, arm);
    }

    fn visit_expr_for_loop(&mut self, looping: &'ast syn::ExprForLoop) {
        self.bind(&looping.pat);
        visit::visit_expr_for_loop(self, looping);
    }

    fn visit_expr_let(&mut self, condition: &'ast syn::ExprLet) {
        self.bind(&condition.pat);
        visit::visit_expr_let(self, condition);
    }

    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        for input in &closure.inputs {
            self.bind(input);
        }
        visit::visit_expr_closure(self, closure);
    }
}

struct Arms<'m> {
    machine: &'m Ident,
    /// Per block around, the names its `let`s so far bind, each with whether its last such
    /// `let` is a pick `remade` takes (`remade::borrow_pick`).
    lets: Vec<BTreeMap<String, bool>>,
    /// `InPatterns`: a name one of those binds may not be the `let`'s where it is read, but
    /// where the one pattern binding it is the arm's own, which reads the `let`'s.
    in_patterns: BTreeMap<String, usize>,
}

impl VisitMut for Arms<'_> {
    fn visit_block_mut(&mut self, block: &mut Block) {
        self.lets.push(BTreeMap::new());
        for stmt in &mut block.stmts {
            self.visit_stmt_mut(stmt);
            if let Stmt::Local(local) = stmt
                && let Some(lets) = self.lets.last_mut()
            {
                let picked = local
                    .init
                    .as_ref()
                    .is_some_and(|init| init.diverge.is_none() && borrow_pick(&init.expr));
                for binding in pattern_bindings(&local.pat) {
                    lets.insert(binding.ident.to_string(), picked);
                }
            }
        }
        self.lets.pop();
    }

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
                let arms_bind: Vec<bool> = matched
                    .arms
                    .iter()
                    .map(|arm| !pattern_bindings(&arm.pat).is_empty())
                    .collect();
                for (at, arm) in matched.arms.iter_mut().enumerate() {
                    let stmts = arm_stmts(&arm.body);
                    // Another arm's binding by value would move from the local where this arm
                    // is not taken, as rustc sees it, unless the local is a borrow, a copy.
                    let others_bind = arms_bind
                        .iter()
                        .enumerate()
                        .any(|(other, binds)| other != at && *binds);
                    let copied = arm.guard.is_none()
                        && (!others_bind || self.picked(&matched.expr, &arm.pat))
                        && copies_a_local(&arm.pat, &matched.expr, &stmts);
                    let local = if copied {
                        let (pat, scrutinee) = (&arm.pat, &matched.expr);
                        Some(syn::parse_quote! { let #pat = #scrutinee; })
                    } else {
                        self.rebinding(&arm.pat, &matched.expr, &stmts)
                    };
                    let Some(local) = local else {
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
    /// Whether `scrutinee` names a local whose last `let` is a pick `remade` takes, read by
    /// the arm, `if let` or `while let` that binds `pat`.
    fn picked(&self, scrutinee: &Expr, pat: &Pat) -> bool {
        let Expr::Path(path) = scrutinee else {
            return false;
        };
        let Some(name) = path.path.get_ident().map(|name| name.to_string()) else {
            return false;
        };
        let bound_here = pattern_bindings(pat)
            .iter()
            .any(|binding| binding.ident == name);
        let in_patterns = self.in_patterns.get(&name).copied().unwrap_or(0);
        (in_patterns == 0 || in_patterns == 1 && bound_here)
            && self
                .lets
                .iter()
                .rev()
                .find_map(|lets| lets.get(&name))
                .is_some_and(|picked| *picked)
    }

    /// `let pat = scrutinee else { lost };` for the arm whose body is `stmts`, if `rebinds`;
    /// a plain `let` where the pattern cannot fail.
    fn rebinding(&self, pat: &Pat, scrutinee: &Expr, stmts: &[Stmt]) -> Option<Stmt> {
        let picked = borrow_pick(scrutinee) || self.picked(scrutinee, pat);
        if !(picked && binds_held(pat, stmts)) {
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
/// ask of `stmts` outlives them. `borrowed::check` leaves such an arm to `remade`. One on a
/// local such a pick binds (`let first = items.first(); match first { .. }`) is bound again
/// too (`Arms::picked`).
pub(crate) fn rebinds(pat: &Pat, scrutinee: &Expr, stmts: &[Stmt]) -> bool {
    borrow_pick(scrutinee) && binds_held(pat, stmts)
}

/// Whether `pat` binds, as `rebinding_pattern` allows, names that an ask of `stmts` outlives.
fn binds_held(pat: &Pat, stmts: &[Stmt]) -> bool {
    let bindings = pattern_bindings(pat);
    !bindings.is_empty() && rebinding_pattern(pat) && held_across_an_ask(&bindings, stmts)
}

/// Whether the arm that binds `pat` from `scrutinee` and runs `stmts` binds a name alone to a
/// local named alone, which an ask of `stmts` outlives: `match name { "" => .., n => { ask;
/// use(n) } }`. Bound again as a copy in a `let`, it is made again where `name` is
/// (`remade::copy_of_made`), and saved where not, as the arm's binding would have been. An arm
/// with a guard keeps its binding, which would then have moved the local already.
fn copies_a_local(pat: &Pat, scrutinee: &Expr, stmts: &[Stmt]) -> bool {
    let local = matches!(scrutinee, Expr::Path(path)
    if path.qself.is_none() && path.path.get_ident().is_some_and(|name| {
        name.to_string().starts_with(|c: char| c.is_lowercase() || c == '_')
    }));
    let Pat::Ident(binding) = pat else {
        return false;
    };
    local
        && plain_pattern(pat)
        && !binding.ident.to_string().starts_with(char::is_uppercase)
        && held_across_an_ask(&pattern_bindings(pat), stmts)
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
/// guard reads): the arm is still taken as before, and binds nothing its body reads. `scopes`
/// unbinds so the copies of a `let` made again that a folded region hands out.
pub(crate) fn unbind(pat: &mut Pat, kept: &BTreeSet<String>) {
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
            // A local bound alone by an arm, copied in a `let`: no other arm binds, or the
            // local is a pick's, a borrow.
            (
                format!("{{ match name {{ \"\" => 0, n => {{ {ASK} f(n) }} }} }}"),
                "{matchname{\"\"=>0,_=>{letn=name;",
            ),
            (
                format!(
                    "{{ let name = text.trim(); match name {{ n if n.is_empty() => 0, n => {{ {ASK} f(n) }} }} }}"
                ),
                "{letname=text.trim();matchname{nifn.is_empty()=>0,_=>{letn=name;",
            ),
            // On a local a pick binds, taken apart: bound again from the local, which is made
            // again itself; also where the pattern takes the local's name.
            (
                format!(
                    "{{ let first = items.first(); match first {{ Some(f) => {{ {ASK} g(f) }} None => 0 }} }}"
                ),
                "{letfirst=items.first();matchfirst{Some(_)=>{#[allow(irrefutable_let_patterns)]letSome(f)=firstelse{m.lost().await};",
            ),
            (
                format!(
                    "{{ let first = items.first(); if let Some(first) = first {{ {ASK} g(first); }} }}"
                ),
                "{letfirst=items.first();ifletSome(_)=first{#[allow(irrefutable_let_patterns)]letSome(first)=firstelse{m.lost().await};",
            ),
            (
                format!(
                    "{{ let hit = items.iter().enumerate().find(|(_, s)| s.is_empty()); if let Some((at, w)) = hit {{ {ASK} g(at, w); }} }}"
                ),
                "{lethit=items.iter().enumerate().find(|(_,s)|s.is_empty());ifletSome((_,_))=hit{#[allow(irrefutable_let_patterns)]letSome((at,w))=hitelse",
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
            // A local copied by an arm, where another arm binds by value from it, with a
            // guard, or named by another pattern too.
            format!("{{ match name {{ Some(x) => x, n => {{ {ASK} f(n) }} }} }}"),
            format!("{{ match name {{ n if n.ok() => {{ {ASK} f(n) }} _ => 0 }} }}"),
            format!(
                "{{ let name = text.trim(); for name in all {{ match name {{ m if m.ok() => 0, n => {{ {ASK} f(n) }} }} }} }}"
            ),
            // A local that is not a pick's, or whose name another pattern binds too.
            format!("{{ let first = make(); if let Some(f) = first {{ {ASK} g(f); }} }}"),
            format!(
                "{{ let first = items.first(); for first in all {{ if let Some(f) = first {{ {ASK} g(f); }} }} }}"
            ),
            format!(
                "{{ let first = items.first(); if let Some(first) = first {{ {ASK} g(first); }} if let Some(first) = other {{ g(first); }} }}"
            ),
        ] {
            let before: Block = syn::parse_str(&block).unwrap();
            let before = before.to_token_stream().to_string().replace(' ', "");
            assert_eq!(rebound(&block), before, "{block}");
        }
    }
}

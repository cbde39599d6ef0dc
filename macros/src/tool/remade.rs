//! Part of stage 3: a `let` that only borrows from what the tool holds is made again on every
//! round rather than saved, as a re-created closure is.
//!
//! ```text
//! let t = text.trim();              let t = ::mrtr::__private::remade(text.trim());
//! let a = ask!(q)..;         =>     let a = ask!(q)..;
//! use(t, a);                        use(t, a);
//! ```
//!
//! A borrow cannot be saved, but what it borrows from can: on resume `text` is restored, and
//! the `let` runs again. While `t` lives, Rust's borrow rules keep `text` as it was, so `t` is
//! made again equal. The value must be a pure read: a reference to a held place (`&user.name`,
//! `&items[0]`, `&text[1..]`) or one of a few methods that pick a borrow out of one
//! (`REMADE_PICKS`, told by name), then only the unwrapping methods (`UNWRAPPING`) or `?`. Its
//! arguments only read (`steady`); the place's root a local or a parameter, not
//! `self`, whose fields may differ on the instance that takes the retry. What else must hold is
//! in `remade_here`. Lowering, scope narrowing and liveness then take it as they take a
//! re-created closure: not saved, and reading it reads what it reads (`syntax::captures_in`).
//! Any other borrowing `let` is left alone, and lowering says how to hold an owned value.

use std::collections::{BTreeMap, BTreeSet};

use quote::ToTokens;
use syn::{
    Block, Expr, Ident, Local, Pat, Stmt, parse_quote_spanned,
    spanned::Spanned,
    visit::{self, Visit},
    visit_mut::{self, VisitMut},
};

use super::borrowed_items::{KEEPING, borrowing_items};
use super::macro_reads::macro_names;
use super::moved_fields::consumes_receiver;
use super::remade_closures;
use super::syntax::{
    Binding, asks_in_block, asks_in_expr, asks_in_stmt, assigned_place, is_assign_op, macro_items,
    names_in_expr, names_in_stmt, pattern_bindings, pattern_binds, private_call, root_ident,
};
use super::{
    idents,
    syntax::{borrowed_type, made_every_round, revisits_items},
};

/// Methods that pick a borrow out of what they are called on, and run none of the user's code.
pub(crate) const REMADE_PICKS: &[&str] = &[
    "as_str",
    "as_slice",
    "as_bytes",
    "as_deref",
    "as_ref",
    "as_path",
    "trim",
    "trim_start",
    "trim_end",
    "trim_matches",
    "trim_start_matches",
    "trim_end_matches",
    "first",
    "last",
    "get",
    "split_first",
    "split_last",
    "split_once",
    "rsplit_once",
    "strip_prefix",
    "strip_suffix",
];

/// Methods that take the borrow out of an `Option` or `Result`, with arguments as a pick's.
const UNWRAPPING: &[&str] = &[
    "unwrap",
    "expect",
    "unwrap_or",
    "unwrap_or_default",
    "ok_or",
];

/// `parameters` are the names the function's parameters bind.
pub(crate) fn remake_borrows(body: &mut Block, parameters: BTreeSet<String>) {
    Remake {
        levels: Vec::new(),
        made_levels: Vec::new(),
        made: BTreeSet::new(),
        kept: 0,
        parameters,
    }
    .visit_block_mut(body);
    // A name bound more than once stays made again only where every such binding is made
    // again from the same names: what reading it reads is then the same, whichever it is.
    let mut bound = Bound(BTreeMap::new());
    bound.visit_block(body);
    let mixed: BTreeSet<String> = bound
        .0
        .into_iter()
        .filter(|(name, sites)| {
            // One made again from what `keep_shadowed` hid reads what no other can move; one
            // made again from the old binding of its own name reads that binding.
            let sites: Vec<_> = sites
                .iter()
                .filter(|site| {
                    !site.as_ref().is_some_and(|reads| {
                        reads
                            .iter()
                            .all(|read| idents::is_kept(read) || read == name)
                    })
                })
                .collect();
            sites.iter().any(|site| site.is_some())
                && sites.len() > 1
                && !sites.iter().all(|site| site.is_some() && *site == sites[0])
        })
        .map(|(name, _)| name)
        .collect();
    if !mixed.is_empty() {
        Unmark(&mixed).visit_block_mut(body);
    }
}

/// Each binding of a name where an ask may outlive it, with what it reads if it is of a `let`
/// made again, by name. What a `let` made again reads is known by its name
/// (`syntax::captures_in`), so the other bindings of its name must read the same, or a later
/// local of the name would keep alive what it reads, maybe moved by then. A binding in a
/// block, arm or loop body that holds no ask is not counted: no statement of a block that asks
/// reads it unbound (`names_in_stmt`), as Rust scopes it within one of that block's statements.
struct Bound(BTreeMap<String, Vec<Option<BTreeSet<String>>>>);

impl<'ast> Visit<'ast> for Bound {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        self.0.entry(pat.ident.to_string()).or_default().push(None);
        visit::visit_pat_ident(self, pat);
    }

    fn visit_local(&mut self, local: &'ast Local) {
        let Some(init) = local.init.as_ref().filter(|_| remade_let(local)) else {
            return visit::visit_local(self, local);
        };
        let reads = names_in_expr(&init.expr);
        for binding in pattern_bindings(&local.pat) {
            let sites = self.0.entry(binding.ident.to_string()).or_default();
            sites.push(Some(reads.clone()));
        }
        self.visit_expr(&init.expr);
        if let Some((_, otherwise)) = &init.diverge {
            self.visit_expr(otherwise);
        }
    }

    fn visit_block(&mut self, block: &'ast Block) {
        if !asks_in_block(block).is_empty() {
            visit::visit_block(self, block);
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        let guard = arm.guard.as_ref().map(|(_, guard)| &**guard);
        if guard
            .into_iter()
            .chain([&*arm.body])
            .any(|e| !asks_in_expr(e).is_empty())
        {
            visit::visit_arm(self, arm);
        }
    }

    fn visit_expr_if(&mut self, branch: &'ast syn::ExprIf) {
        match &*branch.cond {
            Expr::Let(cond) if asks_in_block(&branch.then_branch).is_empty() => {
                self.visit_expr(&cond.expr);
                if let Some((_, otherwise)) = &branch.else_branch {
                    self.visit_expr(otherwise);
                }
            }
            _ => visit::visit_expr_if(self, branch),
        }
    }

    fn visit_expr_while(&mut self, looping: &'ast syn::ExprWhile) {
        match &*looping.cond {
            Expr::Let(cond) if asks_in_block(&looping.body).is_empty() => {
                self.visit_expr(&cond.expr)
            }
            _ => visit::visit_expr_while(self, looping),
        }
    }

    fn visit_expr_for_loop(&mut self, looping: &'ast syn::ExprForLoop) {
        if asks_in_block(&looping.body).is_empty() {
            self.visit_expr(&looping.expr);
        } else {
            visit::visit_expr_for_loop(self, looping);
        }
    }

    // A closure asks nothing, and its parameters are read in it only.
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
}

/// Puts a value in place of a local read by a value made again, but not where a closure's
/// parameter binds its name. `clash` is set where it would put it inside a closure whose
/// parameter binds a name the value reads, which would then read the parameter.
struct Rename<'a> {
    from: &'a Ident,
    to: &'a Expr,
    /// The names `to` reads.
    reads: BTreeSet<String>,
    /// The names bound by the parameters of the closures around.
    bound: Vec<String>,
    clash: bool,
}

impl<'a> Rename<'a> {
    fn new(from: &'a Ident, to: &'a Expr) -> Self {
        Rename {
            from,
            to,
            reads: names_in_expr(to),
            bound: Vec::new(),
            clash: false,
        }
    }
}

impl VisitMut for Rename<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        match expr {
            Expr::Path(path) if path.qself.is_none() && path.path.is_ident(self.from) => {
                self.clash |= self.bound.iter().any(|name| self.reads.contains(name));
                *expr = self.to.clone();
            }
            _ => visit_mut::visit_expr_mut(self, expr),
        }
    }

    fn visit_expr_closure_mut(&mut self, closure: &mut syn::ExprClosure) {
        let bound: Vec<String> = closure
            .inputs
            .iter()
            .flat_map(pattern_bindings)
            .map(|b| b.ident.to_string())
            .collect();
        if bound.contains(&self.from.to_string()) {
            return;
        }
        let around = self.bound.len();
        self.bound.extend(bound);
        visit_mut::visit_expr_closure_mut(self, closure);
        self.bound.truncate(around);
    }
}

/// What `Remake::shadow_plan` changes: the `let` made again, the copies put before it, the
/// `let`s made again whose binding is named anew (at, old name, new name) and those read
/// through their value only, and how many hidden names it takes.
struct ShadowPlan {
    rebound: Local,
    copies: Vec<Stmt>,
    renamed: Vec<(usize, Ident, Ident)>,
    inlined: Vec<usize>,
    hidden: u32,
}

/// Names a binding of a pattern anew.
struct RenameBinding {
    from: Ident,
    to: Ident,
}

impl VisitMut for RenameBinding {
    fn visit_pat_ident_mut(&mut self, pat: &mut syn::PatIdent) {
        if pat.ident == self.from {
            pat.ident = self.to.clone();
        }
        visit_mut::visit_pat_ident_mut(self, pat);
    }
}

/// Whether `local`'s value is a borrow as one made again takes it (`text.trim()`), or its
/// type names a `&` other than `&'static`.
fn borrowing_let(local: &Local) -> bool {
    let typed = matches!(&local.pat, Pat::Type(typed) if borrowed_type(&typed.ty));
    typed
        || local
            .init
            .as_ref()
            .is_some_and(|init| borrow_pick(&init.expr))
}

/// The last `let` of `stmts` that binds `name`, and where it stands.
pub(crate) fn last_binding<'s>(stmts: &'s [Stmt], name: &Ident) -> Option<(usize, &'s Local)> {
    stmts
        .iter()
        .enumerate()
        .rev()
        .find_map(|(at, stmt)| match stmt {
            Stmt::Local(local) if pattern_binds(&local.pat, &name.to_string()) => Some((at, local)),
            _ => None,
        })
}

struct Remake {
    /// The names bound around the block being walked, a set per level: by the `let`s of each
    /// enclosing block before it, and by the pattern of each enclosing arm or `if let`.
    levels: Vec<BTreeSet<String>>,
    /// Per level of `levels`, the names whose last binding there is a `let` made again.
    made_levels: Vec<BTreeSet<String>>,
    /// The names of the `let`s marked so far.
    made: BTreeSet<String>,
    /// How many locals `keep_shadowed` has hidden so far.
    kept: u32,
    /// The names the function's parameters bind. The client sends them again on every round
    /// and they cannot be `mut`, so a `let` in any block may read one it binds again in place.
    parameters: BTreeSet<String>,
}

impl Remake {
    /// Whether each name `local` reads is bound at one level only around it. Reading the
    /// `let`'s bindings reads those names, whichever binding of each: one bound in a branch
    /// (`Some(x) =>`, or `x = ..` given anew there) over another of an enclosing block, maybe
    /// moved, would keep that other alive (seed 1224). `let`s of one block that bind a name
    /// again one after the other are one level: each ends the one before.
    fn sources_known(&self, local: &Local) -> bool {
        let Some(init) = &local.init else {
            return false;
        };
        names_in_expr(&init.expr).iter().all(|name| {
            self.levels
                .iter()
                .filter(|level| level.contains(name))
                .count()
                <= 1
        })
    }

    /// `let name = name.trim();` at `stmts[index]`, which borrows from the name it binds, made
    /// again without reading its own name, where each name it binds again was bound by an
    /// earlier `let` of this block, or is a parameter read in the function's own block (nothing
    /// after the block can read the old one, so it may be moved):
    /// - what the old `name` holds is moved under a hidden name, saved, and the `let` made again
    ///   from that: `let __mrtr_kept1 = name; let name = __mrtr_kept1.trim();`;
    /// - a loop's borrowed item is copied so, and the copy made again too;
    /// - an old `name` that is itself made again (`let name = text.trim();`, `Some(name) =>`)
    ///   is bound under the hidden name there, if nothing reads it before; else, if bound by
    ///   a name alone, read through its value:
    ///   `let name = text.trim().strip_suffix('!').unwrap_or(text.trim());`.
    ///
    /// Returns how many `let`s it put before the one made again.
    fn keep_shadowed(&mut self, stmts: &mut Vec<Stmt>, index: usize) -> usize {
        let Stmt::Local(local) = &stmts[index] else {
            return 0;
        };
        let Some(init) = local.init.as_ref().filter(|_| !remade_let(local)) else {
            return 0;
        };
        let reads = names_in_expr(&init.expr);
        let shadowed: Vec<Ident> = pattern_bindings(&local.pat)
            .into_iter()
            .map(|b| b.ident)
            .filter(|ident| reads.contains(&ident.to_string()))
            .collect();
        let Some(level) = self.levels.last() else {
            return 0;
        };
        let outermost = self.levels.len() == 1;
        let ours = |name: &String| {
            level.contains(name) || outermost && !self.levels.iter().any(|l| l.contains(name))
        };
        if shadowed.is_empty() || !shadowed.iter().all(|ident| ours(&ident.to_string())) {
            return 0;
        }
        let fields = borrowed_fields(&init.expr);
        // A closure, a value made again or a borrow (`&name`, `name.as_str()`) that reads the
        // old one, and is used from here on, keeps it borrowed: it cannot be moved.
        let borrowed = stmts[..index].iter().any(|stmt| {
            let Stmt::Local(earlier) = stmt else {
                return false;
            };
            let borrows = earlier.init.as_ref().is_some_and(|init| {
                let reads = names_in_expr(&init.expr);
                let read = shadowed
                    .iter()
                    .any(|name| reads.contains(&name.to_string()));
                read && (made_every_round(earlier) || borrow_pick(&init.expr))
            });
            borrows && !uses(&pattern_bindings(&earlier.pat), &stmts[index..]).is_empty()
        });
        if borrowed
            || stmts[..index]
                .iter()
                .any(|stmt| moves_other_fields(stmt, &fields))
        {
            return 0;
        }
        let Some(plan) = [false, true]
            .into_iter()
            .find_map(|inline| self.shadow_plan(stmts, index, &shadowed, inline))
        else {
            return 0;
        };
        for (at, from, to) in plan.renamed {
            if let Stmt::Local(earlier) = &mut stmts[at] {
                RenameBinding { from, to }.visit_pat_mut(&mut earlier.pat);
            }
        }
        // Read through its value only, the old one is not read by name.
        for at in plan.inlined {
            if let Stmt::Local(earlier) = &mut stmts[at] {
                earlier
                    .attrs
                    .push(parse_quote_spanned!(earlier.pat.span()=> #[allow(unused_variables)]));
            }
        }
        self.kept += plan.hidden;
        let kept = plan.copies.len();
        stmts[index] = Stmt::Local(plan.rebound);
        stmts.splice(index..index, plan.copies);
        kept
    }

    /// How `keep_shadowed` makes `stmts[index]` again without reading the names `shadowed`:
    /// an old one made again is named anew, or, with `inline` or where it is read before, read
    /// through its value. `None` if the `let` is still not one made again.
    fn shadow_plan(
        &self,
        stmts: &[Stmt],
        index: usize,
        shadowed: &[Ident],
        inline: bool,
    ) -> Option<ShadowPlan> {
        let Stmt::Local(local) = &stmts[index] else {
            return None;
        };
        let mut plan = ShadowPlan {
            rebound: local.clone(),
            copies: Vec::new(),
            renamed: Vec::new(),
            inlined: Vec::new(),
            hidden: 0,
        };
        for name in shadowed {
            let last = last_binding(&stmts[..index], name);
            let (at, earlier) = (last.map(|(at, _)| at), last.map(|(_, local)| local));
            let read_between = at.is_some_and(|at| {
                stmts[at + 1..index]
                    .iter()
                    .any(|stmt| names_in_stmt(stmt).contains(&name.to_string()))
            });
            let hidden = |plan: &mut ShadowPlan| {
                plan.hidden += 1;
                idents::kept(self.kept + plan.hidden, name.span())
            };
            let value: Expr = match (earlier.filter(|e| remade_let(e)), at) {
                // Made again, and read nowhere before: its binding is named anew.
                (Some(_), Some(at)) if !inline && !read_between => {
                    let hidden = hidden(&mut plan);
                    plan.renamed.push((at, name.clone(), hidden.clone()));
                    parse_quote_spanned!(name.span()=> #hidden)
                }
                // Made again: read through its value.
                (Some(made), Some(at)) => {
                    if !read_between {
                        plan.inlined.push(at);
                    }
                    Expr::Paren(syn::ExprParen {
                        attrs: Vec::new(),
                        paren_token: Default::default(),
                        expr: Box::new(made_value(made)?),
                    })
                }
                _ if earlier.is_some_and(|e| made_every_round(e) && !revisits_items(e)) => {
                    return None;
                }
                // A borrow that is not made again: a copy of it could not be saved either.
                _ if earlier.is_some_and(|e| !revisits_items(e) && borrowing_let(e)) => {
                    return None;
                }
                _ => {
                    let hidden = hidden(&mut plan);
                    let mut copy = Local {
                        attrs: Vec::new(),
                        let_token: Default::default(),
                        pat: parse_quote_spanned!(name.span()=> #hidden),
                        init: Some(syn::LocalInit {
                            eq_token: Default::default(),
                            expr: Box::new(parse_quote_spanned!(name.span()=> #name)),
                            diverge: None,
                        }),
                        semi_token: Default::default(),
                    };
                    if earlier.is_some_and(revisits_items) {
                        mark(&mut copy);
                    }
                    plan.copies.push(Stmt::Local(copy));
                    parse_quote_spanned!(name.span()=> #hidden)
                }
            };
            if let Some(init) = &mut plan.rebound.init {
                let mut rename = Rename::new(name, &value);
                rename.visit_expr_mut(&mut init.expr);
                if rename.clash {
                    return None;
                }
            }
        }
        let init = plan.rebound.init.as_ref()?;
        let reads = names_in_expr(&init.expr);
        let still_read = shadowed
            .iter()
            .any(|name| reads.contains(&name.to_string()));
        if still_read
            || !self.sources_known(&plan.rebound)
            || !remade_here(
                &stmts[..index],
                &plan.rebound,
                &stmts[index + 1..],
                &self.made,
                &self.made_outside(),
                &BTreeSet::new(),
            )
        {
            return None;
        }
        mark(&mut plan.rebound);
        Some(plan)
    }

    /// The names `local` binds again from their old values (`let name = name.trim();`) where
    /// each old one is bound around the block being walked and not in it: lowering saves it
    /// at the asks that follow (through a hidden name, or a snapshot taken before `local`),
    /// and the `let` made again reads it in place. So may one that is a parameter's, bound
    /// by no `let` or pattern around: it is the same on every round.
    fn shadowed_outside(&self, local: &Local) -> BTreeSet<String> {
        let (Some(init), Some(level)) = (&local.init, self.levels.last()) else {
            return BTreeSet::new();
        };
        let reads = names_in_expr(&init.expr);
        let outer = &self.levels[..self.levels.len() - 1];
        let shadowed: BTreeSet<String> = pattern_bindings(&local.pat)
            .into_iter()
            .map(|b| b.ident.to_string())
            .filter(|name| reads.contains(name))
            .collect();
        let outside = |name: &String| {
            !level.contains(name)
                && (outer.iter().any(|l| l.contains(name)) || self.parameters.contains(name))
        };
        match shadowed.iter().all(outside) {
            true => shadowed,
            false => BTreeSet::new(),
        }
    }

    /// The names whose binding nearest around the block being walked, outside it, is a `let`
    /// made again.
    fn made_outside(&self) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut made = BTreeSet::new();
        let outer = self.levels.len().saturating_sub(1);
        for (level, made_there) in self.levels[..outer]
            .iter()
            .zip(&self.made_levels[..outer])
            .rev()
        {
            for name in level {
                if seen.insert(name.clone()) && made_there.contains(name) {
                    made.insert(name.clone());
                }
            }
        }
        made
    }

    fn within(&mut self, names: BTreeSet<String>, walk: impl FnOnce(&mut Self)) {
        self.levels.push(names);
        self.made_levels.push(BTreeSet::new());
        walk(self);
        self.levels.pop();
        self.made_levels.pop();
    }
}

impl VisitMut for Remake {
    fn visit_block_mut(&mut self, block: &mut Block) {
        self.levels.push(BTreeSet::new());
        self.made_levels.push(BTreeSet::new());
        // The levels around stay as they are while this block is walked.
        let outside = self.made_outside();
        let mut next = 0;
        while next < block.stmts.len() {
            let index = next;
            self.visit_stmt_mut(&mut block.stmts[index]);
            let kept = self.keep_shadowed(&mut block.stmts, index);
            next = index + kept + 1;
            if kept > 0 {
                for stmt in &block.stmts[index..=index + kept] {
                    if let (Stmt::Local(local), Some(level)) = (stmt, self.levels.last_mut()) {
                        let names = pattern_bindings(&local.pat);
                        level.extend(names.iter().map(|b| b.ident.to_string()));
                    }
                }
                if let Stmt::Local(local) = &block.stmts[index + kept] {
                    let names: Vec<String> = pattern_bindings(&local.pat)
                        .iter()
                        .map(|b| b.ident.to_string())
                        .collect();
                    self.made.extend(names.iter().cloned());
                    if let Some(made) = self.made_levels.last_mut() {
                        made.extend(names);
                    }
                }
                continue;
            }
            let (made, later) = block.stmts.split_at_mut(index + 1);
            let (earlier, made) = made.split_at_mut(index);
            let Stmt::Local(local) = &mut made[0] else {
                continue;
            };
            let names: Vec<String> = pattern_bindings(&local.pat)
                .into_iter()
                .map(|b| b.ident.to_string())
                .collect();
            let outer_reads = self.shadowed_outside(local);
            if !remade_let(local)
                && self.sources_known(local)
                && remade_here(earlier, local, later, &self.made, &outside, &outer_reads)
            {
                mark(local);
                self.made.extend(names.iter().cloned());
            }
            if let Some(made) = self.made_levels.last_mut() {
                for name in &names {
                    match remade_let(local) {
                        true => made.insert(name.clone()),
                        false => made.remove(name),
                    };
                }
            }
            if let Some(level) = self.levels.last_mut() {
                level.extend(names);
            }
        }
        self.levels.pop();
        self.made_levels.pop();
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        let names = pattern_bindings(&arm.pat)
            .into_iter()
            .map(|b| b.ident.to_string())
            .collect();
        self.within(names, |this| visit_mut::visit_arm_mut(this, arm));
    }

    fn visit_expr_if_mut(&mut self, branch: &mut syn::ExprIf) {
        let Expr::Let(cond) = &mut *branch.cond else {
            return visit_mut::visit_expr_if_mut(self, branch);
        };
        self.visit_expr_mut(&mut cond.expr);
        let names = pattern_bindings(&cond.pat)
            .into_iter()
            .map(|b| b.ident.to_string())
            .collect();
        self.within(names, |this| this.visit_block_mut(&mut branch.then_branch));
        if let Some((_, otherwise)) = &mut branch.else_branch {
            self.visit_expr_mut(otherwise);
        }
    }

    // Closures, async blocks and items hold no ask points.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// Whether `local`, between `earlier` and `later` in its block, is made again on resume: it
/// borrows as `remade_value` takes it, an ask follows, and it binds no name it reads; not a
/// `let` mrtr wrote. While its bindings are used (`last_use`), no later statement may bind
/// again a name it reads, nor change a local it passes as an argument: on resume it would read
/// another. If it may fail, no statement may change what it reads before a later ask either:
/// it runs again on resume there, even with its bindings dead. A field it borrows (`&p.name`)
/// must be of a local none of whose other fields the block may have moved before: the local
/// must be whole to be saved.
fn remade_here(
    earlier: &[Stmt],
    local: &Local,
    later: &[Stmt],
    made: &BTreeSet<String>,
    made_outside: &BTreeSet<String>,
    outer_reads: &BTreeSet<String>,
) -> bool {
    let Some(init) = &local.init else {
        return false;
    };
    let mut arguments = Vec::new();
    if !(remade_shape(local, &mut arguments, made)
        || copy_of_made(earlier, local, made_outside)
        || chosen_of_made(earlier, local, made_outside, &mut arguments))
        || later.iter().all(|stmt| asks_in_stmt(stmt).is_empty())
    {
        return false;
    }
    let reads = names_in_expr(&init.expr);
    let bound = pattern_bindings(&local.pat);
    // Only the user's own `let`s: an operand computed before its statement's ask goes into
    // what the statement makes, which may hold it past the ask, and lowering says to pass an
    // owned value there.
    let generated = |ident: &Ident| ident.to_string().starts_with("__mrtr");
    if bound.iter().any(|b| {
        let name = b.ident.to_string();
        reads.contains(&name) && !outer_reads.contains(&name) || generated(&b.ident)
    }) {
        return false;
    }
    let fields = borrowed_fields(&init.expr);
    if earlier.iter().any(|stmt| moves_other_fields(stmt, &fields)) {
        return false;
    }
    let used = last_use(&bound, later);
    let mut during = Later {
        reads: &reads,
        watched: &arguments,
        found: false,
    };
    for stmt in &later[..used.map_or(0, |last| last + 1)] {
        during.visit_stmt(stmt);
    }
    if during.found {
        return false;
    }
    if !fallible(&init.expr) && init.diverge.is_none() {
        return true;
    }
    let all: Vec<String> = reads.iter().cloned().collect();
    let last_ask = later
        .iter()
        .rposition(|stmt| !asks_in_stmt(stmt).is_empty());
    let mut changed = Later {
        reads: &BTreeSet::new(),
        watched: &all,
        found: false,
    };
    for stmt in &later[..last_ask.map_or(0, |last| last + 1)] {
        changed.visit_stmt(stmt);
    }
    !changed.found
}

/// The last of `later` that uses one of `bound` (`uses`).
fn last_use(bound: &[Binding], later: &[Stmt]) -> Option<usize> {
    uses(bound, later).pop()
}

/// The positions in `stmts` of those that name one of `bound`, or what a `let` among them
/// makes from them.
pub(crate) fn uses(bound: &[Binding], stmts: &[Stmt]) -> Vec<usize> {
    let mut names: BTreeSet<String> = bound.iter().map(|b| b.ident.to_string()).collect();
    let mut found = Vec::new();
    for (index, stmt) in stmts.iter().enumerate() {
        let read = names_in_stmt(stmt);
        if names.iter().any(|name| read.contains(name)) {
            found.push(index);
            if let Stmt::Local(made) = stmt {
                names.extend(
                    pattern_bindings(&made.pat)
                        .iter()
                        .map(|b| b.ident.to_string()),
                );
            }
        }
    }
    found
}

/// The fields a value borrows, by their local: `(p, name)` for `&p.name` or `p.name.trim()`.
fn borrowed_fields(expr: &Expr) -> Vec<(String, String)> {
    struct Fields(Vec<(String, String)>);
    impl<'ast> Visit<'ast> for Fields {
        fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
            self.0.extend(local_field(field));
            visit::visit_expr_field(self, field);
        }
    }
    let mut fields = Fields(Vec::new());
    fields.visit_expr(expr);
    fields.0
}

/// `(p, name)` for `p.name`, a field of a local named plainly.
fn local_field(field: &syn::ExprField) -> Option<(String, String)> {
    let Expr::Path(path) = &*field.base else {
        return None;
    };
    let root = path.path.get_ident()?;
    Some((root.to_string(), field.member.to_token_stream().to_string()))
}

/// Whether `stmt` may move a field of one of the locals of `fields` other than the one
/// borrowed: passes it by value to a call, a `let`, an assignment, a `return`, a struct, array,
/// tuple or `vec!`, or calls a method of std that takes its receiver by value on it
/// (`moved_fields::consumes_receiver`).
fn moves_other_fields(stmt: &Stmt, fields: &[(String, String)]) -> bool {
    struct Moves<'a>(&'a [(String, String)], bool);
    impl Moves<'_> {
        fn check(&mut self, value: &Expr) {
            let mut value = value;
            while let Expr::Paren(inner) = value {
                value = &inner.expr;
            }
            if let Expr::Field(field) = value
                && let Some((root, member)) = local_field(field)
            {
                self.1 |= self.0.iter().any(|(r, m)| *r == root && *m != member);
            }
        }
    }
    impl<'ast> Visit<'ast> for Moves<'_> {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            match expr {
                Expr::Call(call) => call.args.iter().for_each(|arg| self.check(arg)),
                Expr::MethodCall(call) => {
                    call.args.iter().for_each(|arg| self.check(arg));
                    if consumes_receiver(&call.method) {
                        self.check(&call.receiver);
                    }
                }
                Expr::Assign(assign) => self.check(&assign.right),
                Expr::Return(ret) => ret.expr.iter().for_each(|value| self.check(value)),
                Expr::Break(ret) => ret.expr.iter().for_each(|value| self.check(value)),
                Expr::Struct(made) => made.fields.iter().for_each(|f| self.check(&f.expr)),
                Expr::Array(array) => array.elems.iter().for_each(|e| self.check(e)),
                Expr::Tuple(tuple) => tuple.elems.iter().for_each(|e| self.check(e)),
                Expr::Macro(mac) if mac.mac.path.is_ident("vec") => {
                    for item in macro_items(&mac.mac).into_iter().flatten() {
                        self.check(&item);
                    }
                }
                _ => {}
            }
            visit::visit_expr(self, expr);
        }

        fn visit_local(&mut self, local: &'ast Local) {
            if let Some(init) = &local.init {
                self.check(&init.expr);
            }
            visit::visit_local(self, local);
        }
    }
    if fields.is_empty() {
        return false;
    }
    let mut moves = Moves(fields, false);
    moves.visit_stmt(stmt);
    moves.1
}

/// Whether a value `remade_value` takes may fail, and so end a resumed round that the first
/// did not: `?`, `unwrap`, `expect`, indexing.
fn fallible(expr: &Expr) -> bool {
    struct Fallible(bool);
    impl<'ast> Visit<'ast> for Fallible {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            self.0 |= match expr {
                Expr::Try(_) | Expr::Index(_) => true,
                // Overflow, or a division by zero (not by a literal other than 0: `len() / 2`).
                Expr::Binary(binary) => match binary.op {
                    syn::BinOp::Add(_)
                    | syn::BinOp::Sub(_)
                    | syn::BinOp::Mul(_)
                    | syn::BinOp::Shl(_)
                    | syn::BinOp::Shr(_) => true,
                    syn::BinOp::Div(_) | syn::BinOp::Rem(_) => !matches!(
                        &*binary.right,
                        Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. })
                            if n.base10_parse::<u128>().is_ok_and(|n| n != 0)
                    ),
                    _ => false,
                },
                Expr::MethodCall(call) => {
                    ["unwrap", "expect"].contains(&call.method.to_string().as_str())
                }
                _ => false,
            };
            visit::visit_expr(self, expr);
        }
    }
    let mut fallible = Fallible(false);
    fallible.visit_expr(expr);
    fallible.0
}

/// The value of a `let` made again, as it was before `mark`; `None` for a `let .. else`, or
/// a pattern other than a name.
fn made_value(local: &Local) -> Option<Expr> {
    let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
    let named = match &local.pat {
        Pat::Ident(_) => true,
        Pat::Type(typed) => matches!(&*typed.pat, Pat::Ident(_)),
        _ => false,
    };
    let Expr::Call(call) = &*init.expr else {
        return None;
    };
    let mut value = call
        .args
        .first()
        .filter(|_| named && call.args.len() == 1)?
        .clone();
    AnyOrder.visit_expr_mut(&mut value);
    Some(value)
}

/// Takes back `mark` from the `let`s that bind one of its names.
struct Unmark<'a>(&'a BTreeSet<String>);

impl VisitMut for Unmark<'_> {
    fn visit_local_mut(&mut self, local: &mut Local) {
        let named = pattern_bindings(&local.pat)
            .iter()
            .any(|b| self.0.contains(&b.ident.to_string()));
        if named
            && remade_let(local)
            && let Some(init) = &mut local.init
            && let Expr::Call(call) = &mut *init.expr
            && let Some(value) = call.args.pop()
        {
            *init.expr = value.into_value();
            AnyOrder.visit_expr_mut(&mut init.expr);
        }
        visit_mut::visit_local_mut(self, local);
    }
}

fn mark(local: &mut Local) {
    if let Some(init) = &mut local.init {
        InOrder.visit_expr_mut(&mut init.expr);
        let value = &init.expr;
        let span = value.span();
        *init.expr = syn::parse_quote_spanned! {span=> ::mrtr::__private::remade(#value) };
    }
}

/// `items.iter()` as `::mrtr::__private::revisited(&items).iter()`: taken again on resume, an
/// item must come from a place read back in the same order, not a `HashMap` (`Revisit`).
struct InOrder;

impl VisitMut for InOrder {
    // A pick run in a closure takes no item from an iterator (`remade_closures`).
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}

    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        if borrowing_items(&call.method.to_string()) {
            let place = &call.receiver;
            let span = place.span();
            *call.receiver =
                syn::parse_quote_spanned! {span=> ::mrtr::__private::revisited(&#place) };
        } else {
            visit_mut::visit_expr_method_call_mut(self, call);
        }
    }
}

/// Takes `InOrder` back.
struct AnyOrder;

impl VisitMut for AnyOrder {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if private_call(expr).is_some_and(|names| names == ["revisited"])
            && let Expr::Call(call) = expr
            && let Some(Expr::Reference(place)) = call.args.first()
        {
            *expr = (*place.expr).clone();
        }
        visit_mut::visit_expr_mut(self, expr);
    }
}

/// Whether `local` has the shape of a `let` made again on resume, whatever its block does
/// later; the locals it passes as arguments go to `arguments`. A `let .. else` whose `else`
/// does not ask is one too (`remade_arms` writes them): made again, it matches again. So is a
/// copy out of a `let` of `made` (`let first = words[0];`, a `&str` of a `Vec<&str>`, or
/// `words.first().copied()`); and
/// `remade_here` takes a plain copy of one of its block too (`copy_of_made`).
fn remade_shape(local: &Local, arguments: &mut Vec<String>, made: &BTreeSet<String>) -> bool {
    local.init.as_ref().is_some_and(|init| {
        // `remade_arms` allows `irrefutable_let_patterns` on a `let .. else` it writes.
        let allows = local.attrs.iter().all(|attr| attr.path().is_ident("allow"));
        remade_pattern(local)
            && allows
            && (remade_value(&init.expr, arguments)
                || init.diverge.is_none() && copied_out(&init.expr, made, arguments))
    })
}

/// `let first = picked;`, a name bound plainly to another that the last `let` of `earlier`
/// binding it makes again, or, bound by none of them, one of `made_outside`: a copy of that
/// value, which may be a borrow. Or that value taken apart in a `let .. else` whose `else`
/// does not ask (`let Some(first) = picked else { .. };`, as `remade_arms` writes for an arm
/// on a picked local): made again, it matches again.
fn copy_of_made(earlier: &[Stmt], local: &Local, made_outside: &BTreeSet<String>) -> bool {
    let Some(init) = &local.init else {
        return false;
    };
    let Expr::Path(path) = &*init.expr else {
        return false;
    };
    let Some(source) = path.path.get_ident().filter(|_| path.qself.is_none()) else {
        return false;
    };
    let attrs = match &init.diverge {
        None => local.attrs.is_empty(),
        Some(_) => local.attrs.iter().all(|attr| attr.path().is_ident("allow")),
    };
    remade_pattern(local) && attrs && named_made(earlier, made_outside, source)
}

/// Whether the pattern of `local` may be made again: plain names, or, in a `let .. else`
/// whose `else` does not ask, a pattern `rebinding_pattern` takes.
fn remade_pattern(local: &Local) -> bool {
    match local.init.as_ref().and_then(|init| init.diverge.as_ref()) {
        None => plain_pattern(&local.pat),
        Some((_, otherwise)) => rebinding_pattern(&local.pat) && asks_in_expr(otherwise).is_empty(),
    }
}

/// Whether `source` names a `let` made again: the last of `earlier` binding it, or, with none,
/// the nearest around (`made_outside`).
fn named_made(earlier: &[Stmt], made_outside: &BTreeSet<String>, source: &Ident) -> bool {
    match last_binding(earlier, source) {
        Some((_, last)) => remade_let(last),
        None => made_outside.contains(&source.to_string()),
    }
}

/// `let shown = if name.is_empty() { "nobody" } else { name };`, or a `match` that chooses so
/// (`match name.len() { 0 => "nobody", _ => name }`): a test or scrutinee that only reads
/// (`steady`), arms whose patterns bind nothing and that have no guard, and branches that are
/// string literals, values `remade_value` takes, or names `copy_of_made` takes, one at least.
fn chosen_of_made(
    earlier: &[Stmt],
    local: &Local,
    made_outside: &BTreeSet<String>,
    arguments: &mut Vec<String>,
) -> bool {
    let Some(init) = local.init.as_ref().filter(|init| init.diverge.is_none()) else {
        return false;
    };
    let made_name = |value: &Expr| match value {
        Expr::Path(path) if path.qself.is_none() => path
            .path
            .get_ident()
            .is_some_and(|source| named_made(earlier, made_outside, source)),
        _ => false,
    };
    // Each branch: `Some(true)` for a name made again, `Some(false)` for another value that
    // may be chosen, `None` for one that may not.
    fn branch(
        value: &Expr,
        made_name: &dyn Fn(&Expr) -> bool,
        arguments: &mut Vec<String>,
    ) -> Option<bool> {
        let value = match value {
            Expr::Block(block) if block.attrs.is_empty() && block.label.is_none() => {
                only_value(&block.block)?
            }
            value => value,
        };
        match value {
            _ if made_name(value) => Some(true),
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(_),
                ..
            }) => Some(false),
            Expr::If(_) | Expr::Match(_) => chosen(value, made_name, arguments),
            _ if remade_value(value, arguments) => Some(false),
            _ => None,
        }
    }
    // `Some(true)` where a branch, at any depth, is a name made again.
    fn chosen(
        value: &Expr,
        made_name: &dyn Fn(&Expr) -> bool,
        arguments: &mut Vec<String>,
    ) -> Option<bool> {
        let mut names = false;
        match value {
            Expr::If(choice) => {
                let (_, otherwise) = choice.else_branch.as_ref()?;
                if matches!(&*choice.cond, Expr::Let(_)) || !steady(&choice.cond, arguments) {
                    return None;
                }
                names |= branch(only_value(&choice.then_branch)?, made_name, arguments)?;
                names |= branch(otherwise, made_name, arguments)?;
            }
            Expr::Match(choice) => {
                if !steady(&choice.expr, arguments) {
                    return None;
                }
                for arm in &choice.arms {
                    if arm.guard.is_some() || !pattern_bindings(&arm.pat).is_empty() {
                        return None;
                    }
                    names |= branch(&arm.body, made_name, arguments)?;
                }
            }
            _ => return None,
        }
        Some(names)
    }
    plain_pattern(&local.pat)
        && local.attrs.is_empty()
        && chosen(&init.expr, &made_name, arguments) == Some(true)
}

/// The value of a block that is that value alone: `{ name }`.
fn only_value(block: &Block) -> Option<&Expr> {
    match &block.stmts[..] {
        [Stmt::Expr(value, None)] => Some(value),
        _ => None,
    }
}

/// `words[0]`, `pairs[i].0` or `words.first().copied().unwrap_or("-")`, with `words` one of
/// `made`: an item copied out of a value made again, which may be a borrow. A copy out of a
/// saved value is saved as it is.
fn copied_out(expr: &Expr, made: &BTreeSet<String>, arguments: &mut Vec<String>) -> bool {
    let made_root = root_ident(expr).is_some_and(|root| made.contains(&root.to_string()));
    made_root
        && (!matches!(expr, Expr::Path(_)) && indexed_place(expr, arguments)
            || copied_pick(expr, arguments))
}

/// `.copied()` or `.cloned()` on an `Option` of a reference that `remade_value` takes, then
/// maybe unwrapped (`.unwrap_or("-")`): `words.first().copied()`, `words.iter().max().cloned()`.
/// Out of a value made again, which holds borrows, that copies a borrow.
fn copied_pick(expr: &Expr, arguments: &mut Vec<String>) -> bool {
    match expr {
        Expr::Paren(inner) => copied_pick(&inner.expr, arguments),
        Expr::MethodCall(call) if call.turbofish.is_some() => false,
        Expr::MethodCall(call) if UNWRAPPING.contains(&call.method.to_string().as_str()) => {
            call.args.iter().all(|arg| steady(arg, arguments))
                && copied_pick(&call.receiver, arguments)
        }
        Expr::MethodCall(call)
            if (call.method == "copied" || call.method == "cloned") && call.args.is_empty() =>
        {
            remade_value(&call.receiver, arguments)
        }
        _ => false,
    }
}

/// Whether `expr` is a borrow that a `let` made again on resume may hold (`remade_value`).
pub(crate) fn borrow_pick(expr: &Expr) -> bool {
    remade_value(expr, &mut Vec::new())
}

/// For the error on a binding held across an ask whose value borrows as one made again on
/// resume does, yet is not made again: what else that takes.
pub(crate) fn not_remade_hint(value: Option<&Expr>) -> &'static str {
    if value.is_some_and(|value| remade_value(value, &mut Vec::new())) {
        ". mrtr makes a `let`, an arm or an `if let` that only borrows from what the tool \
         holds again on resume, rather than saving it, but not this one. That needs its names \
         bound nowhere else in the tool where an ask outlives them but by one made again from \
         the same locals; where it reads a name it binds (`let text = text.trim();`), that \
         name bound before it by a `let` of its own block (a loop's item or an arm's binding \
         is one; one that borrows through a pattern, not read between) or around its block \
         by a `let`, an arm or an `if let`, or a parameter, \
         and no closure or value made again from the old one used after it; no name it reads \
         bound both \
         in its block or branch and around it; and no later statement of its block binding \
         again a name it reads, or changing a local it passes, or, where it may fail (`?`, \
         `unwrap`, indexing, arithmetic that may overflow, a pattern that may not match), any \
         local it reads"
    } else {
        ""
    }
}

/// Whether `local` is one `remake_borrows` marked: `let t = ::mrtr::__private::remade(..);`.
pub(crate) fn remade_let(local: &Local) -> bool {
    local
        .init
        .as_ref()
        .and_then(|init| private_call(&init.expr))
        .is_some_and(|names| names == ["remade"])
}

/// Names bound plainly, no `mut`, `ref` or `@`: `t`, `t: &str`, `(head, tail)`, `_`.
pub(crate) fn plain_pattern(pat: &Pat) -> bool {
    match pat {
        Pat::Ident(ident) => {
            ident.by_ref.is_none() && ident.mutability.is_none() && ident.subpat.is_none()
        }
        Pat::Type(typed) => plain_pattern(&typed.pat),
        Pat::Tuple(tuple) => tuple.elems.iter().all(plain_pattern),
        Pat::Paren(inner) => plain_pattern(&inner.pat),
        Pat::Wild(_) => true,
        _ => false,
    }
}

/// A refutable pattern whose bindings borrow as the value does: none `mut` or `ref mut`, and
/// none under `&`, which copies a value out (lowering saves that as it is).
pub(crate) fn rebinding_pattern(pat: &Pat) -> bool {
    match pat {
        Pat::Ident(ident) => {
            ident.mutability.is_none()
                && ident
                    .subpat
                    .as_ref()
                    .is_none_or(|(_, sub)| rebinding_pattern(sub))
        }
        Pat::Type(typed) => rebinding_pattern(&typed.pat),
        Pat::Paren(inner) => rebinding_pattern(&inner.pat),
        Pat::Tuple(tuple) => tuple.elems.iter().all(rebinding_pattern),
        Pat::TupleStruct(tuple) => tuple.elems.iter().all(rebinding_pattern),
        Pat::Struct(fields) => fields.fields.iter().all(|f| rebinding_pattern(&f.pat)),
        Pat::Slice(slice) => slice.elems.iter().all(rebinding_pattern),
        Pat::Or(or) => or.cases.iter().all(rebinding_pattern),
        Pat::Wild(_) | Pat::Rest(_) | Pat::Lit(_) | Pat::Range(_) | Pat::Path(_) => true,
        _ => false,
    }
}

/// A pure read of a borrow from a held place, through unwrapping; the locals it reads as
/// arguments go to `arguments`.
pub(crate) fn remade_value(expr: &Expr, arguments: &mut Vec<String>) -> bool {
    match expr {
        Expr::Paren(inner) => remade_value(&inner.expr, arguments),
        Expr::Try(tried) => remade_value(&tried.expr, arguments),
        Expr::MethodCall(call) if UNWRAPPING.contains(&call.method.to_string().as_str()) => {
            call.turbofish.is_none()
                && call.args.iter().all(|arg| steady(arg, arguments))
                && remade_value(&call.receiver, arguments)
        }
        // An `Option` of a borrow, mapped by a pick or filtered by a read.
        Expr::MethodCall(call)
            if call.turbofish.is_none() && filtered_or_mapped(call, arguments) =>
        {
            remade_value(&call.receiver, arguments)
        }
        Expr::Reference(reference) => {
            reference.mutability.is_none() && indexed_place(&reference.expr, arguments)
        }
        Expr::MethodCall(_) => picked(expr, arguments) || taken(expr, arguments),
        Expr::If(branch) => chosen(branch, arguments),
        Expr::Tuple(syn::ExprTuple { elems, .. }) | Expr::Array(syn::ExprArray { elems, .. }) => {
            built(elems.iter(), arguments)
        }
        _ => false,
    }
}

/// `(name.as_str(), 1)`, `[a.trim(), "-"]`: of values `remade_value` takes and literals, one
/// at least of the former (a tuple of literals alone is saved as before).
fn built<'e>(parts: impl Iterator<Item = &'e Expr>, arguments: &mut Vec<String>) -> bool {
    let mut made = false;
    for part in parts {
        if remade_value(part, arguments) {
            made = true;
        } else if !matches!(part, Expr::Lit(_)) {
            return false;
        }
    }
    made
}

/// `if test { "none" } else { text.trim() }`: `test` only reads (`steady`), and each branch is
/// a string literal, a value `remade_value` takes, or another such `if`.
fn chosen(branch: &syn::ExprIf, arguments: &mut Vec<String>) -> bool {
    let Some((_, otherwise)) = &branch.else_branch else {
        return false;
    };
    let tail = |block: &Block, arguments: &mut Vec<String>| match &block.stmts[..] {
        [Stmt::Expr(value, None)] => {
            matches!(
                value,
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(_),
                    ..
                })
            ) || remade_value(value, arguments)
        }
        _ => false,
    };
    !matches!(&*branch.cond, Expr::Let(_))
        && steady(&branch.cond, arguments)
        && tail(&branch.then_branch, arguments)
        && match &**otherwise {
            Expr::Block(block) => block.attrs.is_empty() && tail(&block.block, arguments),
            Expr::If(inner) => chosen(inner, arguments),
            _ => false,
        }
}

/// `place.pick(..)` with `pick` in `REMADE_PICKS`, on a held place, maybe indexed
/// (`items[0].as_str()`), or on another such pick.
fn picked(expr: &Expr, arguments: &mut Vec<String>) -> bool {
    match expr {
        Expr::MethodCall(call) => {
            REMADE_PICKS.contains(&call.method.to_string().as_str())
                && call.turbofish.is_none()
                && call.args.iter().all(|arg| steady(arg, arguments))
                && (indexed_place(&call.receiver, arguments) || picked(&call.receiver, arguments))
        }
        Expr::Paren(inner) => picked(&inner.expr, arguments),
        _ => false,
    }
}

/// `place.iterate(..).adapt(..).take(..)`: items of a held place, or of a pick of one, taken
/// in order as a borrowed loop takes them (`borrowed_items`): `text.split(',').next()`,
/// `items.iter().rev().nth(1)`, `list.iter().max()`, `text.lines().collect()`. `mark` has the
/// place checked to keep its order when saved (`revisited`).
fn taken(expr: &Expr, arguments: &mut Vec<String>) -> bool {
    let Expr::MethodCall(call) = expr else {
        return false;
    };
    let method = call.method.to_string();
    let arguments_kept = match (method.as_str(), &call.args.iter().collect::<Vec<_>>()[..]) {
        ("find" | "max_by_key" | "min_by_key", [function]) => {
            remade_closures::reading(function, arguments)
        }
        _ => call.args.iter().all(|arg| steady(arg, arguments)),
    };
    if !TAKING.contains(&method.as_str())
        || call.turbofish.is_some() && method != "collect"
        || !arguments_kept
    {
        return false;
    }
    let mut iterator = &*call.receiver;
    loop {
        let Expr::MethodCall(step) = iterator else {
            return false;
        };
        if step.turbofish.is_none() && filtered_or_mapped(step, arguments) {
            iterator = &step.receiver;
            continue;
        }
        let method = step.method.to_string();
        if step.turbofish.is_some() || !step.args.iter().all(|arg| steady(arg, arguments)) {
            return false;
        }
        if borrowing_items(&method) {
            return indexed_place(&step.receiver, arguments) || picked(&step.receiver, arguments);
        }
        if !KEEPING.contains(&method.as_str()) {
            return false;
        }
        iterator = &step.receiver;
    }
}

/// Methods that take one item out of an iterator, or all of them; `find` with a predicate
/// that reads, `max_by_key` and `min_by_key` with a key that reads
/// (`remade_closures::reading`).
const TAKING: &[&str] = &[
    "next",
    "last",
    "nth",
    "max",
    "min",
    "find",
    "max_by_key",
    "min_by_key",
    "collect",
];

/// `.map(f)`, `.and_then(f)`, `.filter_map(f)` or `.map_while(f)` with `f` a pick, or
/// `.filter(p)`, `.skip_while(p)` or `.take_while(p)` with `p` a read (`remade_closures`): of
/// an iterator or an `Option`.
pub(crate) fn filtered_or_mapped(call: &syn::ExprMethodCall, arguments: &mut Vec<String>) -> bool {
    let [function] = call.args.iter().collect::<Vec<_>>()[..] else {
        return false;
    };
    match call.method.to_string().as_str() {
        "map" | "and_then" | "filter_map" | "map_while" => {
            remade_closures::picking(function, arguments)
        }
        "filter" | "skip_while" | "take_while" => remade_closures::reading(function, arguments),
        _ => false,
    }
}

/// A held place, or one indexed by steady values: `items[0]`, `text[1..]`, `grid[i][j]`.
fn indexed_place(expr: &Expr, arguments: &mut Vec<String>) -> bool {
    match expr {
        Expr::Index(index) => {
            steady(&index.index, arguments) && indexed_place(&index.expr, arguments)
        }
        Expr::Field(field) => indexed_place(&field.base, arguments),
        Expr::Paren(inner) => indexed_place(&inner.expr, arguments),
        other => held_place(other),
    }
}

/// A local or a parameter, or a field of one: not `self`.
fn held_place(expr: &Expr) -> bool {
    match expr {
        Expr::Path(path) => {
            path.qself.is_none() && path.path.get_ident().is_some_and(|i| i != "self")
        }
        Expr::Field(field) => held_place(&field.base),
        Expr::Paren(inner) => held_place(&inner.expr),
        _ => false,
    }
}

/// A value computed only by reading: a literal, a name (a local, which goes to `arguments`, or
/// a constant), and what borrows, fields, ranges, tuples, arrays, operators other than
/// assignments, and the methods of `READING` (not its iterators), the picks and the unwrapping
/// ones make of them: `at + 1`, `items.len() - 1`, `!w.trim().is_empty()`.
pub(crate) fn steady(expr: &Expr, arguments: &mut Vec<String>) -> bool {
    match expr {
        Expr::Lit(_) => true,
        Expr::Unary(unary) => steady(&unary.expr, arguments),
        Expr::Reference(reference) => {
            reference.mutability.is_none() && steady(&reference.expr, arguments)
        }
        Expr::Paren(inner) => steady(&inner.expr, arguments),
        Expr::Cast(cast) => steady(&cast.expr, arguments),
        Expr::Field(field) => steady(&field.base, arguments),
        Expr::Tuple(tuple) => tuple.elems.iter().all(|elem| steady(elem, arguments)),
        Expr::Array(array) => array.elems.iter().all(|elem| steady(elem, arguments)),
        Expr::Range(range) => {
            range
                .start
                .as_deref()
                .is_none_or(|start| steady(start, arguments))
                && range
                    .end
                    .as_deref()
                    .is_none_or(|end| steady(end, arguments))
        }
        Expr::Binary(binary) if !is_assign_op(&binary.op) => {
            steady(&binary.left, arguments) && steady(&binary.right, arguments)
        }
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            // Not an iterator: made again here, its place would not be checked to keep its
            // order (`InOrder`).
            let reads = READING.contains(&method.as_str()) && !borrowing_items(&method);
            call.turbofish.is_none()
                && (reads
                    || REMADE_PICKS.contains(&method.as_str())
                    || UNWRAPPING.contains(&method.as_str()))
                && steady(&call.receiver, arguments)
                && call.args.iter().all(|arg| steady(arg, arguments))
        }
        Expr::Path(path) if path.qself.is_none() => match path.path.get_ident() {
            Some(ident) if ident == "self" => false,
            Some(ident) => {
                arguments.push(ident.to_string());
                true
            }
            // A constant's path: `u32::MAX`, `config::LIMIT`.
            None => path
                .path
                .segments
                .last()
                .is_some_and(|last| last.ident.to_string().chars().all(|c| !c.is_lowercase())),
        },
        _ => false,
    }
}

/// Methods of the standard collections, strings and numbers that only read what they are
/// called on: calling one does not change a local a `let` made again reads.
const READING: &[&str] = &[
    "len",
    "is_empty",
    "contains",
    "contains_key",
    "starts_with",
    "ends_with",
    "first",
    "last",
    "get",
    "iter",
    "keys",
    "values",
    "chars",
    "bytes",
    "lines",
    "split",
    "trim",
    "find",
    "as_str",
    "as_slice",
    "as_ref",
    "as_deref",
    "clone",
    "to_owned",
    "to_string",
    "to_vec",
    "is_some",
    "is_none",
    "is_ok",
    "is_err",
    "is_ascii",
    "is_char_boundary",
    "eq_ignore_ascii_case",
    "rfind",
];

/// Whether `stmts` bind again or change (as `Later` tells) one of `names`.
pub(crate) fn changed_in(stmts: &[Stmt], names: &[String]) -> bool {
    let reads: BTreeSet<String> = names.iter().cloned().collect();
    let mut later = Later {
        reads: &reads,
        watched: names,
        found: false,
    };
    for stmt in stmts {
        later.visit_stmt(stmt);
    }
    later.found
}

/// What later statements do that rules out making the `let` again: bind again a name of
/// `reads`, or change one of `watched` (assign it, borrow it mutably, call a method on it other
/// than those of `READING`, write to it, or name it in a macro that is not Rust until it
/// expands).
struct Later<'a> {
    reads: &'a BTreeSet<String>,
    watched: &'a [String],
    found: bool,
}

impl Later<'_> {
    fn argument(&self, expr: &Expr) -> bool {
        let mut expr = expr;
        loop {
            match expr {
                Expr::Field(field) => expr = &field.base,
                Expr::Index(index) => expr = &index.expr,
                Expr::Paren(inner) => expr = &inner.expr,
                Expr::Path(path) => {
                    return path
                        .path
                        .get_ident()
                        .is_some_and(|ident| self.watched.contains(&ident.to_string()));
                }
                _ => return false,
            }
        }
    }
}

impl<'ast> Visit<'ast> for Later<'_> {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        if self.reads.contains(&pat.ident.to_string()) {
            self.found = true;
        }
        visit::visit_pat_ident(self, pat);
    }

    fn visit_expr(&mut self, expr: &'ast Expr) {
        let changed = match expr {
            _ if assigned_place(expr).is_some() => {
                assigned_place(expr).is_some_and(|place| self.argument(place))
            }
            Expr::Reference(reference) => {
                reference.mutability.is_some() && self.argument(&reference.expr)
            }
            Expr::MethodCall(call) => {
                let method = call.method.to_string();
                !READING.contains(&method.as_str())
                    && !REMADE_PICKS.contains(&method.as_str())
                    && self.argument(&call.receiver)
            }
            _ => false,
        };
        self.found |= changed;
        visit::visit_expr(self, expr);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let Some(items) = macro_items(mac) else {
            // Not Rust until it expands: any mention may be a change.
            let names = macro_names(mac);
            self.found |= self.watched.iter().any(|a| names.contains(a));
            return;
        };
        // `write!(out, ..)` calls a method on its first argument.
        let writes = ["write", "writeln"].iter().any(|name| {
            mac.path
                .segments
                .last()
                .is_some_and(|last| last.ident == name)
        });
        if writes && items.first().is_some_and(|first| self.argument(first)) {
            self.found = true;
        }
        for item in &items {
            self.visit_expr(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the `let`s of `block` made again on resume.
    fn remade(block: &str) -> Vec<String> {
        let mut block: Block = syn::parse_str(block).unwrap();
        remake_borrows(&mut block, BTreeSet::new());
        block
            .stmts
            .iter()
            .filter_map(|stmt| match stmt {
                Stmt::Local(local) if remade_let(local) => Some(
                    pattern_bindings(&local.pat)
                        .iter()
                        .map(|b| b.ident.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                ),
                _ => None,
            })
            .collect()
    }

    /// An ask as `analyze` leaves it.
    const ASK: &str = "let a = __mrtr_ask_1(q());";

    #[test]
    fn borrows_of_held_places_are_made_again() {
        for value in [
            "text.trim()",
            "&args.name",
            "&items[0]",
            "&items[i]",
            "&text[1..]",
            "&grid[i][2]",
            "items.first()",
            "map.get(&key)",
            "args.tags.get(1)",
            "text.strip_prefix(\"Dr. \").ok_or(\"none\")?",
            "text.trim().split_once('=').unwrap_or((\"\", \"\"))",
            "name.as_deref().unwrap_or_default()",
            "items.get(LIMIT)",
            "items.get(usize::MAX)",
            "text.split(' ').next()",
            "text.trim().lines().last().unwrap_or(\"\")",
            "items.iter().rev().nth(1)",
            "items.iter().skip(k).max()",
            "items.iter().enumerate().nth(k)",
            "map.keys().next()",
            // Collected, mapped by picks and filtered by reads.
            "text.split(',').collect()",
            "text.split(',').collect::<Vec<_>>()",
            "text.split(',').map(str::trim).filter(|w| !w.is_empty()).collect()",
            "text.lines().map(|l| l.trim_start_matches(\"> \")).find(|l| l.len() > min)",
            "items.first().map(|s| s.as_str()).unwrap_or(\"none\")",
            "name.as_deref().filter(|n| n.starts_with('x')).and_then(|n| n.strip_prefix('x'))",
            "text.split_once('@').unwrap_or((&args.text, \"\"))",
            // Chosen by a test that reads.
            "if items.is_empty() { \"none\" } else { items[0].as_str() }",
            "if n > 2 { text.trim() } else if n > 1 { &text[1..] } else { \"\" }",
            // Built of such values and literals.
            "(args.name.as_str(), 1)",
            // Arguments computed from locals.
            "items.get(at + 1)",
            "&items[items.len() - 1]",
            "[text.trim(), \"-\", &args.name]",
        ] {
            let block = format!("{{ let v = {value}; {ASK} use_it(v, a); }}");
            assert_eq!(remade(&block), ["v"], "{value}");
        }
        // An item taken from an iterator comes from a place that keeps its order.
        let mut block: Block = syn::parse_str(&format!(
            "{{ let w = text.split(',').next(); {ASK} f(w); }}"
        ))
        .unwrap();
        remake_borrows(&mut block, BTreeSet::new());
        let marked = block.stmts[0]
            .to_token_stream()
            .to_string()
            .replace(' ', "");
        assert!(
            marked.contains("remade(::mrtr::__private::revisited(&text).split(',').next())"),
            "{marked}"
        );
        let pair = format!("{{ let (k, v) = t.split_once('=').unwrap(); {ASK} f(k, v); }}");
        assert_eq!(remade(&pair), ["k,v"]);
        // A `let .. else`, which matches again where it matched.
        let refutable = format!(
            "{{ let Some((k, v)) = t.split_once('=') else {{ return 0; }}; {ASK} f(k, v); }}"
        );
        assert_eq!(remade(&refutable), ["k,v"]);
        // A local made again, taken apart by a `let .. else`: in its block, or in a block
        // inside (as `remade_arms` binds an arm again), also under its own name.
        let taken_apart = format!(
            "{{ let first = items.first(); let Some(f) = first else {{ return 0; }}; {ASK} g(f, a); }}"
        );
        assert_eq!(remade(&taken_apart), ["first", "f"]);
        let inside = format!(
            "{{ let first = items.first(); if let Some(_) = first {{ \
             #[allow(irrefutable_let_patterns)] let Some(first) = first else {{ m.lost().await }}; \
             {ASK} g(first); }} }}"
        );
        assert!(
            remade_text(&inside)
                .contains("let Some (first) = :: mrtr :: __private :: remade (first) else"),
            "{}",
            remade_text(&inside)
        );
    }

    /// The block after `remake_borrows`, as tokens print.
    fn remade_text(block: &str) -> String {
        let mut block: Block = syn::parse_str(block).unwrap();
        remake_borrows(&mut block, BTreeSet::new());
        block.to_token_stream().to_string()
    }

    #[test]
    fn names_bound_again_from_themselves_are_made_again() {
        // A parameter, or a `let` of the block: moved under a hidden name, which is saved.
        for block in [
            format!("{{ let text = text.trim(); {ASK} use_it(text); }}"),
            format!("{{ let text = own(); let text = text.trim(); {ASK} use_it(text); }}"),
        ] {
            let text = remade_text(&block);
            assert!(
                text.contains("let __mrtr_kept1 = text ;")
                    && text.contains(
                        "let text = :: mrtr :: __private :: remade (__mrtr_kept1 . trim ())"
                    ),
                "{text}"
            );
        }
        // A second, from the first, which is made again: named anew where nothing reads it
        // before, else read through its value (and not named, so not found unused).
        let twice = format!(
            "{{ let name = name.trim(); {ASK} let name = name.strip_suffix('!').unwrap_or(name); \
             {ASK} use_it(name); }}"
        );
        let text = remade_text(&twice);
        assert!(
            text.contains(
                "let __mrtr_kept2 = :: mrtr :: __private :: remade (__mrtr_kept1 . trim ())"
            ) && text
                .contains("remade (__mrtr_kept2 . strip_suffix ('!') . unwrap_or (__mrtr_kept2))"),
            "{text}"
        );
        let read = format!(
            "{{ let name = name.trim(); {ASK} use_it(name); let name = name.strip_suffix('!').unwrap_or(name); \
             {ASK} use_it(name); }}"
        );
        let text = remade_text(&read);
        assert!(
            text.contains(
                "remade ((__mrtr_kept1 . trim ()) . strip_suffix ('!') . unwrap_or ((__mrtr_kept1 . trim ())))"
            ),
            "{text}"
        );
        assert_eq!(text.matches("let __mrtr_kept").count(), 1, "{text}");
        // A branch of an `if` that is the old one, alone, is not a value made again: read
        // through its value, with the old one allowed to go unread.
        let chosen = format!(
            "{{ let name = text.trim(); let name = if name.is_empty() {{ \"-\" }} else {{ name }}; \
             {ASK} use_it(name); }}"
        );
        let text = remade_text(&chosen);
        assert!(
            text.contains("# [allow (unused_variables)] let name = :: mrtr :: __private :: remade (text . trim ())")
                && text.contains("else { (text . trim ()) }"),
            "{text}"
        );
        // A pattern's binding made again (an arm's, a `let .. else`): named anew.
        let arm = format!(
            "{{ let Some(first) = ::mrtr::__private::remade(items.first()) else {{ lost() }}; \
             let first = first.trim(); {ASK} use_it(first); }}"
        );
        let text = remade_text(&arm);
        assert!(
            text.contains(
                "let Some (__mrtr_kept1) = :: mrtr :: __private :: remade (items . first ())"
            ) && text
                .contains("let first = :: mrtr :: __private :: remade (__mrtr_kept1 . trim ())"),
            "{text}"
        );
        // A closure's own parameter of the name is not the local.
        let closure = format!(
            "{{ let text = own(); let text = text.split(' ').map(|text| text.trim()).next(); {ASK} use_it(text); }}"
        );
        assert!(remade_text(&closure).contains("map (| text | text . trim ())"));
    }

    #[test]
    fn names_bound_again_from_those_of_a_block_around_are_made_again_from_them() {
        // The old one, of a `let` or an arm around, is read in place: lowering saves it.
        for block in [
            format!(
                "{{ let text = own(); {{ let text = text.trim(); {ASK} use_it(text); }} use_it(text); }}"
            ),
            format!(
                "{{ let mut text = own(); if c {{ text.push('!'); let text = text.trim(); {ASK} use_it(text); }} }}"
            ),
            format!(
                "{{ match o {{ Some(text) => {{ if c {{ let text = text.trim(); {ASK} use_it(text); }} use_it(text); }} None => {{}} }} }}"
            ),
        ] {
            let text = remade_text(&block);
            assert!(
                text.contains("let text = :: mrtr :: __private :: remade (text . trim ())")
                    && !text.contains("__mrtr_kept"),
                "{text}"
            );
        }
        for (block, left) in [
            // Bound again later in the inner block, or read by one made again further in:
            // which `text` it reads would be known by name only.
            (
                format!(
                    "{{ let text = own(); {{ let text = text.trim(); {ASK} use_it(text); let text = 1; f(text); }} }}"
                ),
                "let text = text . trim ()",
            ),
            (
                format!(
                    "{{ let text = own(); {{ let text = text.trim(); if c {{ let t = text.trim_end(); {ASK} use_it(t); }} }} }}"
                ),
                "let t = text . trim_end ()",
            ),
            // A loop as written, which `desugar` leaves none of: its item is bound by no `let`.
            (
                format!(
                    "{{ for text in all {{ {{ let text = text.trim(); {ASK} use_it(text); }} }} }}"
                ),
                "let text = text . trim ()",
            ),
        ] {
            let text = remade_text(&block);
            assert!(text.contains(left), "{text}");
        }
    }

    #[test]
    fn names_bound_again_from_a_parameter_in_a_block_inside_read_it_in_place() {
        let block = format!(
            "{{ if c {{ let Some(note) = note.as_deref() else {{ lost() }}; {ASK} use_it(note); }} use_it(note); }}"
        );
        let remade = |parameters: &[&str]| {
            let mut block: Block = syn::parse_str(&block).unwrap();
            let parameters = parameters.iter().map(|name| name.to_string()).collect();
            remake_borrows(&mut block, parameters);
            block.to_token_stream().to_string()
        };
        // A parameter is the same on every round, and nothing here binds it.
        let text = remade(&["args", "note"]);
        assert!(
            text.contains("let Some (note) = :: mrtr :: __private :: remade (note . as_deref ())"),
            "{text}"
        );
        // Not a parameter, and bound by no `let` around: which `note` it reads is not known.
        assert!(!remade(&["args"]).contains("remade (note"));
    }

    #[test]
    fn a_value_put_inside_a_closure_whose_parameter_it_reads_clashes() {
        let name: Ident = syn::parse_str("name").unwrap();
        let value: Expr = syn::parse_str("(text.trim())").unwrap();
        for (expr, clash) in [
            ("words.iter().find(|text| text.starts_with(name))", true),
            ("words.iter().find(|word| word.starts_with(name))", false),
            ("words.iter().find(|name| name.is_empty())", false),
        ] {
            let mut expr: Expr = syn::parse_str(expr).unwrap();
            let mut rename = Rename::new(&name, &value);
            rename.visit_expr_mut(&mut expr);
            assert_eq!(rename.clash, clash, "{}", expr.to_token_stream());
        }
    }

    #[test]
    fn names_bound_again_from_themselves_where_the_old_one_is_needed_are_not() {
        for block in [
            // A closure that reads the old one is called after.
            format!(
                "{{ let f = || text.len(); let text = text.trim(); {ASK} f(); use_it(text); }}"
            ),
            // A pattern's binding made again, read before.
            format!(
                "{{ let Some(first) = ::mrtr::__private::remade(items.first()) else {{ lost() }}; \
                 use_it(first); let first = first.trim(); {ASK} use_it(first); }}"
            ),
            // A borrow of the old one used after.
            format!(
                "{{ let text = own(); let r = &text; let text = text.trim(); f(r); {ASK} use_it(text); }}"
            ),
            // A borrow not made again (here, as a closure's parameter binds what it reads
            // again): a copy of it could not be saved either.
            format!(
                "{{ let name = text.trim(); use_it(name); let name = words.iter().find(|text| text.starts_with(name)); \
                 {ASK} use_it(name); }}"
            ),
            // `mut`, and a field moved before.
            format!("{{ let mut text = text.trim(); {ASK} use_it(text); }}"),
            format!("{{ let p = own(); take(p.a); let p = p.b.trim(); {ASK} use_it(p); }}"),
        ] {
            let text = remade_text(&block);
            assert!(!text.contains("__mrtr_kept"), "{text}");
        }
    }

    #[test]
    fn other_lets_are_left_to_lowering() {
        for (value, later) in [
            // No ask after it.
            ("text.trim()", "use_it(v);"),
            // The server's fields may differ on the instance that takes the retry.
            ("self.name.trim()", ASK),
            ("&self.items[0]", ASK),
            // Runs the user's code, or picks from a value made here.
            ("text.split(' ').map(f).next()", ASK),
            ("items.iter().filter(f).max()", ASK),
            ("text.split(' ').map(|w| clean(w)).collect()", ASK),
            (
                "text.split(' ').filter(|w| { seen += 1; true }).collect()",
                ASK,
            ),
            ("items.first().map(|s| s.to_lowercase())", ASK),
            ("text.lines().find(|l| wanted(l))", ASK),
            ("if ready() { \"none\" } else { text.trim() }", ASK),
            ("if c { \"none\" } else { log(); text.trim() }", ASK),
            ("if let Some(t) = o { t.trim() } else { \"\" }", ASK),
            ("(\"a\", 1)", ASK),
            ("(text.trim(), n)", ASK),
            ("text.chars().next()", ASK),
            ("make().iter().next()", ASK),
            ("make().trim()", ASK),
            ("text.strip_prefix(\"x\").ok_or(none())?", ASK),
            // An argument changed later, or a name read bound again.
            ("items.get(at)", "at += 1; let a = __mrtr_ask_1(q());"),
            ("map.get(&key)", "key.push('x'); let a = __mrtr_ask_1(q());"),
            ("&items[at]", "bump(&mut at); let a = __mrtr_ask_1(q());"),
            (
                "items.get(at)",
                "write!(at, \"x\"); let a = __mrtr_ask_1(q());",
            ),
            ("text.trim()", "let text = 1; let a = __mrtr_ask_1(q());"),
            // It may fail, and what it borrows from changes once it is dead.
            (
                "&items[0]",
                "f(v); items.clear(); let a = __mrtr_ask_1(q());",
            ),
            (
                "text.strip_prefix(\"x\").unwrap()",
                "f(v); text.clear(); let a = __mrtr_ask_1(q());",
            ),
            (
                "text.strip_prefix(\"x\").ok_or(1)?",
                "f(v); text = n; let a = __mrtr_ask_1(q());",
            ),
        ] {
            let block = format!("{{ let v = {value}; {later} use_it(v); }}");
            assert!(remade(&block).is_empty(), "{value} then {later}");
        }
        // `mut`, a copy out of a `&`, an `else` that asks, a name it reads, a `let` mrtr wrote.
        for local in [
            "let mut v = text.trim();",
            "let Some(&v) = items.first() else { return 0; };",
            "let Some(v) = items.first() else { __mrtr_ask_2(q()); return 0; };",
            "let __mrtr_bound_first0 = text.trim();",
        ] {
            assert!(
                remade(&format!("{{ {local} {ASK} }}")).is_empty(),
                "{local}"
            );
        }
        // A pattern that may not match, and what it borrows from changes once it is dead.
        let emptied = format!(
            "{{ let Some(v) = items.first() else {{ return 0; }}; {ASK} f(v); items.clear(); {ASK} }}"
        );
        assert!(remade(&emptied).is_empty());
        // What it borrows from changed once it is dead, when it cannot fail: made again.
        let changed = format!("{{ let v = text.trim(); f(v); text.clear(); {ASK} }}");
        assert_eq!(remade(&changed), ["v"]);
        let halved =
            format!("{{ let v = items.get(items.len() / 2); f(v); items.clear(); {ASK} }}");
        assert_eq!(remade(&halved), ["v"]);
        // Arithmetic that may overflow may fail.
        let next = format!("{{ let v = items.get(at + 1); f(v); at = n; {ASK} }}");
        assert!(remade(&next).is_empty());
        // Changed or bound again once it is dead, with no ask after that may re-run it: made
        // again, as in `while i < n { let item = &items[i]; ask!(..); use(item); i += 1; }`.
        for later in ["f(v); i += 1;", "f(v); if c { let items = 1; f(items); }"] {
            let block = format!("{{ let v = &items[i]; {ASK} {later} }}");
            assert_eq!(remade(&block), ["v"], "{later}");
        }
        // A field of a local whose other fields the block may have moved before.
        let field = format!("{{ let n = take(p.list); let v = &p.name; {ASK} f(v, n); }}");
        assert!(remade(&field).is_empty());
        let read = format!("{{ f(p.name.len(), &p.list); let v = &p.name; {ASK} f(v); }}");
        assert_eq!(remade(&read), ["v"]);
        // What it reads bound in a branch while another of the name is in scope.
        let branch = format!(
            "{{ let x = a(); match c {{ Some(_) => {{ take(x); let mut x = b(); let v = x.trim(); {ASK} f(v); }} None => {{}} }} }}"
        );
        assert!(remade(&branch).is_empty());
        let block = format!(
            "{{ let x = a(); let x = x.unwrap_or_default(); let v = x.trim(); {ASK} f(v); }}"
        );
        assert_eq!(remade(&block), ["v"]);
        // Its name bound again where an ask outlives it, and made again from the same names:
        // made again; from others, or saved: neither is.
        let same = format!(
            "{{ let v = text.trim(); {ASK} f(v); {{ let v = text.trim(); {ASK} f(v); }} }}"
        );
        assert_eq!(remade(&same), ["v"]);
        let other =
            format!("{{ let v = text.trim(); {ASK} f(v); let v = list.first(); {ASK} f(v); }}");
        assert!(remade(&other).is_empty());
        // Its name bound again elsewhere in the body, where an ask may outlive it.
        let twice = format!("{{ let v = text.trim(); {ASK} f(v); {{ let v = 1; {ASK} f(v); }} }}");
        assert!(remade(&twice).is_empty());
        for elsewhere in [
            "{ let v = 1; f(v); }",
            "match o { Some(v) if v > 1 => f(v), Some(v) => g(v), None => {} }",
            "if let Some(v) = o { f(v) }",
            "for v in o { f(v) }",
            "o.map(|v| v + 1);",
        ] {
            let block = format!("{{ let v = text.trim(); {ASK} f(v); {elsewhere} }}");
            assert_eq!(remade(&block), ["v"], "{elsewhere}");
        }
        // A local a closure reads is watched as an argument is: changed, it is not made again.
        let watched = format!(
            "{{ let v = text.split(' ').filter(|w| w.len() > min).next(); {ASK} min += 1; f(v); }}"
        );
        assert!(remade(&watched).is_empty());
        // An item copied out of a `let` made again (a `&str` of a `Vec<&str>`) is made again
        // too; out of a saved one, it is saved.
        let copied = format!(
            "{{ let words: Vec<&str> = text.split(',').collect(); let first = words[0]; {ASK} f(first); }}"
        );
        assert_eq!(remade(&copied), ["words", "first"]);
        for pick in [
            "words.first().copied()",
            "words.first().copied().unwrap_or(\"none\")",
            "words.iter().max().cloned().unwrap()",
            "words.get(i + 1).copied().unwrap_or_default()",
        ] {
            let copied = format!(
                "{{ let words: Vec<&str> = text.split(',').collect(); let first = {pick}; {ASK} f(first); }}"
            );
            assert_eq!(remade(&copied), ["words", "first"], "{pick}");
        }
        let saved = format!("{{ let first = counts[0]; {ASK} f(first); }}");
        assert!(remade(&saved).is_empty());
        let saved =
            format!("{{ let first = counts.first().copied().unwrap_or(0); {ASK} f(first); }}");
        assert!(remade(&saved).is_empty());
        // Not through a call of the user's between.
        let called = format!(
            "{{ let words: Vec<&str> = text.split(',').collect(); let first = pick(&words).copied(); {ASK} f(first); }}"
        );
        assert_eq!(remade(&called), ["words"]);
        // So is a plain copy of a `let` of the block made again; of a saved one, it is saved.
        let plain = format!("{{ let t = text.trim(); let label = t; {ASK} f(label); }}");
        assert_eq!(remade(&plain), ["t", "label"]);
        let owned = format!("{{ let t = own(); let label = t; {ASK} f(label); }}");
        assert!(remade(&owned).is_empty());
        // Also in a block inside, where that `let` is the nearest binding of the name outside.
        let label_remade = |block: &str| {
            let mut block: Block = syn::parse_str(block).unwrap();
            remake_borrows(&mut block, BTreeSet::new());
            let out = quote::quote!(#block).to_string().replace(' ', "");
            out.contains("letlabel=::mrtr::__private::remade(t)")
        };
        let inside =
            format!("{{ let t = text.trim(); if c {{ let label = t; {ASK} f(label); }} }}");
        assert!(label_remade(&inside));
        // An item taken by a key that reads.
        let keyed = format!(
            "{{ let longest = words.iter().max_by_key(|w| w.len()).map(String::as_str); {ASK} f(longest); }}"
        );
        assert_eq!(remade(&keyed), ["longest"]);
        // An `if` or a `match` that chooses among such names, literals and values made again.
        for choice in [
            "if t.is_empty() { \"-\" } else { t }",
            "if t.len() > 2 { t } else if c { \"x\" } else { text.trim_end() }",
            "match t.len() { 0 => \"-\", 1..=3 => t, _ => text.trim_start() }",
            "match t { \"\" => \"-\", _ => t }",
        ] {
            let block = format!("{{ let t = text.trim(); let label = {choice}; {ASK} f(label); }}");
            assert_eq!(remade(&block), ["t", "label"], "{choice}");
        }
        for choice in [
            // A test that calls the user's code, an arm that binds or is guarded, or a branch
            // of another kind.
            "if ready(t) { \"-\" } else { t }",
            "match t.len() { n => t }",
            "match t.len() { 0 if c => \"-\", _ => t }",
            "if t.is_empty() { \"-\" } else { t.to_owned() }",
            "if t.is_empty() { \"-\" } else { own }",
        ] {
            let block = format!(
                "{{ let own = f(); let t = text.trim(); let label = {choice}; {ASK} f(label); }}"
            );
            assert_eq!(remade(&block), ["t"], "{choice}");
        }
        for other in [
            format!("{{ let t = own(); if c {{ let label = t; {ASK} f(label); }} }}"),
            format!(
                "{{ let t = text.trim(); {{ let t = own(); if c {{ let label = t; {ASK} f(label); }} }} }}"
            ),
            format!(
                "{{ let t = text.trim(); match o {{ Some(t) => {{ let label = t; {ASK} f(label); }} _ => {{}} }} }}"
            ),
        ] {
            assert!(!label_remade(&other), "{other}");
        }
        // A local read as an argument, not changed: still made again.
        let read = format!("{{ let v = items.get(at); {ASK} println!(\"{{at}}\"); f(at, v); }}");
        assert_eq!(remade(&read), ["v"]);
    }
}

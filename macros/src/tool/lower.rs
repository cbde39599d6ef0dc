//! Stage 3: rewrite the body so that a retry resumes at the ask point where the last round
//! stopped. See `runtime/src/machine.rs` for the calls this code makes.
//!
//! For each statement of a block that has an ask point after it, with `end` the last ask
//! point at or before the statement's end:
//! - `let p = init;` becomes `let p = if m.passed(end) { m.restore().await } else { init };`,
//!   so a statement that already ran gets its bindings back from the state;
//! - any other statement becomes `if !m.passed(end) { stmt }`, so it runs once;
//! - `ask!(key = q)` becomes `m.ask(id, &["key"], |saved| { saved.save(&x); ..; q }).await`,
//!   saving every binding in scope there.
//!
//! Statements after a block's last ask point stay as written. Two cases save a binding by
//! another way: one that an inner block shadows is saved through a hidden borrow taken before
//! the shadowing `let`; one that the statement holding an ask consumes before that ask is
//! saved from a snapshot taken before the statement (see `liveness`).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{
    Block, Expr, Ident, Local, Pat, Stmt,
    spanned::Spanned,
    visit_mut::{self, VisitMut},
};

use super::{
    analyze::AskSite,
    deferred_init::assigned_later,
    desugar::strip_mut,
    idents,
    overwritten::{Overwritten, overwritten_asks, overwritten_by},
    remade::{borrow_pick, last_binding, not_remade_hint, remade_let},
    syntax::{
        Binding, BorrowingItems, Captures, PRINTING_MACROS, ask_marker, asks_in_stmt,
        assigned_place, bindings_tuple, borrowed_from_item, borrows, collects_borrows, iterates,
        kept_for_drop, local_name, made_every_round, maps_to_borrow, parse_stmt, pattern_bindings,
        picks_borrow, root_ident, static_str, str_type, task_start_marker, with_captures,
    },
};
use crate::diagnostics::Diagnostics;

pub(crate) struct Lowering<'a> {
    asks: BTreeMap<u32, AskSite>,
    /// The saved bindings in scope, in declaration order.
    scope: Vec<Saved>,
    /// The names the `let`s in scope bind, in declaration order, each with whether its `let`
    /// holds a borrow of a local (`Lowering::borrowing_let`).
    lets: Vec<(String, bool)>,
    /// Counts the aliases made for shadowed bindings.
    aliases: u32,
    /// The highest ask point lowered so far.
    high: u32,
    /// The closures re-created on resume rather than saved, and what they read.
    captures: Captures,
    /// The body's `const` and `static` items whose values hold references.
    borrowing_items: BorrowingItems,
    /// The locals whose data may be `'static` (`syntax::static_locals`).
    static_locals: BTreeSet<String>,
    /// The path of the `ask!` around `start_task()`, if there is one.
    task_start: Option<syn::Path>,
    /// A `let x;` that the `let` being lowered gives its value inside its own value: restored,
    /// and then saved, before that `let`'s bindings.
    given_inside: Option<Binding>,
    pub(crate) machine: Ident,
    saver: Ident,
    diagnostics: &'a mut Diagnostics,
}

impl<'a> Lowering<'a> {
    pub(crate) fn new(
        asks: Vec<AskSite>,
        task_start: Option<syn::Path>,
        captures: Captures,
        borrowing_items: BorrowingItems,
        static_locals: BTreeSet<String>,
        machine: Ident,
        diagnostics: &'a mut Diagnostics,
    ) -> Self {
        Self {
            asks: asks.into_iter().map(|site| (site.id, site)).collect(),
            scope: Vec::new(),
            lets: Vec::new(),
            aliases: 0,
            high: 0,
            captures,
            borrowing_items,
            static_locals,
            task_start,
            given_inside: None,
            machine,
            saver: idents::saver(),
            diagnostics,
        }
    }

    pub(crate) fn lower_block(&mut self, block: &mut Block) {
        let scope_len = self.scope.len();
        let lets_len = self.lets.len();
        let stmts = std::mem::take(&mut block.stmts);
        let asks: Vec<Vec<u32>> = stmts.iter().map(asks_in_stmt).collect();
        // The bindings each statement's successors read, for the snapshots below. A name read
        // after a `let` that binds it again is the new binding's: a closure made before that
        // `let` that reads the old one is an error of its own (`closures`).
        let mut read_later = vec![BTreeSet::new(); stmts.len()];
        for index in (1..stmts.len()).rev() {
            let mut names = read_later[index].clone();
            for name in rebound_by(&stmts[index]) {
                names.remove(&name);
            }
            names.extend(with_captures(
                super::syntax::names_in_stmt(&stmts[index]),
                &self.captures,
            ));
            read_later[index - 1] = names;
        }
        // A `let x;` that a later `x = value;` gives its value, past an ask or another `let`:
        // it stays as written, unsaved while it has no value, and `x` is saved from that
        // assignment on, which a resumed round skips by restoring `x` instead.
        let mut given_at: BTreeMap<usize, Binding> = BTreeMap::new();
        let mut left_unsaved = BTreeSet::new();
        for index in 0..stmts.len() {
            if asks[index + 1..].iter().all(Vec::is_empty) {
                continue;
            }
            if let Some(at) = assigned_later(&stmts, index)
                && let Stmt::Local(local) = &stmts[index]
                && let Some(binding) = pattern_bindings(&local.pat).pop()
            {
                given_at.insert(at, binding);
                left_unsaved.insert(index);
            }
        }
        let overwritten = self.overwritten_in(&stmts, &asks);
        let mut aliased = Vec::new();
        let mut hidden = Vec::new();
        for (index, stmt) in stmts.into_iter().enumerate() {
            let ask_follows = asks[index + 1..].iter().any(|a| !a.is_empty());
            if ask_follows && let Stmt::Local(local) = &stmt {
                let shadowing = pattern_bindings(&local.pat);
                let following: BTreeSet<u32> =
                    asks[index + 1..].iter().flatten().copied().collect();
                for (position, alias) in
                    self.alias_shadowed(local, &shadowing, scope_len, &following)
                {
                    aliased.push(position);
                    block.stmts.push(alias);
                }
                if made_every_round(local) {
                    let (snapshots, hid) = self.hide_shadowed(local, &shadowing, scope_len);
                    block.stmts.extend(snapshots);
                    hidden.extend(hid);
                }
                if left_unsaved.contains(&index) {
                    block.stmts.push(stmt);
                    continue;
                }
            }
            let mut renewed = Vec::new();
            let mut reassigned_outer = None;
            if !asks[index].is_empty() {
                let mut later = std::mem::take(&mut read_later[index]);
                for name in rebound_by(&stmt) {
                    later.remove(&name);
                }
                // `x = x + &ask!(..)..;`: what follows reads the new `x`, not the one saved.
                let reassigned = reassigned_by(&stmt);
                if let Some(name) = &reassigned {
                    later.remove(&name.to_string());
                }
                block
                    .stmts
                    .extend(self.snapshot_dead(&stmt, scope_len, &later));
                block.stmts.extend(self.snapshot_again(
                    &stmt,
                    &asks[index],
                    scope_len,
                    &mut renewed,
                ));
                if let Some(name) = reassigned {
                    let (snapshot, previous) = self.snapshot_reassigned(&stmt, &name, scope_len);
                    block.stmts.extend(snapshot);
                    reassigned_outer = previous;
                }
            }
            let end = asks[index].iter().copied().fold(self.high, u32::max);
            let given = given_at.remove(&index);
            let declared_from = self.scope.len();
            let anew = match (&given, &stmt) {
                (None, Stmt::Expr(Expr::Assign(assign), _)) if ask_follows => {
                    self.given_anew(assign)
                }
                _ => None,
            };
            let lowered = match (given, stmt) {
                (None, Stmt::Expr(Expr::Assign(assign), _)) if let Some(replaced) = anew => {
                    let binding = self.scope[replaced].binding.clone();
                    let lowered = self.lower_given(assign, &binding, end);
                    let overwritten = self.scope[replaced].overwritten.clone();
                    self.scope.push(Saved {
                        binding,
                        via: None,
                        hidden: false,
                        dead: None,
                        overwritten,
                        given_anew_of: Some(replaced),
                    });
                    lowered
                }
                (Some(binding), Stmt::Expr(Expr::Assign(assign), _)) if ask_follows => {
                    let lowered = self.lower_given(assign, &binding, end);
                    self.scope.push(Saved {
                        binding,
                        via: None,
                        hidden: false,
                        dead: None,
                        overwritten: None,
                        given_anew_of: None,
                    });
                    lowered
                }
                (Some(binding), stmt @ Stmt::Local(_)) if ask_follows => {
                    self.given_inside = Some(binding);
                    self.lower_stmt(stmt, ask_follows, end)
                }
                (_, stmt) => self.lower_stmt(stmt, ask_follows, end),
            };
            block.stmts.push(lowered);
            block
                .stmts
                .extend(self.snapshot_overwritten(declared_from, &overwritten[index]));
            for (position, snapshot) in renewed {
                if let Some((_, current)) = &mut self.scope[position].dead {
                    *current = snapshot;
                }
            }
            if let Some((position, previous)) = reassigned_outer {
                self.scope[position].dead = previous;
            }
        }
        self.scope.truncate(scope_len);
        self.lets.truncate(lets_len);
        // The aliases end with this block.
        for position in aliased {
            self.scope[position].via = None;
        }
        for (position, previous) in hidden {
            self.scope[position].hidden = false;
            if let (Some((_, current)), Some(previous)) = (&mut self.scope[position].dead, previous)
            {
                *current = previous;
            }
        }
    }

    /// The saved bindings of outer blocks that `local`, a `let` made again on every round
    /// binding `shadowing`, hides from here to the end of this block, each with the snapshot to
    /// put back then. Marked `hidden`, they are not snapshot again by name. One saved from a
    /// snapshot that `local` reads is snapshot again here, where it can still be named: this
    /// block may have changed it since (`name.push('!'); let name = name.trim();`). One it does
    /// not read may have been moved. Returns those snapshots' `let`s too.
    fn hide_shadowed(
        &mut self,
        local: &Local,
        shadowing: &[Binding],
        outer_len: usize,
    ) -> (Vec<Stmt>, Vec<(usize, Option<Ident>)>) {
        let reads = local
            .init
            .as_ref()
            .map(|init| super::syntax::names_in_expr(&init.expr))
            .unwrap_or_default();
        let mut snapshots = Vec::new();
        let mut hidden = Vec::new();
        for binding in shadowing {
            let Some(position) = self.scope[..outer_len]
                .iter()
                .rposition(|saved| saved.binding.ident == binding.ident)
                .filter(|&position| !self.scope[position].hidden)
            else {
                continue;
            };
            self.scope[position].hidden = true;
            let ident = self.scope[position].binding.ident.clone();
            let mut previous = None;
            if self.scope[position].via.is_none()
                && self.scope[position].dead.is_some()
                && reads.contains(&ident.to_string())
            {
                let (snapshot, taken) = self.snapshot_of(&ident, None);
                snapshots.push(taken);
                if let Some((_, current)) = &mut self.scope[position].dead {
                    previous = Some(std::mem::replace(current, snapshot));
                }
            }
            hidden.push((position, previous));
        }
        (snapshots, hidden)
    }

    /// For each statement, the bindings its `let` declares that some later ask of the block is
    /// about to give a new value, after a read that may have moved them. See `overwritten`.
    fn overwritten_in(&self, stmts: &[Stmt], asks: &[Vec<u32>]) -> Vec<Vec<(Ident, Overwritten)>> {
        stmts
            .iter()
            .enumerate()
            .map(|(index, stmt)| match stmt {
                Stmt::Local(local)
                    if local.init.is_some() && asks[index + 1..].iter().any(|a| !a.is_empty()) =>
                {
                    pattern_bindings(&local.pat)
                        .into_iter()
                        .filter(|binding| !kept_for_drop(&binding.ident))
                        .map(|binding| {
                            let found = overwritten_asks(
                                &stmts[index + 1..],
                                &binding.ident,
                                &self.captures,
                            );
                            (binding.ident, found)
                        })
                        .filter(|(_, found)| found.needs_snapshot())
                        .collect()
                }
                _ => Vec::new(),
            })
            .collect()
    }

    /// `x = value;` that an ask follows in this block, where `x` may have been moved and `value`
    /// does not read it: the position of the `x` it replaces. It is lowered as a `let` is,
    /// restored there on resume, and saved from then on as a binding of its own; the one it
    /// replaces is saved from its snapshot, a value of its type that nothing reads.
    fn given_anew(&self, assign: &syn::ExprAssign) -> Option<usize> {
        let name = overwritten_by(assign, &self.captures)?;
        let position = self
            .scope
            .iter()
            .rposition(|saved| saved.binding.ident == *name)?;
        let saved = &self.scope[position];
        let may_be_moved = saved
            .overwritten
            .as_ref()
            .is_some_and(|overwrite| overwrite.given_anew);
        (saved.via.is_none() && may_be_moved).then_some(position)
    }

    /// A snapshot of the binding `ident`, read through `via` (its alias) if given: the
    /// snapshot's hidden name, and the `let` that takes it, spanned at `ident`.
    fn snapshot_of(&mut self, ident: &Ident, via: Option<&Ident>) -> (Ident, Stmt) {
        self.aliases += 1;
        let snapshot = idents::snapshot(self.aliases);
        let machine = &self.machine;
        let target = match via {
            Some(alias) => quote!(#alias),
            None => quote_spanned!(ident.span()=> &#ident),
        };
        let taken = parse_stmt(quote_spanned! {ident.span()=>
            let #snapshot = #machine.snapshot(#target);
        });
        (snapshot, taken)
    }

    /// Just after a `let`: a binding it declared that `overwritten_in` found is snapshot here,
    /// where it surely holds a value, and saved from that snapshot at the asks that overwrite it.
    fn snapshot_overwritten(
        &mut self,
        declared_from: usize,
        overwritten: &[(Ident, Overwritten)],
    ) -> Vec<Stmt> {
        let mut snapshots = Vec::new();
        for position in declared_from..self.scope.len() {
            let ident = self.scope[position].binding.ident.clone();
            let Some((_, found)) = overwritten.iter().find(|(name, _)| *name == ident) else {
                continue;
            };
            let (snapshot, taken) = self.snapshot_of(&ident, None);
            snapshots.push(taken);
            self.scope[position].overwritten = Some(Overwrite {
                asks: found.asks.clone(),
                snapshot,
                given_anew: found.given_anew,
            });
        }
        snapshots
    }

    /// Before a statement that holds asks: a binding of this block that the statement reads
    /// last, and consumes before some of its asks, is saved at those asks from a snapshot
    /// taken here. See `liveness`.
    fn snapshot_dead(
        &mut self,
        stmt: &Stmt,
        block_start: usize,
        later: &BTreeSet<String>,
    ) -> Vec<Stmt> {
        let mut snapshots = Vec::new();
        for position in block_start..self.scope.len() {
            let ident = self.scope[position].binding.ident.clone();
            // A binding given anew here is an outer one, whose value outlives this block.
            if kept_for_drop(&ident) || self.scope[position].given_anew_of.is_some() {
                continue;
            }
            let mut dead = super::liveness::dead_asks(stmt, &ident, &self.captures);
            // What follows the statement runs after none of its asks that `return`.
            if later.contains(&ident.to_string()) {
                let returning = super::liveness::returning_asks(stmt, &ident);
                dead.retain(|ask| returning.contains(ask));
            }
            // Saved from the snapshot taken after its `let`: it may be moved by now.
            if let Some(overwrite) = &self.scope[position].overwritten {
                dead.retain(|ask| !overwrite.asks.contains(ask));
            }
            if dead.is_empty() {
                continue;
            }
            let via = self.scope[position].via.clone();
            let (snapshot, taken) = self.snapshot_of(&ident, via.as_ref());
            snapshots.push(taken);
            self.scope[position].dead = Some((dead, snapshot));
        }
        snapshots
    }

    /// A binding of an outer block saved at an ask of `stmt` from a snapshot was snapshot
    /// before the outer statement, and the statements of this block before `stmt` may have
    /// changed it since. When `stmt` holds that ask and reads the binding, which it may do
    /// again on resume (`f(x, if c { ask!(..) } else { 0 })` evaluates `x` again), the
    /// snapshot is taken again here. `asks` are `stmt`'s; `renewed` gets the snapshots replaced,
    /// to put back once `stmt` is lowered.
    fn snapshot_again(
        &mut self,
        stmt: &Stmt,
        asks: &[u32],
        block_start: usize,
        renewed: &mut Vec<(usize, Ident)>,
    ) -> Vec<Stmt> {
        let names = with_captures(super::syntax::names_in_stmt(stmt), &self.captures);
        let mut snapshots = Vec::new();
        for position in 0..block_start {
            let saved = &self.scope[position];
            let Some((dead, previous)) = &saved.dead else {
                continue;
            };
            let ident = saved.binding.ident.clone();
            let shadowed = saved.via.is_some()
                || saved.hidden
                || self.scope[position + 1..]
                    .iter()
                    .any(|later| later.binding.ident == ident);
            if shadowed
                || !asks.iter().any(|ask| dead.contains(ask))
                || !names.contains(&ident.to_string())
            {
                continue;
            }
            let previous = previous.clone();
            let (snapshot, taken) = self.snapshot_of(&ident, None);
            snapshots.push(taken);
            if let Some((_, current)) = &mut self.scope[position].dead {
                *current = snapshot;
            }
            renewed.push((position, previous));
        }
        snapshots
    }

    /// `x = x + &ask!(..)..;` on a binding `x` of an outer block (one of this block is
    /// `snapshot_dead`'s): the statement may consume `x` before its ask and gives it a new value
    /// after it, which is what the statements after it read. So `x` is saved at the ask from a
    /// snapshot taken before the statement, which resuming into the statement reads again.
    /// Returns the snapshot's `let`, and the binding's position with what to put back once the
    /// statement is lowered.
    fn snapshot_reassigned(
        &mut self,
        stmt: &Stmt,
        name: &Ident,
        block_start: usize,
    ) -> (Option<Stmt>, Option<(usize, Option<DeadAt>)>) {
        if self.scope[block_start..]
            .iter()
            .any(|saved| saved.binding.ident == *name && saved.given_anew_of.is_none())
        {
            return (None, None);
        }
        let Some(position) = self
            .scope
            .iter()
            .rposition(|saved| saved.binding.ident == *name)
        else {
            return (None, None);
        };
        let saved = &self.scope[position];
        if saved.via.is_some() || saved.hidden || kept_for_drop(name) {
            return (None, None);
        }
        let dead = super::liveness::dead_asks(stmt, name, &self.captures);
        let covered = saved
            .dead
            .as_ref()
            .is_some_and(|(already, _)| dead.iter().any(|ask| already.contains(ask)));
        if dead.is_empty() || covered {
            return (None, None);
        }
        let previous = saved.dead.clone();
        let (snapshot, stmt) = self.snapshot_of(name, None);
        self.scope[position].dead = Some((dead, snapshot));
        (Some(stmt), Some((position, previous)))
    }

    /// A `let` in an inner block that shadows a saved binding of an outer block: the outer one
    /// can no longer be named, yet is still saved at the asks that follow (`following`, in this
    /// block). Borrow it under a hidden name first, and save it through that.
    fn alias_shadowed(
        &mut self,
        local: &Local,
        shadowing: &[Binding],
        outer_len: usize,
        following: &BTreeSet<u32>,
    ) -> Vec<(usize, Stmt)> {
        let mut aliases = Vec::new();
        for binding in shadowing {
            let Some(position) = self.scope[..outer_len]
                .iter()
                .rposition(|saved| saved.via.is_none() && saved.binding.ident == binding.ident)
            else {
                continue;
            };
            // Saved from its snapshot at each ask that follows: it need not be named, and it
            // may have been moved (`match name { Some(name) => .. }`).
            if let Some((dead, _)) = &self.scope[position].dead
                && following.is_subset(dead)
            {
                continue;
            }
            // The borrow is taken before the `let`, so the `let` may not change the outer one.
            if let Some(init) = &local.init
                && changes(&init.expr, &binding.ident)
            {
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "this `let` shadows an outer `{0}` that is saved at a later `ask!`, and \
                         the statements folded into it change that outer `{0}` first (as \
                         `{0} += 1;` just before a shadowing `let {0} = ..` does). Give this \
                         binding another name",
                        binding.ident
                    ),
                );
                continue;
            }
            let outer = &mut self.scope[position];
            self.aliases += 1;
            let alias = idents::outer(self.aliases);
            let ident = &outer.binding.ident;
            aliases.push((position, parse_stmt(quote!(let #alias = &#ident;))));
            outer.via = Some(alias);
        }
        aliases
    }

    /// `x = value;` that gives a `let x;` left before an ask its value: `x = if m.passed(end)
    /// { m.restore().await } else { value };`, as a `let` with a value would be.
    fn lower_given(&mut self, mut assign: syn::ExprAssign, binding: &Binding, end: u32) -> Stmt {
        self.lower_expr(&mut assign.right);
        let machine = &self.machine;
        let span = binding.ident.span();
        let restore = quote_spanned! {span=> #machine.restore().await };
        let left = &assign.left;
        let value = Block {
            brace_token: Default::default(),
            stmts: vec![Stmt::Expr(*assign.right, None)],
        };
        parse_stmt(quote! { #left = if #machine.passed(#end) { #restore } else #value; })
    }

    fn lower_stmt(&mut self, stmt: Stmt, ask_follows: bool, end: u32) -> Stmt {
        let machine = self.machine.clone();
        match stmt {
            Stmt::Local(local) => self.lower_local(local, ask_follows, end),
            Stmt::Item(item) => Stmt::Item(item),
            Stmt::Expr(mut expr, semi) => {
                self.lower_expr(&mut expr);
                if !ask_follows {
                    return Stmt::Expr(expr, semi);
                }
                parse_stmt(quote! { if !#machine.passed(#end) { #expr #semi } })
            }
            Stmt::Macro(mac) => {
                if !ask_follows {
                    return Stmt::Macro(mac);
                }
                if declares_nothing(&mac.mac.path) {
                    return parse_stmt(quote! { if !#machine.passed(#end) { #mac } });
                }
                // A `let` the macro expands to would end with this block, unseen by what
                // follows the ask; rustc then finds it unused, which is made an error here.
                let deny = quote_spanned! {mac.mac.path.span()=> #[deny(unused_variables)] };
                parse_stmt(quote! { if !#machine.passed(#end) { #deny { #mac } } })
            }
        }
    }

    fn lower_local(&mut self, local: Local, ask_follows: bool, end: u32) -> Stmt {
        let borrowing = self.borrowing_let(&local);
        let names: Vec<String> = pattern_bindings(&local.pat)
            .iter()
            .map(|binding| binding.ident.to_string())
            .collect();
        let lowered = self.lower_local_in_scope(local, ask_follows, end);
        self.lets
            .extend(names.into_iter().map(|name| (name, borrowing)));
        lowered
    }

    /// Whether `copy`, bound by a `let` whose value is `init`, copies `source` from a `let`
    /// that holds a borrow of a local: one before it in `init`'s own block, where lowering
    /// gathered the statements before an ask (`let label = { let name = ..; let label = name;
    /// label };`), else the nearest in scope.
    fn copies_borrow(&self, init: Option<&Expr>, copy: &Ident, source: &Ident) -> bool {
        if let Some(Expr::Block(block)) = init
            && let Some((at, _)) = last_binding(&block.block.stmts, copy)
            && let Some((_, source_let)) = last_binding(&block.block.stmts[..at], source)
        {
            return self.borrowing_let(source_let);
        }
        self.bound_to_borrow(source)
    }

    /// Whether `local` holds a borrow of a local not of `static_locals`: made again by
    /// `remade`, or a pick it would make again (`remade::borrow_pick`).
    fn borrowing_let(&self, local: &Local) -> bool {
        let Some(init) = &local.init else {
            return false;
        };
        let value = match &*init.expr {
            Expr::Call(call) if remade_let(local) => call.args.first(),
            value if borrow_pick(value) => Some(value),
            _ => None,
        };
        value
            .and_then(root_ident)
            .is_some_and(|root| local_name(root, &self.static_locals))
    }

    /// Whether the nearest `let` in scope that binds `name` holds a borrow of a local.
    fn bound_to_borrow(&self, name: &Ident) -> bool {
        self.lets
            .iter()
            .rev()
            .find(|(bound, _)| name == bound)
            .is_some_and(|(_, borrowing)| *borrowing)
    }

    fn lower_local_in_scope(&mut self, mut local: Local, ask_follows: bool, end: u32) -> Stmt {
        let bindings = pattern_bindings(&local.pat);
        // Taken before the value is lowered, whose own `let`s are not the one meant.
        let given_inside = self.given_inside.take();
        if let Some(init) = &mut local.init {
            self.lower_expr(&mut init.expr);
            if let Some((_, diverge)) = &mut init.diverge {
                self.lower_expr(diverge);
            }
        }
        // Made again on every round from what it captures, which is saved instead.
        if !ask_follows || made_every_round(&local) {
            return Stmt::Local(local);
        }
        let machine = self.machine.clone();
        if bindings.is_empty() {
            return parse_stmt(quote! { if !#machine.passed(#end) { #local } });
        }
        self.check_saveable(&local, &bindings);
        let Some(init) = local.init.take() else {
            return Stmt::Local(local);
        };
        // One restore per binding, each spanned at its own name, in declaration order.
        let restores: Vec<TokenStream> = bindings
            .iter()
            .map(|binding| {
                let span = binding.ident.span();
                quote_spanned! {span=> #machine.restore().await }
            })
            .collect();
        let restore = match restores.as_slice() {
            [one] => one.clone(),
            many => quote!((#(#many),*)),
        };
        let restore = match given_inside {
            Some(given) => {
                let ident = given.ident.clone();
                let span = ident.span();
                let given_restore = quote_spanned! {span=> #machine.restore().await };
                self.scope.push(Saved {
                    binding: given,
                    via: None,
                    hidden: false,
                    dead: None,
                    overwritten: None,
                    given_anew_of: None,
                });
                quote!({ #ident = #given_restore; #restore })
            }
            None => restore,
        };
        let attrs = &local.attrs;
        let plain =
            |pat: &Pat| matches!(pat, Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none());
        let simple = match &local.pat {
            Pat::Type(typed) => plain(&typed.pat),
            Pat::Tuple(tuple) => tuple.elems.iter().all(plain),
            pat => plain(pat),
        };
        let tokens = if simple && init.diverge.is_none() {
            let pat = &local.pat;
            // As a block, so that syn parenthesizes a value a block would otherwise cut short
            // (`{ 1 } as i64`).
            let value = Block {
                brace_token: Default::default(),
                stmts: vec![Stmt::Expr((*init.expr).clone(), None)],
            };
            quote! { #(#attrs)* let #pat = if #machine.passed(#end) { #restore } else #value; }
        } else {
            let mut inner = local.pat.clone();
            strip_mut(&mut inner);
            let value = &init.expr;
            let diverge = init
                .diverge
                .as_ref()
                .map(|(else_token, block)| quote!(#else_token #block));
            let outer = bindings_tuple(&bindings, true);
            let names = bindings_tuple(&bindings, false);
            quote! {
                #(#attrs)*
                let #outer = if #machine.passed(#end) {
                    #restore
                } else {
                    let #inner = #value #diverge;
                    #names
                };
            }
        };
        self.scope.extend(bindings.into_iter().map(|binding| Saved {
            binding,
            via: None,
            hidden: false,
            dead: None,
            overwritten: None,
            given_anew_of: None,
        }));
        parse_stmt(tokens)
    }

    fn check_saveable(&mut self, local: &Local, bindings: &[Binding]) {
        if let Some(cfg) = local.attrs.iter().find(|attr| attr.path().is_ident("cfg")) {
            let names = bindings
                .iter()
                .map(|binding| format!("`{}`", binding.ident))
                .collect::<Vec<_>>()
                .join(", ");
            self.diagnostics.error(
                cfg,
                format!(
                    "{names} {is} held across an `ask!`, and `#[mrtr_tool]` sees the body before \
                     `#[cfg]` is applied, so it cannot tell whether this `let` exists. Choose the \
                     value with `cfg!` instead: `let {0} = if cfg!(..) {{ .. }} else {{ .. }};`",
                    bindings[0].ident,
                    is = if bindings.len() > 1 { "are" } else { "is" },
                ),
            );
        }
        if local.init.is_none() && bindings.len() > 1 {
            self.diagnostics.error(
                &local.pat,
                "this pattern is declared without a value before an `ask!`, so its bindings \
                 cannot be saved there. Give it its value where you declare it: \
                 `let (a, b) = ..;`",
            );
        } else if local.init.is_none() {
            self.diagnostics.error(
                &local.pat,
                format!(
                    "`{0}` is declared without a value before an `ask!`, so it cannot be saved \
                     there. Give it a value where you declare it, or in the next statement of \
                     its block that names it: `{0} = value;`, or, with no other `let` between, \
                     an `if` or `match` each of whose branches assigns `{0} = value;` before \
                     anything else names it, or returns",
                    bindings[0].ident
                ),
            );
        }
        for binding in bindings.iter().filter(|b| b.by_ref) {
            self.diagnostics.error(
                &binding.ident,
                format!(
                    "`ref {0}` borrows across an `ask!`, and a borrow cannot be saved into \
                     `requestState`. Bind an owned value instead: remove `ref`, or clone it",
                    binding.ident
                ),
            );
        }
        // A `&'static str` reads back from a state; `&str` does when the value is a literal.
        let reference = match &local.pat {
            Pat::Type(t) => match &*t.ty {
                syn::Type::Reference(reference) => Some(reference),
                _ => None,
            },
            _ => None,
        };
        let init_expr = local.init.as_ref().map(|init| &*init.expr);
        let reference_type = reference.is_some_and(|r| !static_str(r, init_expr));
        let str_reference = reference.is_some_and(str_type);
        let single = bindings.len() == 1;
        for binding in bindings {
            let init = local
                .init
                .as_ref()
                .and_then(|init| declaring_init(&init.expr, &binding.ident));
            if idents::is_bound_first(&binding.ident) {
                let unsaved = init.filter(|init| {
                    borrowed_from_item(init, &self.borrowing_items).is_some()
                        || iterates(init)
                        || picks_borrow(init).is_some()
                        || borrows(init)
                });
                if let Some(operand) = unsaved {
                    self.diagnostics.error(
                        operand,
                        "this value is computed before the `ask!` of its statement, so it is \
                         saved at the ask, and it borrows, which cannot be saved into \
                         `requestState`. Pass an owned value (`.to_owned()`, `.cloned()`, \
                         `.to_string()`), or ask first in a statement of its own: \
                         `let answer = ask!(..);`, then use `answer`",
                    );
                }
                continue;
            }
            if single
                && let Some(item) =
                    init.and_then(|init| borrowed_from_item(init, &self.borrowing_items))
            {
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "`{0}` holds a reference from `{1}` across an `ask!` (`{1}`'s type \
                         holds a `&` other than `&str`, such as `&[T]`): it cannot be read \
                         back from `requestState`. Hold owned values instead (`.to_vec()`, \
                         `.clone()`), or name `{1}` again after the ask instead of holding it",
                        binding.ident, item
                    ),
                );
                continue;
            }
            if !reference_type && init.is_some_and(iterates) {
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "`{0}` holds an iterator over borrowed data across an `ask!`, and it \
                         cannot be saved into `requestState`. Collect the items into a `Vec` of \
                         owned values before the ask (`.map(str::to_owned).collect::<Vec<_>>()`, \
                         `.cloned().collect::<Vec<_>>()`) and iterate that after it; or, to ask \
                         for each item, walk it with a `for` loop whose body asks \
                         (`for line in text.lines() {{ .. }}`): mrtr reads such a loop's items \
                         again on resume from what they borrow",
                        binding.ident
                    ),
                );
                continue;
            }
            // An annotated type says what the value is (`let n: i64 = row.get(0)?;`).
            let annotated = matches!(&local.pat, Pat::Type(_));
            if let Some(call) = init.and_then(picks_borrow).filter(|_| !annotated) {
                let arguments = if call.args.is_empty() { "" } else { ".." };
                let method = format!("{}({arguments})", call.method);
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "`{0}` holds a borrow across an `ask!`: `.{1}` hands out a reference \
                         into what it is called on, and a borrow cannot be saved into \
                         `requestState`. Hold an owned copy: add `.cloned()` right after \
                         `.{1}`, or `.map(str::to_owned)` where it gives a `&str`. If `.{1}` \
                         gives an owned value already, name its type: `let {0}: Type = ..`{2}",
                        binding.ident,
                        method,
                        not_remade_hint(init),
                    ),
                );
                continue;
            }
            let annotation = match &local.pat {
                Pat::Type(typed) => Some(&*typed.ty),
                _ => None,
            };
            if init.is_some_and(|init| collects_borrows(init, annotation, &self.static_locals)) {
                let remade = match binding.mutable {
                    // Made again, it would lose what the body changes in it.
                    true => format!(
                        "mrtr collects an iterator over what the tool holds again on resume, \
                         rather than saving it, but not into a `mut` local: what the tool \
                         changes in `{0}` after (`{0}.sort()`, `{0}.push(..)`) would be lost",
                        binding.ident
                    ),
                    false => format!(
                        "mrtr collects again on resume, rather than saving, an iterator over \
                         what the tool holds whose `map` only picks (`.map(str::trim)`, \
                         `.map(|s| s.trim())`) and whose `filter` only reads \
                         (`.filter(|s| !s.is_empty())`), but not one that calls other code{}",
                        not_remade_hint(init)
                    ),
                };
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "`{0}` holds references collected from an iterator across an `ask!`, \
                         and a borrow cannot be saved into `requestState`. Collect owned \
                         values: `.map(str::to_owned)` before `.collect()` for `&str` items, \
                         `.cloned()` for others, into `Vec<String>` or the like. {1}",
                        binding.ident, remade,
                    ),
                );
                continue;
            }
            let copied = init.and_then(|init| match init {
                Expr::Path(path) if path.qself.is_none() => path.path.get_ident(),
                _ => None,
            });
            // Not one mrtr wrote (`let __mrtr_kept1 = name;`).
            let written = binding.ident.to_string().starts_with("__mrtr");
            let whole = local.init.as_ref().map(|init| &*init.expr);
            if let Some(source) = copied.filter(|source| {
                single && !written && self.copies_borrow(whole, &binding.ident, source)
            }) {
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "`{0}` holds a copy of `{1}` across an `ask!`, and `{1}` is a borrow, \
                         which cannot be saved into `requestState`. Read `{1}` itself after the \
                         ask, or hold an owned value: `{1}.to_owned()`. mrtr makes a plain copy \
                         of a borrow it makes again on resume again too, rather than saving it, \
                         where no later statement of its block binds `{1}` again, and where \
                         `{0}` is bound nowhere else in the tool where an ask outlives it but by \
                         a copy of the same",
                        binding.ident, source,
                    ),
                );
                continue;
            }
            if reference_type
                || init
                    .is_some_and(|init| borrows(init) || maps_to_borrow(init, &self.static_locals))
            {
                let or_static = match str_reference {
                    true => format!(
                        ", or, if it is a `&'static str` (a literal's, or a `const` item's), \
                         say so: `let {}: &'static str = ..`",
                        binding.ident
                    ),
                    false => String::new(),
                };
                let of_self = match init.and_then(root_ident) {
                    Some(root) if root == "self" => {
                        ". It borrows from `self`, which is not saved (another instance may take \
                         the retry): name `self`'s field again after the ask instead of holding \
                         a borrow of it"
                    }
                    _ => "",
                };
                let mapped = match init {
                    Some(init) if !borrows(init) && !reference_type => {
                        " in the closure (`.map(|i| items[i].trim().to_owned())`), or \
                         `.cloned()` right after it where it gives an `Option<&T>`"
                    }
                    _ => "",
                };
                self.diagnostics.error(
                    &binding.ident,
                    format!(
                        "`{0}` holds a borrow across an `ask!`, and a borrow cannot be saved into \
                         `requestState`. Hold an owned value: `.to_owned()`, `.clone()` or \
                         `.to_string()`{mapped}{or_static}{of_self}{1}{2}",
                        binding.ident,
                        not_remade_hint(init),
                        chosen_hint(init),
                    ),
                );
            }
        }
    }

    fn lower_expr(&mut self, expr: &mut Expr) {
        let mut rewriter = Rewriter { lowering: self };
        rewriter.visit_expr_mut(expr);
    }

    /// `ask!(start_task())`: the call becomes a task here, if it can be one, and goes on.
    fn lower_task_start(&self, question: &Expr, span: proc_macro2::Span) -> Expr {
        let machine = idents::located(&self.machine, span);
        let path = self
            .task_start
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::mrtr::ask));
        syn::parse_quote_spanned!(span=> #path!(@lowered #machine.start_task(#question)))
    }

    fn lower_ask(&mut self, id: u32, question: &Expr) -> Expr {
        self.high = self.high.max(id);
        let Some(site) = self.asks.remove(&id) else {
            return syn::parse_quote!(::core::unreachable!());
        };
        let keys = &site.keys;
        let question = if site.several {
            quote!(::mrtr::__private::All(#question))
        } else {
            quote!(#question)
        };
        // Located at the ask, so that type errors of the call point there, not at the attribute.
        let machine = idents::located(&self.machine, site.span);
        let saver = &self.saver;
        let replaced: BTreeSet<usize> = self.scope.iter().filter_map(|s| s.given_anew_of).collect();
        let saves = self.scope.iter().enumerate().map(|(position, saved)| {
            let ident = &saved.binding.ident;
            // A lifetime error of the save (a borrow not `'static`) points at the name.
            let saver = idents::located(saver, ident.span());
            let dead = saved
                .dead
                .as_ref()
                .filter(|(asks, _)| asks.contains(&id))
                .map(|(_, snapshot)| snapshot);
            let overwritten = saved
                .overwritten
                .as_ref()
                .filter(|o| o.asks.contains(&id) || replaced.contains(&position))
                .map(|o| &o.snapshot);
            match (dead.or(overwritten), &saved.via) {
                (Some(snapshot), _) => {
                    quote_spanned! {ident.span()=> #saver.save_snapshot(&#snapshot); }
                }
                (None, Some(alias)) => quote_spanned! {ident.span()=> #saver.save(#alias); },
                (None, None) => quote_spanned! {ident.span()=> #saver.save(&#ident); },
            }
        });
        let id_lit = proc_macro2::Literal::u32_suffixed(id);
        let path = &site.path;
        syn::parse2(quote_spanned! {site.span=>
            #path!(@lowered #machine.ask(#id_lit, &[#(#keys),*], |#saver| {
                #(#saves)*
                #question
            }).await)
        })
        .unwrap_or_else(|error| {
            let message = format!(
                "internal error in mrtr: a rewritten `ask!` does not parse ({error}); please report it"
            );
            syn::parse_quote!(::core::compile_error!(#message))
        })
    }
}

/// The expression that gives `name` its value: `init` itself, or, when `init` is a block that
/// scope narrowing made, the initializer of the `let` inside it that declares `name`.
fn declaring_init<'e>(init: &'e Expr, name: &Ident) -> Option<&'e Expr> {
    let Expr::Block(block) = init else {
        return Some(init);
    };
    block.block.stmts.iter().rev().find_map(|stmt| match stmt {
        Stmt::Local(local)
            if pattern_bindings(&local.pat)
                .iter()
                .any(|b| b.ident == *name) =>
        {
            local.init.as_ref().map(|init| &*init.expr)
        }
        _ => None,
    })
}

/// Whether `expr` assigns to `name` or borrows it mutably.
fn changes(expr: &Expr, name: &Ident) -> bool {
    struct Changes<'n> {
        name: &'n Ident,
        found: bool,
    }
    impl<'ast> syn::visit::Visit<'ast> for Changes<'_> {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            let target = match expr {
                Expr::Reference(reference) if reference.mutability.is_some() => {
                    Some(&*reference.expr)
                }
                other => assigned_place(other),
            };
            if let Some(Expr::Path(path)) = target
                && path.path.is_ident(self.name)
            {
                self.found = true;
            }
            syn::visit::visit_expr(self, expr);
        }
    }
    let mut changes = Changes { name, found: false };
    syn::visit::Visit::visit_expr(&mut changes, expr);
    changes.found
}

/// The statement macros of std, `tracing` and `log` that print, check or log, and declare no
/// binding.
fn declares_nothing(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|last| {
        let name = last.ident.to_string();
        PRINTING_MACROS.contains(&name.as_str()) || name == "dbg"
    })
}

/// A binding saved at the asks in its scope, directly or through an alias.
struct Saved {
    binding: Binding,
    /// Set once an inner block shadows the binding: a reference to it under a hidden name.
    via: Option<Ident>,
    /// Set while an inner block's `let` made again on every round binds the same name: the
    /// name there is that `let`'s, so the binding is not snapshot by name.
    hidden: bool,
    /// The asks at which the binding is dead, and the snapshot saved there instead.
    dead: Option<DeadAt>,
    /// Where the binding is dead because an assignment gives it a new value, and its snapshot.
    overwritten: Option<Overwrite>,
    /// Set for a binding given anew by `x = value;` (`given_anew`): the position of the one
    /// it replaces, which is saved from its snapshot while this one is in scope.
    given_anew_of: Option<usize>,
}

/// A binding that some asks find about to get a new value, or that an assignment gives one
/// after it may have been moved. See `overwritten`.
#[derive(Clone)]
struct Overwrite {
    /// The asks at which it is about to get a new value.
    asks: BTreeSet<u32>,
    /// Taken just after its `let`: a value of its type, saved where its own is dead.
    snapshot: Ident,
    /// Whether `x = value;` gives it anew (`given_anew`).
    given_anew: bool,
}

/// Asks at which a binding is dead, and the snapshot of it saved there instead.
type DeadAt = (BTreeSet<u32>, Ident);

/// Replaces ask markers, and lowers blocks that are entered on the way to an ask point.
struct Rewriter<'l, 'a> {
    lowering: &'l mut Lowering<'a>,
}

impl VisitMut for Rewriter<'_, '_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if let Some((id, question)) = ask_marker(expr) {
            *expr = self.lowering.lower_ask(id, &question.clone());
            return;
        }
        if let Some(question) = task_start_marker(expr) {
            *expr = self.lowering.lower_task_start(question, expr.span());
            return;
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    /// Every block that holds an ask point is entered on the way to it: a branch, a loop body,
    /// an arm, or a plain block.
    fn visit_block_mut(&mut self, block: &mut Block) {
        if block
            .stmts
            .iter()
            .any(|stmt| !asks_in_stmt(stmt).is_empty())
        {
            self.lowering.lower_block(block);
        } else {
            visit_mut::visit_block_mut(self, block);
        }
    }
}

/// `x = ..x..;` or `x.field = ..x..;`: the local a statement gives a new value, wholly or a
/// field of it, when the new value reads the local (and so may consume it, or the field,
/// before an ask in it).
fn reassigned_by(stmt: &Stmt) -> Option<Ident> {
    let Stmt::Expr(Expr::Assign(assign), _) = stmt else {
        return None;
    };
    let mut place = &*assign.left;
    while let Expr::Field(field) = place {
        place = &field.base;
    }
    let Expr::Path(path) = place else {
        return None;
    };
    let ident = path.path.get_ident()?;
    super::syntax::names_in_expr(&assign.right)
        .contains(&ident.to_string())
        .then(|| ident.clone())
}

/// The names a `let` binds again, which the statements after it read instead of the old ones.
fn rebound_by(stmt: &Stmt) -> Vec<String> {
    match stmt {
        Stmt::Local(local) => pattern_bindings(&local.pat)
            .into_iter()
            .map(|binding| binding.ident.to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// For the error on a binding held across an ask whose value is an `if` that borrows: when
/// mrtr chooses one again on resume.
fn chosen_hint(value: Option<&Expr>) -> &'static str {
    if matches!(value, Some(Expr::If(_))) && value.is_some_and(|v| !borrow_pick(v)) {
        ". mrtr chooses an `if` again on resume, rather than saving what it chose, when its \
         test only reads locals (comparisons, `len`, `is_empty`, `starts_with` and the like) \
         and each branch is a string literal or a borrow made again, but not this one"
    } else {
        ""
    }
}

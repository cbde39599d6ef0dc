//! Part of stage 3: rewrite the control flow that holds ask points into forms the resume
//! cursor handles with `let`s and skipped statements alone.
//!
//! - `if c { a } else { b }`: the branch that holds the resume point is taken without
//!   evaluating `c` again: `if m.resuming_within(a..) || (!m.resuming_within(b..) && c)`.
//! - `if let p = e { a } else { b }` becomes `match e { p => a, _ => b }`.
//! - `if let p = e && c { a } else { b }`, a `let` chain, becomes `match chain { Some((x, ..))
//!   => a, None => b }`, and `while` with a chain a `loop` that `break`s when it fails
//!   (`let_chains`). An ask in the chain itself is refused.
//! - `match e { p => a, .. }`: a local enum names the arm to enter. On resume it is picked by
//!   the resume point and `e` is not evaluated; otherwise `e` is matched and the arm's
//!   bindings travel in the enum. Each arm body starts with a `let` of its bindings, which
//!   restores them like any other `let`.
//! - `while c { .. }` becomes `loop { if !(c) { break; } .. }`; the test is a statement that
//!   a resumed round skips. `while let` likewise, with a `let` of the pattern's bindings.
//! - `for p in e { .. }` collects `e` into a `VecDeque` held in a `let`, so the items not yet
//!   visited are saved with the state, and pops one per iteration into a `let` of `p`.
//! - `loop` needs nothing: a resumed round enters its body and skips to the resume point.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{
    Arm, Block, Expr, Ident, Pat, Stmt,
    spanned::Spanned,
    visit_mut::{self, VisitMut},
};

use super::{
    borrowed_items::{borrowed_items, reference_items},
    idents,
    let_chains::Chain,
    scopes::{StmtFacts, facts},
    syntax::{
        Captures, OWNING_METHODS, ask_marker_id, asks_in_expr, assigned_place, bindings_tuple,
        contains_let, is_assign_op, kept_for_drop, pattern_bindings,
    },
};
use crate::diagnostics::Diagnostics;

pub(crate) fn desugar(body: &mut Block, machine: &Ident, diagnostics: &mut Diagnostics) {
    let mut desugar = Desugar {
        machine: machine.clone(),
        next_id: 0,
        diagnostics,
        outer_items: Vec::new(),
    };
    desugar.visit_block_mut(body);
}

struct Desugar<'d> {
    machine: Ident,
    next_id: u32,
    diagnostics: &'d mut Diagnostics,
    /// The items of the borrowed loops around, that hold references (`borrowed_items`).
    outer_items: Vec<String>,
}

/// The first and last ask point inside `expr`, if any.
fn ask_range(expr: &Expr) -> Option<(u32, u32)> {
    let asks = asks_in_expr(expr);
    Some((*asks.iter().min()?, *asks.iter().max()?))
}

fn block_range(block: &Block) -> Option<(u32, u32)> {
    ask_range(&block_expr(block))
}

impl VisitMut for Desugar<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if ask_marker_id(expr).is_some() {
            return;
        }
        // Closures, async blocks and items hold no ask points (analyze rejected those).
        if matches!(expr, Expr::Closure(_) | Expr::Async(_)) {
            return;
        }
        let outer = self.outer_items.len();
        if let Expr::ForLoop(e) = expr {
            self.enter_for(e);
        }
        visit_mut::visit_expr_mut(self, expr);
        self.outer_items.truncate(outer);
        let rewritten = match expr {
            Expr::If(e)
                if e.then_branch.stmts.iter().any(has_ask)
                    || e.else_branch
                        .as_ref()
                        .is_some_and(|(_, b)| ask_range(b).is_some()) =>
            {
                self.desugar_if(e)
            }
            Expr::Match(e) if e.arms.iter().any(|arm| ask_range(&arm.body).is_some()) => {
                self.desugar_match(e)
            }
            Expr::While(e) if block_range(&e.body).is_some() || ask_range(&e.cond).is_some() => {
                self.desugar_while(e)
            }
            Expr::ForLoop(e) if block_range(&e.body).is_some() => self.desugar_for(e),
            Expr::Call(_) | Expr::MethodCall(_) => argument_first(expr),
            _ => None,
        };
        if let Some(rewritten) = rewritten {
            *expr = rewritten;
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    /// A `for` statement becomes two statements of the same block, the `let` of its items and
    /// the loop, so that the narrowing pass sees where the iterable is consumed.
    fn visit_block_mut(&mut self, block: &mut Block) {
        let stmts = scrutinees_in_place(std::mem::take(&mut block.stmts));
        for mut stmt in stmts {
            if let Some(as_match) = let_else_as_match(&stmt) {
                stmt = as_match;
            }
            if let Some(operand_first) = operand_first(&stmt, self.diagnostics) {
                stmt = operand_first;
            }
            if let Stmt::Expr(Expr::ForLoop(for_loop), _) = &mut stmt
                && block_range(&for_loop.body).is_some()
            {
                let outer = self.outer_items.len();
                self.enter_for(for_loop);
                visit_mut::visit_expr_for_loop_mut(self, for_loop);
                self.outer_items.truncate(outer);
                if let Some((items, looping)) = self.desugar_for_parts(for_loop) {
                    block.stmts.push(items);
                    block.stmts.push(looping);
                    continue;
                }
            }
            self.visit_stmt_mut(&mut stmt);
            block.stmts.push(stmt);
        }
    }
}

/// `place op= ask!(..)..;` as `match ask!(..).. { operand => place op= operand }`: the answer
/// is read before the place is borrowed, as Rust does for numbers but not for a `String`
/// element (`names[0] += &ask!(..)..`), whose place would stay borrowed while the ask saves
/// `names`. The scrutinee keeps its temporaries (`..text.trim()`) to the end. A plain place
/// (`s`, `p.name`) needs none of this.
fn operand_first(stmt: &Stmt, diagnostics: &mut Diagnostics) -> Option<Stmt> {
    let Stmt::Expr(Expr::Binary(binary), semi) = stmt else {
        return None;
    };
    if !is_assign_op(&binary.op)
        || plain_place(&binary.left)
        || asks_in_expr(&binary.right).is_empty()
        || !asks_in_expr(&binary.left).is_empty()
    {
        return None;
    }
    if let Some(change) = change_in(&binary.left) {
        diagnostics.error(
            change,
            "this place changes a local and takes an answer: Rust reads the answer first for a \
             number and the place first for a `String`, so resumed, the change would run in \
             another order. Compute the place first: `let i = next(); v[i] += ask!(..)..`",
        );
        return None;
    }
    if let Some(exit) = exit_in(&binary.left) {
        diagnostics.error(
            exit,
            "this place can end the statement early and takes an answer: Rust evaluates the place \
             first for a `String` and the answer first for a number, so resumed, the question \
             would be asked where the straight run would not ask it. Check the place before the \
             `ask!` (`let i = find(..)?; v[i] += ask!(..)..`), or bind the answer first: \
             `let answer = ask!(..)..;`, then `place += answer;`",
        );
        return None;
    }
    let (place, op, value) = (&binary.left, &binary.op, &binary.right);
    let operand = idents::operand();
    let matched: Expr = syn::parse_quote!(match #value {
        #operand => #place #op #operand,
    });
    Some(Stmt::Expr(matched, *semi))
}

/// `f(&mut a, ask!(..)..)` as `match ask!(..).. { operand => f(&mut a, operand) }`: the ask
/// saves `a` through a shared borrow, which the `&mut a` taken before it, and held by the
/// call, would forbid (rustc's E0502 at the `ask!`). Likewise a closure made before it
/// (`retry(|| count += 1, ask!(..)..)`), which may borrow or take what the ask saves. What
/// comes before the argument that asks has no effect (`analyze` checks it), so reading the
/// answer first changes nothing else. A receiver borrowed by `.method(..)` itself needs none
/// of this: that borrow starts when the call is made.
fn argument_first(expr: &Expr) -> Option<Expr> {
    let (head, args) = match expr {
        Expr::Call(call) => (&*call.func, &call.args),
        Expr::MethodCall(call) => (&*call.receiver, &call.args),
        _ => return None,
    };
    let at = args.iter().position(|arg| !asks_in_expr(arg).is_empty())?;
    let borrows_mut = |e: &Expr| {
        first_in(
            e,
            false,
            |e| matches!(e, Expr::Reference(r) if r.mutability.is_some()),
        )
        .is_some()
            || first_in(e, true, |e| matches!(e, Expr::Closure(_))).is_some()
    };
    if !borrows_mut(head) && !args.iter().take(at).any(borrows_mut) {
        return None;
    }
    let operand = idents::operand();
    let mut call = expr.clone();
    let slot = match &mut call {
        Expr::Call(call) => call.args.iter_mut().nth(at)?,
        Expr::MethodCall(call) => call.args.iter_mut().nth(at)?,
        _ => return None,
    };
    let value = std::mem::replace(slot, syn::parse_quote!(#operand));
    Some(syn::parse_quote!(match #value { #operand => #call }))
}

/// An assignment inside `expr`, such as the `i += 1` of `v[{ i += 1; i }]`.
fn change_in(expr: &Expr) -> Option<&Expr> {
    first_in(expr, true, |e| assigned_place(e).is_some())
}

/// A `?`, `return`, `break` or `continue` inside `expr`, outside closures.
fn exit_in(expr: &Expr) -> Option<&Expr> {
    first_in(expr, false, |e| {
        matches!(
            e,
            Expr::Try(_) | Expr::Return(_) | Expr::Break(_) | Expr::Continue(_)
        )
    })
}

/// The first expression in `expr`, itself included, that `hit` picks. Closures and async blocks
/// are looked into only `into_closures`.
fn first_in(expr: &Expr, into_closures: bool, hit: fn(&Expr) -> bool) -> Option<&Expr> {
    struct Find<'e> {
        into_closures: bool,
        hit: fn(&Expr) -> bool,
        found: Option<&'e Expr>,
    }
    impl<'e> syn::visit::Visit<'e> for Find<'e> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if self.found.is_some() {
                return;
            }
            if !self.into_closures && matches!(expr, Expr::Closure(_) | Expr::Async(_)) {
                return;
            }
            if (self.hit)(expr) {
                self.found = Some(expr);
                return;
            }
            syn::visit::visit_expr(self, expr);
        }
    }
    let mut find = Find {
        into_closures,
        hit,
        found: None,
    };
    syn::visit::Visit::visit_expr(&mut find, expr);
    find.found
}

/// `x`, `x.field`, `x.0`: a place Rust can borrow for `op=` after evaluating the operand.
fn plain_place(expr: &Expr) -> bool {
    match expr {
        Expr::Path(_) => true,
        Expr::Field(field) => plain_place(&field.base),
        Expr::Paren(inner) => plain_place(&inner.expr),
        _ => false,
    }
}

/// Whether an arm that does not ask can take `bindings` out of the `match` on `scrutinee`
/// and run after the dispatch: none is a `ref`, and the scrutinee makes no temporary that they
/// could borrow from. It is a place (`x`, `x.f`, `x[i]`, `&x`, `*x`), or one method call on a
/// place with plain arguments (`x.as_str()`, `map.get(&key)`), whose result borrows from
/// those places if from anything, or a block whose value is a local.
fn carries_out(scrutinee: &Expr, bindings: &[super::syntax::Binding]) -> bool {
    fn place(expr: &Expr) -> bool {
        match expr {
            Expr::Path(_) => true,
            Expr::Field(e) => place(&e.base),
            Expr::Index(e) => place(&e.expr) && plain(&e.index),
            Expr::Reference(e) => place(&e.expr),
            Expr::Unary(e) => matches!(e.op, syn::UnOp::Deref(_)) && place(&e.expr),
            Expr::Paren(e) => place(&e.expr),
            Expr::Group(e) => place(&e.expr),
            _ => false,
        }
    }
    fn plain(expr: &Expr) -> bool {
        matches!(expr, Expr::Lit(_)) || place(expr)
    }
    let no_temporary = match scrutinee {
        Expr::MethodCall(call) => place(&call.receiver) && call.args.iter().all(plain),
        // A `let` moved into the scrutinee (`scrutinees_in_place`): the block's value is the
        // local's.
        Expr::Block(block) => matches!(
            block.block.stmts.last(),
            Some(Stmt::Expr(Expr::Path(_), None))
        ),
        // An answer (`match ask!(..) {..}`) is an owned value.
        other => ask_marker_id(other).is_some() || place(other),
    };
    no_temporary && bindings.iter().all(|binding| !binding.by_ref)
}

/// The local a place expression (`x`, `x.field`, `(x)`) is part of.
fn place_root(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident(),
        Expr::Field(e) => place_root(&e.base),
        Expr::Paren(e) => place_root(&e.expr),
        Expr::Group(e) => place_root(&e.expr),
        _ => None,
    }
}

/// `let p = e else { d };` whose `else` asks becomes `let (x, ..) = match e { p => (x, ..), _ =>
/// d };`, so that a resumed round enters `d` without evaluating `e` again. A `let` with a type
/// (`let p: T = ..`) stays as written.
fn let_else_as_match(stmt: &Stmt) -> Option<Stmt> {
    let Stmt::Local(local) = stmt else {
        return None;
    };
    let init = local.init.as_ref()?;
    let (_, diverge) = init.diverge.as_ref()?;
    if ask_range(diverge).is_none() || matches!(local.pat, Pat::Type(_)) {
        return None;
    }
    let bindings = pattern_bindings(&local.pat);
    let mut inner = local.pat.clone();
    strip_mut(&mut inner);
    let carried = bindings_tuple(&bindings, false);
    let pattern = bindings_tuple(&bindings, true);
    let (attrs, value) = (&local.attrs, &init.expr);
    Some(syn::parse_quote_spanned! {local.let_token.span=>
        #(#attrs)* let #pattern = match #value { #inner => #carried, _ => #diverge };
    })
}

/// `let x = init; ..; match x { .. }` (or `if let p = x { .. }`, either also as a `let`'s
/// value) where a branch asks and nothing after reads `x`: the value is matched where it is
/// made, `match { let x = init; ..; x } { .. }`, with the statements between (which must not
/// ask, nor declare what is read from the `match` on). Only the arms' bindings are alive at
/// their asks, so only they are saved, and `x` need not be `Serialize`. Otherwise `x` stays a
/// local of the block and is saved like one. Statements before the `let` may join them
/// (`pulled_before`), and likewise before a `match` on a plainly owned value or an `if` whose
/// branch asks, which then take the value or the condition from a `let` at the end.
fn scrutinees_in_place(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut stmts = stmts;
    let mut index = 0;
    while index < stmts.len() {
        if let Some(matched) = matched_later(&stmts, index) {
            let name = match &stmts[index] {
                Stmt::Local(local) => plain_name(&local.pat),
                _ => None,
            };
            let value = stmt_value(&stmts[index]).cloned();
            let from = pulled_before(&stmts, index, matched, value.as_ref());
            let mut moved: Vec<Stmt> = stmts.drain(from..matched).collect();
            index = from;
            if let (Some(name), Some(slot)) = (name, scrutinee_slot(&mut stmts[index])) {
                moved.push(Stmt::Expr(syn::parse_quote!(#name), None));
                let scrutinee: Expr = syn::parse_quote!({ #(#moved)* });
                *slot = scrutinee;
            }
        } else if let Some(scrutinee) = owned_scrutinee(&stmts[index]) {
            // `match cfg.get(&k).cloned() {..}`, `if !cfg.contains_key(&k) {..}`: as for a
            // local, with the value as the `let`'s.
            let from = pulled_before(&stmts, index, index, Some(&scrutinee));
            if from < index {
                let moved: Vec<Stmt> = stmts.drain(from..index).collect();
                index = from;
                let value = idents::scrutinee();
                if let Some(slot) = scrutinee_slot(&mut stmts[index]) {
                    *slot = syn::parse_quote!({ #(#moved)* let #value = #scrutinee; #value });
                }
            }
        }
        index += 1;
    }
    stmts
}

/// If `stmts[start]` is `let x = init;` that can move into the scrutinee of a later `match x`,
/// the index of that `match`.
fn matched_later(stmts: &[Stmt], start: usize) -> Option<usize> {
    // Not when making the value asks: that ask must stay a statement of its own.
    let Stmt::Local(local) = &stmts[start] else {
        return None;
    };
    let init = local.init.as_ref()?;
    if init.diverge.is_some() || ask_range(&init.expr).is_some() {
        return None;
    }
    let name = plain_name(&local.pat)?;
    let (matched, patterns) = (start + 1..stmts.len()).find_map(|index| {
        let (scrutinee, patterns) = matched_by(&stmts[index])?;
        scrutinee.path_is(&name).then_some((index, patterns))
    })?;
    let between = &stmts[start + 1..matched];
    // A `ref` binding would borrow from the block the value moves into, which ends at the ask.
    let by_ref = patterns
        .into_iter()
        .flat_map(pattern_bindings)
        .any(|binding| binding.by_ref);
    if by_ref || between.iter().any(has_ask) {
        return None;
    }
    let mut leaving: Vec<String> = vec![name.to_string()];
    for stmt in between {
        if let Stmt::Local(local) = stmt {
            leaving.extend(
                pattern_bindings(&local.pat)
                    .iter()
                    .map(|b| b.ident.to_string()),
            );
        }
    }
    // Beside its scrutinee, neither the `match` nor anything after it may read `x` or what is
    // declared between.
    let reads_leaving = |stmt: &Stmt| {
        let names = super::syntax::names_in_stmt(stmt);
        leaving.iter().any(|leaving| names.contains(leaving))
    };
    let read_later = reads_leaving(&without_scrutinee(&stmts[matched]))
        || stmts[matched + 1..].iter().any(reads_leaving);
    (!read_later).then_some(matched)
}

/// Where the statements that move into the scrutinee begin: at `let x` (`start`), or before
/// it, over the statements that precede it, so that what they declare ends before the ask as
/// `x` does and is not saved there (`let client = connect(); let kind =
/// client.kind().to_owned(); match kind {..}`), and a field they move and give back stays in
/// one place (`let n = consume(p.a); p.a = fresh(); let x = p.a.len(); match x {..}`).
///
/// Not over an item, an ask, a `_guard` (kept for its `Drop`), a statement that declares what
/// the `match` or a later statement reads, or one that gives a binding a value (`d = ..`,
/// which a `let d;` needs as a statement of its own block). Not over a `let` that `let x`
/// reads unless `x`'s value is plainly owned: it may borrow from it (`client.name()`). Nor
/// over one that reads a binding declared earlier in the block that nothing from `let x` on
/// reads, which would then be alive at the ask only for it.
fn pulled_before(stmts: &[Stmt], start: usize, matched: usize, value: Option<&Expr>) -> usize {
    let no_captures = Captures::new();
    let matched_alone = facts(&without_scrutinee(&stmts[matched]), &no_captures);
    let facts: Vec<StmtFacts> = stmts.iter().map(|s| facts(s, &no_captures)).collect();
    let read_from_match_on = |name: &str| {
        read_before_declared_again(
            std::iter::once(&matched_alone).chain(&facts[matched + 1..]),
            name,
        )
    };
    // The local's value may borrow from what its `let` reads, unless it is plainly owned.
    let (borrowed_from, owned) = match value {
        Some(value) => (super::syntax::names_in_expr(value), owned_value(value)),
        None => (BTreeSet::new(), false),
    };
    let mut from = start;
    while let Some(before) = from.checked_sub(1) {
        let (stmt, fact) = (&stmts[before], &facts[before]);
        // A statement macro may declare any name it is given (`bump!(x)`).
        let macro_declares = matches!(stmt, Stmt::Macro(_) | Stmt::Expr(Expr::Macro(_), _))
            && fact.uses.iter().any(|name| read_from_match_on(name));
        let stays = matches!(stmt, Stmt::Item(_))
            || fact.asks
            || gives_a_binding(stmt)
            || macro_declares
            || fact.declares.iter().any(|binding| {
                let name = binding.ident.to_string();
                kept_for_drop(&binding.ident)
                    || read_from_match_on(&name)
                    || (!owned && borrowed_from.contains(&name))
            });
        if stays {
            break;
        }
        from = before;
    }
    while from < start {
        let kept_alive = facts[..from]
            .iter()
            .flat_map(|fact| &fact.declares)
            .map(|binding| binding.ident.to_string())
            .any(|name| {
                read_before_declared_again(&facts[from..start], &name)
                    && !read_before_declared_again(&facts[start..], &name)
            });
        if !kept_alive {
            break;
        }
        from += 1;
    }
    from
}

/// The scrutinee of a `match` or `if let` with an ask in a branch, when it is a plainly owned
/// value that asks nothing itself and no pattern binds by `ref`; or the condition of such an
/// `if`, a `bool`.
fn owned_scrutinee(stmt: &Stmt) -> Option<Expr> {
    let expr = stmt_value(stmt);
    if let Some(Expr::If(branch)) = expr
        && !contains_let(&branch.cond)
    {
        let asks_in_a_branch = expr.and_then(ask_range).is_some();
        return (asks_in_a_branch && asks_in_expr(&branch.cond).is_empty())
            .then(|| (*branch.cond).clone());
    }
    let (scrutinee, patterns) = matched_by(stmt)?;
    let by_ref = patterns
        .into_iter()
        .flat_map(pattern_bindings)
        .any(|binding| binding.by_ref);
    (!by_ref && asks_in_expr(scrutinee).is_empty() && owned_value(scrutinee))
        .then(|| scrutinee.clone())
}

/// An expression statement's expression, or a `let`'s value.
fn stmt_value(stmt: &Stmt) -> Option<&Expr> {
    match stmt {
        Stmt::Expr(expr, _) => Some(expr),
        Stmt::Local(local) => local.init.as_ref().map(|init| &*init.expr),
        _ => None,
    }
}

/// Whether statements read `name` before one of them declares it again.
fn read_before_declared_again<'f>(
    facts: impl IntoIterator<Item = &'f StmtFacts>,
    name: &str,
) -> bool {
    for fact in facts {
        if fact.uses.contains(name) {
            return true;
        }
        if fact.declares.iter().any(|binding| binding.ident == name) {
            return false;
        }
    }
    false
}

/// Whether a value is plainly owned, so that it cannot borrow from the locals it is made from:
/// a copy or conversion by one of std's methods that return one (`cfg.get(k).cloned()`,
/// `name.to_owned()`, `items.len()`), a `format!`, a literal, an operator or a cast.
fn owned_value(expr: &Expr) -> bool {
    match expr {
        Expr::MethodCall(call) => OWNING_METHODS.contains(&call.method.to_string().as_str()),
        Expr::Macro(mac) => mac.mac.path.is_ident("format"),
        Expr::Lit(_) | Expr::Cast(_) => true,
        Expr::Binary(binary) => !is_assign_op(&binary.op),
        Expr::Unary(unary) => !matches!(unary.op, syn::UnOp::Deref(_)),
        Expr::Paren(inner) => owned_value(&inner.expr),
        _ => false,
    }
}

/// Whether a statement assigns a whole binding (`d = ..`) anywhere in it.
fn gives_a_binding(stmt: &Stmt) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
            self.0 |= matches!(&*assign.left, Expr::Path(path) if path.path.get_ident().is_some());
            syn::visit::visit_expr_assign(self, assign);
        }
    }
    let mut finder = Finder(false);
    syn::visit::Visit::visit_stmt(&mut finder, stmt);
    finder.0
}

/// The statement with its `match` or `if let` scrutinee left out, to see what else it reads.
fn without_scrutinee(stmt: &Stmt) -> Stmt {
    let mut stmt = stmt.clone();
    if let Some(slot) = scrutinee_slot(&mut stmt) {
        *slot = syn::parse_quote!(());
    }
    stmt
}

/// `x` or `x: T`, by value.
fn plain_name(pat: &Pat) -> Option<Ident> {
    match pat {
        Pat::Ident(ident) if ident.by_ref.is_none() && ident.subpat.is_none() => {
            Some(ident.ident.clone())
        }
        Pat::Type(typed) => plain_name(&typed.pat),
        _ => None,
    }
}

trait PathIs {
    fn path_is(&self, name: &Ident) -> bool;
}

impl PathIs for Expr {
    fn path_is(&self, name: &Ident) -> bool {
        matches!(self, Expr::Path(path) if path.qself.is_none() && path.path.is_ident(name))
    }
}

/// The scrutinee and the patterns of a `match` or `if let` with an ask in a branch, as a
/// statement or as the value of a `let`.
fn matched_by(stmt: &Stmt) -> Option<(&Expr, Vec<&Pat>)> {
    let expr = stmt_value(stmt)?;
    match expr {
        Expr::Match(m) if m.arms.iter().any(|arm| ask_range(&arm.body).is_some()) => {
            Some((&m.expr, m.arms.iter().map(|arm| &arm.pat).collect()))
        }
        Expr::If(e) if ask_range(expr).is_some() => match &*e.cond {
            Expr::Let(let_expr) => Some((&let_expr.expr, vec![&*let_expr.pat])),
            _ => None,
        },
        _ => None,
    }
}

fn scrutinee_slot(stmt: &mut Stmt) -> Option<&mut Expr> {
    let expr = match stmt {
        Stmt::Expr(expr, _) => expr,
        Stmt::Local(local) => &mut *local.init.as_mut()?.expr,
        _ => return None,
    };
    match expr {
        Expr::Match(m) => Some(&mut *m.expr),
        Expr::If(e) => match &mut *e.cond {
            Expr::Let(let_expr) => Some(&mut *let_expr.expr),
            cond if !contains_let(cond) => Some(cond),
            _ => None,
        },
        _ => None,
    }
}

fn has_ask(stmt: &Stmt) -> bool {
    !super::syntax::asks_in_stmt(stmt).is_empty()
}

impl Desugar<'_> {
    fn fresh(&mut self, stem: &str, located: Span) -> Ident {
        self.next_id += 1;
        idents::fresh(stem, self.next_id, located)
    }

    fn within(&self, range: Option<(u32, u32)>) -> Option<TokenStream> {
        let machine = &self.machine;
        range.map(|(first, last)| quote!(#machine.resuming_within(#first, #last)))
    }

    fn desugar_if(&mut self, e: &mut syn::ExprIf) -> Option<Expr> {
        if let Expr::Let(let_expr) = &*e.cond {
            let else_branch = match &e.else_branch {
                Some((_, else_expr)) => quote!(#else_expr),
                None => quote!({}),
            };
            let (pat, scrutinee, then_branch) = (&let_expr.pat, &let_expr.expr, &e.then_branch);
            let mut as_match: syn::ExprMatch = syn::parse_quote! {
                match #scrutinee { #pat => #then_branch, _ => #else_branch }
            };
            return self.desugar_match(&mut as_match);
        }
        if contains_let(&e.cond) {
            return self.desugar_if_chain(e);
        }
        let then_range = block_range(&e.then_branch);
        let else_range = e.else_branch.as_ref().and_then(|(_, b)| ask_range(b));
        let cond = &e.cond;
        let test = match (self.within(then_range), self.within(else_range)) {
            (Some(then), Some(other)) => quote!(#then || (!#other && (#cond))),
            (Some(then), None) => quote!(#then || (#cond)),
            (None, Some(other)) => quote!(!#other && (#cond)),
            (None, None) => return None,
        };
        *e.cond = self.diagnostics.reparse(test, &e.cond, "`if` condition")?;
        None
    }

    /// `if let p = e && c { a } else { b }` as `match chain? { Some((x, ..)) => a, None => b }`
    /// (`let_chains`).
    fn desugar_if_chain(&mut self, e: &mut syn::ExprIf) -> Option<Expr> {
        if let Some(ask) = asks_in_chain(&e.cond) {
            self.refuse_ask_in_chain(ask);
            return None;
        }
        let then_branch = &e.then_branch;
        let chain = Chain::new(&e.cond, &block_expr(then_branch));
        let else_branch = match &e.else_branch {
            Some((_, else_expr)) => quote!(#else_expr),
            None => quote!({}),
        };
        let (option, pattern) = (chain.as_option(), chain.pattern());
        let site = chain.site().located_at(e.if_token.span);
        let tokens = quote_spanned! {site=>
            match #option {
                ::core::option::Option::Some(#pattern) => #then_branch
                ::core::option::Option::None => #else_branch
            }
        };
        let mut as_match: syn::ExprMatch =
            self.diagnostics
                .reparse(tokens, &*e, "`if` whose condition chains `let`s")?;
        self.desugar_match(&mut as_match)
    }

    fn refuse_ask_in_chain(&mut self, ask: &Expr) {
        self.diagnostics.error(
            ask,
            "an `ask!` in a condition that chains `let`s: bind the answer first, \
             `let answer = ask!(..);`, then test `answer` in the condition",
        );
    }

    fn desugar_match(&mut self, e: &mut syn::ExprMatch) -> Option<Expr> {
        let machine = self.machine.clone();
        let arm_enum = idents::arm_enum(e.match_token.span);
        let bound = idents::bound();
        let value = idents::value();
        let mut generics = Vec::new();
        let mut variants = Vec::new();
        let mut resume_tests = Vec::new();
        let mut evaluate_arms = Vec::new();
        let mut dispatch_arms = Vec::new();
        // Whether an arm without asks runs inside the evaluating match, handing out its value.
        let mut runs_inside = false;
        for (index, arm) in e.arms.iter().enumerate() {
            let Arm {
                attrs,
                pat,
                guard,
                body,
                ..
            } = arm;
            let guard = guard
                .as_ref()
                .map(|(if_token, cond)| quote!(#if_token #cond));
            let Some(range) = ask_range(body) else {
                let bindings = pattern_bindings(pat);
                let read = super::syntax::names_in_expr(body);
                // An arm that reads the local the scrutinee is a place of runs where the other
                // arms' patterns have not moved out of it.
                let reads_scrutinee = place_root(&e.expr).is_some_and(|root| {
                    bindings.iter().all(|binding| binding.ident != *root)
                        && read.contains(&root.to_string())
                });
                if !reads_scrutinee && (bindings.is_empty() || carries_out(&e.expr, &bindings)) {
                    // Run after the dispatch, beside the arms that ask, so that the borrow
                    // checker sees that it excludes them: a local it moves is still theirs. The
                    // bindings the body reads are carried out of the match that made them (a
                    // guard reads the others there).
                    let variant = format_ident!("Arm{}", index);
                    let carried: Vec<_> = bindings
                        .into_iter()
                        .filter(|binding| read.contains(&binding.ident.to_string()))
                        .collect();
                    let mut inner = pat.clone();
                    strip_mut(&mut inner);
                    if carried.is_empty() {
                        evaluate_arms
                            .push(quote!(#(#attrs)* #inner #guard => #arm_enum::#variant,));
                        dispatch_arms.push(quote!(#(#attrs)* #arm_enum::#variant => #body,));
                        variants.push(quote!(#(#attrs)* #variant));
                    } else {
                        let generic = format_ident!("T{}", index);
                        let values = bindings_tuple(&carried, false);
                        let pattern = bindings_tuple(&carried, true);
                        evaluate_arms.push(
                            quote!(#(#attrs)* #inner #guard => #arm_enum::#variant(#values),),
                        );
                        dispatch_arms
                            .push(quote!(#(#attrs)* #arm_enum::#variant(#pattern) => #body,));
                        variants.push(quote!(#(#attrs)* #variant(#generic)));
                        generics.push(generic);
                    }
                    continue;
                }
                runs_inside = true;
                // Otherwise the arm runs where its bindings are made, as they may borrow from
                // the scrutinee's temporaries. `Done(return ..)` would warn that the
                // constructor is unreachable.
                evaluate_arms.push(quote! {
                    #(#attrs)* #[allow(unreachable_code)] #pat #guard => #arm_enum::Done(#body),
                });
                continue;
            };
            let variant = format_ident!("Arm{}", index);
            let generic = format_ident!("T{}", index);
            // Only the bindings the body reads are carried into it: one that only the guard
            // reads is used up there, and a `let` of it in the body would be an unused
            // variable, which rustc would report at the user's pattern.
            let read = super::syntax::names_in_expr(body);
            let bindings: Vec<_> = pattern_bindings(pat)
                .into_iter()
                .filter(|binding| read.contains(&binding.ident.to_string()))
                .collect();
            let mut inner = pat.clone();
            strip_mut(&mut inner);
            let carried = bindings_tuple(&bindings, false);
            let test = self.within(Some(range));
            resume_tests
                .push(quote!(if #test { #arm_enum::#variant(::core::option::Option::None) }));
            evaluate_arms.push(quote!(#(#attrs)* #inner #guard => #arm_enum::#variant(::core::option::Option::Some(#carried)),));
            let pattern = bindings_tuple(&bindings, true);
            let first_let = if bindings.is_empty() {
                quote!()
            } else {
                quote! {
                    let #pattern = match #bound {
                        ::core::option::Option::Some(#bound) => #bound,
                        ::core::option::Option::None => #machine.lost().await,
                    };
                }
            };
            let bound_pat = if bindings.is_empty() {
                quote!(_)
            } else {
                quote!(#bound)
            };
            // An arm's block joins the block that binds its pattern, so that a `let` in it may
            // shadow the pattern's bindings like any `let` in one block.
            let body = match &**body {
                Expr::Block(block) if block.label.is_none() && block.attrs.is_empty() => {
                    let stmts = &block.block.stmts;
                    quote!(#(#stmts)*)
                }
                other => quote!(#other),
            };
            dispatch_arms.push(quote!(#arm_enum::#variant(#bound_pat) => { #first_let #body }));
            variants.push(quote!(#variant(::core::option::Option<#generic>)));
            generics.push(generic);
        }
        if runs_inside {
            let generic = format_ident!("V");
            variants.push(quote!(Done(#generic)));
            generics.push(generic);
            dispatch_arms.push(quote!(#arm_enum::Done(#value) => #value,));
        }
        let scrutinee = &e.expr;
        let user_code = quote!(#e);
        let tokens = quote_spanned! {e.match_token.span=>
            {
                enum #arm_enum<#(#generics),*> { #(#variants),* }
                match #(#resume_tests else)* {
                    match #scrutinee { #(#evaluate_arms)* }
                } {
                    #(#dispatch_arms)*
                }
            }
        };
        self.diagnostics.reparse(tokens, user_code, "`match`")
    }

    fn desugar_while(&mut self, e: &mut syn::ExprWhile) -> Option<Expr> {
        let label = &e.label;
        let stmts = &e.body.stmts;
        let head = match &*e.cond {
            Expr::Let(let_expr) => {
                let bindings = pattern_bindings(&let_expr.pat);
                let mut inner = (*let_expr.pat).clone();
                strip_mut(&mut inner);
                let scrutinee = &let_expr.expr;
                if bindings.is_empty() {
                    quote!(match #scrutinee { #inner => {} _ => break, })
                } else {
                    let carried = bindings_tuple(&bindings, false);
                    let pattern = bindings_tuple(&bindings, true);
                    quote!(let #pattern = match #scrutinee { #inner => #carried, _ => break, };)
                }
            }
            cond if contains_let(cond) => {
                if let Some(ask) = asks_in_chain(cond) {
                    self.refuse_ask_in_chain(ask);
                    return None;
                }
                let chain = Chain::new(cond, &block_expr(&e.body));
                let value = chain.or_break();
                if chain.carried.is_empty() {
                    quote!(#value;)
                } else {
                    let pattern = chain.pattern();
                    quote!(let #pattern = #value;)
                }
            }
            cond => quote!(if !(#cond) { break; }),
        };
        self.diagnostics.reparse(
            quote! { #label loop { #head #(#stmts)* } },
            &*e,
            "`while` loop",
        )
    }

    /// A `for` in expression position: its two statements in a block.
    fn desugar_for(&mut self, e: &mut syn::ExprForLoop) -> Option<Expr> {
        let (items, looping) = self.desugar_for_parts(e)?;
        self.diagnostics
            .reparse(quote! {{ #items #looping }}, &*e, "`for` loop")
    }

    fn desugar_for_parts(&mut self, e: &mut syn::ExprForLoop) -> Option<(Stmt, Stmt)> {
        let items = self.fresh("items", e.expr.span());
        let label = &e.label;
        let iterable = &e.expr;
        let bindings = pattern_bindings(&e.pat);
        let mut inner = (*e.pat).clone();
        strip_mut(&mut inner);
        let stmts = &e.body.stmts;
        if let Some(iterable) = borrowed_items(&e.expr, &e.body, &self.outer_items) {
            return self.desugar_borrowing_for(e, iterable, &inner, &bindings);
        }
        let head = if bindings.is_empty() {
            quote! {
                match #items.pop_front() {
                    ::core::option::Option::Some(#inner) => {}
                    ::core::option::Option::None => break,
                }
            }
        } else {
            let carried = bindings_tuple(&bindings, false);
            let pattern = bindings_tuple(&bindings, true);
            quote! {
                let #pattern = match #items.pop_front() {
                    ::core::option::Option::Some(#inner) => #carried,
                    ::core::option::Option::None => break,
                };
            }
        };
        // A range keeps only its bounds in the state; anything else, the items left.
        let machine = &self.machine;
        let value = idents::value();
        let collect = match &*e.expr {
            Expr::Range(range) if range.start.is_some() => {
                quote_spanned! {e.expr.span()=> ::mrtr::__private::range(#iterable) }
            }
            _ => quote_spanned! {e.expr.span()=>
                match #machine.remaining(#iterable) {
                    ::core::option::Option::Some(#value) => #value,
                    ::core::option::Option::None => #machine.halted().await,
                }
            },
        };
        let items_stmt =
            self.diagnostics
                .reparse(quote! { let mut #items = #collect; }, &*e, "`for` loop")?;
        let loop_stmt = self.diagnostics.reparse(
            quote! { #label loop { #head #(#stmts)* } },
            &*e,
            "`for` loop",
        )?;
        Some((items_stmt, loop_stmt))
    }

    /// Before a `for` loop's body is desugared: a borrowed loop's items that hold references,
    /// over which a loop inside may borrow by name.
    fn enter_for(&mut self, e: &syn::ExprForLoop) {
        if block_range(&e.body).is_some()
            && borrowed_items(&e.expr, &e.body, &self.outer_items).is_some()
        {
            self.outer_items.extend(reference_items(&e.pat, &e.body));
        }
    }

    /// A `for` whose items borrow from a held collection (`borrowed_items`): the state keeps a
    /// count of the items taken, and the iterator and each item are made again on every
    /// round, `let`s that lowering neither restores nor saves (`syntax::revisits_items`).
    fn desugar_borrowing_for(
        &mut self,
        e: &syn::ExprForLoop,
        iterable: TokenStream,
        inner: &Pat,
        bindings: &[super::syntax::Binding],
    ) -> Option<(Stmt, Stmt)> {
        let visited = self.fresh("visited", e.expr.span());
        let walk = self.fresh("walk", e.expr.span());
        let machine = &self.machine;
        let label = &e.label;
        let stmts = &e.body.stmts;
        let carried = bindings_tuple(bindings, false);
        let pattern = bindings_tuple(bindings, true);
        let items_stmt = self.diagnostics.reparse(
            quote! { let mut #visited = ::mrtr::__private::Visited::new(); },
            e,
            "`for` loop",
        )?;
        let loop_stmt = self.diagnostics.reparse(
            quote! {{
                let mut #walk = match ::mrtr::__private::Visited::resume(&mut #visited, #iterable) {
                    ::core::option::Option::Some(#walk) => #walk,
                    ::core::option::Option::None => #machine.lost().await,
                };
                #label loop {
                    let #pattern = match ::mrtr::__private::Visited::next(&mut #visited, &mut #walk) {
                        ::core::option::Option::Some(#inner) => #carried,
                        ::core::option::Option::None => break,
                    };
                    #(#stmts)*
                }
            }},
            e,
            "`for` loop",
        )?;
        Some((items_stmt, loop_stmt))
    }
}

/// The first ask point in a condition that chains `let`s.
fn asks_in_chain(cond: &Expr) -> Option<&Expr> {
    first_in(cond, false, |e| ask_marker_id(e).is_some())
}

fn block_expr(block: &Block) -> Expr {
    Expr::Block(syn::ExprBlock {
        attrs: Vec::new(),
        label: None,
        block: block.clone(),
    })
}

pub(crate) fn strip_mut(pat: &mut Pat) {
    strip_mut_where(pat, |_| true);
}

/// Removes the `mut` of the bindings of `pat` that `strip` picks.
pub(crate) fn strip_mut_where(pat: &mut Pat, strip: impl Fn(&Ident) -> bool) {
    struct Strip<F>(F);
    impl<F: Fn(&Ident) -> bool> VisitMut for Strip<F> {
        fn visit_pat_ident_mut(&mut self, pat: &mut syn::PatIdent) {
            // `ref mut` is how the value is borrowed, not a `mut` binding.
            if pat.by_ref.is_none() && (self.0)(&pat.ident) {
                pat.mutability = None;
            }
            visit_mut::visit_pat_ident_mut(self, pat);
        }
    }
    Strip(strip).visit_pat_mut(pat);
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};

    use super::scrutinees_in_place;

    /// The statements that stay before the `match`, after moving what may into its scrutinee.
    fn kept_before_the_match(body: proc_macro2::TokenStream) -> Vec<String> {
        let block: syn::Block = syn::parse2(quote!({ #body })).unwrap();
        let stmts = scrutinees_in_place(block.stmts);
        let matched = stmts
            .iter()
            .position(|stmt| stmt.to_token_stream().to_string().contains("__mrtr_ask_1"))
            .unwrap();
        stmts[..matched]
            .iter()
            .map(|stmt| stmt.to_token_stream().to_string())
            .collect()
    }

    #[test]
    fn statements_whose_bindings_end_at_the_match_move_into_its_scrutinee() {
        let kept = kept_before_the_match(quote! {
            let n = args.n;
            let client = connect();
            let _ = consume(item.name);
            item.name = fresh();
            let found = client.find(&item.name).cloned();
            let got = if let Some(got) = found { got } else { __mrtr_ask_1(q()) };
            use_it(n, got);
        });
        assert_eq!(kept, ["let n = args . n ;"]);
    }

    #[test]
    fn statements_move_into_a_plainly_owned_scrutinee_too() {
        let kept = kept_before_the_match(quote! {
            let n = args.n;
            let cfg = lock();
            match cfg.get(&n).cloned() { Some(v) => v, None => __mrtr_ask_1(q()) };
            use_it(n);
        });
        assert_eq!(kept, ["let n = args . n ;"]);
        // An `if`'s condition is a `bool`.
        let kept = kept_before_the_match(quote! {
            let cfg = lock();
            if !cfg.contains_key(&k) { __mrtr_ask_1(q()); }
        });
        assert!(kept.is_empty(), "{kept:?}");
        // The value may borrow from `cfg`, or is asked for.
        for scrutinee in [quote!(cfg.get(&n)), quote!(__mrtr_ask_2(q()).is_ok())] {
            let kept = kept_before_the_match(quote! {
                let n = args.n;
                let cfg = lock();
                match #scrutinee { Some(v) => v, None => __mrtr_ask_1(q()) };
                use_it(n);
            });
            assert_eq!(kept.len(), 2, "{kept:?}");
        }
    }

    #[test]
    fn statements_stay_that_the_local_may_borrow_from_or_that_later_code_needs() {
        // The local may borrow from `client`: only its own `let` moves.
        let kept = kept_before_the_match(quote! {
            let client = connect();
            let found = client.find(1);
            match found { Some(v) => v, None => __mrtr_ask_1(q()) }
        });
        assert_eq!(kept, ["let client = connect () ;"]);
        // A `_guard` lives to the end of its block, a binding read after the `match` and one
        // a statement macro may declare are needed there, `d = ..` gives a `let d;` its value.
        for stays in [
            quote!(let _guard = lock();),
            quote!(let later = 1;),
            quote!(bump!(later);),
            quote!(d = 2;),
        ] {
            let kept = kept_before_the_match(quote! {
                #stays
                let found = make();
                match found { Some(v) => v, None => __mrtr_ask_1(q()) };
                use_it(later);
            });
            assert_eq!(kept.len(), 1, "{kept:?}");
        }
        // `early` would be read at the ask only for the statement that reads it.
        let kept = kept_before_the_match(quote! {
            let early = make();
            let mut sum = 0;
            sum += early.len();
            let found = other();
            match found { Some(v) => v, None => __mrtr_ask_1(q()) };
            use_it(sum);
        });
        assert_eq!(kept.len(), 3, "{kept:?}");
    }
}

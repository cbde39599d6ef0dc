//! Small syntactic facts the stages share: which names a pattern binds, which names code
//! mentions, and where the ask points are.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::quote;
use syn::{
    Block, Expr, Ident, Pat, Stmt,
    punctuated::Punctuated,
    visit::{self, Visit},
};

/// For each binding that holds a closure literal, the names the closure reads: such a binding
/// is not saved across an ask but re-created on resume (see `lower`), so reading it reads what
/// the closure captures.
pub(crate) type Captures = BTreeMap<String, BTreeSet<String>>;

/// `let f = |..| ..;`, not `move`: a closure the machine re-creates instead of saving. Making
/// a closure runs no code, so evaluating the literal again on resume changes nothing; a `move`
/// closure owns what it captured, which the machine could not save beside it.
pub(crate) fn recreated_closure(local: &syn::Local) -> Option<&syn::ExprClosure> {
    let init = local.init.as_ref().filter(|init| init.diverge.is_none())?;
    let mut expr = &*init.expr;
    while let Expr::Paren(inner) = expr {
        expr = &inner.expr;
    }
    let Expr::Closure(closure) = expr else {
        return None;
    };
    let named = match &local.pat {
        Pat::Ident(ident) => ident.subpat.is_none() && ident.by_ref.is_none(),
        Pat::Type(typed) => matches!(&*typed.pat, Pat::Ident(ident) if ident.subpat.is_none()),
        _ => false,
    };
    (named && closure.capture.is_none()).then_some(closure)
}

/// A `let` of a loop over borrowed items (`borrowed_items`), of its iterator or of an item:
/// made again on every round from the saved collection and count rather than saved, as
/// `desugar` writes it: `let walk = match ::mrtr::__private::Visited::resume(..) { .. }` and
/// `let item = match ::mrtr::__private::Visited::next(..) { .. }`.
pub(crate) fn revisits_items(local: &syn::Local) -> bool {
    let Some(init) = local.init.as_ref().filter(|init| init.diverge.is_none()) else {
        return false;
    };
    let Expr::Match(matched) = &*init.expr else {
        return false;
    };
    private_call(&matched.expr)
        .is_some_and(|names| names == ["Visited", "resume"] || names == ["Visited", "next"])
}

/// Whether `pat` binds `name`.
pub(crate) fn pattern_binds(pat: &syn::Pat, name: &str) -> bool {
    pattern_bindings(pat).iter().any(|b| b.ident == name)
}

/// A `let` made again on every round rather than restored: a re-created closure, a loop
/// over borrowed items' iterator or item (`revisits_items`), or a value made again on resume
/// (`remade::remade_let`).
pub(crate) fn made_every_round(local: &syn::Local) -> bool {
    recreated_closure(local).is_some() || revisits_items(local) || super::remade::remade_let(local)
}

/// The path after `::mrtr::__private::` of a call that `expr` is to an item there, as the
/// code mrtr writes calls it: `["Visited", "next"]` for `::mrtr::__private::Visited::next(..)`.
pub(crate) fn private_call(expr: &Expr) -> Option<Vec<String>> {
    let Expr::Call(call) = expr else {
        return None;
    };
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    let names: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let private = path.path.leading_colon.is_some()
        && names.starts_with(&["mrtr".to_owned(), "__private".to_owned()]);
    private.then(|| names[2..].to_vec())
}

/// Every re-created closure of `block`, and every `let` made again on resume (`remade`), with
/// the names it reads; and every `macro_rules!` of it, with the names its transcribers read.
/// Names are not scoped here: two of one name read what both read.
pub(crate) fn captures_in(block: &syn::Block) -> Captures {
    struct Find(Captures);
    impl<'ast> Visit<'ast> for Find {
        fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
            if let Some(name) = &item.ident
                && item.mac.path.is_ident("macro_rules")
            {
                let reads = super::macro_reads::macro_rules_reads(&item.mac);
                self.0.insert(name.to_string(), reads);
            }
        }

        fn visit_local(&mut self, local: &'ast syn::Local) {
            if super::remade::remade_let(local)
                && let Some(init) = &local.init
            {
                let reads = names_in_expr(&init.expr);
                for binding in pattern_bindings(&local.pat) {
                    self.0
                        .entry(binding.ident.to_string())
                        .or_default()
                        .extend(reads.iter().cloned());
                }
            }
            if let Some(closure) = recreated_closure(local)
                && let Some(binding) = pattern_bindings(&local.pat).first()
            {
                self.0
                    .entry(binding.ident.to_string())
                    .or_default()
                    .extend(names_in_expr(&Expr::Closure(closure.clone())));
            }
            visit::visit_local(self, local);
        }
    }
    let mut find = Find(Captures::new());
    find.visit_block(block);
    find.0
}

/// `names`, plus what the re-created closures among them read, transitively.
pub(crate) fn with_captures(mut names: BTreeSet<String>, captures: &Captures) -> BTreeSet<String> {
    let mut pending: Vec<String> = names.iter().cloned().collect();
    while let Some(name) = pending.pop() {
        for captured in captures.get(&name).into_iter().flatten() {
            if names.insert(captured.clone()) {
                pending.push(captured.clone());
            }
        }
    }
    names
}

/// The operands of a plain expression (no control flow), in the order Rust evaluates them;
/// `None` for any other expression. The one walker of evaluation order: `analyze` checks with it
/// that nothing runs before an ask in its statement, finds the ask at the head of a `let`, and
/// `diagram` follows it to the asks it draws.
pub(crate) fn operands_in_order(expr: &Expr) -> Option<Vec<&Expr>> {
    Some(match expr {
        // Making a closure runs none of its code (asks inside one are refused by `analyze`).
        Expr::Lit(_) | Expr::Path(_) | Expr::Closure(_) => Vec::new(),
        Expr::MethodCall(e) => std::iter::once(&*e.receiver).chain(&e.args).collect(),
        Expr::Call(e) => std::iter::once(&*e.func).chain(&e.args).collect(),
        Expr::Try(e) => vec![&e.expr],
        Expr::Await(e) => vec![&e.base],
        Expr::Field(e) => vec![&e.base],
        Expr::Paren(e) => vec![&e.expr],
        Expr::Group(e) => vec![&e.expr],
        Expr::Reference(e) => vec![&e.expr],
        Expr::Unary(e) => vec![&e.expr],
        Expr::Cast(e) => vec![&e.expr],
        // The right side of an assignment is evaluated before the place it goes to.
        Expr::Assign(e) => vec![&e.right, &e.left],
        // So is a compound assignment's on primitives, the case where its place has an effect
        // (`v[i] += ..`, `*m.entry(k).or_insert(0) += ..`): overloaded, the place comes first,
        // and is computed again on resume.
        Expr::Binary(e) if is_assign_op(&e.op) => vec![&e.right, &e.left],
        Expr::Binary(e) => vec![&e.left, &e.right],
        Expr::Index(e) => vec![&e.expr, &e.index],
        Expr::Let(e) => vec![&e.expr],
        Expr::Tuple(e) => e.elems.iter().collect(),
        Expr::Array(e) => e.elems.iter().collect(),
        Expr::Struct(e) => e
            .fields
            .iter()
            .map(|field| &field.expr)
            .chain(e.rest.as_deref())
            .collect(),
        Expr::Range(e) => [&e.start, &e.end]
            .into_iter()
            .flatten()
            .map(|side| &**side)
            .collect(),
        Expr::Return(e) => e.expr.as_deref().into_iter().collect(),
        Expr::Break(e) => e.expr.as_deref().into_iter().collect(),
        _ => return None,
    })
}

/// Whether evaluating a plain expression, past its operands, may do something: call code,
/// return, or branch with `?`. Reading a place, taking a reference or building a value (a tuple
/// struct or variant too: `Some(x)`) does not.
pub(crate) fn has_effect(expr: &Expr) -> bool {
    if let Expr::Call(call) = expr {
        return !constructor(&call.func);
    }
    matches!(
        expr,
        Expr::MethodCall(_)
            | Expr::Try(_)
            | Expr::Await(_)
            | Expr::Unary(_)
            | Expr::Binary(_)
            | Expr::Assign(_)
            | Expr::Index(_)
            | Expr::Return(_)
            | Expr::Break(_)
    )
}

/// `Some`, `Ok`, `Point`, `Shape::Circle`: a path whose last segment is capitalized, which
/// Rust's naming makes a tuple struct or variant, not a function.
fn constructor(func: &Expr) -> bool {
    let Expr::Path(path) = func else { return false };
    path.path.segments.last().is_some_and(|last| {
        last.ident
            .to_string()
            .starts_with(|c: char| c.is_uppercase())
    })
}

/// The ask evaluated first in `expr`, if it is the first thing evaluated.
pub(crate) fn head_ask(expr: &Expr) -> Option<u32> {
    ask_marker_id(expr).or_else(|| head_ask(operands_in_order(expr)?.first()?))
}

/// The prefix of the marker path that stands for ask point N after `analyze`.
pub(crate) const ASK_MARKER: &str = "__mrtr_ask_";

/// A name a `let` introduces.
#[derive(Clone)]
pub(crate) struct Binding {
    pub(crate) ident: Ident,
    pub(crate) mutable: bool,
    pub(crate) by_ref: bool,
}

/// The names the parameters of `sig` bind, not `self`: `args` of `Parameters(args)`, `note`
/// of `Parameters(Args { note, .. })`.
pub(crate) fn parameter_names(sig: &syn::Signature) -> BTreeSet<String> {
    sig.inputs
        .iter()
        .filter_map(|input| match input {
            syn::FnArg::Typed(arg) => Some(pattern_bindings(&arg.pat)),
            syn::FnArg::Receiver(_) => None,
        })
        .flatten()
        .map(|binding| binding.ident.to_string())
        .collect()
}

/// The bindings of a pattern, in source order.
pub(crate) fn pattern_bindings(pat: &Pat) -> Vec<Binding> {
    let mut out = Vec::new();
    collect_bindings(pat, &mut out);
    out
}

fn collect_bindings(pat: &Pat, out: &mut Vec<Binding>) {
    match pat {
        Pat::Ident(p) => {
            // `None`, `MAX`: constants and unit variants, not bindings.
            let name = p.ident.to_string();
            if !name.starts_with(|c: char| c.is_uppercase()) {
                out.push(Binding {
                    ident: p.ident.clone(),
                    // `ref mut v` makes an immutable binding to a `&mut`.
                    mutable: p.mutability.is_some() && p.by_ref.is_none(),
                    by_ref: p.by_ref.is_some(),
                });
            }
            if let Some((_, sub)) = &p.subpat {
                collect_bindings(sub, out);
            }
        }
        Pat::Tuple(p) => p.elems.iter().for_each(|e| collect_bindings(e, out)),
        Pat::TupleStruct(p) => p.elems.iter().for_each(|e| collect_bindings(e, out)),
        Pat::Struct(p) => p.fields.iter().for_each(|f| collect_bindings(&f.pat, out)),
        Pat::Slice(p) => p.elems.iter().for_each(|e| collect_bindings(e, out)),
        Pat::Reference(p) => collect_bindings(&p.pat, out),
        Pat::Type(p) => collect_bindings(&p.pat, out),
        Pat::Paren(p) => collect_bindings(&p.pat, out),
        // Every alternative binds the same names.
        Pat::Or(p) => {
            if let Some(first) = p.cases.first() {
                collect_bindings(first, out);
            }
        }
        _ => {}
    }
}

/// The ask point a marker expression stands for, and its question.
///
/// `analyze` replaces `ask!(key = question)` by the call `__mrtr_ask_N(question)`, so that
/// later stages still see the names the question reads.
pub(crate) fn ask_marker(expr: &Expr) -> Option<(u32, &Expr)> {
    let Expr::Call(call) = expr else { return None };
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    let id = path
        .path
        .get_ident()?
        .to_string()
        .strip_prefix(ASK_MARKER)?
        .parse()
        .ok()?;
    Some((id, call.args.first()?))
}

pub(crate) fn ask_marker_id(expr: &Expr) -> Option<u32> {
    ask_marker(expr).map(|(id, _)| id)
}

/// `__mrtr_ask_N(question)`, spanned like the `ask!(..)` it stands for: from the macro's path
/// (`span`) to its closing delimiter (`arguments`), so that an error over it covers the ask.
pub(crate) fn make_ask_marker(id: u32, question: Expr, span: Span, arguments: Span) -> Expr {
    let ident = Ident::new(&format!("{ASK_MARKER}{id}"), span);
    let mut group = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, quote!(#question));
    group.set_span(arguments);
    syn::parse_quote!(#ident #group)
}

/// What `analyze` leaves for `ask!(start_task())`: `__mrtr_start_task(start_task())`, a call
/// that is no ask point, since the task starts there and nothing halts or is saved.
const TASK_START_MARKER: &str = "__mrtr_start_task";

pub(crate) fn make_task_start_marker(question: Expr, span: Span) -> Expr {
    let ident = Ident::new(TASK_START_MARKER, span);
    syn::parse_quote!(#ident(#question))
}

/// The question (`start_task()`) of a task start marker.
pub(crate) fn task_start_marker(expr: &Expr) -> Option<&Expr> {
    let Expr::Call(call) = expr else { return None };
    let Expr::Path(path) = &*call.func else {
        return None;
    };
    path.path
        .get_ident()
        .is_some_and(|ident| ident == TASK_START_MARKER)
        .then(|| call.args.first())
        .flatten()
}

/// Whether a statement holds the task start marker.
pub(crate) fn starts_task_in_stmt(stmt: &Stmt) -> bool {
    let mut finder = TaskStartFinder(false);
    finder.visit_stmt(stmt);
    finder.0
}

/// Whether an expression holds the task start marker.
pub(crate) fn starts_task_in_expr(expr: &Expr) -> bool {
    let mut finder = TaskStartFinder(false);
    finder.visit_expr(expr);
    finder.0
}

struct TaskStartFinder(bool);

impl<'ast> Visit<'ast> for TaskStartFinder {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        self.0 |= task_start_marker(expr).is_some();
        visit::visit_expr(self, expr);
    }
}

/// The ask points inside a statement, in source order.
pub(crate) fn asks_in_stmt(stmt: &Stmt) -> Vec<u32> {
    let mut finder = AskFinder(Vec::new());
    finder.visit_stmt(stmt);
    finder.0
}

/// The ask points inside a block, in source order.
pub(crate) fn asks_in_block(block: &syn::Block) -> Vec<u32> {
    let mut finder = AskFinder(Vec::new());
    finder.visit_block(block);
    finder.0
}

pub(crate) fn asks_in_expr(expr: &Expr) -> Vec<u32> {
    let mut finder = AskFinder(Vec::new());
    finder.visit_expr(expr);
    finder.0
}

struct AskFinder(Vec<u32>);

impl<'ast> Visit<'ast> for AskFinder {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        match ask_marker_id(expr) {
            Some(id) => self.0.push(id),
            None => visit::visit_expr(self, expr),
        }
    }
}

/// Every name a statement may read or write: paths of one segment, identifiers inside macro
/// arguments, and `{name}` captures in their string literals, less the names of bindings the
/// statement makes itself, where they are in scope. An over-approximation.
pub(crate) fn names_in_stmt(stmt: &Stmt) -> BTreeSet<String> {
    let mut names = Names::default();
    names.visit_stmt(stmt);
    names.read
}

pub(crate) fn names_in_expr(expr: &Expr) -> BTreeSet<String> {
    let mut names = Names::default();
    names.visit_expr(expr);
    names.read
}

/// The names read, less those that only name a binding the code itself makes: a `let` in a
/// block, a closure's parameter, or a pattern of a `match` arm, `if let`, `while let` or `for`.
#[derive(Default)]
struct Names {
    read: BTreeSet<String>,
    /// The bindings of each scope the walk is in.
    scopes: Vec<BTreeSet<String>>,
}

impl Names {
    fn note(&mut self, name: String) {
        if !self.scopes.iter().any(|scope| scope.contains(&name)) {
            self.read.insert(name);
        }
    }
}

impl PatternScopes<'_> for Names {
    fn with_bound(&mut self, names: BTreeSet<String>, inner: impl FnOnce(&mut Self)) {
        self.scopes.push(names);
        inner(self);
        self.scopes.pop();
    }

    fn bind_here(&mut self, names: BTreeSet<String>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.extend(names);
        }
    }
}

impl<'ast> Visit<'ast> for Names {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        if let Some(ident) = path.get_ident() {
            self.note(ident.to_string());
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        for name in super::macro_reads::macro_names(mac) {
            self.note(name);
        }
    }

    fn visit_block(&mut self, block: &'ast Block) {
        self.scoped_block(block);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        self.scoped_local(local);
    }

    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        self.scoped_closure(closure);
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        self.scoped_arm(arm);
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.scoped_for(e);
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        self.scoped_condition(e);
        self.scoped_then(e);
        if let Some((_, other)) = &e.else_branch {
            self.visit_expr(other);
        }
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.scoped_while(e);
    }
}

/// A visitor that follows where patterns bind: a closure's parameters in its body, a `match`
/// arm's pattern in its guard and body, a `for` pattern in its body, and the pattern of an
/// `if let` or `while let` in the block it guards.
pub(crate) trait PatternScopes<'ast>: Visit<'ast> + Sized {
    /// Visits `inner` in a scope where `names` are bound.
    fn with_bound(&mut self, names: BTreeSet<String>, inner: impl FnOnce(&mut Self));

    /// Binds `names` from here to the end of the innermost scope, as a `let` does.
    fn bind_here(&mut self, names: BTreeSet<String>);

    fn scoped_block(&mut self, block: &'ast Block) {
        self.with_bound(BTreeSet::new(), |this| visit::visit_block(this, block));
    }

    /// A `let`: its value and `else` see the bindings before it.
    fn scoped_local(&mut self, local: &'ast syn::Local) {
        if let Some(init) = &local.init {
            self.visit_expr(&init.expr);
            if let Some((_, diverge)) = &init.diverge {
                self.visit_expr(diverge);
            }
        }
        let names = pattern_bindings(&local.pat)
            .into_iter()
            .map(|binding| binding.ident.to_string())
            .collect();
        self.bind_here(names);
    }

    fn scoped<'p>(
        &mut self,
        pats: impl IntoIterator<Item = &'p Pat>,
        inner: impl FnOnce(&mut Self),
    ) {
        let names = pats
            .into_iter()
            .flat_map(pattern_bindings)
            .map(|binding| binding.ident.to_string())
            .collect();
        self.with_bound(names, inner);
    }

    fn scoped_closure(&mut self, closure: &'ast syn::ExprClosure) {
        self.scoped(&closure.inputs, |this| this.visit_expr(&closure.body));
    }

    fn scoped_arm(&mut self, arm: &'ast syn::Arm) {
        self.scoped([&arm.pat], |this| {
            if let Some((_, guard)) = &arm.guard {
                this.visit_expr(guard);
            }
            this.visit_expr(&arm.body);
        });
    }

    fn scoped_for(&mut self, e: &'ast syn::ExprForLoop) {
        self.visit_expr(&e.expr);
        self.scoped([&*e.pat], |this| this.visit_block(&e.body));
    }

    /// The condition of an `if`: of an `if let`, its value.
    fn scoped_condition(&mut self, e: &'ast syn::ExprIf) {
        match &*e.cond {
            Expr::Let(cond) => self.visit_expr(&cond.expr),
            cond => self.visit_expr(cond),
        }
    }

    /// The block an `if` guards, with an `if let`'s bindings.
    fn scoped_then(&mut self, e: &'ast syn::ExprIf) {
        match &*e.cond {
            Expr::Let(cond) => self.scoped([&*cond.pat], |this| this.visit_block(&e.then_branch)),
            _ => self.visit_block(&e.then_branch),
        }
    }

    fn scoped_while(&mut self, e: &'ast syn::ExprWhile) {
        let Expr::Let(cond) = &*e.cond else {
            return visit::visit_expr_while(self, e);
        };
        self.visit_expr(&cond.expr);
        self.scoped([&*cond.pat], |this| this.visit_block(&e.body));
    }
}

/// Methods that hand out a borrow of what they are called on.
const BORROWING: &[&str] = &[
    "as_str",
    "as_slice",
    "as_bytes",
    "as_deref",
    "as_ref",
    "trim",
    "trim_start",
    "trim_end",
    "trim_matches",
    "trim_start_matches",
    "trim_end_matches",
    "borrow",
];

/// Whether an initializer plainly borrows: `&x`, a method that hands out a borrow, or an
/// iterator over what it is called on ([`iterates`]).
pub(crate) fn borrows(init: &Expr) -> bool {
    match init {
        Expr::Reference(_) => true,
        Expr::MethodCall(call) => {
            BORROWING.contains(&call.method.to_string().as_str()) || iterates(init)
        }
        Expr::Paren(inner) => borrows(&inner.expr),
        // `(name.as_str(), 1)`: a part that borrows.
        Expr::Tuple(syn::ExprTuple { elems, .. }) | Expr::Array(syn::ExprArray { elems, .. }) => {
            elems.iter().any(borrows)
        }
        // `if c { "none" } else { &name }`: a branch that borrows.
        Expr::If(branch) => {
            let tail = |block: &Block| match block.stmts.last() {
                Some(Stmt::Expr(value, None)) => borrows(value),
                _ => false,
            };
            tail(&branch.then_branch)
                || branch
                    .else_branch
                    .as_ref()
                    .is_some_and(|(_, otherwise)| match &**otherwise {
                        Expr::Block(block) => tail(&block.block),
                        other => borrows(other),
                    })
        }
        _ => false,
    }
}

/// `chosen.map(|i| items[i].trim()).unwrap_or("none")`, `id.and_then(|id| names.get(id))`:
/// an `Option` or `Result` mapped by a closure to a borrow of a local, not one of `statics`
/// (or of the closure's parameter, where what is mapped borrows), then unwrapped or not.
pub(crate) fn maps_to_borrow(init: &Expr, statics: &BTreeSet<String>) -> bool {
    const UNWRAPPING: &[&str] = &["unwrap", "expect", "unwrap_or", "unwrap_or_else"];
    const MAPPING: &[&str] = &["map", "and_then", "map_or", "map_or_else"];
    let Expr::MethodCall(call) = init else {
        return matches!(init, Expr::Paren(inner) if maps_to_borrow(&inner.expr, statics));
    };
    let method = call.method.to_string();
    if UNWRAPPING.contains(&method.as_str()) {
        return maps_to_borrow(&call.receiver, statics);
    }
    if !MAPPING.contains(&method.as_str()) || iterates(&call.receiver) {
        return false;
    }
    let mapped_borrows = || borrows(&call.receiver) || picks_borrow(&call.receiver).is_some();
    let closure = match call.args.last() {
        Some(Expr::Closure(closure)) => closure,
        // `.map(String::as_str)`, `.map(str::trim)`: a borrow of what is mapped.
        Some(Expr::Path(path)) => {
            let method = path.path.segments.last().map(|s| s.ident.to_string());
            return method.is_some_and(|method| BORROWING.contains(&method.as_str()))
                && mapped_borrows();
        }
        _ => return false,
    };
    let value = match &*closure.body {
        Expr::Block(block) => match block.block.stmts.last() {
            Some(Stmt::Expr(value, None)) => value,
            _ => return false,
        },
        value => value,
    };
    if !borrows(value) && picks_borrow(value).is_none() {
        return false;
    }
    let parameters: BTreeSet<String> = closure
        .inputs
        .iter()
        .flat_map(pattern_bindings)
        .map(|binding| binding.ident.to_string())
        .collect();
    match root_ident(value) {
        Some(root) if parameters.contains(&root.to_string()) => mapped_borrows(),
        Some(root) => local_name(root, statics),
        None => false,
    }
}

/// A method that picks one borrowed item out of borrowed data: `items.first()`,
/// `map.get(&key)`, `text.strip_prefix("x")`, `text.split(' ').next()`,
/// `items.iter().max()`, also through `?`, `.unwrap()` and the like. The picking call, to say
/// where to add `.cloned()`. `None` where the item may be owned: `text.chars().next()` is a `char`,
/// `items.iter().copied().max()` a copy, `row.get::<_, i64>(0)` a value.
pub(crate) fn picks_borrow(init: &Expr) -> Option<&syn::ExprMethodCall> {
    const UNWRAPPING: &[&str] = &[
        "unwrap",
        "expect",
        "unwrap_or",
        "unwrap_or_default",
        "unwrap_or_else",
        "ok_or",
        "ok_or_else",
    ];
    // Iterators whose items borrow what they are called on, and adapters that keep the items.
    const BORROWING_ITEMS: &[&str] = &[
        "iter",
        "iter_mut",
        "split",
        "splitn",
        "rsplit",
        "rsplitn",
        "split_terminator",
        "split_whitespace",
        "split_ascii_whitespace",
        "lines",
        "keys",
        "values",
        "windows",
        "chunks",
    ];
    const KEEPING: &[&str] = &[
        "filter",
        "enumerate",
        "rev",
        "skip",
        "take",
        "peekable",
        "skip_while",
        "take_while",
        "step_by",
    ];
    const PICKING_ITEM: &[(&str, usize)] = &[
        ("next", 0),
        ("next_back", 0),
        ("last", 0),
        ("nth", 1),
        ("max", 0),
        ("min", 0),
        ("max_by_key", 1),
        ("min_by_key", 1),
        ("max_by", 1),
        ("min_by", 1),
        ("find", 1),
        ("peek", 0),
    ];
    const PICKING_PART: &[(&str, usize)] = &[
        ("first", 0),
        ("last", 0),
        ("get", 1),
        ("strip_prefix", 1),
        ("strip_suffix", 1),
        ("first_key_value", 0),
        ("last_key_value", 0),
    ];
    fn items_borrow(expr: &Expr) -> bool {
        match expr {
            Expr::MethodCall(call) => {
                let method = call.method.to_string();
                BORROWING_ITEMS.contains(&method.as_str())
                    || KEEPING.contains(&method.as_str()) && items_borrow(&call.receiver)
            }
            Expr::Paren(inner) => items_borrow(&inner.expr),
            _ => false,
        }
    }
    let called = |call: &syn::ExprMethodCall, table: &[(&str, usize)]| {
        table
            .iter()
            .any(|(name, args)| call.method == name && call.args.len() == *args)
    };
    match init {
        Expr::Try(tried) => picks_borrow(&tried.expr),
        Expr::Paren(inner) => picks_borrow(&inner.expr),
        Expr::MethodCall(call) if UNWRAPPING.contains(&call.method.to_string().as_str()) => {
            picks_borrow(&call.receiver)
        }
        Expr::MethodCall(call) if call.turbofish.is_some() => None,
        Expr::MethodCall(call) if called(call, PICKING_ITEM) && items_borrow(&call.receiver) => {
            Some(call)
        }
        // On a place (`items.first()`, `args.tags.get(0)`), not on what a method made, which
        // may be an iterator of owned items (`into_iter().last()`).
        Expr::MethodCall(call)
            if called(call, PICKING_PART)
                && matches!(&*call.receiver, Expr::Path(_) | Expr::Field(_)) =>
        {
            Some(call)
        }
        _ => None,
    }
}

/// A method that makes an iterator over what it is called on (`text.split(',')`,
/// `items.iter().map(..)`).
pub(crate) fn iterates(init: &Expr) -> bool {
    const ITERATING: &[&str] = &[
        "iter",
        "iter_mut",
        "chars",
        "char_indices",
        "bytes",
        "split",
        "splitn",
        "rsplit",
        "split_terminator",
        "split_whitespace",
        "lines",
        "keys",
        "values",
        "windows",
        "chunks",
        "drain",
    ];
    const ADAPTERS: &[&str] = &[
        "map",
        "filter",
        "filter_map",
        "enumerate",
        "rev",
        "skip",
        "take",
        "peekable",
        "cloned",
        "copied",
        "zip",
        "chain",
        "flat_map",
        "skip_while",
        "take_while",
        "step_by",
    ];
    match init {
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            ITERATING.contains(&method.as_str())
                || ADAPTERS.contains(&method.as_str()) && iterates(&call.receiver)
        }
        Expr::Paren(inner) => iterates(&inner.expr),
        _ => false,
    }
}

/// `text.split(',').map(f).collect::<Vec<&str>>()`, or such a `collect()` into an annotated
/// type holding a `&` that is not `'static`: the references an iterator over a local's data
/// hands out, collected.
pub(crate) fn collects_borrows(
    init: &Expr,
    annotated: Option<&syn::Type>,
    statics: &BTreeSet<String>,
) -> bool {
    let Expr::MethodCall(call) = init else {
        return match init {
            Expr::Paren(inner) => collects_borrows(&inner.expr, annotated, statics),
            _ => false,
        };
    };
    let local = root_ident(&call.receiver).is_some_and(|root| local_name(root, statics));
    let turbofish = call.turbofish.iter().flat_map(|generics| &generics.args);
    let typed = turbofish.into_iter().any(|arg| match arg {
        syn::GenericArgument::Type(ty) => borrowed_type(ty),
        _ => false,
    });
    call.method == "collect"
        && local
        && iterates(&call.receiver)
        && (typed || annotated.is_some_and(borrowed_type))
}

/// The name a place, or a chain on one, starts from: `x` of `&x.a[i].trim()?`.
pub(crate) fn root_ident(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident(),
        Expr::Reference(e) => root_ident(&e.expr),
        Expr::MethodCall(e) => root_ident(&e.receiver),
        Expr::Field(e) => root_ident(&e.base),
        Expr::Index(e) => root_ident(&e.expr),
        Expr::Paren(e) => root_ident(&e.expr),
        Expr::Try(e) => root_ident(&e.expr),
        _ => None,
    }
}

/// A name that may be a local holding data of its own: not a constant's (`NAMES`), nor one of
/// `statics`.
pub(crate) fn local_name(ident: &Ident, statics: &BTreeSet<String>) -> bool {
    let name = ident.to_string();
    name.chars().any(char::is_lowercase) && !statics.contains(&name)
}

/// The locals of `body` whose data may be `'static`: bound to string literals, alone or in an
/// array, tuple or `vec!` (`let options = ["red", "blue"];`), or typed with `'static`
/// (`let word: &'static str = word_for(n);`). What borrows from them need not be refused.
pub(crate) fn static_locals(body: &Block) -> BTreeSet<String> {
    fn literal(expr: &Expr) -> bool {
        match expr {
            Expr::Lit(_) => true,
            Expr::Reference(reference) => literal(&reference.expr),
            Expr::Paren(inner) => literal(&inner.expr),
            Expr::Array(array) => array.elems.iter().all(literal),
            Expr::Tuple(tuple) => tuple.elems.iter().all(literal),
            Expr::Macro(mac) if mac.mac.path.is_ident("vec") => {
                macro_items(&mac.mac).is_some_and(|items| items.iter().all(literal))
            }
            other => str_literal(other),
        }
    }
    struct Statics(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Statics {
        fn visit_local(&mut self, local: &'ast syn::Local) {
            let typed_static = match &local.pat {
                Pat::Type(typed) => names_static(&typed.ty),
                _ => false,
            };
            if typed_static || local.init.as_ref().is_some_and(|init| literal(&init.expr)) {
                self.0.extend(
                    pattern_bindings(&local.pat)
                        .into_iter()
                        .map(|b| b.ident.to_string()),
                );
            }
            visit::visit_local(self, local);
        }
    }
    let mut statics = Statics(BTreeSet::new());
    statics.visit_block(body);
    statics.0
}

/// A type that names `'static`.
fn names_static(ty: &syn::Type) -> bool {
    struct Static(bool);
    impl<'ast> Visit<'ast> for Static {
        fn visit_lifetime(&mut self, lifetime: &'ast syn::Lifetime) {
            self.0 |= lifetime.ident == "static";
        }
    }
    let mut found = Static(false);
    found.visit_type(ty);
    found.0
}

/// A type that holds a `&` other than `&'static`.
pub(crate) fn borrowed_type(ty: &syn::Type) -> bool {
    struct Reference(bool);
    impl<'ast> Visit<'ast> for Reference {
        fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
            self.0 |= reference
                .lifetime
                .as_ref()
                .is_none_or(|l| l.ident != "static");
            visit::visit_type_reference(self, reference);
        }
    }
    let mut found = Reference(false);
    found.visit_type(ty);
    found.0
}

/// The body's own `const` and `static` items whose type holds a reference (`[&str; 3]`), by
/// name: for each, whether an item of it (`NAMES[i]`) holds one too.
pub(crate) type BorrowingItems = BTreeMap<String, bool>;

/// The `const` and `static` items declared in `body` (not in the functions inside it) whose
/// type holds a reference other than `&str`.
pub(crate) fn borrowing_items(body: &Block) -> BorrowingItems {
    struct Items(BorrowingItems);
    impl<'ast> Visit<'ast> for Items {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            let (ident, ty) = match item {
                syn::Item::Const(item) => (&item.ident, &*item.ty),
                syn::Item::Static(item) => (&item.ident, &*item.ty),
                // Items inside another item are that item's, not the body's.
                _ => return,
            };
            if holds_reference(ty) {
                let element = match ty {
                    syn::Type::Array(array) => holds_reference(&array.elem),
                    syn::Type::Slice(slice) => holds_reference(&slice.elem),
                    syn::Type::Reference(reference) => match &*reference.elem {
                        syn::Type::Array(array) => holds_reference(&array.elem),
                        syn::Type::Slice(slice) => holds_reference(&slice.elem),
                        _ => true,
                    },
                    _ => true,
                };
                self.0.insert(ident.to_string(), element);
            }
        }
    }
    let mut items = Items(BorrowingItems::new());
    items.visit_block(body);
    items.0
}

/// Whether `ty`, an item's type, names a reference anywhere in it other than `&str`, which
/// is `&'static str` there and reads back from a state.
fn holds_reference(ty: &syn::Type) -> bool {
    struct Reference(bool);
    impl<'ast> Visit<'ast> for Reference {
        fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
            let lifetime = reference.lifetime.as_ref();
            let static_str = lifetime.is_none_or(|l| l.ident == "static") && str_type(reference);
            if !static_str {
                self.0 = true;
            }
        }
    }
    let mut found = Reference(false);
    found.visit_type(ty);
    found.0
}

/// The name of the body's item that `init` takes a value holding a reference from: the item
/// itself (`NAMES`) or an item of it (`NAMES[i]`).
pub(crate) fn borrowed_from_item<'e>(init: &'e Expr, items: &BorrowingItems) -> Option<&'e Ident> {
    let named = |expr: &'e Expr| match expr {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident(),
        _ => None,
    };
    match init {
        Expr::Paren(inner) => borrowed_from_item(&inner.expr, items),
        Expr::Index(index) => {
            named(&index.expr).filter(|ident| items.get(&ident.to_string()) == Some(&true))
        }
        other => named(other).filter(|ident| items.contains_key(&ident.to_string())),
    }
}

/// `"text"`, `concat!(..)`, or an `if` or `match` whose every branch gives one or leaves:
/// a `&'static str`.
pub(crate) fn str_literal(expr: &Expr) -> bool {
    literal_or_leaves(expr) == Some(true)
}

/// Whether a binding of type `reference` holds a `&'static str`, which a state reads back:
/// it says `&'static str`, or it says `&str` and `init` is a string literal.
pub(crate) fn static_str(reference: &syn::TypeReference, init: Option<&Expr>) -> bool {
    let lifetime = reference.lifetime.as_ref().map(|l| l.ident.to_string());
    str_type(reference)
        && match lifetime.as_deref() {
            Some("static") => true,
            None => init.is_some_and(str_literal),
            Some(_) => false,
        }
}

/// `&str` with any lifetime, not `&mut`.
pub(crate) fn str_type(reference: &syn::TypeReference) -> bool {
    reference.mutability.is_none()
        && matches!(&*reference.elem, syn::Type::Path(path)
            if path.qself.is_none() && path.path.is_ident("str"))
}

/// `Some(true)` for a string literal, `Some(false)` for a branch that leaves (`return`,
/// `panic!`), and `None` for anything else.
fn literal_or_leaves(expr: &Expr) -> Option<bool> {
    let tail = |block: &Block| match block.stmts.last() {
        Some(Stmt::Expr(tail, None)) => literal_or_leaves(tail),
        Some(last) if stmt_leaves(last) => Some(false),
        _ => None,
    };
    let all = |branches: Vec<Option<bool>>| {
        branches
            .into_iter()
            .try_fold(false, |any, branch| branch.map(|literal| any || literal))
    };
    match expr {
        Expr::Lit(lit) => matches!(lit.lit, syn::Lit::Str(_)).then_some(true),
        Expr::Macro(mac) if mac.mac.path.is_ident("concat") => Some(true),
        _ if leaves(expr) => Some(false),
        Expr::Paren(inner) => literal_or_leaves(&inner.expr),
        Expr::Block(block) => tail(&block.block),
        Expr::If(branch) => {
            let (_, otherwise) = branch.else_branch.as_ref()?;
            all(vec![
                tail(&branch.then_branch),
                literal_or_leaves(otherwise),
            ])
        }
        Expr::Match(matched) => all(matched
            .arms
            .iter()
            .map(|arm| literal_or_leaves(&arm.body))
            .collect()),
        _ => None,
    }
}

/// `return`, `break`, `continue`, or a macro that panics.
pub(crate) fn leaves(expr: &Expr) -> bool {
    match expr {
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => true,
        Expr::Macro(mac) => leaving_macro(&mac.mac),
        _ => false,
    }
}

/// A statement that [`leaves`].
pub(crate) fn stmt_leaves(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Expr(expr, _) => leaves(expr),
        Stmt::Macro(mac) => leaving_macro(&mac.mac),
        _ => false,
    }
}

/// `panic!`, `unreachable!`, `todo!` or `unimplemented!`.
fn leaving_macro(mac: &syn::Macro) -> bool {
    mac.path.segments.last().is_some_and(|last| {
        ["panic", "unreachable", "todo", "unimplemented"].contains(&last.ident.to_string().as_str())
    })
}

/// What an assignment (`x = ..`) or compound assignment (`x += ..`) writes to.
pub(crate) fn assigned_place(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::Assign(assign) => Some(&assign.left),
        Expr::Binary(binary) if is_assign_op(&binary.op) => Some(&binary.left),
        _ => None,
    }
}

/// A macro's arguments as comma-separated expressions (`vec![a, b]`, `format!("{}", x)`), if
/// they parse so.
pub(crate) fn macro_items(mac: &syn::Macro) -> Option<Punctuated<Expr, syn::Token![,]>> {
    mac.parse_body_with(Punctuated::parse_terminated).ok()
}

/// Whether a condition chains a `let` (`let Some(x) = a && ..`), which only a condition may
/// hold.
pub(crate) fn contains_let(expr: &Expr) -> bool {
    match expr {
        Expr::Let(_) => true,
        Expr::Binary(b) => contains_let(&b.left) || contains_let(&b.right),
        Expr::Paren(p) => contains_let(&p.expr),
        Expr::Group(g) => contains_let(&g.expr),
        _ => false,
    }
}

/// `==`, `<` and the other comparisons, which borrow their operands.
pub(crate) fn is_comparison(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(op, Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_))
}

/// `+=`, `-=` and the other compound assignments.
pub(crate) fn is_assign_op(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

/// `_guard`: a binding named to be kept for its `Drop`, which Rust keeps to the end of its block
/// even when it is never read. Not the generated code's `__mrtr` locals.
pub(crate) fn kept_for_drop(name: &Ident) -> bool {
    let text = name.to_string();
    text.len() > 1 && text.starts_with('_') && !text.starts_with("__mrtr")
}

/// Whether a token stream spells `ask!` anywhere, as in another macro's arguments.
pub(crate) fn tokens_mention_ask(tokens: &TokenStream) -> Option<Span> {
    let mut previous_is_ask: Option<Span> = None;
    for token in tokens.clone() {
        match &token {
            TokenTree::Punct(p) if p.as_char() == '!' => {
                if let Some(span) = previous_is_ask {
                    return Some(span);
                }
            }
            TokenTree::Group(group) => {
                if let Some(span) = tokens_mention_ask(&group.stream()) {
                    return Some(span);
                }
            }
            _ => {}
        }
        previous_is_ask = match &token {
            TokenTree::Ident(ident) if ident == "ask" => Some(ident.span()),
            _ => None,
        };
    }
    None
}

/// Whether a macro path names `ask!` (`ask!` or `mrtr::ask!`).
pub(crate) fn is_ask_macro(path: &syn::Path) -> bool {
    path.segments
        .last()
        .is_some_and(|segment| segment.ident == "ask")
}

/// `(a, b)`, or `a` for one binding, or `()`; with `mut` where the pattern had it.
pub(crate) fn bindings_tuple(bindings: &[Binding], with_mut: bool) -> TokenStream {
    let parts: Vec<TokenStream> = bindings
        .iter()
        .map(|b| {
            let ident = &b.ident;
            if with_mut && b.mutable {
                quote!(mut #ident)
            } else {
                quote!(#ident)
            }
        })
        .collect();
    match parts.as_slice() {
        [one] => one.clone(),
        _ => quote!((#(#parts),*)),
    }
}

/// Methods of std that return an owned value made from what they are called on, and change
/// nothing: `items.len()`, `cfg.get(k).cloned()`, `name.to_owned()`.
pub(crate) const OWNING_METHODS: &[&str] = &[
    "clone",
    "cloned",
    "contains",
    "contains_key",
    "copied",
    "count",
    "ends_with",
    "into_owned",
    "is_empty",
    "is_err",
    "is_none",
    "is_ok",
    "is_some",
    "len",
    "starts_with",
    "to_lowercase",
    "to_owned",
    "to_string",
    "to_uppercase",
    "to_vec",
];

/// The macros of std, `tracing` and `log` that print, check or log: they only borrow their
/// arguments.
pub(crate) const PRINTING_MACROS: &[&str] = &[
    "print",
    "println",
    "eprint",
    "eprintln",
    "write",
    "writeln",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "trace",
    "debug",
    "info",
    "warn",
    "error",
    "event",
];

/// Tokens mrtr wrote, as a statement; where they do not parse, an internal error at them rather
/// than a panic.
pub(crate) fn parse_stmt(tokens: proc_macro2::TokenStream) -> syn::Stmt {
    let span = syn::spanned::Spanned::span(&tokens);
    syn::parse2(tokens).unwrap_or_else(|error| {
        let message = format!(
            "internal error in mrtr: a rewritten statement does not parse ({error}); please report it"
        );
        syn::parse_quote_spanned!(span=> ::core::compile_error!(#message);)
    })
}

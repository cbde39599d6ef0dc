//! Part of stage 3: a field moved out of a local that a later ask saves is cloned instead.
//!
//! ```text
//! let p = ask!(who = ..)..;          let p = ask!(who = ..)..;
//! let name = p.name;          =>     let name = ::mrtr::__private::moved_field(&p.name);
//! let ok = ask!(sure = ..)..;        let ok = ask!(sure = ..)..;
//! use(name, p.age);                  use(name, p.age);
//! ```
//!
//! The ask saves `p` whole, which rustc refuses for a partly moved value. A moved field is
//! cloned when an ask follows the move and names the local after it (or before it, in the
//! statement that holds it), and nothing after the move names the local but through its
//! other fields until a later statement of a block the move is in gives the field a new value
//! (`p.a = ..;`, or an `if .. else` or `match` each of whose branches does, or leaves). So a
//! body that reads a moved field again is still refused. A `match`, `if let` or `let .. else`
//! whose patterns bind by value matches a clone. Left as written: a move in a loop that the
//! binding is outside of (it would move again on the next pass), and one in the arguments of
//! a macro other than `vec!` and `dbg!`, whose tokens are not known to be expressions that
//! move. The local is a `let`'s binding, or one of a `for` loop's pattern, a `match` arm's, or
//! an `if let`'s or `while let`'s, walked over the statements in its scope.

use std::collections::{BTreeSet, HashMap, HashSet};

use proc_macro2::{Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{
    Block, Expr, Ident, Member, Pat, Stmt, Token,
    parse::{ParseStream, Parser},
    punctuated::Punctuated,
    spanned::Spanned,
    visit::{self, Visit},
    visit_mut::{self, VisitMut},
};

use super::{
    deferred_init::mentions,
    let_chains::conjuncts,
    macro_reads::format_captures,
    syntax::{ask_marker, is_assign_op, is_comparison, leaves, pattern_bindings, stmt_leaves},
};

pub(crate) fn clone_moved_fields(body: &mut Block) {
    Blocks.visit_block_mut(body);
}

/// Methods of std that take their receiver by value, besides `into_*`: `Option`'s and
/// `Result`'s (`p.note.is_some_and(..)` moves `p.note`), an iterator's (a `Range` field), and
/// `Ord`'s `max`, `min` and `clamp`. None of them is also a method of std that borrows.
const CONSUMING_METHODS: &[&str] = &[
    "and",
    "and_then",
    "chain",
    "clamp",
    "collect",
    "enumerate",
    "err",
    "expect",
    "expect_err",
    "filter",
    "filter_map",
    "flat_map",
    "flatten",
    "fold",
    "for_each",
    "inspect",
    "inspect_err",
    "is_err_and",
    "is_none_or",
    "is_ok_and",
    "is_some_and",
    "map",
    "map_err",
    "map_or",
    "map_or_else",
    "max",
    "min",
    "ok",
    "ok_or",
    "ok_or_else",
    "or",
    "or_else",
    "product",
    "rev",
    "skip",
    "step_by",
    "sum",
    "transpose",
    "unwrap",
    "unwrap_err",
    "unwrap_or",
    "unwrap_or_default",
    "unwrap_or_else",
    "unzip",
    "xor",
    "zip",
];

/// Whether a method of std takes its receiver by value: an `into*` or one of
/// `CONSUMING_METHODS`.
pub(crate) fn consumes_receiver(method: &Ident) -> bool {
    let method = method.to_string();
    method.starts_with("into") || CONSUMING_METHODS.contains(&method.as_str())
}

struct Blocks;

impl VisitMut for Blocks {
    fn visit_block_mut(&mut self, block: &mut Block) {
        visit_mut::visit_block_mut(self, block);
        for index in 0..block.stmts.len() {
            if let Stmt::Local(local) = &block.stmts[index] {
                let names = bound_by_value([&local.pat]);
                clone_in(&mut block.stmts[index + 1..], &names);
            }
        }
    }

    fn visit_expr_for_loop_mut(&mut self, looped: &mut syn::ExprForLoop) {
        visit_mut::visit_expr_for_loop_mut(self, looped);
        clone_in(&mut looped.body.stmts, &bound_by_value([&*looped.pat]));
    }

    fn visit_expr_if_mut(&mut self, branch: &mut syn::ExprIf) {
        visit_mut::visit_expr_if_mut(self, branch);
        let names = bound_by_value(let_patterns(&branch.cond));
        clone_in(&mut branch.then_branch.stmts, &names);
    }

    fn visit_expr_while_mut(&mut self, looped: &mut syn::ExprWhile) {
        visit_mut::visit_expr_while_mut(self, looped);
        let names = bound_by_value(let_patterns(&looped.cond));
        clone_in(&mut looped.body.stmts, &names);
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        visit_mut::visit_arm_mut(self, arm);
        if let Expr::Block(body) = &mut *arm.body {
            clone_in(&mut body.block.stmts, &bound_by_value([&arm.pat]));
        }
    }

    // Closures, async blocks and items hold no ask points.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// Clones the fields of each of `names` moved in `stmts`, where its binding is in scope, that
/// `fields_to_clone` chooses.
fn clone_in(stmts: &mut [Stmt], names: &[Ident]) {
    for name in names {
        let cloned = fields_to_clone(stmts, name);
        if cloned.iter().any(|clone| *clone) {
            let mut rewrite = Rewrite {
                name,
                cloned,
                site: 0,
            };
            for stmt in stmts.iter_mut() {
                rewrite.visit_stmt_mut(stmt);
            }
        }
    }
}

/// The names patterns bind by value (`p`, `Some(p)`, `(a, b)`), not by `ref`.
fn bound_by_value<'p>(patterns: impl IntoIterator<Item = &'p Pat>) -> Vec<Ident> {
    patterns
        .into_iter()
        .flat_map(pattern_bindings)
        .filter(|binding| !binding.by_ref)
        .map(|binding| binding.ident)
        .collect()
}

/// The patterns of the `let`s an `if` or `while` condition chains with `&&`.
fn let_patterns(condition: &Expr) -> Vec<&Pat> {
    conjuncts(condition)
        .into_iter()
        .filter_map(|part| match part {
            Expr::Let(bound) => Some(&*bound.pat),
            _ => None,
        })
        .collect()
}

/// `p.a.b` for the local `p`: its fields, outermost last.
fn field_path(expr: &Expr, name: &Ident) -> Option<Vec<String>> {
    let Expr::Field(field) = expr else {
        return None;
    };
    let mut path = match &*field.base {
        Expr::Path(base) if base.qself.is_none() && base.path.is_ident(name) => Vec::new(),
        base => field_path(base, name)?,
    };
    path.push(member_name(&field.member));
    Some(path)
}

fn member_name(member: &Member) -> String {
    match member {
        Member::Named(ident) => ident.to_string(),
        Member::Unnamed(index) => index.index.to_string(),
    }
}

/// What the statements after the local's `let` do with it, in the order they are written.
enum Event {
    Ask,
    /// A field of it (`p.a.b`), numbered in the order of the walk.
    Field {
        site: usize,
        path: Vec<String>,
        moves: bool,
        assigned: bool,
        /// In a loop's body or a `while` condition that the local's `let` is outside of.
        in_loop: bool,
    },
    /// The local itself, or a name in a closure or a macro that may be it.
    Whole,
    /// The end of a statement that gives the field a new value on every path that goes on
    /// past it (`given_by_stmt`).
    Restored(Vec<String>),
}

/// Where an event is: for each block around it, from the `let`'s own, the block's number and
/// the statement's place in it.
type Place = Vec<(usize, usize)>;

/// For each field of `name` in `tail`, in the order of the walk, whether to clone it.
fn fields_to_clone(tail: &[Stmt], name: &Ident) -> Vec<bool> {
    let mut walk = Walk {
        name,
        events: Vec::new(),
        places: Vec::new(),
        place: Vec::new(),
        blocks: 0,
        sites: 0,
        kept_in_place: HashSet::new(),
        assigned: HashSet::new(),
        loop_bodies: HashMap::new(),
        loop_conditions: HashMap::new(),
        loops: Vec::new(),
        loop_stacks: Vec::new(),
        shadowed: false,
        parsed: Vec::new(),
    };
    walk.visit_stmts(tail);
    let mut cloned = vec![false; walk.sites];
    if walk.shadowed {
        return cloned;
    }
    let (events, places) = (&walk.events, &walk.places);
    for (at, event) in events.iter().enumerate() {
        // A move in a loop would move again on the next pass, which rustc refuses.
        let Event::Field {
            site,
            path,
            moves: true,
            in_loop: false,
            ..
        } = event
        else {
            continue;
        };
        let later = &events[at + 1..];
        let Some(ask) = later.iter().position(|event| matches!(event, Event::Ask)) else {
            continue;
        };
        // Named after the ask, before it in a statement that holds it (`p.n += ask!(..)`,
        // `p.items.push(ask!(..))`), which goes on after the answer comes, or in a loop around
        // it, which comes round again.
        let (ask_place, ask_loops) = (&places[at + 1 + ask], &walk.loop_stacks[at + 1 + ask]);
        let named_after_ask = later.iter().enumerate().any(|(offset, event)| {
            let index = at + 1 + offset;
            matches!(event, Event::Field { .. } | Event::Whole)
                && (offset > ask
                    || ask_place.starts_with(&places[index])
                    || walk.loop_stacks[index]
                        .iter()
                        .any(|looped| ask_loops.contains(looped)))
        });
        // After a later statement of a block the move is in that gives the field a new value,
        // the local is whole again.
        let restored = later
            .iter()
            .enumerate()
            .find(|(offset, event)| {
                matches!(event, Event::Restored(restored) if restored == path)
                    && follows_in_its_block(&places[at], &places[at + 1 + offset]) == Some(true)
            })
            .map_or(later.len(), |(offset, _)| offset);
        // A mention after a statement that gave the field its new value, in a block both are
        // in (`if c { p.a = ..; read(p.a) }`), reads the new value.
        let given_before = |offset: usize| {
            later[..offset].iter().enumerate().any(|(earlier, event)| {
                matches!(event, Event::Restored(restored) if restored == path)
                    && follows_in_its_block(&places[at + 1 + offset], &places[at + 1 + earlier])
                        == Some(false)
            })
        };
        let only_other_fields =
            later[..restored]
                .iter()
                .enumerate()
                .all(|(offset, event)| match event {
                    Event::Ask | Event::Restored(_) => true,
                    _ if given_before(offset) => true,
                    Event::Whole => false,
                    Event::Field {
                        path: other,
                        assigned,
                        ..
                    } => !overlaps(path, other) || (*assigned && other == path),
                });
        cloned[*site] = named_after_ask && only_other_fields;
    }
    cloned
}

/// Whether `statement` is a later (`true`) or an earlier (`false`) statement of a block that
/// `event` is in, or neither.
fn follows_in_its_block(event: &Place, statement: &Place) -> Option<bool> {
    let ((block, index), outer) = statement.split_last()?;
    if event.get(..outer.len()) != Some(outer) {
        return None;
    }
    match event.get(outer.len()) {
        Some((event_block, event_index)) if event_block == block && event_index != index => {
            Some(event_index < index)
        }
        _ => None,
    }
}

/// The fields of `name` a statement gives a new value on every path that goes on past it:
/// `p.a = ..;`, or an `if .. else` or `match` each of whose branches does so in a statement of
/// its own, or leaves. `None` when it always leaves.
fn given_by_stmt(stmt: &Stmt, name: &Ident) -> Option<BTreeSet<Vec<String>>> {
    match stmt {
        Stmt::Expr(expr, _) => given_by(expr, name),
        _ if stmt_leaves(stmt) => None,
        _ => Some(BTreeSet::new()),
    }
}

fn given_by(expr: &Expr, name: &Ident) -> Option<BTreeSet<Vec<String>>> {
    let both = |a: Option<BTreeSet<_>>, b: Option<BTreeSet<_>>| match (a, b) {
        (Some(a), Some(b)) => Some(a.intersection(&b).cloned().collect()),
        (a, b) => a.or(b),
    };
    match expr {
        _ if leaves(expr) => None,
        Expr::Assign(assign) => Some(field_path(&assign.left, name).into_iter().collect()),
        Expr::Block(block) if block.label.is_none() => given_in_block(&block.block, name),
        Expr::If(branch) => match &branch.else_branch {
            Some((_, otherwise)) => both(
                given_in_block(&branch.then_branch, name),
                given_by(otherwise, name),
            ),
            None => Some(BTreeSet::new()),
        },
        Expr::Match(matched) => matched
            .arms
            .iter()
            .map(|arm| given_by(&arm.body, name))
            .reduce(both)
            .unwrap_or(None),
        _ => Some(BTreeSet::new()),
    }
}

fn given_in_block(block: &Block, name: &Ident) -> Option<BTreeSet<Vec<String>>> {
    let mut given = BTreeSet::new();
    for stmt in &block.stmts {
        given.extend(given_by_stmt(stmt, name)?);
    }
    Some(given)
}

/// Whether one field path holds the other (`a` and `a.b`), or they are the same.
fn overlaps(a: &[String], b: &[String]) -> bool {
    a.iter().zip(b).all(|(a, b)| a == b)
}

struct Walk<'n> {
    name: &'n Ident,
    events: Vec<Event>,
    /// For each event, where it is.
    places: Vec<Place>,
    place: Place,
    blocks: usize,
    sites: usize,
    /// Fields read where they stay in place: borrowed, compared, indexed, matched on.
    kept_in_place: HashSet<*const Expr>,
    /// Fields given a new value.
    assigned: HashSet<*const Expr>,
    /// The bodies of loops and the conditions of `while`s, which run again on each pass.
    /// Each with its loop's number.
    loop_bodies: HashMap<*const Block, usize>,
    loop_conditions: HashMap<*const Expr, usize>,
    /// The loops around the walk, and around each event.
    loops: Vec<usize>,
    loop_stacks: Vec<Vec<usize>>,
    shadowed: bool,
    /// The elements of `vec!`s walked, parsed from the macros' tokens.
    parsed: Vec<VecElements>,
}

impl Walk<'_> {
    fn push(&mut self, event: Event) {
        self.events.push(event);
        self.places.push(self.place.clone());
        self.loop_stacks.push(self.loops.clone());
    }

    /// The statements of a block, numbered, each followed by the field it gives a new value.
    fn visit_stmts(&mut self, stmts: &[Stmt]) {
        let block = self.blocks;
        self.blocks += 1;
        for (index, stmt) in stmts.iter().enumerate() {
            self.place.push((block, index));
            self.visit_stmt(stmt);
            for path in given_by_stmt(stmt, self.name).unwrap_or_default() {
                self.push(Event::Restored(path));
            }
            self.place.pop();
        }
    }

    fn in_place(&mut self, expr: &Expr) {
        self.kept_in_place.insert(expr as *const Expr);
    }

    /// Runs `inner` inside the loop `looped`, if any.
    fn nested(&mut self, looped: Option<usize>, inner: impl FnOnce(&mut Self)) {
        self.loops.extend(looped);
        inner(self);
        if looped.is_some() {
            self.loops.pop();
        }
    }

    /// A number for the loop whose body and condition run again on each pass.
    fn looped(&mut self, body: &Block, condition: Option<&Expr>) {
        let number = self.loop_bodies.len();
        self.loop_bodies.insert(body, number);
        if let Some(condition) = condition {
            self.loop_conditions.insert(condition, number);
        }
    }
}

impl<'ast> Visit<'ast> for Walk<'_> {
    fn visit_block(&mut self, block: &'ast Block) {
        let looped = self.loop_bodies.get(&(block as *const Block)).copied();
        self.nested(looped, |walk| walk.visit_stmts(&block.stmts));
    }

    fn visit_expr(&mut self, expr: &'ast Expr) {
        let looped = self.loop_conditions.get(&(expr as *const Expr)).copied();
        self.nested(looped, |walk| walk.visit_expr_here(expr));
    }

    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        if pat.ident == *self.name {
            self.shadowed = true;
        }
        visit::visit_pat_ident(self, pat);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if !moves_into([&local.pat])
            && let Some(init) = &local.init
        {
            // `let _ = p.a;` moves nothing.
            self.in_place(&init.expr);
        }
        visit::visit_local(self, local);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(elements) = VecElements::of(mac) {
            for element in elements.iter() {
                <Self as Visit<'_>>::visit_expr(self, element);
            }
            // Kept, so that no later parse takes the addresses `kept_in_place` holds.
            self.parsed.push(elements);
            return;
        }
        let mut events = Vec::new();
        macro_mentions(mac.tokens.clone(), self.name, &mut events);
        for event in events {
            self.push(event);
        }
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl Walk<'_> {
    fn visit_expr_here(&mut self, expr: &Expr) {
        let key = expr as *const Expr;
        if let Some(path) = field_path(expr, self.name) {
            let assigned = self.assigned.contains(&key);
            self.push(Event::Field {
                site: self.sites,
                path,
                moves: !assigned && !self.kept_in_place.contains(&key),
                assigned,
                in_loop: !self.loops.is_empty(),
            });
            self.sites += 1;
            return;
        }
        // Parentheses keep what their contents are read as: `(p.items).push(..)`.
        if let Expr::Paren(syn::ExprParen { expr: inner, .. })
        | Expr::Group(syn::ExprGroup { expr: inner, .. }) = expr
            && self.kept_in_place.contains(&key)
        {
            self.in_place(inner);
        }
        if ask_marker(expr).is_some() {
            // The question is built after the locals are saved.
            self.push(Event::Ask);
        }
        match expr {
            Expr::Path(path) if path.qself.is_none() && path.path.is_ident(self.name) => {
                self.push(Event::Whole);
            }
            Expr::Closure(_) | Expr::Async(_) => {
                if mentions(expr, self.name) {
                    self.push(Event::Whole);
                }
                return;
            }
            Expr::Reference(reference) => self.in_place(&reference.expr),
            Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Deref(_)) => {
                self.in_place(&unary.expr);
            }
            Expr::Index(index) => self.in_place(&index.expr),
            Expr::Match(matched) if !moves_into(matched.arms.iter().map(|arm| &arm.pat)) => {
                self.in_place(&matched.expr);
            }
            Expr::Let(bound) if !moves_into([&*bound.pat]) => self.in_place(&bound.expr),
            Expr::Assign(assign) => {
                self.assigned.insert(&*assign.left as *const Expr);
            }
            Expr::Binary(binary) if is_comparison(&binary.op) => {
                self.in_place(&binary.left);
                self.in_place(&binary.right);
            }
            Expr::Binary(binary) if is_assign_op(&binary.op) => self.in_place(&binary.left),
            Expr::MethodCall(call) if !consumes_receiver(&call.method) => {
                self.in_place(&call.receiver);
            }
            Expr::Loop(looped) => self.looped(&looped.body, None),
            Expr::ForLoop(looped) => self.looped(&looped.body, None),
            Expr::While(looped) => self.looped(&looped.body, Some(&looped.cond)),
            _ => {}
        }
        visit::visit_expr(self, expr);
    }
}

/// The mentions of `name` in a macro's tokens: `name.a.b` as a field, read in place (the
/// arguments of `format!` and its kin are borrowed, and a field moved there is left as
/// written), anything else as the whole local.
fn macro_mentions(tokens: TokenStream, name: &Ident, events: &mut Vec<Event>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let dot = |index: usize| matches!(tokens.get(index), Some(TokenTree::Punct(p)) if p.as_char() == '.' && p.spacing() == Spacing::Alone);
    for (index, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Ident(ident) if ident == name => {
                let after_dot = index > 0 && dot(index - 1);
                if after_dot {
                    continue;
                }
                let mut path = Vec::new();
                let mut next = index + 1;
                while dot(next) {
                    let member = match tokens.get(next + 1) {
                        Some(TokenTree::Ident(member)) => member.to_string(),
                        // `p.0.1` is the literal `0.1`.
                        Some(TokenTree::Literal(index)) => {
                            path.extend(index.to_string().split('.').map(str::to_owned));
                            next += 2;
                            continue;
                        }
                        _ => break,
                    };
                    if matches!(tokens.get(next + 2), Some(TokenTree::Group(group))
                        if group.delimiter() == proc_macro2::Delimiter::Parenthesis)
                    {
                        break; // a method, called on what comes before it
                    }
                    path.push(member);
                    next += 2;
                }
                events.push(if path.is_empty() {
                    Event::Whole
                } else {
                    Event::Field {
                        site: usize::MAX,
                        path,
                        moves: false,
                        assigned: false,
                        in_loop: false,
                    }
                });
            }
            TokenTree::Group(group) => macro_mentions(group.stream(), name, events),
            TokenTree::Literal(literal) => {
                let mut captured = std::collections::BTreeSet::new();
                format_captures(&literal.to_string(), &mut captured);
                if captured.contains(&name.to_string()) {
                    events.push(Event::Whole);
                }
            }
            _ => {}
        }
    }
}

/// The elements of a `vec![a, b]` or `vec![a; n]`, or the arguments of a `dbg!(a, b)`, which
/// these macros move, unlike the arguments of `format!` and its kin.
enum VecElements {
    List(Punctuated<Expr, Token![,]>),
    Repeat(Box<(Expr, Token![;], Expr)>),
}

impl VecElements {
    fn of(mac: &syn::Macro) -> Option<Self> {
        let name = &mac.path.segments.last()?.ident;
        if name != "vec" && name != "dbg" {
            return None;
        }
        let list = |input: ParseStream| Punctuated::parse_terminated(input).map(Self::List);
        let repeat = |input: ParseStream| {
            let element = (input.parse()?, input.parse()?, input.parse()?);
            Ok(Self::Repeat(Box::new(element)))
        };
        list.parse2(mac.tokens.clone())
            .or_else(|_| repeat.parse2(mac.tokens.clone()))
            .ok()
    }

    fn iter(&self) -> Box<dyn Iterator<Item = &Expr> + '_> {
        match self {
            Self::List(list) => Box::new(list.iter()),
            Self::Repeat(repeat) => Box::new([&repeat.0, &repeat.2].into_iter()),
        }
    }

    fn iter_mut(&mut self) -> Box<dyn Iterator<Item = &mut Expr> + '_> {
        match self {
            Self::List(list) => Box::new(list.iter_mut()),
            Self::Repeat(repeat) => {
                let (element, _, count) = &mut **repeat;
                Box::new([element, count].into_iter())
            }
        }
    }

    fn into_token_stream(self) -> TokenStream {
        match self {
            Self::List(list) => list.into_token_stream(),
            Self::Repeat(repeat) => {
                let (element, semi, count) = *repeat;
                quote::quote!(#element #semi #count)
            }
        }
    }
}

/// Whether patterns take what they match by value: they bind a name, none by `ref`.
fn moves_into<'p>(patterns: impl IntoIterator<Item = &'p Pat>) -> bool {
    let bindings: Vec<_> = patterns.into_iter().flat_map(pattern_bindings).collect();
    !bindings.is_empty() && bindings.iter().all(|binding| !binding.by_ref)
}

/// Clones the fields `fields_to_clone` chose, walking as `Walk` did.
struct Rewrite<'n> {
    name: &'n Ident,
    cloned: Vec<bool>,
    site: usize,
}

impl VisitMut for Rewrite<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if field_path(expr, self.name).is_some() {
            if self.cloned.get(self.site).copied().unwrap_or(false) {
                let span = expr.span();
                *expr = syn::parse_quote_spanned!(span=>
                    ::mrtr::__private::moved_field(&#expr)
                );
            }
            self.site += 1;
            return;
        }
        if matches!(expr, Expr::Closure(_) | Expr::Async(_)) {
            return;
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        if let Some(mut elements) = VecElements::of(mac) {
            for element in elements.iter_mut() {
                self.visit_expr_mut(element);
            }
            mac.tokens = elements.into_token_stream();
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};

    use super::*;

    fn rewritten(body: TokenStream) -> String {
        let mut block: Block = syn::parse2(quote!({ #body })).unwrap();
        clone_moved_fields(&mut block);
        block.to_token_stream().to_string()
    }

    fn cloned(text: &str) -> usize {
        text.matches("moved_field").count()
    }

    #[test]
    fn a_field_moved_before_an_ask_that_saves_the_local_is_cloned() {
        let text = rewritten(quote! {
            let p = make();
            let name = p.name;
            let ok = __mrtr_ask_1(q());
            use_both(name, p.age, ok);
        });
        assert!(text.contains("moved_field (& p . name)"), "{text}");
        assert_eq!(cloned(&text), 1, "{text}");
    }

    #[test]
    fn borrowed_compared_and_matched_fields_stay_in_place() {
        let text = rewritten(quote! {
            let p = make();
            let a = &p.name;
            let b = p.name == x;
            let c = p.name.len();
            match p.kind { _ => {} }
            match p.name { ref n => {} }
            if let Kind::Named { ref tag, .. } = p.kind {}
            let _ = p.city;
            let ok = __mrtr_ask_1(q());
            p.age
        });
        assert_eq!(cloned(&text), 0, "{text}");
    }

    #[test]
    fn nothing_is_cloned_without_an_ask_that_saves_the_local() {
        // No ask after the move.
        let text = rewritten(quote! {
            let p = make();
            let ok = __mrtr_ask_1(q());
            let name = p.name;
            p.age
        });
        assert_eq!(cloned(&text), 0, "{text}");
        // The local is not named after the ask: nothing saves it.
        let text = rewritten(quote! {
            let p = make();
            let name = p.name;
            let ok = __mrtr_ask_1(q());
            name
        });
        assert_eq!(cloned(&text), 0, "{text}");
    }

    #[test]
    fn a_program_rustc_refuses_is_left_as_written() {
        for later in [
            quote!(p.name),
            quote!(p),
            quote!(p.name.len()),
            quote!(format!("{p:?}")),
            quote!(println!("{}", p.name)),
            quote!(|| p.age),
        ] {
            let text = rewritten(quote! {
                let p = make();
                let name = p.name;
                let ok = __mrtr_ask_1(q());
                #later
            });
            assert_eq!(cloned(&text), 0, "{text}");
        }
        // The local is bound again: the walk does not tell the two apart.
        let text = rewritten(quote! {
            let p = make();
            let name = p.name;
            let ok = __mrtr_ask_1(q());
            if let Some(p) = other { p.age }
        });
        assert_eq!(cloned(&text), 0, "{text}");
    }

    #[test]
    fn moves_by_call_method_and_nested_path_are_cloned_and_other_fields_may_follow() {
        let text = rewritten(quote! {
            let mut p = make();
            consume(p.inner.name);
            let bytes = p.tag.into_bytes();
            let both = (p.0, p.1.unwrap());
            let long = p.note.is_some_and(|n| n.len() > 3);
            let total: u32 = p.range.sum();
            let first = p.list.first();
            let ok = __mrtr_ask_1(q());
            p.tag = fresh();
            println!("{}", p.inner.age);
        });
        assert_eq!(cloned(&text), 6, "{text}");
        assert!(text.contains("moved_field (& p . inner . name)"), "{text}");
        assert!(
            text.contains("moved_field (& p . tag) . into_bytes ()"),
            "{text}"
        );
    }

    #[test]
    fn a_field_moved_in_a_loop_around_the_let_is_left_as_written() {
        for looped in [
            quote!(loop {
                let name = p.name;
                let ok = __mrtr_ask_1(q());
                if ok {
                    break;
                }
            }),
            quote!(while go(p.name) {
                let ok = __mrtr_ask_1(q());
            }),
            quote!(for i in 0..3 {
                consume(p.name);
                let ok = __mrtr_ask_1(q());
            }),
        ] {
            let text = rewritten(quote! {
                let p = make();
                #looped
                p.age
            });
            assert_eq!(cloned(&text), 0, "{text}");
        }
        // The loop's iterator runs once; a `let` inside the loop's body starts a walk there.
        let text = rewritten(quote! {
            let p = make();
            for tag in p.tags { let ok = __mrtr_ask_1(q()); }
            loop { let r = make(); let name = r.name; let ok = __mrtr_ask_2(q()); use_it(r.age); }
            p.age
        });
        assert_eq!(cloned(&text), 2, "{text}");
    }

    #[test]
    fn parentheses_keep_a_receiver_in_place_and_a_macro_reads_tuple_fields() {
        let text = rewritten(quote! {
            let mut p = make();
            (p.items).push(1);
            let first = p.0;
            let ok = __mrtr_ask_1(q());
            println!("{}", p.0.1);
        });
        assert_eq!(cloned(&text), 0, "{text}");
    }

    #[test]
    fn a_match_or_if_let_that_binds_by_value_matches_a_clone() {
        let text = rewritten(quote! {
            let p = make();
            if let Some(note) = p.note { keep(note); }
            let label = match p.kind { Kind::Named(label) => label, Kind::Empty => String::new() };
            let Some(first) = p.first else { return Err(String::new()); };
            let ok = __mrtr_ask_1(q());
            p.age
        });
        assert_eq!(cloned(&text), 3, "{text}");
        assert!(
            text.contains("if let Some (note) = :: mrtr :: __private :: moved_field (& p . note)"),
            "{text}"
        );
    }

    #[test]
    fn a_field_given_a_new_value_by_a_statement_of_the_block_may_be_read_after() {
        let text = rewritten(quote! {
            let mut p = make();
            let old = p.title;
            p.title = __mrtr_ask_1(q(old));
            println!("{:?} {}", p, p.title);
        });
        assert_eq!(cloned(&text), 1, "{text}");
        // Moved in an inner block, and given its new value after it.
        let text = rewritten(quote! {
            let mut p = make();
            if c {
                {
                    consume(p.title);
                }
                let ask = __mrtr_ask_1(q());
                p.title = ask;
            }
            println!("{}", p.title);
        });
        assert_eq!(cloned(&text), 1, "{text}");
        // Given its new value by each branch, or in a branch and read there after.
        for restoring in [
            quote!(if c {
                p.title = String::new();
            } else {
                let t = __mrtr_ask_1(q());
                p.title = t;
            }),
            quote!(match c {
                0 => p.title = __mrtr_ask_1(q()),
                1 => return,
                _ => {
                    p.title = String::new();
                }
            }),
        ] {
            let text = rewritten(quote! {
                let mut p = make();
                let old = p.title;
                #restoring;
                println!("{}", p.title);
            });
            assert_eq!(cloned(&text), 1, "{text}");
        }
        let text = rewritten(quote! {
            let mut p = make();
            let old = p.title;
            if c {
                p.title = __mrtr_ask_1(q());
                println!("{}", p.title);
            }
            println!("{}", p.age);
        });
        assert_eq!(cloned(&text), 1, "{text}");
        // Given its new value in a branch only and read after it, or from itself: it may be
        // read moved.
        for restoring in [
            quote!(if c {
                p.title = __mrtr_ask_1(q());
            }),
            quote!(p.title = __mrtr_ask_1(q(p.title))),
        ] {
            let text = rewritten(quote! {
                let mut p = make();
                let old = p.title;
                #restoring;
                println!("{}", p.title);
            });
            assert_eq!(cloned(&text), 0, "{text}");
        }
    }

    #[test]
    fn a_field_written_by_the_asking_statement_names_the_local_after_the_ask() {
        for asking in [
            quote!(p.title = __mrtr_ask_1(q());),
            quote!(p.n ^= __mrtr_ask_1(q());),
            quote!(p.items.push(__mrtr_ask_1(q()));),
        ] {
            let text = rewritten(quote! {
                let mut p = make();
                let old = consume(p.note);
                #asking
            });
            assert_eq!(cloned(&text), 1, "{text}");
        }
    }

    #[test]
    fn bindings_of_loops_arms_and_if_lets_and_each_name_of_a_pattern_are_walked() {
        let text = rewritten(quote! {
            for item in items {
                let name = item.name;
                let ok = __mrtr_ask_1(q());
                use_it(item.id);
            }
            match found {
                Some(hit) => {
                    consume(hit.name);
                    let ok = __mrtr_ask_2(q());
                    use_it(hit.id);
                }
                Some(ref held) => {
                    consume(held.name);
                    let ok = __mrtr_ask_3(q());
                    use_it(held.id);
                }
                None => {}
            }
            if let Some(hit) = found && hit.id > 2 {
                consume(hit.name);
                let ok = __mrtr_ask_4(q());
                use_it(hit.id);
            }
            let (a, b) = pair();
            consume(a.name);
            consume(b.name);
            let ok = __mrtr_ask_5(q());
            use_it(a.id, b.id);
        });
        assert_eq!(cloned(&text), 5, "{text}");
        assert!(!text.contains("moved_field (& held . name)"), "{text}");
    }

    #[test]
    fn a_local_named_in_a_loop_around_a_later_ask_is_named_after_it() {
        let text = rewritten(quote! {
            let mut p = make();
            let old = p.title;
            while go() {
                println!("{}", p.n);
                let more = __mrtr_ask_1(q());
            }
        });
        assert_eq!(cloned(&text), 1, "{text}");
    }

    #[test]
    fn a_field_moved_in_the_asking_statement_is_cloned() {
        let text = rewritten(quote! {
            let p = make();
            let both = join(p.name, __mrtr_ask_1(q()));
            p.age
        });
        assert_eq!(cloned(&text), 1, "{text}");
    }

    #[test]
    fn a_field_moved_into_a_vec_or_dbg_is_cloned_and_one_formatted_stays_in_place() {
        let text = rewritten(quote! {
            let p = make();
            let names = vec![p.name, p.nick.clone()];
            let copies = vec![p.tag; 2];
            let ok = __mrtr_ask_1(q());
            println!("{}", p.note);
            let notes = ::std::vec![p.note];
            let seen = dbg!(p.seen, 1);
            let ok = __mrtr_ask_2(q());
            p.age
        });
        assert!(
            text.contains(
                "vec ! [:: mrtr :: __private :: moved_field (& p . name) , p . nick . clone ()]"
            ),
            "{text}"
        );
        assert!(
            text.contains("vec ! [:: mrtr :: __private :: moved_field (& p . tag) ; 2]"),
            "{text}"
        );
        assert_eq!(cloned(&text), 4, "{text}");
    }
}

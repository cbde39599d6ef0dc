//! Part of stage 3: the asks after which nothing reads a binding again.
//!
//! ```text
//! let mut name = args.name;
//! loop {
//!     let answer = ask!(first = ..)..;   // reads `name` on each pass
//!     if answer.is_empty() { continue; }
//!     register(name)?;                   // moves `name`
//!     let more = ask!(more = ..)..;      // `name` is dead here: every path from this ask
//!     out = format!("{answer}{more}");   // leaves the loop, and nothing after it reads
//!     break;                             // `name`
//! }
//! ```
//!
//! `overwritten` finds the asks just before an assignment. This module follows every path
//! from each ask (branches, loops, `break`, `continue`, `return`, `?`) to the end of the
//! binding's block, and keeps the asks from which no path reads the binding before an
//! assignment gives it a new value. Resuming at such an ask must not read it either: no
//! statement around the ask names it outside the bodies the ask sits in, since those parts
//! run again on resume (`f(name, loop { .. })`), while the statements before the ask in each
//! body, and the condition of an `if` whose branch holds the ask, do not (the walk sees the
//! body as `desugar` left it). `lower` then saves the binding there from the snapshot taken
//! after its `let`. What the walk does not follow, such as a binding hidden by another of the
//! same name, keeps the binding alive.

use std::collections::{BTreeMap, BTreeSet};

use syn::{
    BinOp, Block, Expr, Pat, Stmt,
    visit::{self, Visit},
};

use super::{
    macro_reads::macro_names,
    overwritten::rebinds,
    syntax::{
        PRINTING_MACROS, ask_marker, asks_in_expr, asks_in_stmt, is_comparison, made_every_round,
        names_in_expr, operands_in_order, pattern_bindings,
    },
};

/// The asks in `after_let`, the statements after the binding's `let`, after which no path
/// reads it, and at which resuming does not read it. `closures` are the re-created closures
/// that capture it: calling one reads it.
pub(crate) fn dead_asks(
    after_let: &[Stmt],
    name: &str,
    closures: &BTreeSet<String>,
) -> BTreeSet<u32> {
    let mut paths = Paths {
        name,
        closures,
        live_after: BTreeMap::new(),
        targets: Vec::new(),
    };
    paths.stmts(after_let, false);
    let mut resumed = Resumed {
        name,
        closures,
        clean: BTreeSet::new(),
    };
    resumed.stmts(after_let, false);
    paths
        .live_after
        .into_iter()
        .filter(|(ask, live)| !live && resumed.clean.contains(ask))
        .map(|(ask, _)| ask)
        .collect()
}

/// Whether `expr` may move the binding: it names it other than where a place is only
/// borrowed (`&name`, `name == ..`, `name[i]`, `name.len()` and other methods that borrow, the
/// arguments of `format!` and the macros that print or log). Saving it from a snapshot where it
/// was not moved would only cost time.
pub(crate) fn may_move(expr: &Expr, name: &str, closures: &BTreeSet<String>) -> bool {
    let mut moves = Moves {
        name,
        closures,
        found: false,
    };
    moves.visit_expr(expr);
    moves.found
}

pub(crate) fn may_move_stmt(stmt: &Stmt, name: &str, closures: &BTreeSet<String>) -> bool {
    let mut moves = Moves {
        name,
        closures,
        found: false,
    };
    moves.visit_stmt(stmt);
    moves.found
}

/// Methods of std that take `&self` or `&mut self`.
const BORROWING_METHODS: &[&str] = &[
    "as_str",
    "as_slice",
    "as_ref",
    "borrow",
    "clone",
    "contains",
    "contains_key",
    "ends_with",
    "first",
    "get",
    "is_empty",
    "iter",
    "iter_mut",
    "last",
    "len",
    "push",
    "push_str",
    "insert",
    "remove",
    "retain",
    "sort",
    "starts_with",
    "to_lowercase",
    "to_owned",
    "to_string",
    "to_uppercase",
    "trim",
    "extend",
    "clear",
    "truncate",
    "pop",
    "chars",
    "bytes",
    "split",
    "lines",
    "keys",
    "values",
    "entry",
    "fmt",
];

struct Moves<'n> {
    name: &'n str,
    closures: &'n BTreeSet<String>,
    found: bool,
}

impl Moves<'_> {
    fn is_name(&self, expr: &Expr) -> bool {
        matches!(expr, Expr::Path(path) if path.qself.is_none() && path.path.is_ident(self.name))
    }

    /// `expr`, unless it is the bare name, which is only borrowed there.
    fn borrowed(&mut self, expr: &Expr) {
        if !self.is_name(expr) {
            self.visit_expr(expr);
        }
    }
}

impl<'ast> Visit<'ast> for Moves<'_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        match expr {
            Expr::Reference(reference) => self.borrowed(&reference.expr),
            Expr::Binary(both) if is_comparison(&both.op) => {
                self.borrowed(&both.left);
                self.borrowed(&both.right);
            }
            Expr::Index(index) => {
                self.borrowed(&index.expr);
                self.visit_expr(&index.index);
            }
            Expr::MethodCall(call)
                if BORROWING_METHODS.contains(&call.method.to_string().as_str()) =>
            {
                self.borrowed(&call.receiver);
                for arg in &call.args {
                    self.visit_expr(arg);
                }
            }
            _ => visit::visit_expr(self, expr),
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if let Some(ident) = path.get_ident()
            && (ident == self.name || self.closures.contains(&ident.to_string()))
        {
            self.found = true;
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let borrowing = mac.path.segments.last().is_some_and(|last| {
            let name = last.ident.to_string();
            PRINTING_MACROS.contains(&name.as_str()) || name == "format" || name == "format_args"
        });
        if !borrowing && reads(&macro_names(mac), self.name, self.closures) {
            self.found = true;
        }
    }
}

/// Whether `names` holds the binding, or a closure that reads it.
fn reads(names: &BTreeSet<String>, name: &str, closures: &BTreeSet<String>) -> bool {
    names.contains(name) || names.iter().any(|read| closures.contains(read))
}

/// A backward walk: each function takes whether the binding is live where the code it walks
/// goes on, and returns whether it is live where that code starts.
struct Paths<'n> {
    name: &'n str,
    closures: &'n BTreeSet<String>,
    /// For each ask met, whether a path from it may read the binding.
    live_after: BTreeMap<u32, bool>,
    /// The loops and labeled blocks the walk is in, innermost last.
    targets: Vec<Target>,
}

struct Target {
    label: Option<String>,
    /// Whether the binding is live where a `break` to it goes.
    on_break: bool,
    /// Whether it is live where a `continue` goes; `None` for a block.
    on_continue: Option<bool>,
}

impl Paths<'_> {
    /// Code the walk does not follow: live at its asks, and before it.
    fn unknown(&mut self, asks: Vec<u32>) -> bool {
        for ask in asks {
            self.live_after.insert(ask, true);
        }
        true
    }

    fn binds(&self, pat: &Pat) -> bool {
        pattern_bindings(pat)
            .iter()
            .any(|binding| binding.ident == self.name)
    }

    /// Whether a condition's `let` binds the name, hiding it in the branch or loop body.
    fn binds_in_condition(&self, cond: &Expr) -> bool {
        match cond {
            Expr::Let(bound) => self.binds(&bound.pat),
            Expr::Binary(chain) if matches!(chain.op, BinOp::And(_)) => {
                self.binds_in_condition(&chain.left) || self.binds_in_condition(&chain.right)
            }
            Expr::Paren(inner) => self.binds_in_condition(&inner.expr),
            _ => false,
        }
    }

    fn stmts(&mut self, stmts: &[Stmt], after: bool) -> bool {
        let mut live = after;
        for (index, stmt) in stmts.iter().enumerate().rev() {
            if rebinds(stmt, self.name) {
                for hidden in &stmts[index + 1..] {
                    self.unknown(asks_in_stmt(hidden));
                }
                live = true;
            }
            live = self.stmt(stmt, live);
        }
        live
    }

    fn stmt(&mut self, stmt: &Stmt, after: bool) -> bool {
        match stmt {
            Stmt::Local(local) => {
                let Some(init) = &local.init else {
                    return after;
                };
                // The `else` of a `let`-`else` does not go on: it diverges.
                let matched = match &init.diverge {
                    Some((_, diverge)) => self.expr(diverge, false) || after,
                    None => after,
                };
                self.expr(&init.expr, matched)
            }
            Stmt::Expr(expr, _) => self.expr(expr, after),
            Stmt::Macro(stmt) => self.macro_call(&stmt.mac, after),
            Stmt::Item(_) => after,
        }
    }

    fn macro_call(&mut self, mac: &syn::Macro, after: bool) -> bool {
        reads(&macro_names(mac), self.name, self.closures) || after
    }

    fn expr(&mut self, expr: &Expr, after: bool) -> bool {
        if let Some((ask, question)) = ask_marker(expr) {
            *self.live_after.entry(ask).or_default() |= after;
            return self.expr(question, after);
        }
        match expr {
            Expr::Path(path) => {
                let read = path.qself.is_none()
                    && path.path.get_ident().is_some_and(|ident| {
                        ident == self.name || self.closures.contains(&ident.to_string())
                    });
                read || after
            }
            // Given a new value once the value is computed.
            Expr::Assign(assign)
                if matches!(&*assign.left, Expr::Path(place)
                    if place.qself.is_none() && place.path.is_ident(self.name)) =>
            {
                self.expr(&assign.right, false)
            }
            // Only a labeled block is a `break`'s target.
            Expr::Block(block) => match &block.label {
                Some(label) => {
                    self.targets.push(Target {
                        label: Some(label.name.ident.to_string()),
                        on_break: after,
                        on_continue: None,
                    });
                    let live = self.stmts(&block.block.stmts, after);
                    self.targets.pop();
                    live
                }
                None => self.stmts(&block.block.stmts, after),
            },
            Expr::Unsafe(block) => self.stmts(&block.block.stmts, after),
            Expr::If(branch) => {
                if self.binds_in_condition(&branch.cond) {
                    return self.unknown(asks_in_expr(expr));
                }
                let then = self.stmts(&branch.then_branch.stmts, after);
                let otherwise = match &branch.else_branch {
                    Some((_, other)) => self.expr(other, after),
                    None => after,
                };
                self.expr(&branch.cond, then || otherwise)
            }
            Expr::Match(matched) => {
                // Where trying the arms from each one on goes: its guard or body, or the next.
                let mut tried = false;
                for arm in matched.arms.iter().rev() {
                    let entry = if self.binds(&arm.pat) {
                        let mut asks = asks_in_expr(&arm.body);
                        if let Some((_, guard)) = &arm.guard {
                            asks.extend(asks_in_expr(guard));
                        }
                        self.unknown(asks)
                    } else {
                        let body = self.expr(&arm.body, after);
                        match &arm.guard {
                            Some((_, guard)) => self.expr(guard, body || tried),
                            None => body,
                        }
                    };
                    tried |= entry;
                }
                self.expr(&matched.expr, tried)
            }
            Expr::Loop(looped) => self.looping(looped.label.as_ref(), after, |this, head| {
                this.stmts(&looped.body.stmts, head)
            }),
            Expr::While(looped) => {
                if self.binds_in_condition(&looped.cond) {
                    return self.unknown(asks_in_expr(expr));
                }
                self.looping(looped.label.as_ref(), after, |this, head| {
                    let body = this.stmts(&looped.body.stmts, head);
                    this.expr(&looped.cond, body || after)
                })
            }
            Expr::ForLoop(looped) => {
                if self.binds(&looped.pat) {
                    return self.unknown(asks_in_expr(expr));
                }
                let head = self.looping(looped.label.as_ref(), after, |this, head| {
                    this.stmts(&looped.body.stmts, head) || after
                });
                self.expr(&looped.expr, head)
            }
            Expr::Break(leave) => {
                let to = self
                    .target(leave.label.as_ref())
                    .is_none_or(|target| target.on_break);
                match &leave.expr {
                    Some(value) => self.expr(value, to),
                    None => to,
                }
            }
            Expr::Continue(next) => self
                .target(next.label.as_ref())
                .and_then(|target| target.on_continue)
                .unwrap_or(true),
            Expr::Return(ret) => match &ret.expr {
                Some(value) => self.expr(value, false),
                None => false,
            },
            // `?` either goes on or returns.
            Expr::Try(tried) => self.expr(&tried.expr, after),
            Expr::Binary(both) if matches!(both.op, BinOp::And(_) | BinOp::Or(_)) => {
                let right = self.expr(&both.right, after);
                self.expr(&both.left, after || right)
            }
            // Making one captures what its body names.
            Expr::Closure(_) | Expr::Async(_) => {
                reads(&names_in_expr(expr), self.name, self.closures) || after
            }
            Expr::Macro(call) => self.macro_call(&call.mac, after),
            _ => match operands_in_order(expr) {
                Some(operands) => operands
                    .into_iter()
                    .rev()
                    .fold(after, |live, operand| self.expr(operand, live)),
                None => self.unknown(asks_in_expr(expr)),
            },
        }
    }

    /// A loop: whether the binding is live at its head, found by walking `pass` (which takes
    /// that, and returns it) until it no longer changes.
    fn looping(
        &mut self,
        label: Option<&syn::Label>,
        after: bool,
        mut pass: impl FnMut(&mut Self, bool) -> bool,
    ) -> bool {
        let label = label.map(|label| label.name.ident.to_string());
        let mut head = false;
        loop {
            self.targets.push(Target {
                label: label.clone(),
                on_break: after,
                on_continue: Some(head),
            });
            let entry = pass(self, head);
            self.targets.pop();
            if entry == head {
                return head;
            }
            head = entry;
        }
    }

    /// Where a `break` or `continue` with `label` goes; without one, the innermost loop.
    fn target(&self, label: Option<&syn::Lifetime>) -> Option<&Target> {
        let label = label.map(|label| label.ident.to_string());
        self.targets.iter().rev().find(|target| match &label {
            Some(label) => target.label.as_ref() == Some(label),
            None => target.on_continue.is_some(),
        })
    }
}

/// The asks at which resuming does not read the binding: outside the bodies on the way to
/// the ask, no statement around it names the binding.
struct Resumed<'n> {
    name: &'n str,
    closures: &'n BTreeSet<String>,
    clean: BTreeSet<u32>,
}

impl Resumed<'_> {
    fn stmts(&mut self, stmts: &[Stmt], named: bool) {
        let mut named = named;
        for stmt in stmts {
            let mut outside = Outside::default();
            outside.visit_stmt(stmt);
            // A `let` made on every round (a borrowed loop's iterator, a value made again)
            // runs on resume too, so it reads the binding at every ask after it in its block.
            let every_round = matches!(stmt, Stmt::Local(local) if made_every_round(local))
                && reads(&outside.names, self.name, self.closures);
            self.found(outside, named);
            named |= every_round;
        }
    }

    fn found(&mut self, outside: Outside<'_>, named: bool) {
        let named = named || reads(&outside.names, self.name, self.closures);
        if !named {
            self.clean.extend(outside.asks);
        }
        for body in outside.bodies {
            match body {
                Body::Block(block) => self.stmts(&block.stmts, named),
                Body::Expr(expr) => {
                    let mut inner = Outside::default();
                    inner.visit_expr(expr);
                    self.found(inner, named);
                }
            }
        }
    }
}

enum Body<'ast> {
    Block(&'ast Block),
    Expr(&'ast Expr),
}

/// The names and asks of code outside the bodies it enters (blocks, branches, loop bodies
/// and arms), and those bodies.
#[derive(Default)]
struct Outside<'ast> {
    names: BTreeSet<String>,
    asks: Vec<u32>,
    bodies: Vec<Body<'ast>>,
}

impl<'ast> Visit<'ast> for Outside<'ast> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        if let Some((ask, _)) = ask_marker(expr) {
            self.asks.push(ask);
        }
        match expr {
            Expr::Block(block) => self.bodies.push(Body::Block(&block.block)),
            Expr::Unsafe(block) => self.bodies.push(Body::Block(&block.block)),
            Expr::If(branch) => {
                // Resuming into a branch does not test the condition again (`desugar`); only
                // an ask in the condition evaluates it again.
                self.bodies.push(Body::Expr(&branch.cond));
                self.bodies.push(Body::Block(&branch.then_branch));
                if let Some((_, other)) = &branch.else_branch {
                    self.bodies.push(Body::Expr(other));
                }
            }
            // Giving a local a value does not read it.
            Expr::Assign(assign) if matches!(&*assign.left, Expr::Path(place) if place.path.get_ident().is_some()) =>
            {
                self.visit_expr(&assign.right);
            }
            Expr::Loop(looped) => self.bodies.push(Body::Block(&looped.body)),
            Expr::While(looped) => {
                self.visit_expr(&looped.cond);
                self.bodies.push(Body::Block(&looped.body));
            }
            Expr::ForLoop(looped) => {
                self.visit_expr(&looped.expr);
                self.bodies.push(Body::Block(&looped.body));
            }
            Expr::Match(matched) => {
                self.visit_expr(&matched.expr);
                for arm in &matched.arms {
                    if let Some((_, guard)) = &arm.guard {
                        self.visit_expr(guard);
                    }
                    self.bodies.push(Body::Expr(&arm.body));
                }
            }
            _ => visit::visit_expr(self, expr),
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if let Some(ident) = path.get_ident() {
            self.names.insert(ident.to_string());
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.names.extend(macro_names(mac));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use quote::quote;
    use syn::Block;

    use super::{dead_asks, may_move};

    /// The statements after the first one (the `let`), asks written `__mrtr_ask_N(..)`.
    fn dead(body: proc_macro2::TokenStream) -> Vec<u32> {
        let block: Block = syn::parse2(quote!({ #body })).unwrap();
        dead_asks(&block.stmts[1..], "s", &BTreeSet::new())
            .into_iter()
            .collect()
    }

    #[test]
    fn an_ask_every_path_from_which_leaves_the_loop_unread() {
        let body = quote! {
            let mut s = a();
            loop {
                let t = __mrtr_ask_1(q(&s))?;
                if t.again { s.push('+'); continue; }
                consume(s);
                let m = __mrtr_ask_2(q())?;
                out = join(t, m);
                break;
            }
            done(out)
        };
        assert_eq!(dead(body), vec![2]);
    }

    #[test]
    fn not_when_a_path_goes_round_the_loop_or_on_to_a_read() {
        let round = quote! {
            let mut s = a();
            loop {
                let t = __mrtr_ask_1(q(&s))?;
                consume(s);
                let m = __mrtr_ask_2(q())?;
                if m.stop { break; }
                s = m.text;
            }
        };
        // Ask 2: the path that does not stop gives `s` a new value before reading it.
        assert_eq!(dead(round), vec![2]);
        let read_after = quote! {
            let mut s = a();
            loop {
                consume(s);
                let m = __mrtr_ask_1(q())?;
                if m.stop { break; }
                s = m.text;
            }
            done(s)
        };
        assert_eq!(dead(read_after), Vec::<u32>::new());
        let continued = quote! {
            let mut s = a();
            'outer: for i in 0..3 {
                loop {
                    consume(s);
                    let m = __mrtr_ask_1(q())?;
                    if m.stop { continue 'outer; }
                    s = m.text;
                    break;
                }
                use_it(&s);
            }
        };
        assert_eq!(dead(continued), Vec::<u32>::new());
    }

    #[test]
    fn not_after_a_let_made_on_every_round_that_reads_it() {
        // A loop over items borrowed from `s`, after a macro that may have moved it: resuming
        // makes the loop's iterator again from `s` (seed 1270).
        let walked = quote! {
            let mut s = a();
            note!("{s:?}");
            {
                let mut walk = match ::mrtr::__private::Visited::resume(&mut visited, s.iter()) {
                    Some(walk) => walk,
                    None => lost(),
                };
                loop {
                    let item = match ::mrtr::__private::Visited::next(&mut visited, &mut walk) {
                        Some(item) => item,
                        None => break,
                    };
                    let m = __mrtr_ask_1(q(item))?;
                }
            }
        };
        assert_eq!(dead(walked), Vec::<u32>::new());
        let made = quote! {
            let mut s = a();
            note!("{s:?}");
            let t = ::mrtr::__private::remade(s.trim());
            let m = __mrtr_ask_1(q())?;
        };
        assert_eq!(dead(made), Vec::<u32>::new());
    }

    #[test]
    fn not_where_resuming_reads_it_or_a_binding_hides_it() {
        let resumed = quote! {
            let mut s = a();
            consume(f(s.len(), loop { let m = __mrtr_ask_1(q())?; break m; }));
            let t = __mrtr_ask_2(q(&s));
        };
        assert_eq!(dead(resumed), Vec::<u32>::new());
        let hidden = quote! {
            let mut s = a();
            consume(s);
            {
                let s = b();
                let m = __mrtr_ask_1(q())?;
                note(&s);
            }
            match c() {
                Some(s) => { let m = __mrtr_ask_2(q())?; note(&s); }
                None => {}
            }
        };
        assert_eq!(dead(hidden), Vec::<u32>::new());
    }

    #[test]
    fn the_condition_of_the_branch_holding_the_ask_is_not_tested_again_on_resume() {
        let body = quote! {
            let mut s = a();
            let v = loop {
                if s.len() > 3 {
                    let n = consume(s);
                    let m = __mrtr_ask_1(q())?;
                    break n + m;
                }
                s.push('+');
            };
            done(v);
        };
        assert_eq!(dead(body), vec![1]);
        // Unless the ask is in the condition.
        let in_condition = quote! {
            let mut s = a();
            note(&s);
            if s.len() > __mrtr_ask_1(q()) {
                done();
            }
        };
        assert_eq!(dead(in_condition), Vec::<u32>::new());
        // Though an ask in the condition does not make one in the branch read it.
        let beside = quote! {
            let mut s = a();
            if f(&s, __mrtr_ask_1(q())) > 3 {
                consume(s);
                let m = __mrtr_ask_2(q());
                done(m);
            }
        };
        assert_eq!(dead(beside), vec![2]);
    }

    #[test]
    fn a_return_or_a_labeled_break_ends_the_paths() {
        let body = quote! {
            let mut s = a();
            let out = 'found: {
                for i in 0..3 {
                    consume(s);
                    let m = __mrtr_ask_1(q())?;
                    if m.ok { break 'found m; }
                    let n = __mrtr_ask_2(q())?;
                    return Ok(n);
                }
                fallback()
            };
            done(out)
        };
        // The loop never goes round: each pass leaves it before its end.
        assert_eq!(dead(body), vec![1, 2]);
    }

    #[test]
    fn only_a_use_that_may_take_the_value_moves_it() {
        let moves = |tokens: proc_macro2::TokenStream| {
            may_move(&syn::parse2(tokens).unwrap(), "s", &BTreeSet::new())
        };
        assert!(!moves(quote!(f(
            &s,
            s.len(),
            s == t,
            s[0],
            format!("{s}"),
            s.push('x')
        ))));
        assert!(moves(quote!(f(s))));
        assert!(moves(quote!(s.into_iter())));
        assert!(moves(quote!(s + "x")));
        assert!(moves(quote!(|| s)));
        assert!(moves(quote!(vec![s])));
        assert!(moves(quote!({
            let t = s;
        })));
    }
}

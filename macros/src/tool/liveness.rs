//! Part of stage 3: which bindings an ask point can do without.
//!
//! Scope narrowing works a block at a time: a binding that is last read by the statement
//! holding an ask stays in scope there, even when that statement consumes it before the ask,
//! as in `match maybe { Some(x) => ask!(..) }` or `if c { for n in names { ask!(..) } }`.
//! Saving such a binding at the ask would borrow a moved value. So, for each ask inside that
//! last statement, this module tells whether the statement still reads the binding after the
//! ask, in evaluation order or on a later pass of a loop around the ask. If not, the binding
//! is dead at the ask: `lower` snapshots it before the statement runs and saves the snapshot.
//! Calling a re-created closure that captures the binding reads it: the closure is made again
//! on resume from the saved binding, so that must be its value at the ask.

use std::collections::BTreeSet;

use syn::{
    Expr, Ident, Stmt,
    visit::{self, Visit},
};

use super::{
    macro_reads::macro_names,
    syntax::{
        Captures, PatternScopes, ask_marker_id, asks_in_expr, names_in_expr, pattern_bindings,
        revisits_items, with_captures,
    },
};

/// The asks in `stmt` after which `stmt` no longer reads `name`, directly or through the
/// re-created closures of `captures`.
pub(crate) fn dead_asks(stmt: &Stmt, name: &Ident, captures: &Captures) -> BTreeSet<u32> {
    let name = name.to_string();
    let closures: BTreeSet<String> = captures
        .keys()
        .filter(|closure| {
            with_captures(BTreeSet::from([(*closure).clone()]), captures).contains(&name)
        })
        .cloned()
        .collect();
    let revisiting = revisiting_asks(stmt, &name);
    super::syntax::asks_in_stmt(stmt)
        .into_iter()
        .filter(|&ask| !revisiting.contains(&ask) && !read_after(stmt, ask, &name, &closures))
        .collect()
}

/// The asks inside a loop over borrowed items whose iterator or item reads `name` (the
/// collection, its count, an argument): a resumed round makes them again from it at the ask,
/// whatever the loop does after it. Not where a `let`, an arm or an `if let` binds `name`
/// again: a loop there reads that binding (seed 1219).
fn revisiting_asks(stmt: &Stmt, name: &str) -> BTreeSet<u32> {
    struct Find<'a>(&'a str, BTreeSet<u32>);
    impl Find<'_> {
        fn binds(&self, pat: &syn::Pat) -> bool {
            pattern_bindings(pat).iter().any(|b| b.ident == self.0)
        }
    }
    impl<'ast> Visit<'ast> for Find<'_> {
        fn visit_block(&mut self, block: &'ast syn::Block) {
            for (index, stmt) in block.stmts.iter().enumerate() {
                if let Stmt::Local(local) = stmt
                    && revisits_items(local)
                    && local
                        .init
                        .as_ref()
                        .is_some_and(|init| names_in_expr(&init.expr).contains(self.0))
                {
                    for later in &block.stmts[index + 1..] {
                        self.1.extend(super::syntax::asks_in_stmt(later));
                    }
                }
                self.visit_stmt(stmt);
                if matches!(stmt, Stmt::Local(local) if self.binds(&local.pat)) {
                    break;
                }
            }
        }

        fn visit_arm(&mut self, arm: &'ast syn::Arm) {
            if !self.binds(&arm.pat) {
                visit::visit_arm(self, arm);
            }
        }

        fn visit_expr_if(&mut self, branch: &'ast syn::ExprIf) {
            match &*branch.cond {
                Expr::Let(cond) if self.binds(&cond.pat) => {
                    self.visit_expr(&cond.expr);
                    if let Some((_, otherwise)) = &branch.else_branch {
                        self.visit_expr(otherwise);
                    }
                }
                _ => visit::visit_expr_if(self, branch),
            }
        }

        fn visit_expr_while(&mut self, looped: &'ast syn::ExprWhile) {
            match &*looped.cond {
                Expr::Let(cond) if self.binds(&cond.pat) => self.visit_expr(&cond.expr),
                _ => visit::visit_expr_while(self, looped),
            }
        }

        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    }
    let mut find = Find(name, BTreeSet::new());
    find.visit_stmt(stmt);
    find.1
}

/// The asks in `stmt` in the value of a `return` that reads `name` (and may consume it):
/// nothing after the statement runs after them, so what follows it reading `name` does not
/// keep `name` alive there.
pub(crate) fn returning_asks(stmt: &Stmt, name: &Ident) -> BTreeSet<u32> {
    struct Returning(BTreeSet<u32>, String);
    impl<'ast> Visit<'ast> for Returning {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            match expr {
                Expr::Return(ret) => {
                    if let Some(value) = &ret.expr
                        && names_in_expr(value).contains(&self.1)
                    {
                        self.0.extend(asks_in_expr(value));
                    }
                    visit::visit_expr(self, expr);
                }
                Expr::Closure(_) | Expr::Async(_) => {}
                _ => visit::visit_expr(self, expr),
            }
        }
    }
    let mut returning = Returning(BTreeSet::new(), name.to_string());
    returning.visit_stmt(stmt);
    returning.0
}

fn read_after(stmt: &Stmt, ask: u32, name: &str, closures: &BTreeSet<String>) -> bool {
    let mut walk = Walk {
        ask,
        name: name.to_owned(),
        closures,
        passed_ask: false,
        loops_around_ask: 0,
        shadowed: Vec::new(),
        read: false,
        leaving_to: None,
    };
    walk.visit_stmt(stmt);
    walk.read
}

struct Walk<'a> {
    ask: u32,
    name: String,
    /// The re-created closures that capture `name`: calling one reads it. Their shadowing is
    /// not followed, which can only keep the binding alive.
    closures: &'a BTreeSet<String>,
    passed_ask: bool,
    /// How many loops around the ask the walk is inside: everything in them runs again.
    loops_around_ask: usize,
    /// For each block and closure the walk is in, whether a binding there hides the name.
    shadowed: Vec<bool>,
    read: bool,
    /// The label of the loop or block that a `break` holding the ask leaves to, past the
    /// loops the walk has left: what comes before its end does not run after the ask.
    leaving_to: Option<String>,
}

impl Walk<'_> {
    fn reads(&mut self) {
        let hidden = self.shadowed.iter().any(|hides| *hides);
        self.reads_unless(hidden);
    }

    fn reads_unless(&mut self, hidden: bool) {
        if !hidden && (self.passed_ask || self.loops_around_ask > 0) {
            self.read = true;
        }
    }

    fn looping(&mut self, body: &Expr, visit: impl FnOnce(&mut Self)) {
        let holds = asks_in_expr(body).contains(&self.ask);
        // An ask in the value of a `return`, or of a `break` out of this loop, that reads the
        // binding (and may consume it) ends the loop: no later pass follows it. (Elsewhere the
        // binding is saved as it is, which costs no snapshot on each pass.)
        let leave = holds
            .then(|| leaves_loop(body, self.ask, &self.name))
            .flatten();
        let around = holds && leave.is_none();
        let before = self.passed_ask;
        self.loops_around_ask += usize::from(around);
        visit(self);
        self.loops_around_ask -= usize::from(around);
        match leave {
            None => {}
            Some(Leave::ThisLoop) => self.passed_ask = true,
            Some(Leave::To(label)) => {
                self.passed_ask = before;
                self.leaving_to = Some(label);
            }
            Some(Leave::Return) => self.passed_ask = before,
        }
        self.arrive(label_of(body));
    }

    /// The end of a labeled loop or block: where a `break` to it that holds the ask goes on.
    fn arrive(&mut self, label: Option<&syn::Label>) {
        if let Some(label) = label
            && self.leaving_to.as_deref() == Some(&label.name.ident.to_string())
        {
            self.leaving_to = None;
            self.passed_ask = true;
        }
    }
}

/// How an ask in the value of a `return` or `break` leaves the loop around it.
enum Leave {
    /// To what follows the loop.
    ThisLoop,
    /// To what follows the enclosing loop or block with this label.
    To(String),
    Return,
}

fn label_of(expr: &Expr) -> Option<&syn::Label> {
    match expr {
        Expr::Loop(e) => e.label.as_ref(),
        Expr::While(e) => e.label.as_ref(),
        Expr::ForLoop(e) => e.label.as_ref(),
        Expr::Block(e) => e.label.as_ref(),
        _ => None,
    }
}

/// Whether ask point `ask` in the loop `looped` is in the value of a `return`, or of a `break`
/// that leaves `looped` (unlabeled and not in a loop nested in it, or labeled with a label
/// not of a loop or block nested in it), and that value reads `name`: how it leaves.
fn leaves_loop(looped: &Expr, ask: u32, name: &str) -> Option<Leave> {
    struct Leaves<'n> {
        ask: u32,
        name: &'n str,
        /// The labels of the loops and blocks nested in `looped` that the walk is in.
        inner_labels: Vec<String>,
        /// How many loops nested in `looped` the walk is in.
        inner_loops: usize,
        /// `looped`'s label.
        own: Option<String>,
        leaves: Option<Leave>,
    }
    impl Leaves<'_> {
        fn nested(&mut self, label: Option<&syn::Label>, is_loop: bool, expr: &Expr) {
            if let Some(label) = label {
                self.inner_labels.push(label.name.ident.to_string());
            }
            self.inner_loops += usize::from(is_loop);
            visit::visit_expr(self, expr);
            self.inner_loops -= usize::from(is_loop);
            if label.is_some() {
                self.inner_labels.pop();
            }
        }
    }
    impl<'ast> Visit<'ast> for Leaves<'_> {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            let holds = |value: &Option<Box<Expr>>| {
                value.as_deref().is_some_and(|value| {
                    asks_in_expr(value).contains(&self.ask)
                        && names_in_expr(value).contains(self.name)
                })
            };
            match expr {
                Expr::Return(ret) if holds(&ret.expr) => self.leaves = Some(Leave::Return),
                Expr::Break(brk) if holds(&brk.expr) => {
                    self.leaves = match &brk.label {
                        Some(label) => {
                            let label = label.ident.to_string();
                            if self.inner_labels.contains(&label) {
                                None
                            } else if self.own.as_ref() == Some(&label) {
                                Some(Leave::ThisLoop)
                            } else {
                                Some(Leave::To(label))
                            }
                        }
                        None => (self.inner_loops == 0).then_some(Leave::ThisLoop),
                    }
                }
                Expr::Loop(e) => self.nested(e.label.as_ref(), true, expr),
                Expr::While(e) => self.nested(e.label.as_ref(), true, expr),
                Expr::ForLoop(e) => self.nested(e.label.as_ref(), true, expr),
                Expr::Block(e) if e.label.is_some() => self.nested(e.label.as_ref(), false, expr),
                Expr::Closure(_) | Expr::Async(_) => {}
                _ => visit::visit_expr(self, expr),
            }
        }
    }
    let body = match looped {
        Expr::Loop(e) => &e.body,
        Expr::While(e) => &e.body,
        Expr::ForLoop(e) => &e.body,
        _ => return None,
    };
    let mut walk = Leaves {
        ask,
        name,
        inner_labels: Vec::new(),
        inner_loops: 0,
        own: label_of(looped).map(|label| label.name.ident.to_string()),
        leaves: None,
    };
    walk.visit_block(body);
    walk.leaves
}

impl PatternScopes<'_> for Walk<'_> {
    fn with_bound(&mut self, names: BTreeSet<String>, inner: impl FnOnce(&mut Self)) {
        self.shadowed.push(names.contains(&self.name));
        inner(self);
        self.shadowed.pop();
    }

    fn bind_here(&mut self, names: BTreeSet<String>) {
        if names.contains(&self.name)
            && let Some(innermost) = self.shadowed.last_mut()
        {
            *innermost = true;
        }
    }
}

impl<'ast> Visit<'ast> for Walk<'_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        if ask_marker_id(expr) == Some(self.ask) {
            // A question is built again when it is asked again, from the saved bindings: what
            // it reads must be saved as it is.
            self.passed_ask = true;
            visit::visit_expr(self, expr);
            return;
        }
        match expr {
            Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_) => {
                self.looping(expr, |walk| visit::visit_expr(walk, expr))
            }
            Expr::Closure(closure) => self.scoped_closure(closure),
            Expr::Block(block) if block.label.is_some() => {
                visit::visit_expr(self, expr);
                self.arrive(block.label.as_ref());
            }
            _ => visit::visit_expr(self, expr),
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        self.scoped_arm(arm);
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.scoped_for(e);
    }

    /// Only one branch runs: what another branch reads is not read after an ask in this one.
    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        self.scoped_condition(e);
        let start = self.passed_ask;
        self.scoped_then(e);
        let passed_in_then = std::mem::replace(&mut self.passed_ask, start);
        if let Some((_, other)) = &e.else_branch {
            self.visit_expr(other);
        }
        self.passed_ask |= passed_in_then;
    }

    fn visit_expr_match(&mut self, e: &'ast syn::ExprMatch) {
        self.visit_expr(&e.expr);
        let start = self.passed_ask;
        let mut passed = start;
        for arm in &e.arms {
            self.passed_ask = start;
            self.visit_arm(arm);
            passed |= self.passed_ask;
        }
        self.passed_ask = passed;
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.scoped_while(e);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.scoped_block(block);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        self.scoped_local(local);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if let Some(ident) = path.get_ident() {
            let ident = ident.to_string();
            if ident == self.name {
                self.reads();
            } else if self.closures.contains(&ident) {
                self.reads_unless(false);
            }
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let names = macro_names(mac);
        if names.contains(&self.name) {
            self.reads();
        } else if names.iter().any(|name| self.closures.contains(name)) {
            self.reads_unless(false);
        }
    }
}

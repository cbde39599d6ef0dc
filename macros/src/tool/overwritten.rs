//! Part of stage 3: the asks at which a binding is about to get a new value.
//!
//! ```text
//! let mut name = args.name;
//! loop {
//!     register(name)?;                        // moves `name`
//!     name = ask!(next = ..).accepted()?.name; // `name` is dead at this ask
//! }
//! ```
//!
//! At such an ask the binding may have been moved, and nothing reads it again before an
//! assignment gives it a new value. Saving it there would borrow a moved value, yet any value of
//! its type will do: a resumed round overwrites it unread. So `lower` snapshots the binding just
//! after its `let`, where it surely holds a value, and saves that snapshot at these asks.
//!
//! An ask is one of them when it is in the value of `name = value` that does not read `name`
//! and cannot `break` or `continue` out of that value (a `return` or `?` leaves the function,
//! where nothing reads `name`); or when its statement does not name `name` (resuming into the
//! statement would read the saved value), and the next statement of its block to name `name`
//! is such an assignment, with none between (nor the statement itself) able to `break` or
//! `continue` out of the block. Or, after a read that may have moved the binding, when no path
//! from the ask reads it again (`dead_after`).

use std::collections::BTreeSet;

use syn::{
    Expr, Ident, Stmt,
    visit::{self, Visit},
};

use super::{
    dead_after,
    macro_reads::macro_names,
    syntax::{
        Captures, PatternScopes, ask_marker_id, asks_in_expr, asks_in_stmt, names_in_expr,
        names_in_stmt, pattern_bindings, with_captures,
    },
};

/// What the statements after a binding's `let` do to it.
pub(crate) struct Overwritten {
    /// The asks at which it is about to get a new value.
    pub(crate) asks: BTreeSet<u32>,
    /// Whether it may be read, and so moved, before one of those asks. If not, it still holds
    /// its first value there and is saved as it is, which costs no snapshot.
    pub(crate) read_before: bool,
    /// Whether an assignment that does not read it, as above, may follow a read of it, with an
    /// ask after it in its block: `lower` then restores it there, as it restores a `let`, not
    /// where it was declared.
    pub(crate) given_anew: bool,
}

impl Overwritten {
    /// Whether `lower` needs a snapshot of the binding, taken just after its `let`.
    pub(crate) fn needs_snapshot(&self) -> bool {
        (self.read_before && !self.asks.is_empty()) || self.given_anew
    }
}

/// `after_let`: the statements of the block that follow the binding's `let`.
pub(crate) fn overwritten_asks(
    after_let: &[Stmt],
    name: &Ident,
    captures: &Captures,
) -> Overwritten {
    let name = name.to_string();
    let closures = capturing(&name, captures);
    let mut finder = Finder {
        dead_after: dead_after::dead_asks(after_let, &name, &closures),
        closures,
        captures,
        name,
        shadowed: vec![false],
        loops_reading: Vec::new(),
        counting: false,
        read_seen: false,
        moved_seen: false,
        loops_moving: Vec::new(),
        found: Overwritten {
            asks: BTreeSet::new(),
            read_before: false,
            given_anew: false,
        },
    };
    finder.statements(after_let);
    finder.found
}

/// The re-created closures that capture `name`: calling one reads it.
fn capturing(name: &str, captures: &Captures) -> BTreeSet<String> {
    captures
        .keys()
        .filter(|closure| {
            with_captures(BTreeSet::from([(*closure).clone()]), captures).contains(name)
        })
        .cloned()
        .collect()
}

struct Finder<'c> {
    name: String,
    /// The asks after which nothing reads the name (see `dead_after`).
    dead_after: BTreeSet<u32>,
    closures: BTreeSet<String>,
    captures: &'c Captures,
    /// For each block and closure the walk is in, whether a binding there hides the name.
    shadowed: Vec<bool>,
    /// For each loop the walk is in, whether it reads the name: a later pass may then have
    /// moved it before the ask.
    loops_reading: Vec<bool>,
    /// Set for a walk that only looks for reads (`reads_in`).
    counting: bool,
    /// Whether the walk has passed a read of the name.
    read_seen: bool,
    /// Whether it has passed a statement that may move it (`dead_after::may_move`), and for
    /// each loop the walk is in, whether the loop may.
    moved_seen: bool,
    loops_moving: Vec<bool>,
    found: Overwritten,
}

impl Finder<'_> {
    fn hidden(&self) -> bool {
        self.shadowed.iter().any(|hides| *hides)
    }

    /// `name`, unhidden: the place of an assignment that gives the binding a new value.
    fn is_binding(&self, place: &Expr) -> bool {
        matches!(place, Expr::Path(path) if path.qself.is_none() && path.path.is_ident(&self.name))
            && !self.hidden()
    }

    fn reads(&self, names: BTreeSet<String>) -> bool {
        with_captures(names, self.captures).contains(&self.name)
    }

    fn may_be_moved(&self) -> bool {
        self.read_seen || self.loops_reading.iter().any(|reads| *reads)
    }

    fn found(&mut self, asks: impl IntoIterator<Item = u32>) {
        let before = self.found.asks.len();
        self.found.asks.extend(asks);
        if self.found.asks.len() > before && self.may_be_moved() {
            self.found.read_before = true;
        }
    }

    /// Whether `expr` reads the name, less the places of the assignments that overwrite it.
    fn reads_in(&self, expr: &Expr) -> bool {
        let mut inner = Finder {
            name: self.name.clone(),
            dead_after: BTreeSet::new(),
            closures: self.closures.clone(),
            captures: self.captures,
            shadowed: self.shadowed.clone(),
            loops_reading: Vec::new(),
            counting: true,
            read_seen: false,
            moved_seen: false,
            loops_moving: Vec::new(),
            found: Overwritten {
                asks: BTreeSet::new(),
                read_before: false,
                given_anew: false,
            },
        };
        inner.visit_expr(expr);
        inner.read_seen
    }

    fn statements(&mut self, stmts: &[Stmt]) {
        for (index, stmt) in stmts.iter().enumerate() {
            let hidden = self.hidden();
            // Restored where it is given its value when an ask follows in the block.
            if let Stmt::Expr(Expr::Assign(assign), _) = stmt
                && self.is_binding(&assign.left)
                && overwritten_by(assign, self.captures).is_some()
                && stmts[index + 1..]
                    .iter()
                    .any(|next| !asks_in_stmt(next).is_empty())
            {
                self.found.given_anew |= self.may_be_moved();
            }
            self.visit_stmt(stmt);
            if !hidden && !self.counting {
                self.moved_seen |= dead_after::may_move_stmt(stmt, &self.name, &self.closures);
            }
            if !hidden && let Some(asks) = self.dead_until_next(stmts, index) {
                self.found(asks);
            }
        }
    }

    /// The asks of `stmts[index]`, when it does not name the binding (resuming into it, it would
    /// read the saved value again), the next statement to name it gives it a new value, and
    /// nothing can leave the block before.
    fn dead_until_next(&self, stmts: &[Stmt], index: usize) -> Option<BTreeSet<u32>> {
        let stmt = &stmts[index];
        let asks = asks_in_stmt(stmt);
        if asks.is_empty()
            || rebinds(stmt, &self.name)
            || self.reads(names_in_stmt(stmt))
            || escapes_stmt(stmt)
        {
            return None;
        }
        for next in &stmts[index + 1..] {
            if rebinds(next, &self.name) {
                return None;
            }
            if self.reads(names_in_stmt(next)) {
                let Stmt::Expr(Expr::Assign(assign), _) = next else {
                    return None;
                };
                let overwrites = self.is_binding(&assign.left)
                    && overwritten_by(assign, self.captures).is_some();
                return overwrites.then(|| asks.into_iter().collect());
            }
            if escapes_stmt(next) {
                return None;
            }
        }
        None
    }
}

/// `name = value`, where `value` does not read `name` and cannot `break` or `continue` out of
/// itself: `name`, which it gives a new value whatever `name` held.
pub(crate) fn overwritten_by<'a>(
    assign: &'a syn::ExprAssign,
    captures: &Captures,
) -> Option<&'a Ident> {
    let Expr::Path(path) = &*assign.left else {
        return None;
    };
    let name = path.path.get_ident().filter(|_| path.qself.is_none())?;
    let read = with_captures(names_in_expr(&assign.right), captures).contains(&name.to_string());
    (!read && !escapes(&assign.right)).then_some(name)
}

/// Whether a `let` statement binds `name` again.
pub(crate) fn rebinds(stmt: &Stmt, name: &str) -> bool {
    matches!(stmt, Stmt::Local(local)
        if pattern_bindings(&local.pat).iter().any(|binding| binding.ident == name))
}

impl PatternScopes<'_> for Finder<'_> {
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

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        // Where it may have been moved: it is saved from the snapshot.
        if let Some(ask) = ask_marker_id(expr)
            && self.dead_after.contains(&ask)
            && !self.hidden()
            && (self.moved_seen || self.loops_moving.iter().any(|moves| *moves))
        {
            self.found([ask]);
        }
        match expr {
            Expr::Assign(assign) if self.is_binding(&assign.left) => {
                // The place is written, not read.
                if overwritten_by(assign, self.captures).is_some() {
                    self.found(asks_in_expr(&assign.right));
                }
                self.visit_expr(&assign.right);
            }
            Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_) if !self.counting => {
                let reads = self.reads_in(expr);
                self.loops_reading.push(reads);
                self.loops_moving
                    .push(reads && dead_after::may_move(expr, &self.name, &self.closures));
                visit::visit_expr(self, expr);
                self.loops_reading.pop();
                self.loops_moving.pop();
            }
            Expr::Closure(closure) => self.scoped_closure(closure),
            _ => visit::visit_expr(self, expr),
        }
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

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.with_bound(BTreeSet::new(), |this| this.statements(&block.stmts));
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        self.scoped_local(local);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if let Some(ident) = path.get_ident() {
            let ident = ident.to_string();
            if (ident == self.name && !self.hidden()) || self.closures.contains(&ident) {
                self.read_seen = true;
            }
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let names = macro_names(mac);
        if (names.contains(&self.name) && !self.hidden())
            || names.iter().any(|name| self.closures.contains(name))
        {
            self.read_seen = true;
        }
    }
}

/// Whether `expr` may `break` or `continue` out of itself.
pub(crate) fn escapes(expr: &Expr) -> bool {
    let mut walk = Escapes::default();
    walk.visit_expr(expr);
    walk.escapes
}

fn escapes_stmt(stmt: &Stmt) -> bool {
    let mut walk = Escapes::default();
    walk.visit_stmt(stmt);
    walk.escapes
}

#[derive(Default)]
struct Escapes {
    /// How many loops inside the walked code the walk is in.
    loops: usize,
    /// The labels of the loops and blocks inside the walked code the walk is in.
    labels: Vec<String>,
    escapes: bool,
}

impl Escapes {
    fn leaves(&self, label: Option<&syn::Lifetime>) -> bool {
        match label {
            Some(label) => !self.labels.contains(&label.ident.to_string()),
            None => self.loops == 0,
        }
    }

    fn nested(&mut self, label: Option<&syn::Label>, is_loop: bool, expr: &Expr) {
        if let Some(label) = label {
            self.labels.push(label.name.ident.to_string());
        }
        self.loops += usize::from(is_loop);
        visit::visit_expr(self, expr);
        self.loops -= usize::from(is_loop);
        if label.is_some() {
            self.labels.pop();
        }
    }
}

impl<'ast> Visit<'ast> for Escapes {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        match expr {
            Expr::Break(e) => {
                self.escapes |= self.leaves(e.label.as_ref());
                visit::visit_expr(self, expr);
            }
            Expr::Continue(e) => self.escapes |= self.leaves(e.label.as_ref()),
            Expr::Loop(e) => self.nested(e.label.as_ref(), true, expr),
            Expr::While(e) => self.nested(e.label.as_ref(), true, expr),
            Expr::ForLoop(e) => self.nested(e.label.as_ref(), true, expr),
            Expr::Block(e) => self.nested(e.label.as_ref(), false, expr),
            // A `break` there is refused by rustc, or belongs to a loop of its own.
            Expr::Closure(_) | Expr::Async(_) => {}
            _ => visit::visit_expr(self, expr),
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;
    use syn::{Block, Expr, Ident};

    use super::{escapes, overwritten_asks};

    /// The statements after the first one (the `let`), asks written `__mrtr_ask_N(..)`.
    fn found(body: proc_macro2::TokenStream, name: &str) -> (Vec<u32>, bool, bool) {
        let block: Block = syn::parse2(quote!({ #body })).unwrap();
        let name = Ident::new(name, proc_macro2::Span::call_site());
        let found = overwritten_asks(&block.stmts[1..], &name, &Default::default());
        (
            found.asks.into_iter().collect(),
            found.read_before,
            found.given_anew,
        )
    }

    #[test]
    fn an_ask_in_the_value_of_an_assignment_that_does_not_read_the_local() {
        let body = quote! {
            let mut s = a();
            consume(s);
            s = __mrtr_ask_1(q()).text;
            s = s + &__mrtr_ask_2(q()).text;
        };
        // An ask follows the first assignment: `lower` restores the local there.
        assert_eq!(found(body, "s"), (vec![1], true, true));
    }

    #[test]
    fn an_ask_before_the_next_statement_to_name_the_local_when_that_one_overwrites_it() {
        let body = quote! {
            let mut s = a();
            let old = s;
            let t = __mrtr_ask_1(q());
            note(&t);
            s = join(old, t);
            let u = __mrtr_ask_2(q());
            if u.ok { break; }
            s = u.text;
        };
        // Not ask 2: the `if` between may leave the loop, where `s` is read.
        assert_eq!(found(body, "s"), (vec![1], true, true));
    }

    #[test]
    fn not_when_the_value_may_break_out_or_the_local_is_hidden_or_the_ask_reads_it() {
        let body = quote! {
            let mut s = a();
            s = match __mrtr_ask_1(q()) { Some(t) => t, None => break };
            { let mut s = b(); s = __mrtr_ask_2(q()); }
            let t = __mrtr_ask_3(q(&s));
            s = t;
        };
        assert_eq!(found(body, "s"), (vec![], false, false));
    }

    #[test]
    fn a_loop_that_reads_the_local_may_have_moved_it_before_the_ask() {
        let body = quote! {
            let mut s = a();
            loop {
                s = __mrtr_ask_1(q());
                consume(s);
                s = b();
                __mrtr_ask_2(q());
            }
        };
        // Ask 2 too: the next pass gives `s` a new value before reading it (`dead_after`).
        assert_eq!(found(body, "s"), (vec![1, 2], true, true));
        let unread = quote! {
            let mut s = a();
            loop { s = __mrtr_ask_1(q()); }
        };
        assert_eq!(found(unread, "s"), (vec![1], false, false));
    }

    #[test]
    fn only_a_break_or_continue_that_leaves_the_value_escapes() {
        let escapes_from = |tokens| escapes(&syn::parse2::<Expr>(tokens).unwrap());
        assert!(!escapes_from(quote!(loop {
            break 1;
        })));
        assert!(!escapes_from(quote!('a: {
            if c {
                break 'a 1;
            }
            2
        })));
        assert!(!escapes_from(quote!(|| {
            break;
        })));
        assert!(escapes_from(quote!(match x {
            Some(v) => v,
            None => continue,
        })));
        assert!(escapes_from(quote!('a: {
            if c {
                break;
            }
            2
        })));
        assert!(escapes_from(quote!(loop {
            break 'outer;
        })));
    }
}

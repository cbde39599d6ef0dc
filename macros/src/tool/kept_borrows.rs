//! Part of stage 2: a borrow put into a collection that an ask outlives. The collection is
//! saved at the ask, and a `Vec<&str>` passes the `Persist` bound's trait check (as
//! `&'static str`s) to fail only as a lifetime error at the attribute, so the error is given
//! here, at the borrow put in:
//!
//! ```text
//! let mut names = Vec::new();
//! for item in &args.items {
//!     let keep = ask!(..)..;
//!     if keep { names.push(item.as_str()); }      <- here
//! }
//! ```

use std::collections::{BTreeMap, BTreeSet};

use syn::{
    Block, Expr, Pat, Stmt,
    visit::{self, Visit},
};

use super::borrowed_items::{BORROWING_ITEMS, KEEPING};
use super::remade::borrow_pick;
use super::syntax::{
    asks_in_expr, asks_in_stmt, borrows, local_name, names_in_stmt, pattern_bindings, picks_borrow,
    root_ident,
};
use crate::diagnostics::Diagnostics;

/// Methods that put their arguments into what they are called on.
const PUTTING: &[&str] = &["push", "push_back", "push_front", "insert", "entry"];

/// `statics`: the body's locals whose data may be `'static` (`syntax::static_locals`).
pub(crate) fn check(body: &Block, statics: &BTreeSet<String>, diagnostics: &mut Diagnostics) {
    let mut borrowed = Borrowed {
        names: BTreeSet::new(),
        statics: statics.clone(),
        bound: BTreeMap::new(),
        borrowing: BTreeMap::new(),
    };
    borrowed.visit_block(body);
    // A name bound more than once may name another value where it is put, unless each of
    // its bindings is a borrow of a local (`for item in &items { let item = item.trim(); .. }`).
    let (bound, borrowing) = (&borrowed.bound, &borrowed.borrowing);
    borrowed
        .names
        .retain(|name| bound.get(name) == borrowing.get(name));
    Check {
        borrowed: borrowed.names,
        statics: &borrowed.statics,
        diagnostics,
    }
    .visit_block(body);
}

/// The names the body binds to a borrow of a local: a `for` loop's item over borrowed items,
/// and a `let` of a value made again on resume (`remade::borrow_pick`). Those that borrow from
/// a literal, a constant or another of `statics` go to `statics`.
struct Borrowed {
    names: BTreeSet<String>,
    statics: BTreeSet<String>,
    /// How many times each name is bound in the body.
    bound: BTreeMap<String, usize>,
    /// How many of those bind it to a borrow of a local.
    borrowing: BTreeMap<String, usize>,
}

impl Borrowed {
    fn bind(&mut self, names: impl IntoIterator<Item = String>, source: &Expr) {
        if local_root(source, &self.statics) {
            for name in names {
                *self.borrowing.entry(name.clone()).or_default() += 1;
                self.names.insert(name);
            }
        } else {
            self.statics.extend(names);
        }
    }
}

impl<'ast> Visit<'ast> for Borrowed {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        *self.bound.entry(pat.ident.to_string()).or_default() += 1;
        visit::visit_pat_ident(self, pat);
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        if let Pat::Ident(item) = &*e.pat
            && item.by_ref.is_none()
            && borrowed_items(&e.expr)
        {
            self.bind([item.ident.to_string()], &e.expr);
        }
        visit::visit_expr_for_loop(self, e);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let Some(init) = &local.init
            && init.diverge.is_none()
            && borrow_pick(&init.expr)
        {
            let names = pattern_bindings(&local.pat);
            self.bind(names.iter().map(|b| b.ident.to_string()), &init.expr);
        }
        visit::visit_local(self, local);
    }
}

/// `&items`, or `text.split(',')` and the like with no adapter after but those that keep the
/// items.
fn borrowed_items(iterable: &Expr) -> bool {
    match iterable {
        Expr::Reference(reference) => reference.mutability.is_none(),
        Expr::Paren(inner) => borrowed_items(&inner.expr),
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            BORROWING_ITEMS.contains(&method.as_str())
                || KEEPING.contains(&method.as_str()) && borrowed_items(&call.receiver)
        }
        _ => false,
    }
}

struct Check<'a> {
    borrowed: BTreeSet<String>,
    statics: &'a BTreeSet<String>,
    diagnostics: &'a mut Diagnostics,
}

impl Check<'_> {
    /// Whether `value` is a borrow of a local: not a literal's nor a constant's.
    fn borrow(&self, value: &Expr) -> bool {
        let named = matches!(value, Expr::Path(path)
            if path.path.get_ident().is_some_and(|i| self.borrowed.contains(&i.to_string())));
        named
            || local_root(value, self.statics) && (borrows(value) || picks_borrow(value).is_some())
    }
}

/// Whether what `value` reads from is a local: `item` in `&item.name[1..]`, `text` in
/// `text.split(',')`; not a literal, a constant (`"a b".split(' ')`, `NAMES.first()`) or a
/// local of `statics`.
fn local_root(value: &Expr, statics: &BTreeSet<String>) -> bool {
    root_ident(value).is_some_and(|root| local_name(root, statics))
}

impl<'ast> Visit<'ast> for Check<'_> {
    fn visit_block(&mut self, block: &'ast Block) {
        for (index, stmt) in block.stmts.iter().enumerate() {
            let Stmt::Local(local) = stmt else {
                continue;
            };
            // A type named says what the collection holds (`Vec<&'static str>`).
            let Pat::Ident(collection) = &local.pat else {
                continue;
            };
            if collection.mutability.is_none() {
                continue;
            }
            let name = collection.ident.to_string();
            let later = &block.stmts[index + 1..];
            let Some(last_use) = later
                .iter()
                .rposition(|stmt| names_in_stmt(stmt).contains(&name))
            else {
                continue;
            };
            let outlived = later[..=last_use]
                .iter()
                .any(|stmt| !asks_in_stmt(stmt).is_empty());
            if !outlived {
                continue;
            }
            let mut puts = Puts {
                collection: &name,
                found: Vec::new(),
            };
            for stmt in &later[..=last_use] {
                puts.visit_stmt(stmt);
            }
            for (method, value) in puts.found {
                if self.borrow(value) {
                    self.diagnostics.error(
                        value,
                        format!(
                            "this is a borrow, and `.{method}(..)` puts it into `{name}`, which \
                             an `ask!` outlives: `{name}` is saved into `requestState` there, \
                             and a borrow cannot be. Put in an owned value (`.to_owned()`, \
                             `.to_string()`, `.clone()`), or make `{name}` after the ask. If it \
                             is owned already (mrtr tells borrows by the methods' names), name \
                             the collection's type: `let mut {name}: Vec<Type> = ..`"
                        ),
                    );
                }
            }
        }
        visit::visit_block(self, block);
    }
}

/// The values put into `collection` by `PUTTING` methods, with the method.
struct Puts<'a, 'ast> {
    collection: &'a str,
    found: Vec<(String, &'ast Expr)>,
}

impl<'ast> Visit<'ast> for Puts<'_, 'ast> {
    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let method = call.method.to_string();
        let on_collection = matches!(&*call.receiver, Expr::Path(path)
            if path.path.is_ident(self.collection));
        // A call that asks in its arguments has its own error for an operand that borrows.
        let asks = call.args.iter().any(|arg| !asks_in_expr(arg).is_empty());
        if on_collection && PUTTING.contains(&method.as_str()) && !asks {
            for arg in &call.args {
                self.found.push((method.clone(), arg));
            }
        }
        visit::visit_expr_method_call(self, call);
    }

    // A closure or an item of the body is its own scope.
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::syntax::static_locals;

    fn errors(body: &str) -> usize {
        let block: Block = syn::parse_str(body).unwrap();
        let mut diagnostics = Diagnostics::default();
        check(&block, &static_locals(&block), &mut diagnostics);
        diagnostics
            .into_compile_errors()
            .to_string()
            .matches("compile_error")
            .count()
    }

    /// An ask as `analyze` leaves it.
    const ASK: &str = "let a = __mrtr_ask_1(q());";

    #[test]
    fn borrows_put_into_a_collection_an_ask_outlives_are_refused() {
        for put in [
            "names.push(item.as_str())",
            "names.push(item)",
            "names.insert(item, 1)",
            "names.push(&text[1..])",
            "names.push(first)",
            "names.push(text.trim())",
        ] {
            let body = format!(
                "{{ let first = items.first(); let mut names = Vec::new(); for item in &items {{ {ASK} {put}; }} f(names); }}"
            );
            assert_eq!(errors(&body), 1, "{put}");
        }
        // Owned, a literal, a constant's, a name bound to no borrow.
        for put in [
            "names.push(item.to_owned())",
            "names.push(\"x\")",
            "names.push(NAMES[0])",
            "names.push(LIST.first())",
            "names.push(other)",
            "names.push(word)",
            "names.push(choice.trim())",
            "names.push(picked)",
            "names.push(side.trim())",
            "names.push(again)",
        ] {
            let body = format!(
                "{{ let choice = \"x\"; let picked = choice.trim(); for side in choice.split(' ') {{ f(side); }} for again in &items {{ f(again); }} for again in owned() {{ f(again); }} let mut names = Vec::new(); for item in &items {{ {ASK} {put}; }} for word in \"a b\".split(' ') {{ f(word); }} f(names); }}"
            );
            assert_eq!(errors(&body), 0, "{put}");
        }
        // A name bound again, each time to a borrow of a local.
        let again = format!(
            "{{ let mut names = Vec::new(); for item in &items {{ let item = item.trim(); {ASK} names.push(item); }} f(names); }}"
        );
        assert_eq!(errors(&again), 1);
        // Not outlived by an ask: none while `names` is used.
        let before = format!(
            "{{ {ASK} let mut names = Vec::new(); for item in &items {{ names.push(item.as_str()); }} f(names); }}"
        );
        assert_eq!(errors(&before), 0);
        // A type named says what it holds.
        let typed = format!(
            "{{ let mut names: Vec<&'static str> = Vec::new(); {ASK} names.push(item.as_str()); }}"
        );
        assert_eq!(errors(&typed), 0);
    }
}

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

use super::borrowed_items::{KEEPING, SPLITTING, borrowing_items};
use super::remade::borrow_pick;
use super::remade_closures::picking;
use super::syntax::{
    asks_in_expr, asks_in_stmt, borrows, local_name, maps_to_borrow, names_in_stmt,
    pattern_bindings, picks_borrow, root_ident,
};
use crate::diagnostics::Diagnostics;

/// Methods that put their arguments into what they are called on.
const PUTTING: &[&str] = &[
    "push",
    "push_back",
    "push_front",
    "insert",
    "entry",
    "or_insert",
];

/// Methods that put the items of their argument into what they are called on.
const EXTENDING: &[&str] = &["extend", "extend_from_slice", "append"];

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
        // `item`, or the second of `(i, item)` over `.enumerate()`.
        let item = match &*e.pat {
            Pat::Tuple(pair) if pair.elems.len() == 2 && enumerated(&e.expr) => pair.elems.get(1),
            pat => Some(pat),
        };
        if let Some(Pat::Ident(item)) = item
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

/// `items.iter().enumerate()`: the last adapter numbers the items.
fn enumerated(iterable: &Expr) -> bool {
    matches!(iterable, Expr::MethodCall(call) if call.method == "enumerate")
}

/// `&items`, or `text.split(',')` and the like with no adapter after but those that keep the
/// items borrowed: `KEEPING`, `filter`, and `map` with a pick (`|s| s.trim()`).
fn borrowed_items(iterable: &Expr) -> bool {
    match iterable {
        Expr::Reference(reference) => reference.mutability.is_none(),
        Expr::Paren(inner) => borrowed_items(&inner.expr),
        Expr::MethodCall(call) => {
            let method = call.method.to_string();
            let picks = || {
                call.args
                    .first()
                    .is_some_and(|function| picking(function, &mut Vec::new()))
            };
            let keeps = KEEPING.contains(&method.as_str())
                || method == "filter"
                || method == "map" && picks();
            borrowing_items(&method) || keeps && borrowed_items(&call.receiver)
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
            || maps_to_borrow(value, self.statics)
    }

    /// Whether the items of `iterable`, put in by `EXTENDING`, are borrows of a local: split
    /// from one (`text.split(',')`), or those of a local holding borrows (`&words`,
    /// `words.iter()`), or any borrowed items where the collection's type holds references.
    /// `&numbers` alone may be copies (`Extend<&T>` for `T: Copy`).
    fn borrowed_items(&self, iterable: &Expr, typed_borrows: bool) -> bool {
        if !borrowed_items(iterable) || !local_root(iterable, self.statics) {
            return false;
        }
        let first = first_method(iterable);
        let split = first.is_some_and(|method| SPLITTING.contains(&method.to_string().as_str()));
        // `&mut words` (`append`), `&words`, `words.iter()`: the items themselves.
        let of_borrows = root_ident(iterable).is_some_and(|root| {
            self.borrowed.contains(&root.to_string()) && first.is_none_or(|m| m == "iter")
        });
        split || of_borrows || typed_borrows
    }
}

/// The first method called on the root of `expr`: `split` in `text.split(',').rev()`.
fn first_method(expr: &Expr) -> Option<&syn::Ident> {
    match expr {
        Expr::MethodCall(call) => first_method(&call.receiver).or(Some(&call.method)),
        Expr::Reference(reference) => first_method(&reference.expr),
        Expr::Paren(inner) => first_method(&inner.expr),
        _ => None,
    }
}

/// Whether `ty` holds a reference whose lifetime is not `'static`: `Vec<&str>`,
/// `BTreeMap<usize, Vec<&'a str>>`.
fn holds_borrows(ty: &syn::Type) -> bool {
    struct References(bool);
    impl<'ast> Visit<'ast> for References {
        fn visit_type_reference(&mut self, reference: &'ast syn::TypeReference) {
            self.0 |= reference
                .lifetime
                .as_ref()
                .is_none_or(|lifetime| lifetime.ident != "static");
            visit::visit_type_reference(self, reference);
        }
    }
    let mut references = References(false);
    references.visit_type(ty);
    references.0
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
            // A type named says what the collection holds: `Vec<&'static str>` or
            // `Vec<String>` hold no borrow of a local, `Vec<&str>` does.
            let (collection, typed_borrows) = match &local.pat {
                Pat::Ident(collection) => (collection, false),
                Pat::Type(typed) => match &*typed.pat {
                    Pat::Ident(collection) if holds_borrows(&typed.ty) => (collection, true),
                    _ => continue,
                },
                _ => continue,
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
            for put in puts.found {
                const OWNED: &str =
                    "Put in an owned value (`.to_owned()`, `.to_string()`, `.clone()`)";
                let (what, how, borrow) = match put {
                    Put::Value { method, value } => (
                        value,
                        format!("`.{method}(..)` puts it"),
                        self.borrow(value),
                    ),
                    Put::Assigned { value } => (
                        value,
                        "this assignment puts it".to_owned(),
                        self.borrow(value),
                    ),
                    Put::Items { method, items } => (
                        items,
                        format!("`.{method}(..)` puts them"),
                        self.borrowed_items(items, typed_borrows),
                    ),
                };
                if !borrow {
                    continue;
                }
                let (these, owned) = match put {
                    Put::Items { .. } => (
                        "these are borrows",
                        "Put in owned items (`.map(str::to_owned)`, `.cloned()`)",
                    ),
                    _ => ("this is a borrow", OWNED),
                };
                let fix_type = if typed_borrows {
                    "Its type holds borrows: name one of owned values (`Vec<String>` for \
                     `Vec<&str>`)"
                        .to_owned()
                } else {
                    format!(
                        "If it is owned already (mrtr tells borrows by the methods' names), \
                         name the collection's type: `let mut {name}: Vec<Type> = ..`"
                    )
                };
                self.diagnostics.error(
                    what,
                    format!(
                        "{these}, and {how} into `{name}`, which an `ask!` outlives: `{name}` \
                         is saved into `requestState` there, and a borrow cannot be. {owned}, \
                         or make `{name}` after the ask. {fix_type}"
                    ),
                );
            }
        }
        visit::visit_block(self, block);
    }
}

/// What is put into a collection, and how.
#[derive(Clone, Copy)]
enum Put<'ast> {
    /// `names.push(value)`, `groups.entry(key).or_default().push(value)`.
    Value {
        method: &'ast syn::Ident,
        value: &'ast Expr,
    },
    /// `names.extend(items)`.
    Items {
        method: &'ast syn::Ident,
        items: &'ast Expr,
    },
    /// `slots[i] = value`.
    Assigned { value: &'ast Expr },
}

/// What is put into `collection`, or into a place inside it: by `PUTTING` and `EXTENDING`
/// methods, and by assignments to an index or a field.
struct Puts<'a, 'ast> {
    collection: &'a str,
    found: Vec<Put<'ast>>,
}

impl Puts<'_, '_> {
    /// `names`, `groups.entry(key).or_default()`, `rows[i]`, `summary.names`.
    fn in_collection(&self, place: &Expr) -> bool {
        root_ident(place).is_some_and(|root| root == self.collection)
    }
}

impl<'ast> Visit<'ast> for Puts<'_, 'ast> {
    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let method = call.method.to_string();
        // A call that asks in its arguments has its own error for an operand that borrows.
        let asks = call.args.iter().any(|arg| !asks_in_expr(arg).is_empty());
        if self.in_collection(&call.receiver) && !asks {
            let method_ident = &call.method;
            if PUTTING.contains(&method.as_str()) {
                self.found.extend(call.args.iter().map(|value| Put::Value {
                    method: method_ident,
                    value,
                }));
            } else if EXTENDING.contains(&method.as_str()) {
                self.found.extend(call.args.iter().map(|items| Put::Items {
                    method: method_ident,
                    items,
                }));
            }
        }
        visit::visit_expr_method_call(self, call);
    }

    fn visit_expr_assign(&mut self, assign: &'ast syn::ExprAssign) {
        let into_place = matches!(&*assign.left, Expr::Index(_) | Expr::Field(_));
        if into_place && self.in_collection(&assign.left) && asks_in_expr(&assign.right).is_empty()
        {
            self.found.push(Put::Assigned {
                value: &assign.right,
            });
        }
        visit::visit_expr_assign(self, assign);
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
            "names.push(at.map(|i| items[i].trim()).unwrap_or(\"-\"))",
            "names.push(at.and_then(|i| items.get(i)))",
            "names.push(items.first().map(|f| f.trim()))",
            "names.push(items.iter().filter(|w| wanted(w)).max().map(String::as_str).unwrap_or(\"\"))",
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
            "names.push(at.map(|i| NAMES[i].trim()).unwrap_or(\"-\"))",
            "names.push(at.map(|i| items[i].len()).unwrap_or(0))",
            "names.push(at.map(|i| choice.trim()))",
            "names.push(owned().map(|f| f.trim()))",
            "names.push(items.iter().filter(|w| wanted(w)).max().map(String::len).unwrap_or(0))",
        ] {
            let body = format!(
                "{{ let choice = \"x\"; let picked = choice.trim(); for side in choice.split(' ') {{ f(side); }} for again in &items {{ f(again); }} for again in owned() {{ f(again); }} let mut names = Vec::new(); for item in &items {{ {ASK} {put}; }} for word in \"a b\".split(' ') {{ f(word); }} f(names); }}"
            );
            assert_eq!(errors(&body), 0, "{put}");
        }
        // The item of a loop through `filter`, or `map` with a pick, is still a borrow; not
        // through `map` with other code.
        for (iterable, refused) in [
            ("items.iter().filter(|w| w.len() > 1)", 1),
            ("text.lines().map(|l| l.trim()).enumerate()", 1),
            ("items.iter().map(String::as_str)", 1),
            ("items.iter().map(|w| w.to_uppercase())", 0),
        ] {
            let body = format!(
                "{{ let mut names = Vec::new(); for item in {iterable} {{ {ASK} names.push(item); }} f(names); }}"
            );
            assert_eq!(errors(&body), refused, "{iterable}");
        }
        // A name bound again, each time to a borrow of a local.
        let again = format!(
            "{{ let mut names = Vec::new(); for item in &items {{ let item = item.trim(); {ASK} names.push(item); }} f(names); }}"
        );
        assert_eq!(errors(&again), 1);
        // Into a collection typed to hold borrows, items split from a local, a place inside
        // the collection; an enumerated loop's item.
        for (collection, put) in [
            ("let mut names: Vec<&str> = Vec::new();", "names.push(item)"),
            (
                "let mut names = Vec::new();",
                "names.extend(text.split(','))",
            ),
            (
                "let mut names = Vec::new();",
                "names.extend(text.lines().rev())",
            ),
            (
                "let mut names = Vec::new();",
                "names.extend_from_slice(&words)",
            ),
            ("let mut names = Vec::new();", "names.extend(words.iter())"),
            (
                "let mut names: Vec<&str> = Vec::new();",
                "names.extend(&items)",
            ),
            (
                "let mut names = Map::new();",
                "names.entry(1).or_default().push(item)",
            ),
            (
                "let mut names = Map::new();",
                "names.entry(n).or_insert_with(Vec::new).push(item.as_str())",
            ),
            ("let mut names = vec![\"\"; 2];", "names[0] = item.as_str()"),
            (
                "let mut names = Map::new();",
                "names.entry(n).or_insert(item.trim())",
            ),
            (
                "let mut names = Names::default();",
                "names.first = item.trim()",
            ),
            ("let mut names = Names::default();", "names.all.push(item)"),
        ] {
            let body = format!(
                "{{ let words: Vec<&str> = text.split(' ').collect(); {collection} for (n, item) in items.iter().enumerate() {{ {ASK} {put}; }} f(names, words); }}"
            );
            assert_eq!(errors(&body), 1, "{collection} {put}");
        }
        // Items that may be copies, owned items, owned values into places; a type of owned
        // values or of `'static` ones.
        for (collection, put) in [
            ("let mut names = Vec::new();", "names.extend(&items)"),
            ("let mut names = Vec::new();", "names.extend(items.iter())"),
            (
                "let mut names = Vec::new();",
                "names.extend(text.split(',').map(str::to_owned))",
            ),
            (
                "let mut names = Vec::new();",
                "names.extend(\"a,b\".split(','))",
            ),
            ("let mut names = vec![0; 2];", "names[0] = item.len()"),
            ("let mut names = vec![0; 2];", "names[0] += 1"),
            (
                "let mut names: Vec<String> = Vec::new();",
                "names.push(item.clone())",
            ),
            (
                "let mut names: Vec<&'static str> = Vec::new();",
                "names.push(\"x\")",
            ),
            (
                "let mut names = Map::new();",
                "names.entry(item.len()).or_default().push(n)",
            ),
        ] {
            let body = format!(
                "{{ {collection} for (n, item) in items.iter().enumerate() {{ {ASK} {put}; }} f(names); }}"
            );
            assert_eq!(errors(&body), 0, "{collection} {put}");
        }
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

//! Stage 2, before the order check: code that an ask's statement runs before the ask
//! (`answers.insert(key.to_uppercase(), ask!(..)..)`) moves into a `let` of its own just before
//! the statement. A resumed round then does not run it again, and its value is saved at the ask
//! like any local's.
//!
//! Only operands that Rust evaluates to a value of their own move: a call's or method's
//! argument, an element of a tuple, array or struct literal, the left side of an operator, the
//! start of a range, and the value under a `&` in those places (`&key.to_lowercase()`). Other
//! code before an ask (a method's receiver, a place such as `v[i()]`, a `let` chain, a `while`
//! condition) stays where it is, and `analyze` refuses the statement.

use std::collections::BTreeSet;

use syn::{
    Arm, Block, Expr, ExprIf, Ident, Stmt, parse_quote,
    spanned::Spanned,
    visit::{self, Visit},
    visit_mut::{self, VisitMut},
};

use super::idents;
use super::macro_reads::macro_names;
use super::syntax::{
    OWNING_METHODS, PRINTING_MACROS, ask_marker_id, asks_in_expr, contains_let, has_effect,
    is_assign_op, is_comparison, names_in_expr, operands_in_order,
};

/// Binds first what each statement of `body` evaluates before its ask, where it may.
pub(crate) fn bind_operands_first(body: &mut Block) {
    Binder { next: 0 }.visit_block_mut(body);
}

struct Binder {
    /// The number of the next `let` made.
    next: u32,
}

impl Binder {
    /// The `let`s for what `expr`, a statement's expression, evaluates before its ask, with
    /// `expr` rewritten to read them; none when anything else runs before the ask.
    fn bind(&mut self, expr: &mut Expr) -> Vec<Stmt> {
        let mut parts = Vec::new();
        let mut read = BTreeSet::new();
        if asks_in_expr(expr).is_empty() || !plan(expr, &mut parts, &mut read) || parts.is_empty() {
            return Vec::new();
        }
        let mut replace = Replace {
            parts: &parts,
            lets: vec![None; parts.len()],
            first: self.next,
        };
        replace.visit_expr_mut(expr);
        self.next += parts.len() as u32;
        replace.lets.into_iter().flatten().collect()
    }

    /// For an expression the order check takes as a statement of its own without being one (a
    /// `match` arm's body, an `else if`): its `let`s go into a block around it.
    fn bind_in_place(&mut self, expr: &mut Expr) {
        let lets = self.bind(expr);
        if !lets.is_empty() {
            *expr = parse_quote!({ #(#lets)* #expr });
        }
    }
}

impl VisitMut for Binder {
    fn visit_block_mut(&mut self, block: &mut Block) {
        let mut stmts = Vec::with_capacity(block.stmts.len());
        for mut stmt in std::mem::take(&mut block.stmts) {
            let expr = match &mut stmt {
                Stmt::Local(local) => local.init.as_mut().map(|init| &mut *init.expr),
                Stmt::Expr(expr, _) => Some(expr),
                Stmt::Item(_) | Stmt::Macro(_) => None,
            };
            if let Some(expr) = expr {
                stmts.extend(self.bind(expr));
            }
            // The `let`s made hold no ask: only the statement's inner blocks are visited.
            self.visit_stmt_mut(&mut stmt);
            stmts.push(stmt);
        }
        block.stmts = stmts;
    }

    fn visit_arm_mut(&mut self, arm: &mut Arm) {
        if !matches!(*arm.body, Expr::Block(_)) {
            self.bind_in_place(&mut arm.body);
        }
        visit_mut::visit_arm_mut(self, arm);
    }

    fn visit_expr_if_mut(&mut self, expr: &mut ExprIf) {
        if let Some((_, else_branch)) = &mut expr.else_branch
            && matches!(**else_branch, Expr::If(_))
        {
            self.bind_in_place(else_branch);
        }
        visit_mut::visit_expr_if_mut(self, expr);
    }

    // Asks inside these are refused by `analyze`.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// One operand to bind first, by address, and whether it stood under a `&mut`.
#[derive(Clone, Copy)]
struct Part {
    at: *const Expr,
    mutable: bool,
}

/// Collects, in the order Rust evaluates them, the operands that run code before the first ask
/// of `expr`, which holds one. False when some code before it cannot be bound first.
///
/// `read` gathers the names that operands evaluated earlier read in place: those stay, and are
/// read after the bound operands run, so an operand that may change one of them stays too.
fn plan(expr: &Expr, parts: &mut Vec<Part>, read: &mut BTreeSet<String>) -> bool {
    if ask_marker_id(expr).is_some() {
        return true;
    }
    // Evaluated once, as the statement starts; the branches and body are statements of their
    // own.
    let head = match expr {
        Expr::If(e) => Some(&*e.cond),
        Expr::Match(e) => Some(&*e.expr),
        Expr::ForLoop(e) => Some(&*e.expr),
        _ => None,
    };
    if let Some(head) = head {
        return asks_in_expr(head).is_empty() || plan(head, parts, read);
    }
    let Some(operands) = operands_in_order(expr) else {
        return true;
    };
    for (index, operand) in operands.into_iter().enumerate() {
        if !asks_in_expr(operand).is_empty() {
            // `a && f(b(), ask!(..))` runs `b()` only when `a` holds: nothing inside moves.
            if index > 0 && lazy(expr) {
                return !runs_code_before_ask(operand);
            }
            return plan(operand, parts, read);
        }
        if !runs_code(operand) {
            read.extend(names_in_expr(operand));
            continue;
        }
        match bound_part(expr, index, operand) {
            // `(x, { x += 1; x }, ask!(..))` reads the old `x` first.
            Some((value, mutable)) if changed_names(value).is_disjoint(read) => {
                parts.push(Part { at: value, mutable })
            }
            _ => return false,
        }
    }
    true
}

/// What to bind of `operand`, the `index`th operand `parent` evaluates, if it has a value of its
/// own there, and whether it stood under a `&mut`.
fn bound_part<'e>(parent: &Expr, index: usize, operand: &'e Expr) -> Option<(&'e Expr, bool)> {
    let value_position = match parent {
        Expr::Call(_) | Expr::MethodCall(_) => index > 0,
        Expr::Tuple(_) | Expr::Array(_) | Expr::Struct(_) | Expr::Range(_) => true,
        Expr::Binary(binary) if is_assign_op(&binary.op) => false,
        // A comparison borrows its operands: a place there is not moved.
        Expr::Binary(binary) if is_comparison(&binary.op) => !is_place(operand),
        Expr::Binary(_) => true,
        _ => false,
    };
    if !value_position || contains_let(operand) {
        return None;
    }
    match operand {
        Expr::Reference(reference) if is_place(&reference.expr) => None,
        Expr::Reference(reference) => Some((&*reference.expr, reference.mutability.is_some())),
        _ => Some((operand, false)),
    }
}

/// The locals that `expr` may change: assigned, borrowed `&mut`, called a method on (which may
/// take `&mut self`) but one of std's that only make an owned value (`len`, `to_string`), or
/// named in a macro that does not only print or format. Not `self`, which a tool borrows
/// shared.
fn changed_names(expr: &Expr) -> BTreeSet<String> {
    struct Changed(BTreeSet<String>);
    impl<'ast> Visit<'ast> for Changed {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            let place = match expr {
                Expr::Assign(assign) => Some(&*assign.left),
                Expr::Binary(binary) if is_assign_op(&binary.op) => Some(&*binary.left),
                Expr::Reference(reference) if reference.mutability.is_some() => {
                    Some(&*reference.expr)
                }
                Expr::MethodCall(call)
                    if !OWNING_METHODS.contains(&call.method.to_string().as_str()) =>
                {
                    Some(&*call.receiver)
                }
                _ => None,
            };
            if let Some(root) = place.and_then(root_name) {
                self.0.insert(root);
            }
            visit::visit_expr(self, expr);
        }

        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            let name = mac.path.segments.last().map(|s| s.ident.to_string());
            let only_reads = name.as_deref().is_some_and(|name| {
                PRINTING_MACROS.contains(&name) || matches!(name, "format" | "format_args")
            });
            if !only_reads {
                self.0.extend(macro_names(mac));
            }
        }
    }
    let mut changed = Changed(BTreeSet::new());
    changed.visit_expr(expr);
    changed.0.remove("self");
    changed.0
}

/// The local a place, or a method chain on one, starts from: `x` of `x.a[i].b`.
fn root_name(place: &Expr) -> Option<String> {
    match place {
        Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
        Expr::Field(field) => root_name(&field.base),
        Expr::Index(index) => root_name(&index.expr),
        Expr::MethodCall(call) => root_name(&call.receiver),
        Expr::Paren(inner) => root_name(&inner.expr),
        Expr::Group(inner) => root_name(&inner.expr),
        Expr::Unary(unary) => root_name(&unary.expr),
        _ => None,
    }
}

/// `&&` or `||`, whose right side runs only on some paths.
fn lazy(expr: &Expr) -> bool {
    matches!(expr, Expr::Binary(binary) if matches!(binary.op, syn::BinOp::And(_) | syn::BinOp::Or(_)))
}

/// Whether `expr` runs code before its first ask.
fn runs_code_before_ask(expr: &Expr) -> bool {
    let mut parts = Vec::new();
    !plan(expr, &mut parts, &mut BTreeSet::new()) || !parts.is_empty()
}

/// Whether evaluating `expr` runs any code: a call, an operator, `?`, `.await`, control flow or
/// a macro. Reading a place, taking a reference, building a value or making a closure does not.
fn runs_code(expr: &Expr) -> bool {
    match operands_in_order(expr) {
        Some(operands) => has_effect(expr) || operands.into_iter().any(runs_code),
        None => true,
    }
}

/// A place expression, which a value position would move out of.
fn is_place(expr: &Expr) -> bool {
    match expr {
        Expr::Path(_) | Expr::Field(_) | Expr::Index(_) => true,
        Expr::Unary(unary) => matches!(unary.op, syn::UnOp::Deref(_)),
        Expr::Paren(inner) => is_place(&inner.expr),
        Expr::Group(inner) => is_place(&inner.expr),
        _ => false,
    }
}

/// Moves each planned operand into its `let`, leaving the binding's name in its place.
struct Replace<'p> {
    parts: &'p [Part],
    lets: Vec<Option<Stmt>>,
    /// The number of the first `let`.
    first: u32,
}

impl VisitMut for Replace<'_> {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        let at: *const Expr = expr;
        let Some(position) = self.parts.iter().position(|part| part.at == at) else {
            return visit_mut::visit_expr_mut(self, expr);
        };
        let ident: Ident = idents::bound_first(self.first + position as u32, expr.span());
        let mut value = std::mem::replace(expr, parse_quote!(#ident));
        // `f((a + b), ..)` needs no parentheses in a `let`, and rustc would warn of them.
        while let Expr::Paren(inner) = value {
            value = *inner.expr;
        }
        let mutability = self.parts[position]
            .mutable
            .then(<syn::Token![mut]>::default);
        self.lets[position] = Some(parse_quote!(let #mutability #ident = #value;));
    }
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};

    use super::*;

    fn rewritten(body: proc_macro2::TokenStream) -> String {
        let mut block: Block = syn::parse2(quote!({ #body })).unwrap();
        bind_operands_first(&mut block);
        block.to_token_stream().to_string()
    }

    #[test]
    fn arguments_elements_and_left_sides_that_compute_are_bound_first_in_order() {
        let text = rewritten(quote! {
            answers.insert(key.to_uppercase(), __mrtr_ask_1(q()));
            let p = Person { id: next(), inner: Inner { a: (x + 1), b: __mrtr_ask_2(q()) } };
            let same = name.to_lowercase() == __mrtr_ask_3(q());
            join(&mut label.to_string(), &__mrtr_ask_4(q()));
        });
        let expected = quote! {
            let __mrtr_operand0 = key.to_uppercase();
            answers.insert(__mrtr_operand0, __mrtr_ask_1(q()));
            let __mrtr_operand1 = next();
            let __mrtr_operand2 = x + 1;
            let p = Person { id: __mrtr_operand1, inner: Inner { a: __mrtr_operand2, b: __mrtr_ask_2(q()) } };
            let __mrtr_operand3 = name.to_lowercase();
            let same = __mrtr_operand3 == __mrtr_ask_3(q());
            let mut __mrtr_operand4 = label.to_string();
            join(&mut __mrtr_operand4, &__mrtr_ask_4(q()));
        };
        assert_eq!(text, quote!({ #expected }).to_string());
    }

    #[test]
    fn reads_borrows_constructors_closures_and_what_follows_the_ask_stay() {
        let body = quote! {
            push(&mut log, Some(x), |v| v + 1, __mrtr_ask_1(q()), after());
            let n = compute();
            total + __mrtr_ask_2(q());
        };
        assert_eq!(rewritten(body.clone()), quote!({ #body }).to_string());
    }

    #[test]
    fn receivers_places_let_chains_and_loop_conditions_stay_for_the_order_check() {
        let body = quote! {
            make().push(next(), __mrtr_ask_1(q()));
            let same = v[i()] == __mrtr_ask_2(q());
            if let Some(x) = get() && __mrtr_ask_3(q()) {}
            while ready(next()) && __mrtr_ask_4(q()) {}
            let f = |x| g(h(), __mrtr_ask_5(x));
        };
        assert_eq!(rewritten(body.clone()), quote!({ #body }).to_string());
    }

    #[test]
    fn an_operand_that_may_change_what_an_earlier_one_reads_in_place_stays() {
        let body = quote! {
            v.push((x, { x += 1; x }, __mrtr_ask_1(q())));
            log.push(log.pop(), __mrtr_ask_2(q()));
            f(p.name, take(&mut p), __mrtr_ask_3(q()));
            g(n, bump!(n), __mrtr_ask_4(q()));
        };
        assert_eq!(rewritten(body.clone()), quote!({ #body }).to_string());
        let text = rewritten(quote! {
            f(x, format!("{x}"), x.len(), y.push(1), self.next(), __mrtr_ask_1(q()));
        });
        assert_eq!(text.matches("let __mrtr_operand").count(), 4, "{text}");
    }

    #[test]
    fn nothing_moves_out_of_the_right_side_of_and_or_or() {
        let body = quote! {
            if ready && consume(take(), __mrtr_ask_1(q())) {}
            let ok = done || check(&name.to_lowercase(), __mrtr_ask_2(q()));
        };
        assert_eq!(rewritten(body.clone()), quote!({ #body }).to_string());
        let text = rewritten(quote! {
            let ok = ready() && __mrtr_ask_1(q());
        });
        assert!(text.contains("let __mrtr_operand0 = ready () ;"), "{text}");
    }

    #[test]
    fn heads_of_statements_arm_bodies_and_else_ifs_are_bound_where_they_run() {
        let text = rewritten(quote! {
            if ready(a()) && __mrtr_ask_1(q()) {}
            match k {
                A => insert(b(), __mrtr_ask_2(q())),
                _ => {}
            }
            if c {
            } else if ready(d()) && __mrtr_ask_3(q()) {
            }
        });
        let expected = quote! {
            let __mrtr_operand0 = ready(a());
            if __mrtr_operand0 && __mrtr_ask_1(q()) {}
            match k {
                A => { let __mrtr_operand1 = b(); insert(__mrtr_operand1, __mrtr_ask_2(q())) },
                _ => {}
            }
            if c {
            } else { let __mrtr_operand2 = ready(d()); if __mrtr_operand2 && __mrtr_ask_3(q()) {} }
        };
        assert_eq!(text, quote!({ #expected }).to_string());
    }
}

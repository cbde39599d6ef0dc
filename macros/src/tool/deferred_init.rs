//! Part of stage 3: give a `let` without a value its value where it is first assigned, so that
//! an ask after it finds a binding it can save.
//!
//! ```text
//! let x;                        let x = if c {
//! if c {                            let y = ask!(q);
//!     let y = ask!(q);    =>        y + 1
//!     x = y + 1;                } else {
//! } else {                          0
//!     x = 0;                    };
//! }
//! ```
//!
//! The `let` moves down to the first statement of its block that names it, when that
//! statement is `x = value;`, or an `if` or `match` each of whose branches assigns `x` in the
//! first statement that names it, or leaves (`return`, `break`, `continue`, `panic!`). Anything
//! else is left as written, and lowering reports the `let`. Only a `let` that an ask follows
//! in its block is rewritten.

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::{
    Block, Expr, Ident, Local, Pat, PatIdent, Stmt,
    visit_mut::{self, VisitMut},
};

use super::syntax::asks_in_stmt;

pub(crate) fn give_values(body: &mut Block) {
    DeferredInit.visit_block_mut(body);
}

struct DeferredInit;

impl VisitMut for DeferredInit {
    fn visit_block_mut(&mut self, block: &mut Block) {
        visit_mut::visit_block_mut(self, block);
        let mut index = 0;
        while index < block.stmts.len() {
            match given_value(&block.stmts, index) {
                Some((at, value)) => {
                    if let Stmt::Local(declared) = block.stmts.remove(index) {
                        block.stmts[at - 1] = with_value(declared, value);
                    }
                }
                None => index += 1,
            }
        }
    }

    // Closures, async blocks and items hold no ask points.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// Where the `let` at `index` moves to, and the value it gets there: if it is one without a
/// value that an ask follows, and the first statement that names it gives it one.
fn given_value(stmts: &[Stmt], index: usize) -> Option<(usize, Expr)> {
    let Stmt::Local(local) = &stmts[index] else {
        return None;
    };
    let name = deferred_name(local)?;
    if stmts[index + 1..]
        .iter()
        .all(|s| asks_in_stmt(s).is_empty())
    {
        return None;
    }
    let first = index + 1 + stmts[index + 1..].iter().position(|s| mentions(s, name))?;
    match &stmts[first] {
        Stmt::Expr(expr, _) => valued(expr, local).map(|value| (first, value)),
        _ => None,
    }
}

/// `x` of `let x;`, `let mut x;` or `let x: T;`.
fn declared(local: &Local) -> Option<&PatIdent> {
    if local.init.is_some() {
        return None;
    }
    let pat = match &local.pat {
        Pat::Type(typed) => &*typed.pat,
        pat => pat,
    };
    match pat {
        Pat::Ident(ident) if ident.by_ref.is_none() && ident.subpat.is_none() => Some(ident),
        _ => None,
    }
}

fn deferred_name(local: &Local) -> Option<&Ident> {
    declared(local).map(|pat| &pat.ident)
}

/// `let x = value;`, with the attributes, `mut` and type of the `let` without a value.
fn with_value(local: Local, value: Expr) -> Stmt {
    let Local { attrs, pat, .. } = local;
    syn::parse_quote!(#(#attrs)* let #pat = #value;)
}

/// `expr` rewritten to evaluate to what it assigns to `name`, when it assigns it on every path
/// that does not leave.
fn valued(expr: &Expr, local: &Local) -> Option<Expr> {
    let name = deferred_name(local)?;
    match expr {
        Expr::Assign(assign) if is_name(&assign.left, name) && !mentions(&assign.right, name) => {
            Some((*assign.right).clone())
        }
        Expr::Block(block) if block.label.is_none() && block.attrs.is_empty() => {
            let mut block = block.clone();
            block.block = valued_block(&block.block, local)?;
            Some(Expr::Block(block))
        }
        Expr::If(branch) if !mentions(&branch.cond, name) => {
            let (_, otherwise) = branch.else_branch.as_ref()?;
            let mut branch = branch.clone();
            branch.then_branch = valued_block(&branch.then_branch, local)?;
            let otherwise = valued(otherwise, local)?;
            *branch.else_branch.as_mut()?.1 = otherwise;
            Some(Expr::If(branch))
        }
        Expr::Match(matched) if !mentions(&matched.expr, name) => {
            let mut matched = matched.clone();
            for arm in &mut matched.arms {
                if arm.guard.as_ref().is_some_and(|(_, g)| mentions(g, name)) {
                    return None;
                }
                if !leaves(&arm.body) || mentions(&arm.body, name) {
                    *arm.body = valued(&arm.body, local)?;
                    if arm.comma.is_none() && !matches!(*arm.body, Expr::Block(_)) {
                        arm.comma = Some(Default::default());
                    }
                }
            }
            Some(Expr::Match(matched))
        }
        _ => None,
    }
}

/// A block whose first statement that names `x` assigns it on every path that goes on, made
/// to give that value: `{ a; x = v; }` becomes `{ a; v }`, and `{ a; x = v; b(x); }` becomes
/// `{ a; let x = v; b(x); x }`. A block that leaves without naming `x` stays as it is.
fn valued_block(block: &Block, local: &Local) -> Option<Block> {
    let name = deferred_name(local)?;
    let Some(at) = block.stmts.iter().position(|stmt| mentions(stmt, name)) else {
        let leaves_as_is = block.stmts.last().is_some_and(stmt_leaves);
        return leaves_as_is.then(|| block.clone());
    };
    let Stmt::Expr(assigning, _) = &block.stmts[at] else {
        return None;
    };
    let value = valued(assigning, local)?;
    let mut block = block.clone();
    let rest = block.stmts.split_off(at + 1);
    block.stmts.pop();
    if rest.is_empty() {
        block.stmts.push(Stmt::Expr(value, None));
        return Some(block);
    }
    // The statements after the assignment may read and change it.
    // A `mut` the statements after do not need is the outer binding's, not an unused one.
    let pat = &local.pat;
    let declared_mut = declared(local).is_some_and(|pat| pat.mutability.is_some());
    let allow = declared_mut.then(|| quote!(#[allow(unused_mut)]));
    block
        .stmts
        .push(syn::parse_quote!(#allow let #pat = #value;));
    let leaving = rest.last().is_some_and(stmt_leaves);
    block.stmts.extend(rest);
    if !leaving {
        match block.stmts.last_mut() {
            Some(Stmt::Expr(_, semi @ None)) => *semi = Some(Default::default()),
            Some(Stmt::Macro(mac)) if mac.semi_token.is_none() => {
                mac.semi_token = Some(Default::default())
            }
            _ => {}
        }
        block.stmts.push(Stmt::Expr(syn::parse_quote!(#name), None));
    }
    Some(block)
}

/// `return`, `break`, `continue`, or a macro that panics.
fn leaves(expr: &Expr) -> bool {
    match expr {
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => true,
        Expr::Macro(mac) => panics(&mac.mac),
        _ => false,
    }
}

fn stmt_leaves(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Expr(expr, _) => leaves(expr),
        Stmt::Macro(mac) => panics(&mac.mac),
        _ => false,
    }
}

fn panics(mac: &syn::Macro) -> bool {
    mac.path.segments.last().is_some_and(|last| {
        ["panic", "unreachable", "todo", "unimplemented"].contains(&last.ident.to_string().as_str())
    })
}

fn is_name(expr: &Expr, name: &Ident) -> bool {
    matches!(expr, Expr::Path(path) if path.qself.is_none() && path.path.is_ident(name))
}

/// Whether `name` appears anywhere in the tokens of `node`, even as a field or in a macro's
/// arguments: an over-approximation that keeps a rewrite from moving past any use.
fn mentions(node: &impl ToTokens, name: &Ident) -> bool {
    fn within(tokens: TokenStream, name: &Ident) -> bool {
        tokens.into_iter().any(|token| match token {
            TokenTree::Ident(ident) => ident == *name,
            TokenTree::Group(group) => within(group.stream(), name),
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                text.contains('"') && text.contains(&format!("{{{name}"))
            }
            TokenTree::Punct(_) => false,
        })
    }
    within(quote!(#node), name)
}

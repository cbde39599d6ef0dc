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
//! The `let` moves down to the first statement of its block that names it, when no `let` with
//! a value stands between and that statement is `x = value;`, or an `if` or `match` each of whose
//! branches assigns `x` in the first statement that names it, or leaves (`return`, `break`,
//! `continue`, `panic!`). When nothing after that statement reads `x`, each branch gets a
//! `let x` of its own instead. Anything else is left as written, and lowering reports the
//! `let`. Only a `let` that an ask follows in its block is rewritten. Several that one `if`,
//! `match` or block gives their values become one `let` of a tuple first ([`given_together`]).

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::{
    Block, Expr, Ident, Local, Pat, PatIdent, Stmt,
    visit_mut::{self, VisitMut},
};

use super::syntax::{asks_in_stmt, leaves, pattern_bindings, stmt_leaves};

pub(crate) fn give_values(body: &mut Block) {
    DeferredInit.visit_block_mut(body);
}

struct DeferredInit;

impl VisitMut for DeferredInit {
    fn visit_block_mut(&mut self, block: &mut Block) {
        visit_mut::visit_block_mut(self, block);
        // Several `let`s that one statement gives their values become one `let` of a tuple
        // first, whose branches then hold a `let` of each, rewritten one by one below.
        let mut index = block.stmts.len();
        while index > 0 {
            index -= 1;
            if let Some((lets, mut declaring)) = given_together(&block.stmts, index) {
                self.visit_stmt_mut(&mut declaring);
                block.stmts[index] = declaring;
                index -= lets.len();
                for at in lets.into_iter().rev() {
                    block.stmts.remove(at);
                }
            }
        }
        // Last first: a `let` moved down must not stand between an earlier one and its
        // value, where it would count as a value made between.
        for index in (0..block.stmts.len()).rev() {
            if let Some((at, declaring)) = given_value(&block.stmts, index) {
                block.stmts[at] = declaring;
                block.stmts.remove(index);
            }
        }
    }

    // Closures, async blocks and items hold no ask points.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}
    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// Where the `let` at `index` moves to, and the statement it becomes there: if it is one
/// without a value that an ask follows, the first statement that names it gives it one, and
/// no `let` with a value stands between (moved down, `x` would be dropped before that value,
/// not after it).
fn given_value(stmts: &[Stmt], index: usize) -> Option<(usize, Stmt)> {
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
    if stmts[index + 1..first]
        .iter()
        .any(|s| matches!(s, Stmt::Local(between) if between.init.is_some()))
    {
        return None;
    }
    let Stmt::Expr(giving, semi) = &stmts[first] else {
        return None;
    };
    let read_later = stmts[first + 1..].iter().any(|s| mentions(s, name));
    given_by(giving, *semi, local, read_later, let_with).map(|stmt| (first, stmt))
}

/// The `let`s without a value that the statement at `at` gives their values together, and
/// that statement as the `let` of them all, when two or more of them are read after it:
///
/// ```text
/// let a;                        let (a, b) = if c {
/// let b;                            let a; let b;
/// if c {                            a = ask!(q); b = 1;
///     a = ask!(q); b = 1;   =>      (a, b)
/// } else {                      } else {
///     a = 0; b = 2;                 let a; let b;
/// }                                 a = 0; b = 2;
///                                   (a, b)
///                               };
/// ```
///
/// Each `let` must be one that [`given_value`] would move to `at` on its own. One that is not
/// read after it goes only into the branches that name it, and a branch that leaves gets no
/// tuple.
fn given_together(stmts: &[Stmt], at: usize) -> Option<(Vec<usize>, Stmt)> {
    let Stmt::Expr(giving, _) = &stmts[at] else {
        return None;
    };
    if !matches!(giving, Expr::If(_) | Expr::Match(_) | Expr::Block(_)) {
        return None;
    }
    let mut lets = Vec::new();
    for index in (0..at).rev() {
        let Stmt::Local(local) = &stmts[index] else {
            continue;
        };
        if local.init.is_some() {
            break;
        }
        let Some(name) = deferred_name(local) else {
            continue;
        };
        if !local.attrs.is_empty()
            || stmts[index + 1..at].iter().any(|s| mentions(s, name))
            || !mentions(giving, name)
        {
            continue;
        }
        let read_later = stmts[at + 1..].iter().any(|s| mentions(s, name));
        let mode = if read_later {
            Mode::Value
        } else {
            Mode::Scoped
        };
        if rewritten(giving, local, mode).is_some() {
            lets.push((index, local, read_later));
        }
    }
    lets.reverse();
    let tupled: Vec<&Local> = lets
        .iter()
        .filter(|(_, _, read_later)| *read_later)
        .map(|(_, local, _)| *local)
        .collect();
    let asked = stmts[lets.first()?.0 + 1..]
        .iter()
        .any(|s| !asks_in_stmt(s).is_empty());
    if !asked || tupled.len() < 2 {
        return None;
    }
    let all: Vec<&Local> = lets.iter().map(|(_, local, _)| *local).collect();
    let value = together(giving, &all, &tupled)?;
    let pats = tupled.iter().map(|local| {
        let pat = declared(local).expect("a `let` without a value");
        quote!(#pat)
    });
    let types = tupled.iter().map(|local| match &local.pat {
        Pat::Type(typed) => typed.ty.to_token_stream(),
        _ => quote!(_),
    });
    let typed = tupled
        .iter()
        .any(|local| matches!(local.pat, Pat::Type(_)))
        .then(|| quote!(: (#(#types,)*)));
    let declaring = syn::parse_quote!(let (#(#pats,)*) #typed = #value;);
    Some((
        lets.into_iter().map(|(index, _, _)| index).collect(),
        declaring,
    ))
}

/// `giving` with each branch declaring the `let`s of `all` that it names ([`branch_together`]).
fn together(giving: &Expr, all: &[&Local], tupled: &[&Local]) -> Option<Expr> {
    match giving {
        Expr::Block(block) if block.label.is_none() && block.attrs.is_empty() => {
            let mut block = block.clone();
            block.block = branch_together(&block.block, all, tupled);
            Some(Expr::Block(block))
        }
        Expr::If(branch) => {
            let mut branch = branch.clone();
            branch.then_branch = branch_together(&branch.then_branch, all, tupled);
            let (_, otherwise) = branch.else_branch.as_mut()?;
            **otherwise = together(otherwise, all, tupled)?;
            Some(Expr::If(branch))
        }
        Expr::Match(matched) => {
            let mut matched = matched.clone();
            for arm in &mut matched.arms {
                let named = all.iter().any(|local| {
                    deferred_name(local).is_some_and(|name| mentions(&arm.body, name))
                });
                if !named && leaves(&arm.body) {
                    continue;
                }
                let block = match &*arm.body {
                    Expr::Block(block) if block.label.is_none() && block.attrs.is_empty() => {
                        block.block.clone()
                    }
                    body => syn::parse_quote!({ #body; }),
                };
                let block = branch_together(&block, all, tupled);
                *arm.body = syn::parse_quote!(#block);
            }
            Some(Expr::Match(matched))
        }
        _ => None,
    }
}

/// `block` with a `let` of each of `all` that it names, just before the first statement that
/// names it (so that each then moves down onto its value with no other `let` between), and
/// the tuple of `tupled` last unless it leaves.
fn branch_together(block: &Block, all: &[&Local], tupled: &[&Local]) -> Block {
    let mut stmts: Vec<Stmt> = Vec::new();
    for (at, stmt) in block.stmts.iter().enumerate() {
        let mut stmt = Some(stmt.clone());
        for local in all {
            let Some(name) = deferred_name(local) else {
                continue;
            };
            if block.stmts.iter().position(|stmt| mentions(stmt, name)) != Some(at) {
                continue;
            }
            // `x = v;` becomes `let x = v;` at once, as rustc would have it written (and
            // clippy's `needless_late_init` asks); anything else keeps a `let x;` before it.
            match &stmt {
                Some(Stmt::Expr(Expr::Assign(assign), _))
                    if is_name(&assign.left, name) && !mentions(&assign.right, name) =>
                {
                    stmts.push(branch_let(local, (*assign.right).clone()));
                    stmt = None;
                }
                _ => {
                    let (allow, pat) = (allow_unused_mut(local), &local.pat);
                    stmts.push(syn::parse_quote!(#allow let #pat;));
                }
            }
        }
        stmts.extend(stmt);
    }
    if !stmts.last().is_some_and(stmt_leaves) {
        match stmts.last_mut() {
            Some(Stmt::Expr(_, semi @ None)) => *semi = Some(Default::default()),
            Some(Stmt::Macro(mac)) if mac.semi_token.is_none() => {
                mac.semi_token = Some(Default::default())
            }
            _ => {}
        }
        let names = tupled.iter().filter_map(|local| deferred_name(local));
        stmts.push(Stmt::Expr(syn::parse_quote!((#(#names,)*)), None));
    }
    Block {
        brace_token: block.brace_token,
        stmts,
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

/// Where a `let x;` at `index` that stays where it is (a `let` with a value, or an ask, stands
/// before its value) gets its value: the first later statement of its block that names `x`,
/// when that is `x = value;` and `value` does not read `x`, or when no ask comes at or after
/// it. Lowering saves `x` from an assignment on, and restores it there on resume; at an ask
/// before it `x` has no value yet, and is not saved.
pub(crate) fn assigned_later(stmts: &[Stmt], index: usize) -> Option<usize> {
    let Stmt::Local(local) = &stmts[index] else {
        return None;
    };
    if local.attrs.iter().any(|attr| attr.path().is_ident("cfg")) {
        return None;
    }
    let name = deferred_name(local)?;
    let first = index + 1 + stmts[index + 1..].iter().position(|s| mentions(s, name))?;
    if stmts[first..].iter().all(|s| asks_in_stmt(s).is_empty()) {
        return Some(first);
    }
    if assigns(&stmts[first], name) || given_in_fold(&stmts[first], name) {
        return Some(first);
    }
    None
}

/// `x = value;`, where `value` does not read `x`.
fn assigns(stmt: &Stmt, name: &Ident) -> bool {
    let Stmt::Expr(Expr::Assign(assign), Some(_)) = stmt else {
        return false;
    };
    let Expr::Path(place) = &*assign.left else {
        return false;
    };
    place.qself.is_none()
        && place.path.get_ident() == Some(name)
        && assign.attrs.is_empty()
        && !mentions(&assign.right, name)
}

/// A `let` whose value is a block (as scope narrowing makes one of statements whose bindings
/// die before an ask, `let b = { let a = ask!(..)..; x = a + 1; let b = a * 2; b };`) with
/// `x = value;` among its statements, the first and last there to name `x`, after which that
/// block does not ask. Lowering restores `x` with the `let`'s own bindings, before them.
pub(crate) fn given_in_fold(stmt: &Stmt, name: &Ident) -> bool {
    let Stmt::Local(local) = stmt else {
        return false;
    };
    let Some(init) = &local.init else {
        return false;
    };
    let Expr::Block(block) = &*init.expr else {
        return false;
    };
    if init.diverge.is_some() || block.label.is_some() || pattern_bindings(&local.pat).is_empty() {
        return false;
    }
    let inner = &block.block.stmts;
    let Some(at) = inner.iter().position(|s| mentions(s, name)) else {
        return false;
    };
    assigns(&inner[at], name)
        && !inner[at + 1..].iter().any(|s| mentions(s, name))
        && inner[at..].iter().all(|s| asks_in_stmt(s).is_empty())
}

/// How the statement `giving` that first names `x` gives it its value.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// `x` is read after: the statement becomes the value of `let x = ..;`.
    Value,
    /// `x` is not read after: each branch gets a `let x = ..;` of its own.
    Scoped,
}

/// `giving` as the statement that declares `x`: `let x = value;`, or, when nothing after it
/// reads `x`, the statement with a `let x` in each branch that assigns it.
fn given_by(
    giving: &Expr,
    semi: Option<syn::Token![;]>,
    local: &Local,
    read_later: bool,
    declare: fn(&Local, Expr) -> Stmt,
) -> Option<Stmt> {
    if read_later || matches!(giving, Expr::Assign(_)) {
        return Some(declare(local, rewritten(giving, local, Mode::Value)?));
    }
    Some(Stmt::Expr(rewritten(giving, local, Mode::Scoped)?, semi))
}

/// `let x = value;`, with the attributes, `mut` and type of the `let` without a value.
fn let_with(local: &Local, value: Expr) -> Stmt {
    let Local { attrs, pat, .. } = local;
    syn::parse_quote!(#(#attrs)* let #pat = #value;)
}

/// `let x = value;` inside a branch; a `mut` the branch does not need is the outer binding's.
fn branch_let(local: &Local, value: Expr) -> Stmt {
    let (allow, pat) = (allow_unused_mut(local), &local.pat);
    syn::parse_quote!(#allow let #pat = #value;)
}

/// `#[allow(unused_mut)]` for a branch's own `let` of a `let mut` without a value: the branch
/// may not change it.
fn allow_unused_mut(local: &Local) -> Option<TokenStream> {
    let declared_mut = declared(local).is_some_and(|pat| pat.mutability.is_some());
    declared_mut.then(|| quote!(#[allow(unused_mut)]))
}

/// `expr`, which assigns `x` on every path that does not leave, rewritten: to evaluate to the
/// value it assigns (`Value`), or with each assignment a `let` of its branch (`Scoped`, where a
/// branch may also leave `x` alone).
fn rewritten(expr: &Expr, local: &Local, mode: Mode) -> Option<Expr> {
    let name = deferred_name(local)?;
    match expr {
        Expr::Assign(assign) if is_name(&assign.left, name) && !mentions(&assign.right, name) => {
            let value = (*assign.right).clone();
            Some(match mode {
                Mode::Value => value,
                Mode::Scoped => {
                    let declared = branch_let(local, value);
                    syn::parse_quote!({ #declared })
                }
            })
        }
        Expr::Block(block) if block.label.is_none() && block.attrs.is_empty() => {
            let mut block = block.clone();
            block.block = rewritten_block(&block.block, local, mode)?;
            Some(Expr::Block(block))
        }
        Expr::If(branch) if !mentions(&branch.cond, name) => {
            let mut branch = branch.clone();
            branch.then_branch = rewritten_block(&branch.then_branch, local, mode)?;
            match &mut branch.else_branch {
                Some((_, otherwise)) => **otherwise = rewritten(otherwise, local, mode)?,
                None if mode == Mode::Scoped => {}
                None => return None,
            }
            Some(Expr::If(branch))
        }
        Expr::Match(matched) if !mentions(&matched.expr, name) => {
            let mut matched = matched.clone();
            for arm in &mut matched.arms {
                if arm.guard.as_ref().is_some_and(|(_, g)| mentions(g, name)) {
                    return None;
                }
                let as_is = match mode {
                    Mode::Value => leaves(&arm.body) && !mentions(&arm.body, name),
                    Mode::Scoped => !mentions(&arm.body, name),
                };
                if !as_is {
                    *arm.body = rewritten(&arm.body, local, mode)?;
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

/// A block whose first statement that names `x` assigns it on every path that goes on:
/// `{ a; x = v; }` becomes `{ a; v }`, and `{ a; x = v; b(x); }` becomes
/// `{ a; let x = v; b(x); x }` (`Value`), or `{ a; let x = v; b(x); }` (`Scoped`). A block that
/// does not name `x` stays as it is, if it leaves or `x` is not read after it.
fn rewritten_block(block: &Block, local: &Local, mode: Mode) -> Option<Block> {
    let name = deferred_name(local)?;
    let Some(at) = block.stmts.iter().position(|stmt| mentions(stmt, name)) else {
        let as_is = mode == Mode::Scoped || block.stmts.last().is_some_and(stmt_leaves);
        return as_is.then(|| block.clone());
    };
    let Stmt::Expr(giving, semi) = &block.stmts[at] else {
        return None;
    };
    let mut block = block.clone();
    let rest = block.stmts.split_off(at + 1);
    block.stmts.pop();
    if mode == Mode::Value && rest.is_empty() {
        block
            .stmts
            .push(Stmt::Expr(rewritten(giving, local, Mode::Value)?, None));
        return Some(block);
    }
    // In `Value` mode the block's tail reads `x` too.
    let read_later = mode == Mode::Value || rest.iter().any(|stmt| mentions(stmt, name));
    block
        .stmts
        .push(given_by(giving, *semi, local, read_later, branch_let)?);
    let leaving = rest.last().is_some_and(stmt_leaves);
    // The branch's value is its `x`, not one that a `let` after the assignment makes: such
    // statements keep their own block.
    let shadowed = rest.iter().any(|stmt| {
        matches!(stmt, Stmt::Local(inner) if pattern_bindings(&inner.pat)
            .iter()
            .any(|binding| binding.ident == *name))
    });
    if mode == Mode::Value && shadowed && !leaving {
        block
            .stmts
            .push(Stmt::Expr(syn::parse_quote!({ #(#rest)* }), None));
    } else {
        block.stmts.extend(rest);
    }
    if mode == Mode::Value && !leaving {
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

/// The value that `expr`, an `if`, `match` or block, gives `name` on each path that goes on,
/// as a `let` without a value would take it: `if c { x = a } else { b(); x = d }` gives
/// `if c { a } else { b(); d }`.
pub(crate) fn assigned_value(expr: &Expr, name: &Ident) -> Option<Expr> {
    let Stmt::Local(local) = syn::parse_quote!(let mut #name;) else {
        return None;
    };
    rewritten(expr, &local, Mode::Value)
}

fn is_name(expr: &Expr, name: &Ident) -> bool {
    matches!(expr, Expr::Path(path) if path.qself.is_none() && path.path.is_ident(name))
}

/// Whether `name` appears anywhere in the tokens of `node`, even as a field or in a macro's
/// arguments: an over-approximation that keeps a rewrite from moving past any use.
pub(crate) fn mentions(node: &impl ToTokens, name: &Ident) -> bool {
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

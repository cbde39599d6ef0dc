//! Part of stage 3, for `remade`: the functions a value made again on resume may run, because
//! they only pick a borrow out of their parameter or read it. Run again, they give again what
//! they gave, and run nothing else of the user's.
//!
//! ```text
//! text.split(',').map(|s| s.trim()).collect()        map: a pick (`picking`)
//! text.lines().filter(|l| !l.is_empty()).next()       filter: a read (`reading`)
//! items.first().map(String::as_str).unwrap_or("")     a pick of std, by its path
//! ```

use syn::{
    Expr, Pat, Stmt,
    visit::{self, Visit},
};

use super::borrowed_items::borrowing_items;
use super::remade::{REMADE_PICKS, remade_value, steady};

/// The types of std whose picks a path names: `str::trim`, `String::as_str`.
const STD_TYPES: &[&str] = &[
    "str", "String", "Vec", "Option", "Result", "Box", "Cow", "Path", "PathBuf", "OsStr",
    "OsString",
];

/// A function of one borrow that picks a borrow out of it: `|s| s.trim()`, `|p| &p.name`,
/// `|s| s.strip_prefix("x").unwrap_or(s)`, or `str::trim`. Locals it reads as arguments, not
/// its parameter, go to `arguments`.
pub(crate) fn picking(function: &Expr, arguments: &mut Vec<String>) -> bool {
    if let Expr::Path(path) = function {
        let segments: Vec<String> = path
            .path
            .segments
            .iter()
            .map(|segment| segment.ident.to_string())
            .collect();
        return path.qself.is_none()
            && segments.len() == 2
            && STD_TYPES.contains(&segments[0].as_str())
            && REMADE_PICKS.contains(&segments[1].as_str());
    }
    with_body(function, arguments, |body, found| {
        plain_picks(body) && remade_value(body, found)
    })
}

/// A predicate of one borrow that only reads it (`remade::steady`): `|l| !l.trim().is_empty()`,
/// `|w| w.len() > min`.
pub(crate) fn reading(function: &Expr, arguments: &mut Vec<String>) -> bool {
    with_body(function, arguments, steady)
}

/// Checks the body of a closure of one parameter with `check`, and moves what it found to
/// `arguments`, less the parameter.
fn with_body(
    function: &Expr,
    arguments: &mut Vec<String>,
    check: impl FnOnce(&Expr, &mut Vec<String>) -> bool,
) -> bool {
    let Expr::Closure(closure) = function else {
        return false;
    };
    let [input] = closure.inputs.iter().collect::<Vec<_>>()[..] else {
        return false;
    };
    let mut bound = Vec::new();
    if !parameter(input, &mut bound) {
        return false;
    }
    if closure.asyncness.is_some() || closure.constness.is_some() {
        return false;
    }
    let mut found = Vec::new();
    if !check(body(&closure.body), &mut found) {
        return false;
    }
    arguments.extend(found.into_iter().filter(|name| !bound.contains(name)));
    true
}

/// Whether a closure's one parameter binds names plainly, put in `bound`: `s`, `s: &str`,
/// `&s`, or a tuple of such and `_` (`|(i, s)|`, `|&(_, s)|`).
fn parameter(input: &Pat, bound: &mut Vec<String>) -> bool {
    match input {
        Pat::Ident(ident) if ident.by_ref.is_none() && ident.subpat.is_none() => {
            bound.push(ident.ident.to_string());
            true
        }
        Pat::Type(typed) => parameter(&typed.pat, bound),
        Pat::Reference(reference) if reference.mutability.is_none() => {
            parameter(&reference.pat, bound)
        }
        Pat::Tuple(tuple) => tuple.elems.iter().all(|elem| parameter(elem, bound)),
        Pat::Paren(inner) => parameter(&inner.pat, bound),
        Pat::Wild(_) => true,
        _ => false,
    }
}

/// `{ e }` as `e`.
fn body(expr: &Expr) -> &Expr {
    match expr {
        Expr::Block(block) if block.attrs.is_empty() && block.label.is_none() => {
            match &block.block.stmts[..] {
                [Stmt::Expr(inner, None)] => body(inner),
                _ => expr,
            }
        }
        Expr::Paren(inner) => body(&inner.expr),
        _ => expr,
    }
}

/// No `?`, which would leave the closure rather than the tool, no iterator (made again in a
/// closure, its place would not be checked to keep its order), and no closure.
fn plain_picks(body: &Expr) -> bool {
    struct Plain(bool);
    impl<'ast> Visit<'ast> for Plain {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            self.0 &= match expr {
                Expr::Try(_) | Expr::Closure(_) => false,
                Expr::MethodCall(call) => !borrowing_items(&call.method.to_string()),
                _ => true,
            };
            visit::visit_expr(self, expr);
        }
    }
    let mut plain = Plain(true);
    plain.visit_expr(body);
    plain.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(text: &str) -> Expr {
        syn::parse_str(text).unwrap()
    }

    #[test]
    fn picks_and_reads_are_told_apart_from_other_code() {
        for function in [
            "|s| s.trim()",
            "|s: &String| s.as_str()",
            "|p| &p.name",
            "|&s| s.trim_start_matches(prefix)",
            "|s| { s.strip_prefix(\"x\").unwrap_or(s) }",
            "|(_, s)| s.trim()",
            "str::trim",
            "String::as_str",
        ] {
            assert!(picking(&expr(function), &mut Vec::new()), "{function}");
        }
        for function in [
            "f",
            "trim",
            "mine::trim",
            "|s| s.to_lowercase()",
            "|s| log(s)",
            "|s| s.strip_prefix(\"x\")?",
            "|s| s.split(',').next()",
            "|s, t| s.trim()",
            "|s| self.name.trim()",
            "async |s| s.trim()",
        ] {
            assert!(!picking(&expr(function), &mut Vec::new()), "{function}");
        }
        for function in [
            "|l| !l.is_empty()",
            "|&w| w.len() > min && !w.starts_with('#')",
            "|s| s.trim() != \"\"",
            "|s| **s == *WORD",
            "|(i, s)| i % 2 == 0 && !s.is_empty()",
            "|&(_, n)| n > 1",
        ] {
            assert!(reading(&expr(function), &mut Vec::new()), "{function}");
        }
        for function in [
            "|l| keep(l)",
            "|l| { n += 1; true }",
            "|l| l.chars().all(char::is_alphabetic)",
            "|l| l.len() > self.min",
        ] {
            assert!(!reading(&expr(function), &mut Vec::new()), "{function}");
        }
        // The locals a function reads go to `arguments`, its parameter does not.
        let mut arguments = Vec::new();
        assert!(reading(&expr("|w| w.len() > min"), &mut arguments));
        assert_eq!(arguments, ["min"]);
        assert!(reading(
            &expr("|(i, w)| i < &at && w.len() > min"),
            &mut arguments
        ));
        assert_eq!(arguments, ["min", "at", "min"]);
    }
}

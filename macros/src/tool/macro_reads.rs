//! Which names a macro call inside the body may read. Its tokens are not Rust until it expands,
//! so this over-approximates, but not where the shape is well known: a named argument
//! (`format!("{n}", n = p.name)`, `tracing::info!(name = %p.name)`) reads only its value, a
//! field or path segment (`p.name`, `a::name`) is not a read, and `matches!` binds the names
//! of its pattern rather than reading them.

use std::collections::BTreeSet;

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::{
    Expr, Pat, Token,
    parse::{ParseStream, Parser},
};

use super::syntax::{macro_items, names_in_expr, pattern_bindings};

/// The names a macro call may read. A macro called by a bare name counts as a read of that
/// name too: a `macro_rules!` of the body reads what its transcribers name, as a re-created
/// closure reads what it captures (see `syntax::captures_in`).
pub(crate) fn macro_names(mac: &syn::Macro) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    if let Some(name) = mac.path.get_ident() {
        names.insert(name.to_string());
    }
    if mac.path.is_ident("matches")
        && let Ok(read) = (|input: ParseStream| matches_reads(input)).parse2(mac.tokens.clone())
    {
        names.extend(read);
        return names;
    }
    match macro_items(mac) {
        Some(args) => {
            let mut captures = BTreeSet::new();
            let mut named = BTreeSet::new();
            for arg in &args {
                let arg = match named_value(arg) {
                    Some((name, value)) => {
                        named.insert(name);
                        value
                    }
                    None => arg,
                };
                if let Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) = arg
                {
                    format_captures(&format!("{:?}", text.value()), &mut captures);
                }
                names.extend(names_in_expr(arg));
            }
            // `{name}` in a format string is the argument `name = ..` when there is one.
            names.extend(captures.difference(&named).cloned());
        }
        None => names_in_tokens(mac.tokens.clone(), &mut names),
    }
    names
}

/// What the transcribers of a `macro_rules!` definition name, but its metavariables (`$v`).
pub(crate) fn macro_rules_reads(mac: &syn::Macro) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let tokens: Vec<TokenTree> = mac.tokens.clone().into_iter().collect();
    for pair in tokens.windows(2) {
        if let [TokenTree::Punct(arrow), TokenTree::Group(transcriber)] = pair
            && arrow.as_char() == '>'
        {
            names_in_tokens(transcriber.stream(), &mut names);
        }
    }
    names
}

/// `name = value` as a macro argument names the value, or writes it: either way only the
/// value is read.
fn named_value(arg: &Expr) -> Option<(String, &Expr)> {
    let Expr::Assign(assign) = arg else {
        return None;
    };
    let Expr::Path(path) = &*assign.left else {
        return None;
    };
    Some((path.path.get_ident()?.to_string(), &assign.right))
}

/// `matches!(scrutinee, pattern if guard)`: the scrutinee and the guard read; the pattern binds.
fn matches_reads(input: ParseStream) -> syn::Result<BTreeSet<String>> {
    let scrutinee: Expr = input.parse()?;
    input.parse::<Token![,]>()?;
    let pattern = Pat::parse_multi_with_leading_vert(input)?;
    let mut names = names_in_expr(&scrutinee);
    if input.peek(Token![if]) {
        input.parse::<Token![if]>()?;
        let guard: Expr = input.parse()?;
        let mut read = names_in_expr(&guard);
        for bound in pattern_bindings(&pattern) {
            read.remove(&bound.ident.to_string());
        }
        names.extend(read);
    }
    input.parse::<Option<Token![,]>>()?;
    Ok(names)
}

/// Every identifier in tokens that do not parse as expressions, but for field names and path
/// segments (after `.` or `::`) and names given a value (`name = ..`, not `==` or `=>`).
fn names_in_tokens(tokens: TokenStream, out: &mut BTreeSet<String>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let punct = |index: Option<usize>| match index.and_then(|index| tokens.get(index)) {
        Some(TokenTree::Punct(punct)) => Some((punct.as_char(), punct.spacing())),
        _ => None,
    };
    for (index, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Ident(ident) => {
                let before = punct(index.checked_sub(1));
                let before_that = punct(index.checked_sub(2));
                let field = before == Some(('.', Spacing::Alone))
                    && before_that != Some(('.', Spacing::Joint));
                let segment = before == Some((':', Spacing::Alone))
                    && before_that == Some((':', Spacing::Joint));
                let named = punct(Some(index + 1)) == Some(('=', Spacing::Alone));
                let metavariable = before.is_some_and(|(c, _)| c == '$');
                if !field && !segment && !named && !metavariable {
                    out.insert(ident.to_string());
                }
            }
            TokenTree::Group(group) => names_in_tokens(group.stream(), out),
            TokenTree::Literal(literal) => format_captures(&literal.to_string(), out),
            TokenTree::Punct(_) => {}
        }
    }
}

/// `"{name}"`, `"{name:>8}"` and `"{:>width$.prec$}"` in a format string read `name`,
/// `width` and `prec`.
pub(crate) fn format_captures(literal: &str, out: &mut BTreeSet<String>) {
    let is_name = |text: &str| {
        !text.is_empty()
            && !text.starts_with(|c: char| c.is_ascii_digit())
            && text.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let mut rest = literal;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if rest.starts_with('{') {
            rest = &rest[1..];
            continue;
        }
        let close = rest.find('}').unwrap_or(rest.len());
        let field = &rest[..close];
        let (name, spec) = field.split_once(':').unwrap_or((field, ""));
        if is_name(name) {
            out.insert(name.to_owned());
        }
        // `width$` and `prec$` name arguments too.
        for piece in spec.split('$').take(spec.matches('$').count()) {
            let ident: String = piece
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if is_name(&ident) {
                out.insert(ident);
            }
        }
        rest = &rest[close.min(rest.len())..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(mac: TokenStream) -> Vec<String> {
        let mac: syn::Macro = syn::parse2(mac).unwrap();
        macro_names(&mac).into_iter().collect()
    }

    #[test]
    fn named_arguments_read_only_their_values() {
        let read = reads(quote::quote!(format!("{name}", name = p.name)));
        assert_eq!(read, ["format", "p"]);
        let read = reads(quote::quote!(
            tracing::info!(name = %p.name, ?age, "saved {}", x)
        ));
        assert_eq!(read, ["age", "p", "x"]);
    }

    #[test]
    fn fields_and_path_segments_are_not_reads_but_ranges_and_comparisons_are() {
        let read = reads(quote::quote!(odd!(% p.name, a::b, ..c, d == e, f => g)));
        assert_eq!(read, ["a", "c", "d", "e", "f", "g", "odd", "p"]);
    }

    #[test]
    fn matches_binds_its_pattern_and_reads_its_guard() {
        let read = reads(quote::quote!(
            matches!(&p, Person { name, .. } if name.len() > limit)
        ));
        assert_eq!(read, ["limit", "matches", "p"]);
        let read = reads(quote::quote!(matches!(q, Some(1) | None)));
        assert_eq!(read, ["matches", "q"]);
    }

    #[test]
    fn a_macro_rules_reads_what_its_transcribers_name() {
        let item: syn::ItemMacro = syn::parse2(quote::quote!(
            macro_rules! show {
                () => {
                    format!("s={}", secret)
                };
                ($v:ident) => {
                    $v + offset
                };
            }
        ))
        .unwrap();
        let read: Vec<String> = macro_rules_reads(&item.mac).into_iter().collect();
        assert_eq!(read, ["format", "offset", "secret"]);
    }
}

//! Stage 1: read the attribute arguments and the function, and check its shape.

use proc_macro2::TokenStream;
use syn::{FnArg, ImplItemFn, LitStr, Pat, ReturnType, Type, spanned::Spanned};

use super::Kind;
use crate::diagnostics::Diagnostics;

/// The function as written, plus what the attribute said.
pub(crate) struct ToolFn {
    pub(crate) item: ImplItemFn,
    /// `#[mrtr_tool(version = "..")]`: pins the layout fingerprint across edits.
    pub(crate) version: Option<LitStr>,
    /// `#[mrtr_tool(replay = "allow")]`: a state may open more than once.
    pub(crate) replay_allowed: bool,
    /// `#[mrtr_tool(task = "optional" | "required")]`: the tool may run as a task.
    pub(crate) task: Option<TaskMode>,
}

/// How a tool runs as a task.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskMode {
    Optional,
    Required,
}

const ARGUMENTS: &str = "the arguments are `version = \"..\"`, which keeps states valid across \
                         edits that do not change what is held across an ask, \
                         `replay = \"allow\"`, which lets a read-only tool's states open more \
                         than once, and `task = \"optional\"` or `task = \"required\"`, which \
                         lets a tool run as a task";

pub(crate) fn parse(
    kind: Kind,
    attr: TokenStream,
    item: TokenStream,
    diagnostics: &mut Diagnostics,
) -> Option<ToolFn> {
    let mut version = None;
    let mut replay_allowed = false;
    let mut task = None;
    let mut seen: Vec<String> = Vec::new();
    let attribute = kind.attribute().trim_end_matches(']');
    // `name = "value"`, said in full when it is written otherwise.
    let string_value = |meta: &syn::meta::ParseNestedMeta, example: &str| {
        let name = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        let expected = |span| {
            let message =
                format!("`{name}` takes a string: `{attribute}({name} = \"{example}\")]`");
            syn::Error::new(span, message)
        };
        if !meta.input.peek(syn::Token![=]) {
            return Err(expected(meta.path.span()));
        }
        meta.value()?
            .parse::<LitStr>()
            .map_err(|error| expected(error.span()))
    };
    let positional = match attr.clone().into_iter().next() {
        Some(proc_macro2::TokenTree::Literal(literal)) => Some(literal),
        _ => None,
    };
    let parser = syn::meta::parser(|meta| {
        if let Some(name) = meta.path.get_ident().map(ToString::to_string) {
            if seen.contains(&name) {
                return Err(meta.error(format!("`{name}` is given twice: keep one")));
            }
            seen.push(name);
        }
        if meta.path.is_ident("version") {
            let value = string_value(&meta, "2")?;
            if value.value().trim().is_empty() {
                return Err(syn::Error::new(
                    value.span(),
                    format!(
                        "`version` names the layout of the tool's states, so it is not empty: \
                         `{attribute}(version = \"2\")]`, or leave it out"
                    ),
                ));
            }
            version = Some(value);
            Ok(())
        } else if meta.path.is_ident("replay") {
            let value = string_value(&meta, "allow")?;
            replay_allowed = match value.value().as_str() {
                "allow" => true,
                "once" => false,
                _ => {
                    return Err(syn::Error::new_spanned(
                        &value,
                        format!(
                            "`replay` is `\"once\"` (the default: each state runs its round \
                             once) or `\"allow\"` (for a read-only tool): `{}(replay = \"allow\")]`",
                            kind.attribute().trim_end_matches(']')
                        ),
                    ));
                }
            };
            Ok(())
        } else if meta.path.is_ident("task") {
            if kind != Kind::Tool {
                return Err(meta.error(format!(
                    "only a tool can run as a task: `task` goes on `#[mrtr_tool]`, not on \
                     `{attribute}]`"
                )));
            }
            let value = string_value(&meta, "optional")?;
            task = Some(match value.value().as_str() {
                "optional" => TaskMode::Optional,
                "required" => TaskMode::Required,
                _ => {
                    return Err(syn::Error::new_spanned(
                        &value,
                        format!(
                            "`task` is `\"optional\"` (a task for a client that supports \
                             tasks, a plain call for others) or `\"required\"` (only as a \
                             task): `{attribute}(task = \"optional\")]`"
                        ),
                    ));
                }
            });
            Ok(())
        } else if meta.path.is_ident("name") || meta.path.is_ident("description") {
            let what = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            let home = match kind.rmcp_attribute() {
                Some(rmcp) => format!("set it in `#[{rmcp}({what} = \"..\")]`"),
                None => {
                    "the resource's listing (`ServerHandler::list_resources`) says it".to_owned()
                }
            };
            Err(meta.error(format!(
                "`{what}` belongs to rmcp, not to `{}`: {home}; {ARGUMENTS}",
                kind.attribute()
            )))
        } else {
            Err(meta.error(format!(
                "unknown `{}` argument; {ARGUMENTS}",
                kind.attribute()
            )))
        }
    });
    if let Some(literal) = positional {
        drop(parser);
        diagnostics.error(
            &literal,
            format!(
                "the arguments of `{attribute}]` are named: `{attribute}(version = \"2\")]`; \
                 {ARGUMENTS}"
            ),
        );
    } else if let Err(error) = syn::parse::Parser::parse2(parser, attr) {
        diagnostics.push(error);
    }

    let mut item = match syn::parse2::<ImplItemFn>(without_needless_raw(item)) {
        Ok(item) => item,
        Err(error) => {
            diagnostics.push(syn::Error::new(
                error.span(),
                format!(
                    "`{}` goes on an `async fn` method inside an impl",
                    kind.attribute()
                ),
            ));
            return None;
        }
    };
    let again = [Kind::Tool, Kind::Prompt, Kind::Resource]
        .into_iter()
        .find_map(|other| {
            let name = other
                .attribute()
                .trim_start_matches("#[")
                .trim_end_matches(']');
            item.attrs
                .iter()
                .find(|attr| attr.path().segments.last().is_some_and(|s| s.ident == name))
                .map(|attr| (attr, other))
        });
    if let Some((attr, other)) = again {
        let message = match other == kind {
            true => format!("`{attribute}]` is written twice on this function: keep one"),
            false => format!(
                "this function has both `{attribute}]` and `{}`: keep the one for what it \
                 answers",
                other.attribute()
            ),
        };
        diagnostics.error(attr, message);
        return None;
    }
    check_signature(kind, &item, diagnostics);
    refuse_instrument_err(kind, &mut item, diagnostics);
    Some(ToolFn {
        item,
        version,
        replay_allowed,
        task,
    })
}

fn check_signature(kind: Kind, item: &ImplItemFn, diagnostics: &mut Diagnostics) {
    let sig = &item.sig;
    let attribute = kind.attribute();
    if sig.asyncness.is_none() {
        match kind.rmcp_attribute() {
            // Reported on the attribute itself: that is the line to move.
            Some(rmcp) if looks_expanded_by_rmcp(item) => diagnostics.error_at(
                proc_macro2::Span::call_site(),
                format!(
                    "`{attribute}` must come before `#[{rmcp}(...)]`: rmcp's `#[{rmcp}]` already \
                     rewrote this function. Write `{attribute}` on the line above `#[{rmcp}(...)]`"
                ),
            ),
            _ => diagnostics.error(
                sig.fn_token,
                format!(
                    "`{attribute}` needs an `async fn`: write `async fn` (it waits for the client \
                     between rounds)"
                ),
            ),
        }
        return;
    }
    if expanded_by_tracing(item) {
        let below = kind
            .rmcp_attribute()
            .map_or(String::new(), |rmcp| format!(" and `#[{rmcp}(...)]`"));
        diagnostics.error_at(
            proc_macro2::Span::call_site(),
            format!(
                "`#[tracing::instrument]` above `{attribute}` already moved the body into an async \
                 block, where an `ask!` cannot resume. Write it below: between `{attribute}`{below}"
            ),
        );
        return;
    }
    let has_receiver = matches!(sig.inputs.first(), Some(FnArg::Receiver(_)));
    let rmcp_attr_missing = kind
        .rmcp_attribute()
        .filter(|_| !item.attrs.iter().any(|attr| kind.is_rmcp_attribute(attr)));
    // No `self` and no rmcp attribute: most likely a free function.
    if let (false, Some(rmcp)) = (has_receiver, rmcp_attr_missing) {
        diagnostics.error(
            &sig.ident,
            format!(
                "`{attribute}` goes on a method of your server, in its `#[{rmcp}_router]` impl: \
                 `{attribute}` then `#[{rmcp}(description = \"..\")]` above \
                 `async fn {}(&self, ..)`",
                sig.ident
            ),
        );
        return;
    }
    if let Some(rmcp) = kind.rmcp_attribute() {
        // Under rmcp's attribute of the other kind, the mrtr attribute is the one to change.
        let meant = [Kind::Tool, Kind::Prompt]
            .into_iter()
            .filter(|other| *other != kind)
            .find(|other| item.attrs.iter().any(|attr| other.is_rmcp_attribute(attr)));
        if let Some(meant) = meant {
            let other = meant.rmcp_attribute().unwrap_or_default();
            diagnostics.error(
                &sig.ident,
                format!(
                    "`{attribute}` goes with rmcp's `#[{rmcp}]`, but this function has \
                     `#[{other}]`: write `{}` above it instead",
                    meant.attribute()
                ),
            );
        } else if rmcp_attr_missing.is_some() {
            diagnostics.error(
                &sig.ident,
                format!(
                    "`{attribute}` works with rmcp's `#[{rmcp}]`: add `#[{rmcp}(description = \
                     \"..\")]` on the line below `{attribute}`"
                ),
            );
        }
    }
    match sig.inputs.first() {
        Some(FnArg::Receiver(receiver))
            if receiver.reference.is_some() && receiver.mutability.is_none() => {}
        Some(FnArg::Receiver(receiver)) if receiver.reference.is_some() => diagnostics.error(
            receiver,
            format!(
                "a `{attribute}` method takes `&self`, not `&mut self`: rmcp shares the server \
                 between calls, so keep mutable state behind a `Mutex`"
            ),
        ),
        Some(FnArg::Receiver(receiver)) => diagnostics.error(
            receiver,
            format!(
                "a `{attribute}` method takes `&self`, the way rmcp calls it on a shared \
                 server: write `&self` here"
            ),
        ),
        _ => diagnostics.error(
            &sig.ident,
            format!("a `{attribute}` method takes `&self` first: `async fn name(&self, ..)`"),
        ),
    }
    for input in sig.inputs.iter().skip(1) {
        let FnArg::Typed(arg) = input else { continue };
        if contains_impl_trait(&arg.ty) {
            diagnostics.error(
                &arg.ty,
                format!(
                    "a `{attribute}` parameter cannot be `impl Trait`: rmcp extracts each \
                     parameter by type, so name a concrete type such as `Parameters<Args>`"
                ),
            );
        }
        if let Some(mutable) = mutable_binding(&arg.pat) {
            diagnostics.error_at(
                mutable,
                format!(
                    "parameters of a `{attribute}` cannot be `mut`: the client sends them again \
                     on every round, so changes would be lost. Copy into a local instead: \
                     `let mut value = value;`"
                ),
            );
        }
    }
    if kind == Kind::Resource {
        check_resource_params(item, diagnostics);
    }
    if !sig.generics.params.is_empty() {
        let only_lifetimes = sig
            .generics
            .params
            .iter()
            .all(|param| matches!(param, syn::GenericParam::Lifetime(_)));
        let message = if only_lifetimes {
            format!(
                "a `{attribute}` method takes no lifetime parameters: remove `<{}>` and write \
                 `&self`; a parameter that borrows cannot come from the client",
                sig.generics
                    .lifetimes()
                    .map(|param| param.lifetime.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            format!(
                "a `{attribute}` method cannot be generic: its state layout must be fixed. Use \
                 concrete types"
            )
        };
        diagnostics.error(&sig.generics, message);
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && contains_impl_trait(ty)
    {
        diagnostics.error(
            ty,
            format!(
                "a `{attribute}` method cannot return `impl Trait`: name the result type, such as \
                 `Result<CallToolResult, String>`"
            ),
        );
    }
}

/// A resource reader takes the request and its context, by exactly those names.
fn check_resource_params(item: &ImplItemFn, diagnostics: &mut Diagnostics) {
    let names: Vec<String> = item
        .sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            FnArg::Typed(arg) => match &*arg.pat {
                Pat::Ident(ident) => Some(ident.ident.to_string()),
                _ => None,
            },
            FnArg::Receiver(_) => None,
        })
        .collect();
    if names != ["request", "context"] {
        diagnostics.error(
            &item.sig.inputs,
            "a `#[mrtr_resource]` method takes `(&self, request: ReadResourceRequestParams, \
             context: RequestContext<RoleServer>)`, the arguments of \
             `ServerHandler::read_resource`, named exactly `request` and `context`",
        );
    }
}

/// rmcp's `#[tool]` turns `async fn f() -> R { body }` into
/// `fn f() -> Pin<Box<dyn Future<Output = R> + Send + '_>> { Box::pin(async move { body }) }`.
fn looks_expanded_by_rmcp(item: &ImplItemFn) -> bool {
    let returns_pinned_future = match &item.sig.output {
        ReturnType::Type(_, ty) => quote::quote!(#ty).to_string().contains("Future"),
        ReturnType::Default => false,
    };
    let body_is_pinned_async = match item.block.stmts.as_slice() {
        [syn::Stmt::Expr(syn::Expr::Call(call), None)] => {
            let pins = matches!(&*call.func, syn::Expr::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "pin"));
            pins && matches!(call.args.first(), Some(syn::Expr::Async(_)))
        }
        _ => false,
    };
    returns_pinned_future && body_is_pinned_async
}

/// `err` of a `#[tracing::instrument(..)]` below the attribute: tracing matches the function's
/// value as a `Result`, but the function now returns an `Outcome`. Reported at `err`, and taken
/// out of the attribute so that the rest still expands.
fn refuse_instrument_err(kind: Kind, item: &mut ImplItemFn, diagnostics: &mut Diagnostics) {
    use proc_macro2::{TokenStream, TokenTree};
    for attr in &mut item.attrs {
        let names_instrument = |path: &syn::Path| {
            path.segments
                .last()
                .is_some_and(|segment| segment.ident == "instrument")
        };
        let syn::Meta::List(list) = &mut attr.meta else {
            continue;
        };
        if !names_instrument(&list.path) {
            continue;
        }
        // Top-level arguments, split at commas.
        let mut arguments: Vec<Vec<TokenTree>> = vec![Vec::new()];
        for token in list.tokens.clone() {
            match &token {
                TokenTree::Punct(punct) if punct.as_char() == ',' => arguments.push(Vec::new()),
                _ => arguments.last_mut().expect("one at least").push(token),
            }
        }
        let is_err = |argument: &[TokenTree]| {
            matches!(argument.first(), Some(TokenTree::Ident(ident)) if ident == "err")
                && argument.len() <= 2
        };
        let Some(err) = arguments.iter().find(|argument| is_err(argument)) else {
            continue;
        };
        diagnostics.error_at(
            err[0].span(),
            format!(
                "`err` of `#[tracing::instrument]` reads the function's `Result`, but `{}` turns \
                 the function into rounds that return `mrtr::Outcome`. Remove `err`, and log the \
                 error where the function returns it: \
                 `.inspect_err(|error| tracing::error!(%error))?`",
                kind.attribute()
            ),
        );
        let kept: Vec<TokenStream> = arguments
            .into_iter()
            .filter(|argument| !argument.is_empty() && !is_err(argument))
            .map(TokenStream::from_iter)
            .collect();
        list.tokens = quote::quote!(#(#kept),*);
    }
}

/// `#[tracing::instrument]` on an `async fn` moves the body into an async block beside a local
/// of this name.
fn expanded_by_tracing(item: &ImplItemFn) -> bool {
    fn names_span(tokens: proc_macro2::TokenStream) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => ident == "__tracing_attr_span",
            proc_macro2::TokenTree::Group(group) => names_span(group.stream()),
            _ => false,
        })
    }
    names_span(quote::ToTokens::to_token_stream(&item.block))
}

fn contains_impl_trait(ty: &Type) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    syn::visit::Visit::visit_type(&mut finder, ty);
    finder.0
}

fn mutable_binding(pat: &Pat) -> Option<proc_macro2::Span> {
    super::syntax::pattern_bindings(pat)
        .into_iter()
        .find(|binding| binding.mutable)
        .map(|binding| binding.ident.span())
        .or_else(|| match pat {
            Pat::Ident(p) => p.mutability.map(|m| m.span()),
            _ => None,
        })
}

/// Every keyword and reserved word of any edition (syn's list, and `gen` of 2024, which syn's
/// leaves out): their raw forms stay raw.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// `r#name` as `name` wherever `name` is no keyword, so that the later stages, which compare
/// names as text, see one name where Rust sees one (`let r#kind = ..; kind`). A keyword's raw
/// form (`r#type`) is the only way to write it, so it stays.
fn without_needless_raw(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    use syn::ext::IdentExt as _;
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(group) => {
                let mut plain = Group::new(group.delimiter(), without_needless_raw(group.stream()));
                plain.set_span(group.span());
                TokenTree::Group(plain)
            }
            TokenTree::Ident(ident) if ident.to_string().starts_with("r#") => {
                let name = ident.unraw();
                match KEYWORDS.contains(&name.to_string().as_str()) {
                    true => TokenTree::Ident(ident),
                    false => TokenTree::Ident(name),
                }
            }
            other => other,
        })
        .collect()
}

//! Stage 1: read the attribute arguments and the function, and check its shape.

use proc_macro2::TokenStream;
use syn::{FnArg, ImplItemFn, LitStr, Pat, ReturnType, Type, spanned::Spanned};

use crate::diagnostics::Diagnostics;

/// The function as written, plus what the attribute said.
pub(crate) struct ToolFn {
    pub(crate) item: ImplItemFn,
    /// `#[mrtr_tool(version = "..")]`: pins the layout fingerprint across edits.
    pub(crate) version: Option<LitStr>,
}

pub(crate) fn parse(
    attr: TokenStream,
    item: TokenStream,
    diagnostics: &mut Diagnostics,
) -> Option<ToolFn> {
    let mut version = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("version") {
            version = Some(meta.value()?.parse::<LitStr>()?);
            Ok(())
        } else {
            Err(meta.error(
                "unknown `#[mrtr_tool]` argument; the only one is `version = \"..\"`, which keeps \
                 states valid across edits that do not change what is held across an ask",
            ))
        }
    });
    if let Err(error) = syn::parse::Parser::parse2(parser, attr) {
        diagnostics.push(error);
    }

    let item = match syn::parse2::<ImplItemFn>(item) {
        Ok(item) => item,
        Err(error) => {
            diagnostics.push(syn::Error::new(
                error.span(),
                "`#[mrtr_tool]` goes on an `async fn` tool method inside a `#[tool_router]` impl",
            ));
            return None;
        }
    };
    check_signature(&item, diagnostics);
    Some(ToolFn { item, version })
}

fn check_signature(item: &ImplItemFn, diagnostics: &mut Diagnostics) {
    let sig = &item.sig;
    if sig.asyncness.is_none() {
        if looks_expanded_by_rmcp_tool(item) {
            diagnostics.error(
                &sig.ident,
                "`#[mrtr_tool]` must come before `#[tool(...)]`: rmcp's `#[tool]` already \
                 rewrote this function. Write `#[mrtr_tool]` on the line above `#[tool(...)]`",
            );
        } else {
            diagnostics.error(
                sig.fn_token,
                "`#[mrtr_tool]` needs an `async fn`: write `async fn` (the tool waits for the \
                 client between rounds)",
            );
        }
        return;
    }
    let has_tool_attr = item.attrs.iter().any(|attr| {
        attr.path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "tool")
    });
    if !has_tool_attr {
        diagnostics.error(
            &sig.ident,
            "`#[mrtr_tool]` works with rmcp's tool macros: add `#[tool(description = \"..\")]` \
             on the line below `#[mrtr_tool]`",
        );
    }
    match sig.inputs.first() {
        Some(FnArg::Receiver(receiver))
            if receiver.reference.is_some() && receiver.mutability.is_none() => {}
        Some(FnArg::Receiver(receiver)) => diagnostics.error(
            receiver,
            "a tool method takes `&self`: rmcp shares the server between calls",
        ),
        _ => diagnostics.error(
            &sig.ident,
            "a `#[mrtr_tool]` method takes `&self` first: `async fn name(&self, ..)`",
        ),
    }
    for input in sig.inputs.iter().skip(1) {
        let FnArg::Typed(arg) = input else { continue };
        if contains_impl_trait(&arg.ty) {
            diagnostics.error(
                &arg.ty,
                "a `#[mrtr_tool]` parameter cannot be `impl Trait`: rmcp extracts each parameter \
                 by type, so name a concrete type such as `Parameters<Args>`",
            );
        }
        if let Some(mutable) = mutable_binding(&arg.pat) {
            diagnostics.error(
                mutable,
                "parameters of a `#[mrtr_tool]` cannot be `mut`: the client sends them again on \
                 every round, so changes would be lost. Copy into a local instead: \
                 `let mut value = value;`",
            );
        }
    }
    if !sig.generics.params.is_empty() {
        diagnostics.error(
            &sig.generics,
            "a `#[mrtr_tool]` method cannot be generic: its state layout must be fixed. Use \
             concrete types",
        );
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && contains_impl_trait(ty)
    {
        diagnostics.error(
            ty,
            "a `#[mrtr_tool]` method cannot return `impl Trait`: name the result type, such as \
             `Result<CallToolResult, String>`",
        );
    }
}

/// rmcp's `#[tool]` turns `async fn f() -> R { body }` into
/// `fn f() -> Pin<Box<dyn Future<Output = R> + Send + '_>> { Box::pin(async move { body }) }`.
fn looks_expanded_by_rmcp_tool(item: &ImplItemFn) -> bool {
    let returns_pinned_future = match &item.sig.output {
        ReturnType::Type(_, ty) => quote::quote!(#ty).to_string().contains("Future"),
        ReturnType::Default => false,
    };
    let body = quote::quote!(#item).to_string();
    returns_pinned_future && body.contains("Box :: pin (async move")
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

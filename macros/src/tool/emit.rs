//! Stage 4: write the final method. It keeps the user's attributes and parameters, takes the
//! round's context as an extra first parameter, returns `Outcome<R>` and drives the lowered body.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::{
    Attribute, Block, Ident, ImplItemFn, ReturnType, Type, parse_quote, parse_quote_spanned,
    spanned::Spanned,
};

use super::parse::ToolFn;

pub(crate) struct Emit<'a> {
    pub(crate) tool: &'a ToolFn,
    pub(crate) body: Block,
    pub(crate) asks: u32,
    pub(crate) machine: Ident,
}

pub(crate) fn emit(emit: Emit<'_>) -> TokenStream {
    let Emit {
        tool,
        body,
        asks,
        machine,
    } = emit;
    let mut item: ImplItemFn = tool.item.clone();
    let fingerprint = fingerprint(tool);
    let round = Ident::new("__mrtr_round", Span::mixed_site());
    let layout = Ident::new("__MRTR_LAYOUT", Span::mixed_site());
    let error = Ident::new("__error", Span::mixed_site());

    let result_type: Type = match &item.sig.output {
        ReturnType::Default => parse_quote!(()),
        ReturnType::Type(_, ty) => (**ty).clone(),
    };
    inject_output_schema(&mut item.attrs, &result_type);
    item.sig.output = parse_quote!(-> ::mrtr::Outcome<#result_type>);
    item.sig
        .inputs
        .insert(1, parse_quote!(#round: ::mrtr::__private::Round));

    let fn_name = &item.sig.ident;
    let server_check = quote_spanned! {fn_name.span()=>
        let _ = ::mrtr::__private::assert_server(self);
    };
    let statements = &body.stmts;
    let new_body: Block = parse_quote! {{
        const #layout: ::mrtr::__private::Layout = ::mrtr::__private::Layout {
            fingerprint: #fingerprint,
            asks: #asks,
        };
        #server_check
        let #machine = match ::mrtr::__private::Machine::start(&#layout, #round) {
            ::core::result::Result::Ok(machine) => machine,
            ::core::result::Result::Err(#error) => return ::mrtr::Outcome::Failed(#error),
        };
        let #machine = &#machine;
        #machine.drive(async move { #(#statements)* }).await
    }};
    item.block = new_body;
    item.into_token_stream()
}

/// FNV-1a over the function's signature and body tokens, or over the explicit `version`.
fn fingerprint(tool: &ToolFn) -> proc_macro2::Literal {
    let source = match &tool.version {
        Some(version) => format!("version:{}", version.value()),
        None => {
            let sig = &tool.item.sig;
            let block = &tool.item.block;
            quote!(#sig #block).to_string()
        }
    };
    let hash = source.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    proc_macro2::Literal::u64_suffixed(hash)
}

/// rmcp's `#[tool]` derives `outputSchema` from a `Json<T>` return type, which it no longer sees
/// once the return type is `Outcome<..>`. Pass it explicitly unless the user did.
fn inject_output_schema(attrs: &mut [Attribute], result: &Type) {
    let Some(inner) = json_inner(result) else {
        return;
    };
    for attr in attrs.iter_mut() {
        if attr
            .path()
            .segments
            .last()
            .is_none_or(|s| s.ident != "tool")
        {
            continue;
        }
        let schema = quote! {
            output_schema = ::mrtr::__private::rmcp::handler::server::tool::schema_for_output::<#inner>()
        };
        match &mut attr.meta {
            syn::Meta::List(list) => {
                if list.tokens.to_string().contains("output_schema") {
                    return;
                }
                let existing = &list.tokens;
                list.tokens = if existing.is_empty() {
                    schema
                } else {
                    quote!(#existing, #schema)
                };
            }
            syn::Meta::Path(path) => {
                let path = path.clone();
                *attr = parse_quote!(#[#path(#schema)]);
            }
            syn::Meta::NameValue(_) => {}
        }
        return;
    }
}

/// `T` in `Json<T>` or `Result<Json<T>, E>`.
fn json_inner(ty: &Type) -> Option<Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let syn::GenericArgument::Type(first) = args.args.first()? else {
        return None;
    };
    match last.ident.to_string().as_str() {
        "Json" => Some(first.clone()),
        "Result" => json_inner(first),
        _ => None,
    }
}

/// The fallback when the function has errors: the original method, with each `ask!` replaced by
/// a typed placeholder, so that IDEs still see the tool's types next to the errors.
pub(crate) fn best_effort(item: &ImplItemFn) -> TokenStream {
    struct Placeholder;
    impl syn::visit_mut::VisitMut for Placeholder {
        fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
            if let syn::Expr::Macro(mac) = expr
                && super::syntax::is_ask_macro(&mac.mac.path)
            {
                let tokens = &mac.mac.tokens;
                *expr = parse_quote_spanned!(mac.span()=> ::mrtr::__private::placeholder_answer!(#tokens));
                return;
            }
            syn::visit_mut::visit_expr_mut(self, expr);
        }

        fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
            if let syn::Stmt::Macro(mac) = stmt
                && super::syntax::is_ask_macro(&mac.mac.path)
            {
                let tokens = &mac.mac.tokens;
                *stmt = parse_quote_spanned!(mac.span()=> ::mrtr::__private::placeholder_answer!(#tokens););
                return;
            }
            syn::visit_mut::visit_stmt_mut(self, stmt);
        }
    }
    let mut item = item.clone();
    syn::visit_mut::VisitMut::visit_block_mut(&mut Placeholder, &mut item.block);
    item.into_token_stream()
}

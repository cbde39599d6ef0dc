//! Stage 4: write the final method. It keeps the user's attributes and parameters, takes the
//! round's context as an extra first parameter, returns `Outcome<R>` and runs the lowered body.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::ext::IdentExt as _;
use syn::{Attribute, Block, Ident, ImplItemFn, ReturnType, Type, parse_quote, spanned::Spanned};

use super::{
    Kind, idents,
    parse::{TaskMode, ToolFn},
};

pub(crate) struct Emit<'a> {
    pub(crate) kind: Kind,
    pub(crate) tool: &'a ToolFn,
    pub(crate) body: Block,
    pub(crate) asks: u32,
    /// See `fingerprint`.
    pub(crate) fingerprint: u64,
    pub(crate) machine: Ident,
    /// The Mermaid flowchart of the ask points.
    pub(crate) flow: String,
    /// Whether the body marks where its task starts, `ask!(start_task())`.
    pub(crate) task_start_marked: bool,
}

pub(crate) fn emit(emit: Emit<'_>) -> TokenStream {
    let Emit {
        kind,
        tool,
        body,
        asks,
        fingerprint,
        machine,
        flow,
        task_start_marked,
    } = emit;
    let mut item: ImplItemFn = tool.item.clone();
    let fingerprint = proc_macro2::Literal::u64_suffixed(fingerprint);
    let round = idents::round();
    let layout = idents::layout();
    let error = idents::error();
    let pinned_body = idents::body();

    let result_type: Type = match &item.sig.output {
        ReturnType::Default => parse_quote!(()),
        ReturnType::Type(_, ty) => (**ty).clone(),
    };
    match kind {
        Kind::Tool | Kind::Prompt => {
            if kind == Kind::Tool {
                inject_output_schema(&mut item.attrs, &result_type);
            }
            item.sig.output = parse_quote!(-> ::mrtr::Outcome<#result_type>);
            item.sig
                .inputs
                .insert(1, parse_quote!(#round: ::mrtr::__private::Round));
        }
        Kind::Resource => {
            item.sig.output = parse_quote! {
                -> ::core::result::Result<
                    ::mrtr::__private::rmcp::model::ReadResourceResponse,
                    ::mrtr::__private::rmcp::ErrorData,
                >
            };
        }
    }
    // `self` must carry the receiver's own hygiene, which may come from another macro.
    let self_token = match item.sig.inputs.first() {
        Some(syn::FnArg::Receiver(receiver)) => receiver.self_token,
        _ => syn::Token![self](item.sig.ident.span()),
    };
    let fn_name = &item.sig.ident;
    let engine = idents::engine();
    let server_check = quote_spanned! {fn_name.span()=>
        let #engine = ::mrtr::__private::engine_of(#self_token);
    };
    let statements = &body.stmts;
    // A resource's response is made from the result by the same `record` the round ran with.
    let (open_round, wire, into_resource_response) = match kind {
        Kind::Tool => (quote!(), "ToolCall", false),
        Kind::Prompt => (quote!(), "PromptGet", false),
        Kind::Resource => (
            quote! {
                let #round = ::mrtr::__private::Round::for_resource(&request, &context, #engine);
            },
            "ResourceRead",
            true,
        ),
    };
    let single_use = !tool.replay_allowed;
    let task = match tool.task {
        None => quote!(Never),
        Some(TaskMode::Optional) => quote!(Optional),
        Some(TaskMode::Required) => quote!(Required),
    };
    let fail = match kind {
        Kind::Tool | Kind::Prompt => quote!(return ::mrtr::Outcome::Failed(#error)),
        Kind::Resource => quote!(return ::core::result::Result::Err(#error)),
    };
    // At the return type: an error that it cannot be sent points there.
    let at_result = |local: &Ident| {
        Ident::new(
            &local.to_string(),
            proc_macro2::Span::mixed_site().located_at(result_type.span()),
        )
    };
    let (machine_here, body_here) = (at_result(&machine), at_result(&pinned_body));
    let record = at_result(&idents::record());
    let wire = Ident::new(wire, result_type.span());
    let finish = into_resource_response.then(|| quote!(.into_read_resource_response(#record)));
    let run = quote_spanned! {result_type.span()=>
        let #record = <::mrtr::__private::#wire as ::mrtr::__private::Wire<_>>::record;
        #machine_here.run(#record, #body_here).await #finish
    };
    // Typed as the function returns by a first `return` that is never taken: an async block
    // takes its type from the first `return` rustc reads. So a tail or a `return` of another
    // type is rustc's plain "expected `Result`, found `String`" there (with its `Ok(..)` hint),
    // noting the return type, and `?` works meanwhile. (A `let` typed so around the body would
    // type the tail only: a `return` of another type would type the block, with the error at the
    // attribute, and a body that ends in a `loop` would make the `let`'s tail unreachable.) An
    // `impl Trait` cannot be named: then rustc's "should return `Result`" for a `?` points at the
    // return type.
    let body_future = match names_impl_trait(&result_type) {
        false => quote_spanned! {result_type.span()=>
            async move {
                if false {
                    return ::mrtr::__private::returns::<#result_type>();
                }
                #(#statements)*
            }
        },
        true => quote_spanned! {result_type.span()=> async move { #(#statements)* } },
    };
    let new_body: Block = parse_quote! {{
        const #layout: ::mrtr::__private::Layout = ::mrtr::__private::Layout {
            fingerprint: #fingerprint,
            asks: #asks,
            single_use: #single_use,
            task: ::mrtr::__private::TaskSupport::#task,
            task_start_marked: #task_start_marked,
        };
        #server_check
        #open_round
        let #machine = match ::mrtr::__private::Machine::start(&#layout, #round, #engine) {
            ::core::result::Result::Ok(machine) => machine,
            ::core::result::Result::Err(#error) => #fail,
        };
        let #machine = &#machine;
        let #pinned_body = #body_future;
        let #pinned_body = ::core::pin::pin!(#pinned_body);
        #run
    }};
    item.block = new_body;
    let flow_const = flow_const(&item.sig.ident, &flow);
    quote!(#flow_const #item)
}

/// Whether `ty` has an `impl Trait` in it, which a `let` cannot be typed with.
fn names_impl_trait(ty: &Type) -> bool {
    fn has_impl(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|tree| match tree {
            proc_macro2::TokenTree::Ident(ident) => ident == "impl",
            proc_macro2::TokenTree::Group(group) => has_impl(group.stream()),
            _ => false,
        })
    }
    has_impl(quote!(#ty))
}

/// `pub const NAME_FLOW: &str`, the flowchart, with the chart in its docs.
fn flow_const(name: &Ident, flow: &str) -> TokenStream {
    let const_name = Ident::new(
        &format!("{}_FLOW", name.unraw().to_string().to_uppercase()),
        name.span(),
    );
    let summary = format!(
        " Where [`Self::{name}`] asks the client for input, and the control flow between its \
         `ask!` points, as a Mermaid flowchart. Generated by `#[mrtr_tool]`."
    );
    let chart = format!("```mermaid\n{flow}```");
    quote! {
        #[doc = #summary]
        #[doc = ""]
        #[doc = #chart]
        pub const #const_name: &'static str = #flow;
    }
}

/// rmcp's `#[tool]` derives `outputSchema` from a `Json<T>` return type, which it no longer sees
/// once the return type is `Outcome<..>`. Pass it explicitly unless the user did.
fn inject_output_schema(attrs: &mut [Attribute], result: &Type) {
    let Some(inner) = json_inner(result) else {
        return;
    };
    for attr in attrs.iter_mut() {
        if !Kind::Tool.is_rmcp_attribute(attr) {
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

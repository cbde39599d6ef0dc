//! `#[derive(Form)]`: compile-time flatness check for elicitation forms.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Data, DeriveInput, Fields, spanned::Spanned};

pub(crate) fn derive(item: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(item) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return syn::Error::new_spanned(
            &input.generics,
            "a form is one concrete, flat type, so it cannot have generic or lifetime parameters: \
             write one form per kind of answer, with owned fields (`String`, not `&str`)",
        )
        .to_compile_error();
    }
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    match &input.data {
        Data::Struct(data) => {
            let Fields::Named(fields) = &data.fields else {
                return syn::Error::new_spanned(
                    &data.fields,
                    "a form needs named fields, one per property: `struct Profile { name: String }`",
                )
                .to_compile_error();
            };
            // A field serde skips is neither in the schema nor in the answer.
            let checks = fields
                .named
                .iter()
                .filter(|field| !serde_skips(field))
                .map(|field| {
                    let ty = &field.ty;
                    quote_spanned! {ty.span()=> ::mrtr::__private::assert_form_field::<#ty>(); }
                });
            quote! {
                impl #impl_generics ::mrtr::Form for #name #type_generics #where_clause {}
                const _: () = { #(#checks)* };
            }
        }
        Data::Enum(data) => {
            if let Some(variant) = data
                .variants
                .iter()
                .find(|v| !matches!(v.fields, Fields::Unit))
            {
                return syn::Error::new_spanned(
                    &variant.fields,
                    "a form choice is a unit-only enum: remove the data from this variant, or ask \
                     for it in a separate question",
                )
                .to_compile_error();
            }
            quote! {
                impl #impl_generics ::mrtr::FormField for #name #type_generics #where_clause {}
                impl #impl_generics ::mrtr::FormChoice for #name #type_generics #where_clause {}
            }
        }
        Data::Union(data) => syn::Error::new(
            data.union_token.span,
            "a form is a struct with named fields, or a unit-only enum for a choice",
        )
        .to_compile_error(),
    }
}

/// `#[serde(skip)]` or `skip_deserializing`: the field is left out of the answer and of its
/// schema, which describes what is deserialized.
fn serde_skips(field: &syn::Field) -> bool {
    field.attrs.iter().any(|attr| {
        let mut skips = false;
        if attr.path().is_ident("serde") {
            let _ = attr.parse_nested_meta(|meta| {
                skips |= meta.path.is_ident("skip") || meta.path.is_ident("skip_deserializing");
                if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::Expr>()?;
                }
                Ok(())
            });
        }
        skips
    })
}

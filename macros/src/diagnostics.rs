//! Errors that carry the user's span and say how to fix the code.

use proc_macro2::TokenStream;

/// Collects every error of one expansion, so the user sees them all at once.
#[derive(Default)]
pub(crate) struct Diagnostics {
    errors: Vec<syn::Error>,
}

impl Diagnostics {
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    pub(crate) fn error(
        &mut self,
        span: impl syn::spanned::Spanned,
        message: impl std::fmt::Display,
    ) {
        self.push(syn::Error::new(span.span(), message));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    pub(crate) fn into_compile_errors(self) -> TokenStream {
        self.errors
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect()
    }
}

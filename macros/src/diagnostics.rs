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

    /// An error over the whole of `code`, from its first token to its last (on stable Rust a
    /// span cannot be joined, so `new_spanned` is what covers more than the first token).
    pub(crate) fn error(&mut self, code: impl quote::ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(code, message));
    }

    /// An error at one span, where there is no syntax node to cover.
    pub(crate) fn error_at(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// A rewrite of the user's code that no longer parses: a bug in mrtr. Never fall back to
    /// the code as written, whose conditions would then run again on resume: stop, loudly.
    pub(crate) fn reparse<T: syn::parse::Parse>(
        &mut self,
        tokens: TokenStream,
        user_code: impl quote::ToTokens,
        what: &str,
    ) -> Option<T> {
        match syn::parse2(tokens) {
            Ok(parsed) => Some(parsed),
            Err(error) => {
                self.error(
                    user_code,
                    format!(
                        "internal error in mrtr: the rewrite of this {what} does not parse \
                         ({error}). Please report it with this code; until then, move the \
                         `ask!` out of this {what}"
                    ),
                );
                None
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn a_rewrite_that_does_not_parse_is_an_error_not_a_fallback() {
        let mut diagnostics = Diagnostics::default();
        let user_code = quote!(if ready {
            go()
        });
        let parsed: Option<syn::Expr> =
            diagnostics.reparse(quote!(if ready { go() } else), user_code, "`if`");
        assert!(parsed.is_none());
        let errors = diagnostics.into_compile_errors().to_string();
        assert!(errors.contains("internal error in mrtr"), "{errors}");
    }
}

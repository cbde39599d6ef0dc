//! The arguments of `ask!`: `key = question, key = question, ..`, where one question may go
//! without a key and a key is a name or a string. The one parser of them: `analyze` checks and
//! numbers the asks it reads, and the fallback expansion types its placeholders from them.

use syn::{
    Expr, Ident, LitStr, Token,
    parse::{Parse, ParseStream},
};

/// A question's key as written.
#[derive(Clone)]
pub(crate) enum AskKey {
    Name(Ident),
    Text(LitStr),
}

impl AskKey {
    /// The key in `inputRequests`.
    pub(crate) fn text(&self) -> LitStr {
        match self {
            Self::Name(ident) => LitStr::new(&ident.to_string(), ident.span()),
            Self::Text(text) => text.clone(),
        }
    }
}

/// The questions of one `ask!`, as written; checking them is `analyze`'s job.
pub(crate) struct AskArgs {
    pub(crate) questions: Vec<(Option<AskKey>, Expr)>,
}

impl Parse for AskArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut questions = Vec::new();
        while !input.is_empty() {
            let key = if (input.peek(Ident) || input.peek(LitStr))
                && input.peek2(Token![=])
                && !input.peek2(Token![==])
            {
                let key = if input.peek(LitStr) {
                    AskKey::Text(input.parse()?)
                } else {
                    AskKey::Name(input.parse()?)
                };
                input.parse::<Token![=]>()?;
                Some(key)
            } else {
                None
            };
            questions.push((key, input.parse::<Expr>()?));
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(Self { questions })
    }
}

//! What the wizard says to team Rust, for the tests that script its questions by message.

pub const WELCOME: &str = "Welcome to Rust! What should we call you?";
pub const WHICH_PLAN: &str = "Which plan would you like?";
pub const CONFIRM: &str = "Sign Ada up for pro?";
pub const SIGNED_UP: &str = "Signed up Ada to Rust on the pro plan";
pub const WHICH_ROLE: &str = "Which role will you take?";
pub const CONFIRM_ADMIN: &str = "Admins can delete repositories. Continue as admin?";
pub const FIRST_REPO: &str = "Add a repository to watch (0 so far)";
pub const SECOND_REPO: &str = "Add a repository to watch (1 so far)";
pub const NOTIFY_MRTR: &str = "Notifications for mrtr?";
pub const NOTIFY_RMCP: &str = "Notifications for rmcp?";
pub const ONBOARDED: &str = "Onboarded Ada as admin to Rust: mrtr=all, rmcp=mentions";
pub const CANCELLED_AT_NOTIFY: &str = "Onboarding cancelled at notify";

//! What mrtr writes to the server log, and what it must not: strings the client chose are
//! escaped and cut short, answers and saved locals never appear, and refused states are
//! summarized at a bounded rate.

use std::{
    fmt,
    sync::Mutex,
    time::{Duration, SystemTime},
};

/// A string the client chose (a tool name, a resource URI), escaped for the log: control
/// characters, quotes and non-ASCII as `\u{..}` escapes, cut after [`Escaped::MAX_CHARS`].
pub(crate) struct Escaped<'a>(pub(crate) &'a str);

impl Escaped<'_> {
    pub(crate) const MAX_CHARS: usize = 120;
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars().take(Self::MAX_CHARS) {
            match c {
                ' '..='~' if c != '"' && c != '\\' => f.write_fmt(format_args!("{c}"))?,
                _ => f.write_fmt(format_args!("{}", c.escape_unicode()))?,
            }
        }
        if self.0.chars().nth(Self::MAX_CHARS).is_some() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// What the question kinds put before serde's message when an answer does not read; the log
/// keeps them, and redacts what follows.
pub(crate) const FORM_DOES_NOT_FIT: &str = "the form content does not fit: ";
pub(crate) const NOT_AN_ELICIT_RESULT: &str = "not an ElicitResult: ";
pub(crate) const NOT_A_CREATE_MESSAGE_RESULT: &str = "not a CreateMessageResult: ";
pub(crate) const NOT_A_LIST_ROOTS_RESULT: &str = "not a ListRootsResult: ";
/// A question the retry carried no answer to: its key is the tool's, so the log keeps it.
pub(crate) const NO_ANSWER_FOR: &str = "no answer for `";

/// Why an answer did not read, without the answer: serde's messages quote the value they
/// found (`invalid type: string "hunter2", expected u32`), so only their shape is kept.
pub(crate) fn redacted(error: &impl fmt::Display) -> String {
    let message = error.to_string();
    for prefix in [
        FORM_DOES_NOT_FIT,
        NOT_AN_ELICIT_RESULT,
        NOT_A_CREATE_MESSAGE_RESULT,
        NOT_A_LIST_ROOTS_RESULT,
    ] {
        let Some(serde_message) = message.strip_prefix(prefix) else {
            continue;
        };
        // A form's field, named from its schema by `answer_fits::why_unread`.
        let field = serde_message
            .strip_prefix(crate::answer_fits::AT_FIELD)
            .filter(|_| prefix == FORM_DOES_NOT_FIT)
            .and_then(|rest| rest.split_once("`: "));
        return match field {
            Some((field, serde_message)) => format!(
                "{prefix}{}{field}`: {}",
                crate::answer_fits::AT_FIELD,
                redacted_serde(serde_message)
            ),
            None => format!("{prefix}{}", redacted_serde(serde_message)),
        };
    }
    redacted_serde(&message)
}

fn redacted_serde(message: &str) -> String {
    // Written by `answer_fits` from the schema alone.
    if message.starts_with(crate::answer_fits::BROKEN) {
        return message.to_owned();
    }
    if let Some((found, expected)) = message.split_once(", expected ") {
        let kind = found
            .split([':', '`'])
            .next()
            .unwrap_or_default()
            .trim_end();
        return format!("{kind}, expected {expected}");
    }
    for known in ["missing field `", "duplicate field `", NO_ANSWER_FOR] {
        if message.starts_with(known) && message.matches('`').count() == 2 {
            return message.to_owned();
        }
    }
    "malformed".to_owned()
}

/// Refusals (of forged `requestState`s, or of calls while the replay store is full), logged at
/// most once per interval, each line with the count of those refused since the last one. A
/// flood of them cannot flood the log.
pub(crate) struct RefusalLog {
    interval: Duration,
    window: Mutex<Window>,
}

#[derive(Default)]
struct Window {
    last_line: Option<SystemTime>,
    unlogged: u64,
}

impl RefusalLog {
    pub(crate) fn new(interval: Duration) -> Self {
        Self {
            interval,
            window: Mutex::new(Window::default()),
        }
    }

    /// Counts a refusal; logs it with the count if the last line is an interval old.
    pub(crate) fn refused(&self, now: SystemTime, tool: &str, reason: &dyn fmt::Display) {
        let Some(before) = self.due(now) else {
            return;
        };
        tracing::warn!(
            tool = %Escaped(tool),
            %reason,
            refused_since_last_line = before,
            interval = ?self.interval,
            "mrtr: refused requestState"
        );
    }

    /// Counts one refusal: `Some(refusals not logged since the last line)` if a line is due now.
    pub(crate) fn due(&self, now: SystemTime) -> Option<u64> {
        let mut window = self
            .window
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let due = window.last_line.is_none_or(|last| {
            now.duration_since(last)
                .is_ok_and(|since| since >= self.interval)
                || now < last
        });
        if !due {
            window.unlogged += 1;
            return None;
        }
        window.last_line = Some(now);
        Some(std::mem::take(&mut window.unlogged))
    }
}

/// Runs `f` and returns everything it logged, at every level.
#[cfg(test)]
pub(crate) fn captured(f: impl FnOnce()) -> String {
    use std::sync::{Arc, Mutex};
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let sink = Sink::default();
    let writer = sink.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    // While only one subscriber is registered, tracing asks just the calling thread's about a
    // callsite hit for the first time, so another test's thread would mark it unwanted for good.
    // A second one, kept for the whole run, makes it ask every registered subscriber.
    static SECOND: std::sync::OnceLock<tracing::Dispatch> = std::sync::OnceLock::new();
    SECOND.get_or_init(|| tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default()));
    tracing::subscriber::with_default(subscriber, || {
        // A callsite cached as unwanted before this subscriber came is asked again.
        tracing::callsite::rebuild_interest_cache();
        f()
    });
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The race that made a capturing test miss its own line: another thread hits a callsite for
    /// the first time while the capture's subscriber is the only one registered.
    #[test]
    fn a_callsite_first_hit_on_another_thread_while_capturing_is_still_captured() {
        fn warn_once_per_test() {
            tracing::warn!("the line under test");
        }
        let (ready, hit) = (
            std::sync::Arc::new(std::sync::Barrier::new(2)),
            std::sync::Arc::new(std::sync::Barrier::new(2)),
        );
        let other = std::thread::spawn({
            let (ready, hit) = (ready.clone(), hit.clone());
            move || {
                ready.wait();
                warn_once_per_test();
                hit.wait();
            }
        });
        let logs = captured(|| {
            ready.wait();
            hit.wait();
            warn_once_per_test();
        });
        other.join().unwrap();
        assert!(logs.contains("the line under test"), "{logs}");
    }

    #[test]
    fn client_strings_are_escaped_and_cut() {
        let hostile = "tool\n2026-11-30 WARN forged line\u{1b}[31m\"quoted\"";
        let shown = Escaped(hostile).to_string();
        assert!(
            !shown.contains('\n') && !shown.contains('\u{1b}'),
            "{shown}"
        );
        assert!(shown.starts_with("tool\\u{a}2026"), "{shown}");
        assert!(shown.contains("\\u{22}quoted\\u{22}"), "{shown}");
        let long = "x".repeat(1000);
        assert_eq!(
            Escaped(&long).to_string().chars().count(),
            Escaped::MAX_CHARS + 1
        );
    }

    #[test]
    fn serde_errors_lose_the_values_they_quote() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Form {
            age: u32,
            plan: Plan,
        }
        #[derive(Debug, serde::Deserialize)]
        enum Plan {
            Free,
        }
        let read = |value| serde_json::from_value::<Form>(value).unwrap_err();
        let cases = [
            serde_json::json!({"age": "hunter2", "plan": "Free"}),
            serde_json::json!({"age": -7, "plan": "Free"}),
            serde_json::json!({"age": 1, "plan": "hunter2"}),
            serde_json::json!({"age": 1, "plan": "Free", "hunter2": 1}),
            serde_json::json!(["hunter2"]),
            serde_json::json!("hunter2"),
        ];
        for case in cases {
            let shown = redacted(&read(case.clone()));
            assert!(
                !shown.contains("hunter2") && !shown.contains("-7"),
                "{case}: {shown}"
            );
        }
        assert_eq!(
            redacted(&read(serde_json::json!({"age": "x", "plan": "Free"}))),
            "invalid type, expected u32"
        );
        assert_eq!(
            redacted(&read(serde_json::json!({"plan": "Free"}))),
            "missing field `age`"
        );
        // As the question kinds report them, after a prefix of their own.
        let fits = |value| format!("{FORM_DOES_NOT_FIT}{}", read(value));
        assert_eq!(
            redacted(&fits(serde_json::json!({"plan": "Free"}))),
            "the form content does not fit: missing field `age`"
        );
        assert_eq!(
            redacted(&fits(serde_json::json!({"age": "hunter2", "plan": "Free"}))),
            "the form content does not fit: invalid type, expected u32"
        );
        // A question the retry did not answer: the key is the tool's own.
        assert_eq!(
            redacted(&"no answer for `really`"),
            "no answer for `really`"
        );
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    #[test]
    fn refusals_are_logged_once_per_interval_with_a_count() {
        let log = RefusalLog::new(Duration::from_secs(10));
        let at = |seconds: u64| UNIX_EPOCH + Duration::from_secs(1_900_000_000 + seconds);
        let logs = captured(|| {
            for second in 0..25 {
                for _ in 0..1000 {
                    log.refused(at(second), "t", &"forged");
                }
            }
        });
        let lines: Vec<&str> = logs.lines().collect();
        assert_eq!(lines.len(), 3, "{logs}");
        assert!(lines[0].contains("refused_since_last_line=0"), "{logs}");
        // Seconds 0..=9 refused 10,000, of which the first was logged.
        assert!(lines[1].contains("refused_since_last_line=9999"), "{logs}");
        assert!(lines[2].contains("refused_since_last_line=9999"), "{logs}");
    }
}

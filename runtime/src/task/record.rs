//! A task's record, as its store keeps it, and the views the client gets of it.

use std::{collections::BTreeMap, time::SystemTime};

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, DetailedTask, InputRequest, InputRequests,
    InputResponses, JsonObject, Task, TaskPayload, TaskStatus,
};
use serde::{Deserialize, Serialize};

/// Everything about one task, on whichever instance reads it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskRecord {
    pub(crate) status: TaskStatus,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    pub(crate) ttl_ms: u64,
    pub(crate) poll_interval_ms: u64,
    /// Who created the task: no one else sees or touches it.
    pub(crate) principal: Option<String>,
    /// The call the task runs: each round is this call, retried with answers and state.
    pub(crate) call: CallToolRequestParams,
    /// The capabilities the creating request declared; later rounds ask within them.
    pub(crate) capabilities: ClientCapabilities,
    /// How many rounds have asked: the prefix that makes this round's keys new.
    pub(crate) rounds: u32,
    /// The questions not answered yet, by the key the client sees.
    #[serde(default)]
    pub(crate) asked: BTreeMap<String, Asked>,
    /// The answers so far to this round's questions, by the key the tool uses.
    #[serde(default)]
    pub(crate) answers: InputResponses,
    /// The sealed `requestState` of the round that asked (or, while `working`, of the round
    /// running); never sent to the client.
    pub(crate) state: Option<String>,
    /// While `working`: the run of the round, a random token, and until when (Unix ms) it
    /// holds the task unless renewed. With a shared store another instance takes over a task
    /// whose lease lapsed.
    #[serde(default)]
    pub(crate) runner: String,
    #[serde(default)]
    pub(crate) lease_until_ms: u64,
    /// While `input_required`: until when (Unix ms) the state of the round that asked opens.
    /// Past it, no answer can resume the task, so it fails (`expire_input`).
    #[serde(default)]
    pub(crate) answer_by_ms: u64,
    pub(crate) result: Option<JsonObject>,
    pub(crate) error: Option<JsonObject>,
}

/// One outstanding question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Asked {
    /// The key in the tool's own round.
    pub(crate) key: String,
    pub(crate) request: InputRequest,
}

impl TaskRecord {
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        // A record is plain data: serializing it cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// Whether `caller` may see and touch this task: its creator, or anyone when it was
    /// created by no known principal.
    pub(crate) fn is_for(&self, caller: &Option<String>) -> bool {
        self.principal.is_none() || self.principal == *caller
    }

    /// The task's metadata, as `CreateTaskResult` and `tasks/get` carry it.
    pub(crate) fn task(&self, id: &str) -> Task {
        Task::new(id, self.status, &self.created_at, &self.updated_at)
            .with_ttl_ms(self.ttl_ms)
            .with_poll_interval_ms(self.poll_interval_ms)
    }

    /// The task with what its status carries: questions, result or error.
    pub(crate) fn detailed(&self, id: &str) -> DetailedTask {
        let payload = match self.status {
            TaskStatus::InputRequired => TaskPayload::InputRequired {
                input_requests: self
                    .asked
                    .iter()
                    .map(|(key, asked)| (key.clone(), asked.request.clone()))
                    .collect::<InputRequests>(),
            },
            TaskStatus::Completed => TaskPayload::Completed {
                result: self.result.clone().unwrap_or_default(),
            },
            TaskStatus::Failed => TaskPayload::Failed {
                error: self.error.clone().unwrap_or_default(),
            },
            TaskStatus::Cancelled => TaskPayload::Cancelled,
            _ => TaskPayload::Working,
        };
        DetailedTask::new(self.task(id), payload)
    }

    /// Marks the record changed at `now`.
    /// Whether the task waits for input its state no longer lets it take.
    pub(crate) fn waits_too_long(&self, now: SystemTime) -> bool {
        self.status == TaskStatus::InputRequired
            && self.answer_by_ms != 0
            && unix_ms(now) > self.answer_by_ms
    }

    /// Fails a task that waits for input its state no longer lets it take, with `error`.
    /// Whether it did.
    pub(crate) fn expire_input(&mut self, now: SystemTime, error: JsonObject) -> bool {
        let expired = self.waits_too_long(now);
        if expired {
            self.status = TaskStatus::Failed;
            self.error = Some(error);
            self.asked.clear();
            self.answers = InputResponses::new();
            self.state = None;
            self.touch(now);
        }
        expired
    }

    pub(crate) fn touch(&mut self, now: SystemTime) {
        self.updated_at = timestamp(now);
    }

    /// Hands the running round to `runner` until `lease` from `now`.
    pub(crate) fn hold(&mut self, runner: &str, now: SystemTime, lease: std::time::Duration) {
        self.runner = runner.to_owned();
        self.lease_until_ms = unix_ms(now).saturating_add(millis(lease));
    }

    /// Whether a `working` task's runner let its lease lapse: no renewal for a whole lease past
    /// its end, so that instances whose clocks differ by less than a lease agree.
    pub(crate) fn abandoned(&self, now: SystemTime, lease: std::time::Duration) -> bool {
        self.status == TaskStatus::Working
            && unix_ms(now) > self.lease_until_ms.saturating_add(millis(lease))
    }
}

/// `now` in milliseconds since the Unix epoch.
pub(crate) fn unix_ms(now: SystemTime) -> u64 {
    now.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

/// `now` in ISO 8601, UTC, to the millisecond. A time past what the format can write (a test
/// clock thousands of years off) is written as the nearest it can.
pub(crate) fn timestamp(now: SystemTime) -> String {
    use chrono::{DateTime, Utc};
    let millis = match now.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
    };
    let at = DateTime::from_timestamp_millis(millis).unwrap_or(if millis > 0 {
        DateTime::<Utc>::MAX_UTC
    } else {
        DateTime::<Utc>::MIN_UTC
    });
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The key a question of round `round` goes under: unique over the task's life, however
/// often a loop asks under the same key.
pub(crate) fn task_key(round: u32, key: &str) -> String {
    format!("{round}.{key}")
}

pub(crate) fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::timestamp;

    #[test]
    fn timestamps_are_utc_to_the_millisecond_and_never_panic() {
        let at = |millis: u64| UNIX_EPOCH + Duration::from_millis(millis);
        assert_eq!(timestamp(at(0)), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(at(1_795_000_000_123)), "2026-11-18T11:06:40.123Z");
        assert_eq!(
            timestamp(UNIX_EPOCH - Duration::from_millis(1_500)),
            "1969-12-31T23:59:58.500Z"
        );
        // Clocks far outside what the format writes get its ends.
        let far = Duration::from_secs(10_000_000_000_000);
        assert!(timestamp(UNIX_EPOCH + far).starts_with("+262142-12-31T23:59:59.999"));
        assert!(timestamp(UNIX_EPOCH - far).starts_with("-262143-01-01T00:00:00"));
    }
}

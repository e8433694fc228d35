//! Waiting for what the bot sends, not for time: each helper here returns once the fake
//! Discord has received the request or holds the message a test goes on with, and fails with
//! what was awaited after a generous deadline ([`WAIT`]). The bot draws a board image before it
//! answers a move (tens of milliseconds, far more on a loaded machine), so a test that waited
//! for a short quiet spell instead read the channel before the answer came.

use crate::fake::{Fake, Msg, Recorded};
use skymines::chat::Chat;
use skymines::store::Location;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// How long the bot may take to send what a test waits for. Long: it only ends a test that
/// would otherwise hang; a slow machine must not fail one.
pub const WAIT: Duration = Duration::from_secs(60);

/// What `probe` finds, once it finds something (looked for again every 20 ms, for at most
/// [`WAIT`]).
pub async fn eventually<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(found) = probe() {
            return found;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The interaction's answer: the first request with its token that carries the bot's reply (an
/// immediate message or the update of a clicked message, an edit of the deferred message, a
/// follow-up, or the deferred message's removal), not a bare deferral or acknowledgement. The
/// chat has stored what the interaction changed before the bot sends its answer.
pub async fn answered(fake: &Fake, token: &str) -> Recorded {
    fake.wait_for("the interaction's answer", WAIT, |r| {
        r.path.contains(token)
            && !(r.path.ends_with("/callback") && matches!(r.json["type"].as_u64(), Some(5 | 6)))
    })
    .await
}

/// The message with this id once `ready` holds for it.
pub async fn message_when(fake: &Fake, what: &str, id: u64, ready: impl Fn(&Msg) -> bool) -> Msg {
    eventually(what, || fake.message(id).filter(|m| ready(m))).await
}

/// The first message (oldest change first) for which `wanted` holds, once there is one.
pub async fn message_where(fake: &Fake, what: &str, wanted: impl Fn(&Msg) -> bool) -> Msg {
    eventually(what, || fake.messages().into_iter().find(|m| wanted(m))).await
}

/// The users a message's leading mentions name (`<@1> <@2> text` → 1, 2).
pub fn mentioned_first(content: &str) -> Vec<String> {
    content
        .split(' ')
        .map_while(|w| w.strip_prefix("<@").and_then(|w| w.strip_suffix('>')))
        .map(str::to_string)
        .collect()
}

/// The newest thing `user` can act on: a prompt only they see, or a public ping of theirs.
pub fn newest_prompt(fake: &Fake, user: u64) -> Option<Msg> {
    fake.messages()
        .into_iter()
        .filter(|m| {
            let prompt = m.viewer == Some(user)
                && m.buttons
                    .iter()
                    .any(|(id, _)| id.starts_with(['d', 'n', 'p']) && id.get(1..2) == Some(":"));
            let ping = m.viewer.is_none()
                && mentioned_first(&m.content).contains(&user.to_string())
                && m.buttons.iter().any(|(id, _)| id.starts_with("o:"));
            prompt || ping
        })
        .max_by_key(|m| m.changed)
}

/// Which prompt [`current_prompt`] may return.
#[derive(Default, Clone, Copy)]
pub struct Fresh {
    /// The message the user clicked last, as it was then (id, last change): not again until
    /// it changes (its Open button opens a new prompt; its choices are answered).
    pub clicked: Option<(u64, usize)>,
    /// A ping counts only if it came after this request (0: any ping).
    pub pings_after: usize,
}

impl Fresh {
    pub fn new(clicked: Option<(u64, usize)>, pings_after: usize) -> Fresh {
        Fresh {
            clicked,
            pings_after,
        }
    }
}

/// The prompt `user` acts on next, once the bot has sent it: their newest prompt or ping (see
/// [`newest_prompt`]) when it offers a choice of the game's current state (one of the chat's
/// pending choices for the user: a prompt of an older version waits for its replacement) or
/// opens the user's prompt (a ping's Open button, which always shows the current one).
pub async fn current_prompt(
    fake: &Fake,
    chat: &Chat,
    at: &Location,
    user: u64,
    fresh: Fresh,
) -> Msg {
    eventually("the user's current prompt", || {
        let m = newest_prompt(fake, user)?;
        if fresh.clicked == Some((m.id, m.changed)) {
            return None;
        }
        if m.buttons.iter().any(|(id, _)| id.starts_with("o:")) {
            return (m.changed > fresh.pings_after).then_some(m);
        }
        let pending: HashSet<String> =
            tokio::task::block_in_place(|| chat.pending_choices(at, user))
                .into_iter()
                .map(|c| c.custom_id)
                .collect();
        m.buttons
            .iter()
            .any(|(id, _)| pending.contains(id))
            .then_some(m)
    })
    .await
}

/// Where the game of `channel` is played, for the chat's questions (it finds a channel's game
/// by the channel).
pub fn at(channel: u64) -> Location {
    Location {
        guild: None,
        channel,
    }
}

/// The requests about `channel` (its messages, edits and pins), once there is one: the status
/// message comes after a debounce, so it is waited for, not assumed.
pub async fn posts_about(fake: &Fake, channel: u64) -> Vec<Recorded> {
    eventually(&format!("a post about the game in {channel}"), || {
        let about: Vec<Recorded> = fake
            .requests()
            .into_iter()
            .filter(|r| r.path.contains(&format!("/channels/{channel}/")))
            .collect();
        (!about.is_empty()).then_some(about)
    })
    .await
}

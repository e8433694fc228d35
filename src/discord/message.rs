//! One chat reply as a Discord message: text within the 2,000-character limit (a longer text is
//! cut at a line and attached whole as a file), the PNG image as an attachment with its alt
//! text, choices as buttons (at most 25, five to an action row, labels within 80 characters),
//! and allowed mentions that ping only the intended user (or nobody).

use crate::chat::{Choice, Reply};
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseFollowup, CreateMessage, EditAttachments, EditInteractionResponse,
    EditMessage, UserId,
};

/// Discord's limit on a message's text.
pub(crate) const CONTENT_LIMIT: usize = 2000;
/// Buttons per action row, action rows per message.
const ROW: usize = 5;
const MAX_BUTTONS: usize = 25;
/// A button label, a custom id, an attachment description.
const LABEL_LIMIT: usize = 80;
const CUSTOM_ID_LIMIT: usize = 100;
const ALT_LIMIT: usize = 1024;

/// A message about to be sent, in a form every endpoint's builder can take.
#[derive(Debug, Clone)]
pub(crate) struct Outgoing {
    pub content: String,
    pub files: Vec<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
    /// The one user this message may ping.
    pub mention: Option<u64>,
}

impl Outgoing {
    /// The message for `reply`; `mention` puts the user's mention first and allows only it.
    pub fn from_reply(reply: &Reply, mention: Option<u64>) -> Outgoing {
        let body = crate::chat::time::discord_markers(&reply.text);
        let mut text = match mention {
            Some(u) => format!("<@{u}> {body}"),
            None => body,
        };
        let mut files = Vec::new();
        if let Some(image) = &reply.image {
            files.push(
                CreateAttachment::bytes(image.png.clone(), image.file_name.clone())
                    .description(clip(&image.alt, ALT_LIMIT)),
            );
        }
        if text.chars().count() > CONTENT_LIMIT {
            let whole = std::mem::take(&mut text);
            let name = if whole.trim_start().starts_with('{') {
                "skymines.json"
            } else {
                "skymines.txt"
            };
            text = format!(
                "{}\n… (the whole text is attached)",
                cut_at_line(&whole, 1900)
            );
            files.push(CreateAttachment::bytes(whole.into_bytes(), name));
        }
        if text.trim().is_empty() && files.is_empty() && reply.choices.is_empty() {
            text = "…".to_string();
        }
        Outgoing {
            content: text,
            files,
            rows: buttons(&reply.choices),
            mention,
        }
    }

    /// Plain text without buttons or files.
    pub fn text(text: impl Into<String>) -> Outgoing {
        Outgoing {
            content: clip(&text.into(), CONTENT_LIMIT),
            files: Vec::new(),
            rows: Vec::new(),
            mention: None,
        }
    }

    pub fn with_buttons(mut self, choices: &[Choice]) -> Outgoing {
        self.rows = buttons(choices);
        self
    }

    pub fn with_mention(mut self, user: u64) -> Outgoing {
        self.mention = Some(user);
        self
    }

    pub fn allowed_mentions(&self) -> CreateAllowedMentions {
        match self.mention {
            Some(u) => CreateAllowedMentions::new().users([UserId::new(u.max(1))]),
            None => CreateAllowedMentions::new(),
        }
    }

    /// A new channel message (bot token).
    pub fn into_message(self) -> CreateMessage {
        let mentions = self.allowed_mentions();
        CreateMessage::new()
            .content(self.content)
            .add_files(self.files)
            .components(self.rows)
            .allowed_mentions(mentions)
    }

    /// An edit of a channel message that replaces its text, image and buttons.
    pub fn into_edit(self) -> EditMessage {
        let mentions = self.allowed_mentions();
        let mut attachments = EditAttachments::new();
        for f in self.files {
            attachments = attachments.add(f);
        }
        EditMessage::new()
            .content(self.content)
            .attachments(attachments)
            .components(self.rows)
            .allowed_mentions(mentions)
    }

    /// An interaction follow-up.
    pub fn into_followup(self, ephemeral: bool) -> CreateInteractionResponseFollowup {
        let mentions = self.allowed_mentions();
        CreateInteractionResponseFollowup::new()
            .content(self.content)
            .add_files(self.files)
            .components(self.rows)
            .allowed_mentions(mentions)
            .ephemeral(ephemeral)
    }

    /// An edit of the interaction's own message that replaces its text, image and buttons.
    pub fn into_response_edit(self) -> EditInteractionResponse {
        let mentions = self.allowed_mentions();
        let mut attachments = EditAttachments::new();
        for f in self.files {
            attachments = attachments.add(f);
        }
        EditInteractionResponse::new()
            .content(self.content)
            .attachments(attachments)
            .components(self.rows)
            .allowed_mentions(mentions)
    }
}

/// Choices as buttons: at most 25 in rows of 5; a choice whose id Discord would refuse (over
/// 100 characters) is left out and logged (`/choose` still reaches it).
pub(crate) fn buttons(choices: &[Choice]) -> Vec<CreateActionRow> {
    let usable: Vec<&Choice> = choices
        .iter()
        .filter(|c| {
            let ok = !c.custom_id.is_empty() && c.custom_id.len() <= CUSTOM_ID_LIMIT;
            if !ok {
                tracing::warn!(
                    len = c.custom_id.len(),
                    "a choice's custom id is too long for a button; left out"
                );
            }
            ok
        })
        .take(MAX_BUTTONS)
        .collect();
    usable
        .chunks(ROW)
        .map(|row| {
            CreateActionRow::Buttons(
                row.iter()
                    .map(|c| {
                        let label = if c.label.trim().is_empty() {
                            "…".to_string()
                        } else {
                            // The number `/choose` takes, first.
                            match c.number {
                                Some(n) => clip(&format!("{n}. {}", c.label), LABEL_LIMIT),
                                None => clip(&c.label, LABEL_LIMIT),
                            }
                        };
                        CreateButton::new(c.custom_id.clone())
                            .label(label)
                            .style(ButtonStyle::Secondary)
                    })
                    .collect(),
            )
        })
        .collect()
}

/// At most `max` characters, with an ellipsis when cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The longest prefix of whole lines within `max` characters (or a hard cut).
fn cut_at_line(s: &str, max: usize) -> String {
    let hard: String = s.chars().take(max).collect();
    match hard.rfind('\n') {
        Some(i) if i > max / 2 => hard[..i].to_string(),
        _ => hard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::{Audience, Image};

    fn choice(i: usize) -> Choice {
        Choice::new(
            format!("d:1:2:{i}"),
            format!("choice {i} {}", "x".repeat(100)),
        )
    }

    #[test]
    fn choices_become_at_most_25_buttons_in_rows_of_5() {
        let choices: Vec<Choice> = (0..30).map(choice).collect();
        let rows = buttons(&choices);
        assert_eq!(rows.len(), 5);
        let json = serde_json::to_value(&rows).expect("json");
        for row in json.as_array().expect("rows") {
            let comps = row["components"].as_array().expect("components");
            assert_eq!(comps.len(), 5);
            for b in comps {
                assert!(b["label"].as_str().expect("label").chars().count() <= 80);
            }
        }
    }

    #[test]
    fn long_text_is_cut_and_attached_and_mentions_are_restricted() {
        let mut reply = Reply::new(Audience::Ping(42), "line\n".repeat(600));
        reply.image = Some(Image {
            file_name: "board.png".into(),
            png: vec![1, 2, 3],
            alt: "a board".into(),
        });
        let out = Outgoing::from_reply(&reply, Some(42));
        assert!(out.content.starts_with("<@42> "));
        assert!(out.content.chars().count() <= CONTENT_LIMIT);
        assert_eq!(out.files.len(), 2);
        let mentions = serde_json::to_value(out.allowed_mentions()).expect("json");
        assert_eq!(mentions["parse"], serde_json::json!([]));
        assert_eq!(mentions["users"], serde_json::json!(["42"]));
    }
}

//! One chat reply as a Discord message: text within the 2,000-character limit (a longer text is
//! cut at a line and attached whole as a file), the PNG image as an attachment with its alt
//! text, choices as components — up to five as buttons (labels within 80 characters), more as
//! select menus of up to 25 options each whose label and description keep within 100
//! characters (a decision's number first, so no two labels read the same), the other choices
//! (paging) as buttons in the last row — and allowed mentions that ping only the intended user
//! (or nobody). Every message suppresses link previews (the suppress-embeds flag): names and
//! other user text never unfurl a link into a game's messages.

use crate::chat::{Choice, Reply};
use serde::{Deserialize, Serialize};
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseFollowup, CreateMessage, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption, EditAttachments, EditInteractionResponse, EditMessage, MessageFlags,
    UserId,
};

/// Discord's limit on a message's text.
pub const CONTENT_LIMIT: usize = 2000;
/// Buttons per action row, action rows per message.
const ROW: usize = 5;
const MAX_BUTTONS: usize = 25;
/// A button label, a custom id, an attachment description.
const LABEL_LIMIT: usize = 80;
const CUSTOM_ID_LIMIT: usize = 100;
const ALT_LIMIT: usize = 1024;
/// Options of a select menu; a select option's label and description.
const MENU_OPTIONS: usize = 25;
const MENU_TEXT_LIMIT: usize = 100;
/// A select menu's placeholder.
const PLACEHOLDER_LIMIT: usize = 150;
/// Action rows of a message.
const ROWS: usize = 5;

/// A message about to be sent, in a form every endpoint's builder can take.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub content: String,
    pub files: Vec<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
    /// The users this message may ping (no one else).
    pub mentions: Vec<u64>,
    /// The choices `rows` show: what a [`Stored`] copy rebuilds the rows from.
    choices: Vec<Choice>,
}

/// An [`Outgoing`] as it can be kept in the store (the outbox) and sent later.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    content: String,
    files: Vec<StoredFile>,
    choices: Vec<Choice>,
    mentions: Vec<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredFile {
    name: String,
    description: Option<String>,
    data: Vec<u8>,
}

impl Stored {
    /// The message again, as it was when stored.
    pub fn into_outgoing(self) -> Outgoing {
        let rows = components(&self.choices);
        Outgoing {
            content: self.content,
            files: self
                .files
                .into_iter()
                .map(|f| {
                    let file = CreateAttachment::bytes(f.data, f.name);
                    match f.description {
                        Some(d) => file.description(d),
                        None => file,
                    }
                })
                .collect(),
            rows,
            mentions: self.mentions,
            choices: self.choices,
        }
    }
}

impl Outgoing {
    /// The message for `reply`; `mentions` go first and are the only ones allowed.
    pub fn from_reply(reply: &Reply, mentions: &[u64]) -> Outgoing {
        let body = crate::chat::time::discord_markers(&reply.text);
        let mut text = mentions
            .iter()
            .map(|u| format!("<@{u}> "))
            .collect::<String>();
        text.push_str(&body);
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
            rows: components(&reply.choices),
            mentions: mentions.to_vec(),
            choices: reply.choices.clone(),
        }
    }

    /// A copy to keep in the store.
    pub fn stored(&self) -> Stored {
        Stored {
            content: self.content.clone(),
            files: self
                .files
                .iter()
                .map(|f| StoredFile {
                    name: f.filename.clone(),
                    description: f.description.clone(),
                    data: f.data.clone(),
                })
                .collect(),
            choices: self.choices.clone(),
            mentions: self.mentions.clone(),
        }
    }

    pub fn allowed_mentions(&self) -> CreateAllowedMentions {
        CreateAllowedMentions::new().users(self.mentions.iter().map(|u| UserId::new((*u).max(1))))
    }

    /// A new channel message (bot token).
    pub fn into_message(self) -> CreateMessage {
        let mentions = self.allowed_mentions();
        CreateMessage::new()
            .flags(MessageFlags::SUPPRESS_EMBEDS)
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
            .suppress_embeds(true)
            .content(self.content)
            .attachments(attachments)
            .components(self.rows)
            .allowed_mentions(mentions)
    }

    /// An interaction follow-up.
    pub fn into_followup(self, ephemeral: bool) -> CreateInteractionResponseFollowup {
        let mentions = self.allowed_mentions();
        CreateInteractionResponseFollowup::new()
            .flags(MessageFlags::SUPPRESS_EMBEDS)
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
            .flags(MessageFlags::SUPPRESS_EMBEDS)
            .content(self.content)
            .attachments(attachments)
            .components(self.rows)
            .allowed_mentions(mentions)
    }
}

/// Choices as components: five or fewer as buttons; more as select menus (25 options each,
/// label and description within 100 characters) with the choices that are no decisions as
/// buttons in the last row. A choice whose id Discord would refuse (over 100 characters) is
/// left out and logged (`/choose` still reaches it).
pub fn components(choices: &[Choice]) -> Vec<CreateActionRow> {
    let usable = usable(choices);
    if usable.iter().any(|c| c.menu.is_some()) {
        return chat_menus(&usable);
    }
    if usable.len() <= ROW {
        return button_rows(&usable);
    }
    let (decisions, others): (Vec<&Choice>, Vec<&Choice>) =
        usable.into_iter().partition(|c| c.number.is_some());
    let menu_rows = if others.is_empty() { ROWS } else { ROWS - 1 };
    let mut rows: Vec<CreateActionRow> = decisions
        .chunks(MENU_OPTIONS)
        .take(menu_rows)
        .enumerate()
        .map(|(i, chunk)| {
            let options = chunk.iter().map(|c| menu_option(c)).collect();
            let first = chunk.first().and_then(|c| c.number).unwrap_or(1);
            let last = chunk.last().and_then(|c| c.number).unwrap_or(first);
            CreateActionRow::SelectMenu(
                CreateSelectMenu::new(
                    format!("{MENU_ID}{i}"),
                    CreateSelectMenuKind::String { options },
                )
                .placeholder(format!("{first}–{last} …")),
            )
        })
        .collect();
    rows.extend(button_rows(&others[..others.len().min(ROW)]));
    rows
}

/// The select menus the chat asked for (options with the same [`crate::chat::Menu`] form one,
/// in the order they first appear), the other choices as buttons below them. When menus and
/// buttons would need more than five rows (five open slots with linked slots), the buttons
/// become entries of the last single-pick menu.
fn chat_menus(usable: &[&Choice]) -> Vec<CreateActionRow> {
    let mut menus: Vec<(&crate::chat::Menu, Vec<&Choice>)> = Vec::new();
    let mut others: Vec<&Choice> = Vec::new();
    for c in usable {
        match &c.menu {
            Some(m) => match menus.iter_mut().find(|(seen, _)| *seen == m) {
                Some((_, options)) => options.push(c),
                None => menus.push((m, vec![c])),
            },
            None => others.push(c),
        }
    }
    menus.truncate(ROWS);
    let rows_of_buttons = others.len().div_ceil(ROW);
    if menus.len() + rows_of_buttons > ROWS {
        if let Some((_, options)) = menus.last_mut().filter(|(m, _)| m.max_values <= 1) {
            options.append(&mut others);
        }
    }
    let mut rows: Vec<CreateActionRow> = menus
        .iter()
        .enumerate()
        .map(|(i, (m, options))| {
            if options.len() > MENU_OPTIONS {
                tracing::warn!(
                    options = options.len(),
                    "a select menu is cut to 25 options"
                );
            }
            let options: Vec<CreateSelectMenuOption> = options
                .iter()
                .take(MENU_OPTIONS)
                .map(|c| menu_option(c))
                .collect();
            let max = (m.max_values as usize).clamp(1, options.len().max(1)) as u8;
            CreateActionRow::SelectMenu(
                CreateSelectMenu::new(
                    format!("{MENU_ID}{i}"),
                    CreateSelectMenuKind::String { options },
                )
                .placeholder(clip(&m.placeholder, PLACEHOLDER_LIMIT))
                .min_values(1)
                .max_values(max),
            )
        })
        .collect();
    let room = ROWS.saturating_sub(rows.len()) * ROW;
    rows.extend(button_rows(&others[..others.len().min(room)]));
    rows
}

/// One choice as a select-menu option: the numbered label and the description within 100
/// characters, the choice's id as the value.
fn menu_option(c: &Choice) -> CreateSelectMenuOption {
    let option = CreateSelectMenuOption::new(
        clip(&numbered_label(c), MENU_TEXT_LIMIT),
        c.custom_id.clone(),
    );
    if c.description.trim().is_empty() {
        option
    } else {
        option.description(clip(&c.description, MENU_TEXT_LIMIT))
    }
}

/// The custom id of the select menus of choices (their options' values are the choices' ids).
pub const MENU_ID: &str = "menu:";

/// A choice's label with the number `/choose` takes first.
fn numbered_label(c: &Choice) -> String {
    match c.number {
        Some(n) => format!("{n}. {}", c.label),
        None => c.label.clone(),
    }
}

pub fn usable(choices: &[Choice]) -> Vec<&Choice> {
    choices
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
        .collect()
}

/// Choices as buttons: at most 25 in rows of 5.
pub fn button_rows(usable: &[&Choice]) -> Vec<CreateActionRow> {
    usable
        .iter()
        .take(MAX_BUTTONS)
        .collect::<Vec<_>>()
        .chunks(ROW)
        .map(|row| {
            CreateActionRow::Buttons(
                row.iter()
                    .map(|c| {
                        let label = if c.label.trim().is_empty() {
                            "…".to_string()
                        } else {
                            // The number `/choose` takes, first.
                            clip(&numbered_label(c), LABEL_LIMIT)
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
pub fn clip(s: &str, max: usize) -> String {
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

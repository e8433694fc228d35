//! Before a game: `/skymines new` opens a lobby in a channel, others join, the host starts it.
//! Computer players take seats too (`bots:N bot_level:…`, or the host's "Add a computer player"
//! button); a person who joins a lobby with no open seat takes a computer player's, and a game
//! needs at least one person. One game per channel: a lobby or an active game blocks another. `/skymines campaign new`
//! gathers a campaign's players through the same lobby; starting it starts chapter 1. Lobbies
//! are kept in the store, so a restart of the bot keeps them.

use super::commands::Options;
use super::prompt::ClickId;
use super::{Chat, Choice, Reply, Request, Texts};
use crate::bots::Level;
use crate::engine::{self, BoardSide, GameOptions, TokenSetup, TrackSetup};
use crate::store::{GameId, Location, NewGame, NewSeat, Notify, SeatOwner, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Drawn seeds have this bit; seeds users choose are below it.
const UNSEEDED_BIT: u64 = 1 << 63;

/// Whether a game was set up with a seed someone chose (it then says so in its status).
pub(crate) fn is_user_seed(seed: u64) -> bool {
    seed & UNSEEDED_BIT == 0
}

/// A game being gathered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lobby {
    pub place: Location,
    pub host: u64,
    pub options: GameOptions,
    pub seeded: bool,
    /// Joined humans (id, name), host first.
    pub players: Vec<(u64, String)>,
    /// The language chosen with `language:` (public replies; None: the default).
    pub language: Option<&'static str>,
    /// Set when the lobby gathers a campaign's players (its game is chapter 1).
    pub campaign: Option<super::campaign::CampaignSetup>,
    /// The computer players seated so far.
    pub computers: Computers,
}

/// A lobby's computer players: how many seats they take (after the people's) and the level
/// they, and any seat a person leaves later, play at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) struct Computers {
    pub count: usize,
    pub level: Level,
}

impl Lobby {
    /// Seats taken, by people and computer players.
    fn seated(&self) -> usize {
        self.players.len() + self.computers.count
    }
}

/// The lobbies of every channel, kept in the store: each lock hands out the map; a change a
/// reply confirms is stored with [`LobbiesGuard::commit`] before that reply, so a restart of
/// the bot keeps every game it said was being gathered.
pub(crate) struct Lobbies {
    map: Mutex<BTreeMap<u64, Lobby>>,
    store: Arc<Store>,
}

/// A lobby as the store keeps it.
#[derive(Serialize, Deserialize)]
struct LobbyDoc {
    place: Location,
    host: u64,
    options: GameOptions,
    seeded: bool,
    players: Vec<(u64, String)>,
    language: Option<String>,
    campaign: Option<super::campaign::CampaignSetup>,
    /// Lobbies stored before computer players existed have none.
    #[serde(default)]
    computers: Computers,
}

impl Lobbies {
    /// The stored lobbies of channels that have no game yet (a lobby whose game was created
    /// just before a crash is dropped).
    pub(crate) fn restore(store: Arc<Store>) -> Lobbies {
        let mut map = BTreeMap::new();
        let stored = store.campaigns().lobbies().unwrap_or_else(|e| {
            tracing::error!(error = %e, "the stored lobbies cannot be read: they are not restored");
            Vec::new()
        });
        for (channel, body) in stored {
            let has_game = match store.games().game_in_channel(channel) {
                Ok(game) => game.is_some(),
                Err(e) => {
                    tracing::warn!(channel, error = %e, "cannot tell whether a lobby's channel has a game: the lobby is kept");
                    false
                }
            };
            match serde_json::from_str::<LobbyDoc>(&body) {
                Ok(doc) if !has_game => {
                    map.insert(
                        channel,
                        Lobby {
                            place: doc.place,
                            host: doc.host,
                            options: doc.options,
                            seeded: doc.seeded,
                            players: doc.players,
                            language: doc
                                .language
                                .as_deref()
                                .and_then(super::language::parse_language),
                            campaign: doc.campaign,
                            computers: doc.computers,
                        },
                    );
                }
                _ => {
                    if let Err(e) = store.campaigns().delete_lobby(channel) {
                        tracing::warn!(channel, error = %e, "a stale lobby could not be deleted: it is dropped again at the next start");
                    }
                }
            }
        }
        Lobbies {
            map: Mutex::new(map),
            store,
        }
    }

    /// The lobbies, for reading or changing; changes reach the store by `commit` (or, for
    /// changes nobody is told about, when the guard goes).
    pub(crate) fn lock(&self) -> Result<LobbiesGuard<'_>, ()> {
        let map = self.map.lock().map_err(|_| ())?;
        let before = map.clone();
        Ok(LobbiesGuard {
            map,
            before,
            store: self.store.as_ref(),
        })
    }
}

pub(crate) struct LobbiesGuard<'a> {
    map: std::sync::MutexGuard<'a, BTreeMap<u64, Lobby>>,
    before: BTreeMap<u64, Lobby>,
    store: &'a Store,
}

impl std::ops::Deref for LobbiesGuard<'_> {
    type Target = BTreeMap<u64, Lobby>;
    fn deref(&self) -> &Self::Target {
        &self.map
    }
}

impl std::ops::DerefMut for LobbiesGuard<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.map
    }
}

impl LobbiesGuard<'_> {
    /// Stores the changes now. A reply that confirms a change to a lobby comes only after
    /// this succeeded; when it fails, the lobbies are as they were (in memory too) and the
    /// error says why, so the request is refused like a move on a full or read-only disk.
    pub(crate) fn commit(mut self) -> Result<(), StoreError> {
        let saved = self.save();
        if saved.is_err() {
            *self.map = self.before.clone();
        }
        self.before = self.map.clone();
        saved
    }

    /// Writes the lobbies that changed and deletes the ones that went.
    fn save(&self) -> Result<(), StoreError> {
        for (channel, lobby) in self.map.iter() {
            if self.before.get(channel) == Some(lobby) {
                continue;
            }
            let doc = LobbyDoc {
                place: lobby.place,
                host: lobby.host,
                options: lobby.options.clone(),
                seeded: lobby.seeded,
                players: lobby.players.clone(),
                language: lobby.language.map(str::to_string),
                campaign: lobby.campaign.clone(),
                computers: lobby.computers,
            };
            let body = serde_json::to_string(&doc)
                .map_err(|e| StoreError::Invalid(format!("lobby in channel {channel}: {e}")))?;
            self.store.campaigns().save_lobby(*channel, &body)?;
        }
        for channel in self.before.keys() {
            if !self.map.contains_key(channel) {
                self.store.campaigns().delete_lobby(*channel)?;
            }
        }
        Ok(())
    }
}

/// Changes nobody confirmed (the lobby of a started game, of a deleted channel) are stored on
/// the way out; a failure is only logged, as the lobby goes anyway.
impl Drop for LobbiesGuard<'_> {
    fn drop(&mut self) {
        if let Err(e) = self.save() {
            tracing::warn!("lobby changes not stored: {e}");
        }
    }
}

/// The computer-player options of `/skymines new` (`bots`, `bot_level`): at most one seat fewer
/// than `players`, as a game needs a person (DECISIONS B16).
fn parse_computers(opts: &Options, players: usize, t: &Texts) -> Result<Computers, String> {
    let count = match opts.get("bots") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| t.f("parse.not_a_number", &[("option", &"bots"), ("value", &v)]))?,
    };
    let level = match opts.get("bot_level") {
        None => Level::default(),
        Some(v) => Level::from_name(&v.trim().to_ascii_lowercase()).ok_or_else(|| {
            t.f(
                "parse.bot_level",
                &[("value", &v), ("levels", &level_names().join(", "))],
            )
        })?,
    };
    if count >= players.max(1) {
        return Err(t.f(
            "error.bots_need_person",
            &[("bots", &count), ("players", &players)],
        ));
    }
    Ok(Computers { count, level })
}

/// The levels' names, as typed.
pub(crate) fn level_names() -> Vec<&'static str> {
    Level::ALL.iter().map(|l| l.name()).collect()
}

/// The options of `/skymines new`; a bad one is explained in `t`.
fn parse_options(opts: &Options, may_seed: bool, t: &Texts) -> Result<(GameOptions, bool), String> {
    let known = [
        "players",
        "bots",
        "bot_level",
        "luna",
        "board",
        "tracks",
        "tokens",
        "linked_slots",
        "missions",
        "threats",
        "chapter",
        "seed",
        "language",
    ];
    if let Some(k) = opts.keys().find(|k| !known.contains(k)) {
        return Err(t.f(
            "error.unknown_option",
            &[("option", &k), ("options", &known.join(", "))],
        ));
    }
    let number = |key: &str| -> Result<Option<u64>, String> {
        opts.get(key)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| t.f("parse.not_a_number", &[("option", &key), ("value", &v)]))
            })
            .transpose()
    };
    let players = number("players")?.unwrap_or(2) as usize;
    let luna = match opts.get("luna") {
        None | Some("none") | Some("no") => None,
        Some(v) => Some(
            v.parse::<u8>()
                .map_err(|_| t.f("parse.luna_level", &[("value", &v)]))?,
        ),
    };
    let board = match opts.get("board") {
        None | Some("moon") => BoardSide::Moon,
        Some("belt") => BoardSide::Belt,
        Some(v) => return Err(t.f("parse.board", &[("value", &v)])),
    };
    let tracks = match opts.get("tracks") {
        None | Some("default") => TrackSetup::Default,
        Some("random") => TrackSetup::Random,
        Some(v) => TrackSetup::Chosen(
            v.split([',', ' '])
                .filter(|s| !s.is_empty())
                .map(|s| s.trim().to_ascii_uppercase())
                .collect(),
        ),
    };
    let tokens = match opts.get("tokens") {
        None | Some("fixed") => TokenSetup::Fixed,
        Some("draft") => TokenSetup::Draft,
        Some(v) => return Err(t.f("parse.tokens", &[("value", &v)])),
    };
    let seed = number("seed")?;
    if seed.is_some_and(|s| !is_user_seed(s)) {
        return Err(t.t("parse.seed_range"));
    }
    if seed.is_some() && !may_seed {
        return Err(t.t("error.seed_owner_only"));
    }
    let options = GameOptions {
        players,
        luna,
        board,
        tracks,
        tokens,
        linked_slots: opts.flag("linked_slots").unwrap_or(false),
        missions: opts.flag("missions").unwrap_or(false),
        threats: opts.flag("threats").unwrap_or(false),
        chapter: number("chapter")?.map(|c| c as u8),
        seed: seed.unwrap_or(0),
        threat_card: None,
    };
    Ok((options, seed.is_some()))
}

impl Chat {
    /// The lobby's buttons: Join while a seat is not a person's (open, or a computer
    /// player's to take over), Add a computer player while a seat is open (not for a campaign's
    /// lobby), Start. A lobby full of people shows only Start.
    pub(crate) fn lobby_choices(&self, texts: &Texts, lobby: &Lobby) -> Vec<Choice> {
        let mut choices = Vec::new();
        if lobby.players.len() < lobby.options.players {
            choices.push(Choice::new(
                ClickId::Lobby("join".to_string()).encode(),
                texts.t("button.join"),
            ));
        }
        if lobby.campaign.is_none() && lobby.seated() < lobby.options.players {
            choices.push(Choice::new(
                ClickId::Lobby("bot".to_string()).encode(),
                texts.t("button.add_bot"),
            ));
        }
        choices.push(Choice::new(
            ClickId::Lobby("start".to_string()).encode(),
            texts.t("button.start"),
        ));
        choices
    }

    pub(crate) fn channel_busy(&self, place: &Location) -> Result<bool, String> {
        let game = self
            .store
            .games()
            .game_in_channel(place.channel)
            .map_err(|e| self.err(e))?;
        let lobby = self
            .lobbies
            .lock()
            .map(|l| l.contains_key(&place.channel))
            .unwrap_or(false);
        Ok(game.is_some() || lobby)
    }

    pub(crate) fn lobby_new(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        if req.in_dm {
            return Err(self.texts.t("error.not_in_dm"));
        }
        if self.channel_busy(&req.place)? {
            return Err(self.texts.t("error.channel_busy"));
        }
        let may_seed = req.user.owner || self.config.anyone_may_seed;
        let (mut options, seeded) = parse_options(opts, may_seed, &self.texts)?;
        let computers = parse_computers(opts, options.players, &self.texts)?;
        let language = match opts.get("language") {
            None => None,
            Some(code) => Some(super::language::parse_language(code).ok_or_else(|| {
                self.texts.f(
                    "error.bad_value",
                    &[("option", &"language"), ("value", &code)],
                )
            })?),
        };
        self.check_chapter_options(opts, &options)?;
        if !seeded {
            options.seed = self.fresh_seed(req);
        }
        Ok(vec![self.open_lobby(
            req, options, seeded, language, None, computers,
        )?])
    }

    /// A chapter fixes the board side, the tracks, the token setup and the modules
    /// (DECISIONS A14): a given option that disagrees with the chapter is refused, naming it,
    /// rather than silently replaced. Options the chapter leaves open (players, Luna, the linked
    /// slots variant, chosen tracks where the chapter lets the players choose) stay free.
    fn check_chapter_options(&self, opts: &Options, options: &GameOptions) -> Result<(), String> {
        let Some(chapter) = options.chapter else {
            return Ok(());
        };
        let fixed = engine::campaign::effective_options(&self.data, options)
            .map_err(|e| e.render(&self.texts))?;
        let conflicts = [
            (
                "board",
                options.board != fixed.board,
                format!("{:?}", fixed.board),
            ),
            (
                "tracks",
                options.tracks != fixed.tracks,
                format!("{:?}", fixed.tracks),
            ),
            (
                "tokens",
                options.tokens != fixed.tokens,
                format!("{:?}", fixed.tokens),
            ),
            (
                "missions",
                options.missions != fixed.missions,
                yes_no(fixed.missions),
            ),
            (
                "threats",
                options.threats != fixed.threats,
                yes_no(fixed.threats),
            ),
        ];
        match conflicts
            .into_iter()
            .find(|(key, differs, _)| *differs && opts.get(key).is_some())
        {
            Some((option, _, value)) => Err(self.texts.f(
                "error.chapter_fixes",
                &[
                    ("chapter", &chapter),
                    ("option", &option),
                    ("value", &value.to_lowercase()),
                ],
            )),
            None => Ok(()),
        }
    }

    /// Opens a lobby in the request's channel (the engine checks the options first, so an
    /// impossible game is refused now, not at start); returns the opening reply.
    pub(crate) fn open_lobby(
        &self,
        req: &Request,
        options: GameOptions,
        seeded: bool,
        language: Option<&'static str>,
        campaign: Option<super::campaign::CampaignSetup>,
        computers: Computers,
    ) -> Result<Reply, String> {
        self.check_game_options(&options)?;
        let lobby = Lobby {
            place: req.place,
            host: req.user.id,
            options: options.clone(),
            seeded,
            players: vec![(req.user.id, req.user.name.clone())],
            language,
            campaign,
            computers,
        };
        let texts = lobby.texts(self);
        let mut text = texts.f(
            "lobby.opened",
            &[
                ("host", &req.user.name),
                ("players", &options.players),
                (
                    "luna",
                    &options
                        .luna
                        .map(|l| texts.f("lobby.with_luna", &[("level", &l)]))
                        .unwrap_or_default(),
                ),
                ("joined", &lobby.seated()),
            ],
        );
        if computers.count > 0 {
            text = format!("{text}\n{}", computers_line(texts, &lobby));
        }
        let choices = self.lobby_choices(texts, &lobby);
        let mut lobbies = self
            .lobbies
            .lock()
            .map_err(|_| self.texts.t("error.internal"))?;
        lobbies.insert(req.place.channel, lobby);
        lobbies.commit().map_err(|e| self.err(e))?;
        Ok(Reply::public(text).with_choices(choices))
    }

    /// The engine checks the options first, so an impossible game is refused now, not at start.
    fn check_game_options(&self, options: &GameOptions) -> Result<(), String> {
        let names: Vec<String> = (0..options.players).map(|i| format!("P{i}")).collect();
        engine::new_game(&self.data, options, &names)
            .map(|_| ())
            .map_err(|e| e.render(&self.texts))
    }

    /// The lobby's "Add a computer player" button (its host or a moderator): a computer
    /// player takes an open seat; with none open, the game grows by a seat while the options
    /// allow one more player.
    pub(crate) fn lobby_add_computer(&self, req: &Request) -> Result<Vec<Reply>, String> {
        self.seat_in_lobby(req, |lobby| {
            if lobby.host != req.user.id && !req.user.moderator {
                return Err(self.texts.t("error.host_only"));
            }
            if lobby.campaign.is_some() {
                return Err(self.texts.t("error.campaign_bots"));
            }
            if lobby.seated() >= lobby.options.players {
                let mut grown = lobby.options.clone();
                grown.players += 1;
                self.check_game_options(&grown)
                    .map_err(|_| self.texts.t("error.lobby_full"))?;
                lobby.options = grown;
            }
            lobby.computers.count += 1;
            Ok("lobby.bot_added")
        })
    }

    /// Changes who sits in the request's lobby with `seat` (which returns the announcement's
    /// key, its `{name}` the requester), stores it and announces it with the lobby's buttons.
    fn seat_in_lobby(
        &self,
        req: &Request,
        seat: impl FnOnce(&mut Lobby) -> Result<&'static str, String>,
    ) -> Result<Vec<Reply>, String> {
        let mut lobbies = self
            .lobbies
            .lock()
            .map_err(|_| self.texts.t("error.internal"))?;
        let Some(lobby) = lobbies.get_mut(&req.place.channel) else {
            return Err(self.texts.t("error.no_lobby"));
        };
        let key = seat(lobby)?;
        let texts = lobby.texts(self);
        let mut text = texts.f(
            key,
            &[
                ("name", &req.user.name),
                ("joined", &lobby.seated()),
                ("players", &lobby.options.players),
            ],
        );
        if lobby.computers.count > 0 {
            text = format!("{text}\n{}", computers_line(texts, lobby));
        }
        let choices = self.lobby_choices(texts, lobby);
        lobbies.commit().map_err(|e| self.err(e))?;
        Ok(vec![Reply::public(text).with_choices(choices)])
    }

    /// A seed for an unseeded game: from the clock and the place, with the top bit set so a
    /// chosen seed (always below 2^63) and a drawn one can be told apart.
    pub(crate) fn fresh_seed(&self, req: &Request) -> u64 {
        let now = self.clock.now_ms() as u64;
        (now.wrapping_mul(6364136223846793005)
            ^ req.place.channel.rotate_left(17)
            ^ req.user.id.rotate_left(31))
            | UNSEEDED_BIT
    }

    pub(crate) fn lobby_join(&self, req: &Request) -> Result<Vec<Reply>, String> {
        self.seat_in_lobby(req, |lobby| {
            if lobby.players.iter().any(|(id, _)| *id == req.user.id) {
                return Err(self.texts.t("error.already_joined"));
            }
            // With no open seat, a person takes a computer player's.
            let takes_computer = lobby.seated() >= lobby.options.players;
            if takes_computer && lobby.computers.count == 0 {
                return Err(self.texts.t("error.lobby_full"));
            }
            lobby.players.push((req.user.id, req.user.name.clone()));
            if takes_computer {
                lobby.computers.count -= 1;
                Ok("lobby.joined_for_bot")
            } else {
                Ok("lobby.joined")
            }
        })
    }

    pub(crate) fn lobby_leave(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let mut lobbies = self
            .lobbies
            .lock()
            .map_err(|_| self.texts.t("error.internal"))?;
        let Some(lobby) = lobbies.get_mut(&req.place.channel) else {
            return Err(self.texts.t("error.leave_running"));
        };
        if !lobby.players.iter().any(|(id, _)| *id == req.user.id) {
            return Err(self.texts.t("error.not_joined"));
        }
        let texts = lobby.texts(self);
        let text = if lobby.host == req.user.id {
            lobbies.remove(&req.place.channel);
            texts.f("lobby.closed", &[("name", &req.user.name)])
        } else {
            lobby.players.retain(|(id, _)| *id != req.user.id);
            texts.f("lobby.left", &[("name", &req.user.name)])
        };
        lobbies.commit().map_err(|e| self.err(e))?;
        Ok(vec![Reply::public(text)])
    }

    pub(crate) fn lobby_start(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let lobby = {
            let lobbies = self
                .lobbies
                .lock()
                .map_err(|_| self.texts.t("error.internal"))?;
            lobbies
                .get(&req.place.channel)
                .cloned()
                .ok_or_else(|| self.texts.t("error.no_lobby"))?
        };
        if lobby.host != req.user.id && !req.user.moderator {
            return Err(self.texts.t("error.host_only"));
        }
        if lobby.seated() < lobby.options.players {
            return Err(self.texts.f(
                "error.lobby_not_full",
                &[
                    ("joined", &lobby.seated()),
                    ("players", &lobby.options.players),
                ],
            ));
        }
        let texts = lobby.texts(self);
        let (game, state) = match &lobby.campaign {
            Some(setup) => self.create_first_chapter(&lobby, setup)?,
            None => {
                let mut seats = new_seats(&lobby.players);
                seats.extend(computer_seats(texts, lobby.computers.count));
                // Its computer players' level, language and first waits go with it.
                let mut new = NewGame::new(lobby.place, lobby.options.clone(), seats);
                new.bot_level = Some(lobby.computers.level.name().to_string());
                new.language = lobby.language.map(str::to_string);
                new.waits = Some(self.new_game_plan(&new.seats).map_err(|e| self.err(e))?);
                self.store
                    .games()
                    .create_game(new)
                    .map_err(|e| self.err(e))?
            }
        };
        if let Ok(mut lobbies) = self.lobbies.lock() {
            lobbies.remove(&req.place.channel);
        }
        let seed = lobby.seeded.then_some(lobby.options.seed);
        let mut replies = vec![Reply::public(started_text(
            &self.data, texts, game, seed, &state,
        ))];
        if let Some(setup) = &lobby.campaign {
            replies.push(self.speaking(texts, || self.campaign_begun(&lobby, setup, game)));
        }
        // Computer players set up and plan at once, before anyone is asked.
        let computers = self.play_computers(game);
        let (state, version) = match self.store.games().live_state(game) {
            Ok(live) => live,
            // The computer players ended the game already.
            Err(StoreError::NotActive { .. }) => (state, 0),
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read the new game's state: its start is shown as set up");
                (state, 0)
            }
        };
        replies.extend(computers);
        replies.extend(self.after_move(
            game,
            &state,
            version,
            &[],
            super::game::Actor::Nobody,
            None,
        ));
        Ok(replies)
    }
}

/// "Skymines game #N begins!", with the seed on its next line when the game was seeded, then
/// what the set-up did that everyone sees (each seat's starting research token with its
/// starting bonus and rested cards, Luna's seat): one message, so the channel reads one post
/// for the start, and nobody has to find the starting positions on the image.
pub(crate) fn started_text(
    data: &crate::data::GameData,
    texts: &Texts,
    game: GameId,
    seed: Option<u64>,
    start: &engine::state::GameState,
) -> String {
    let mut text = texts.f("game.started", &[("game", &game)]);
    if let Some(seed) = seed {
        text.push('\n');
        text.push_str(&texts.f("game.seeded", &[("seed", &seed)]));
    }
    let public = engine::setup_events(data, start)
        .into_iter()
        .filter(|e| e.visibility == engine::Visibility::Public);
    for e in super::turn::message(public) {
        text.push('\n');
        text.push_str(&e.render(texts));
    }
    text
}

/// The seats of `count` computer players, named "Computer 1", "Computer 2", … in the game's
/// language.
fn computer_seats(texts: &Texts, count: usize) -> Vec<NewSeat> {
    (1..=count)
        .map(|n| NewSeat {
            owner: SeatOwner::Vacant,
            name: texts.f("bot.name", &[("n", &n)]),
            notify: Notify::Ephemeral,
        })
        .collect()
}

/// "With N computer players (level …); /skymines join takes a computer player's seat."
pub(crate) fn computers_line(texts: &Texts, lobby: &Lobby) -> String {
    texts.f(
        "lobby.bots",
        &[
            ("bots", &lobby.computers.count),
            (
                "level",
                &super::computers::level_words(texts, lobby.computers.level),
            ),
        ],
    )
}

/// The stored seats of a game's people, in order (the store gives Luna's seat, added by the
/// engine, to Luna).
pub(crate) fn new_seats(players: &[(u64, String)]) -> Vec<NewSeat> {
    players
        .iter()
        .map(|(id, name)| NewSeat {
            owner: SeatOwner::Discord(*id),
            name: crate::text::sanitize_name(name),
            notify: Notify::Ephemeral,
        })
        .collect()
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

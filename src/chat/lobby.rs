//! Before a game: `/skymines new` opens a lobby in a channel, others join, the host starts it.
//! One game per channel: a lobby or an active game blocks another. `/skymines campaign new`
//! gathers a campaign's players through the same lobby; starting it starts chapter 1. Lobbies
//! are kept in the store, so a restart of the bot keeps them.

use super::commands::Options;
use super::prompt::ClickId;
use super::{Chat, Choice, Reply, Request, Texts};
use crate::engine::{self, BoardSide, GameOptions, TokenSetup, TrackSetup};
use crate::store::{Location, NewGame, NewSeat, Notify, SeatOwner, Store, StoreError};
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
}

impl Lobbies {
    /// The stored lobbies of channels that have no game yet (a lobby whose game was created
    /// just before a crash is dropped).
    pub(crate) fn restore(store: Arc<Store>) -> Lobbies {
        let mut map = BTreeMap::new();
        for (channel, body) in store.lobbies().unwrap_or_default() {
            let has_game = !matches!(store.game_in_channel(channel), Ok(None));
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
                        },
                    );
                }
                _ => {
                    let _ = store.delete_lobby(channel);
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
            store: &self.store,
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
            };
            let body = serde_json::to_string(&doc)
                .map_err(|e| StoreError::Invalid(format!("lobby in channel {channel}: {e}")))?;
            self.store.save_lobby(*channel, &body)?;
        }
        for channel in self.before.keys() {
            if !self.map.contains_key(channel) {
                self.store.delete_lobby(*channel)?;
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

/// The options of `/skymines new`; a bad one is explained in `t`.
fn parse_options(opts: &Options, may_seed: bool, t: &Texts) -> Result<(GameOptions, bool), String> {
    let known = [
        "players",
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
    pub(crate) fn lobby_choices(&self, texts: &Texts) -> Vec<Choice> {
        vec![
            Choice::new(
                ClickId::Lobby("join".to_string()).encode(),
                texts.t("button.join"),
            ),
            Choice::new(
                ClickId::Lobby("start".to_string()).encode(),
                texts.t("button.start"),
            ),
        ]
    }

    pub(crate) fn channel_busy(&self, place: &Location) -> Result<bool, String> {
        let game = self
            .store
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
        Ok(vec![self.open_lobby(req, options, seeded, language, None)?])
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
    ) -> Result<Reply, String> {
        let names: Vec<String> = (0..options.players).map(|i| format!("P{i}")).collect();
        engine::new_game(&self.data, &options, &names).map_err(|e| e.render(&self.texts))?;
        let lobby = Lobby {
            place: req.place,
            host: req.user.id,
            options: options.clone(),
            seeded,
            players: vec![(req.user.id, req.user.name.clone())],
            language,
            campaign,
        };
        let texts = lobby.texts(self);
        let text = texts.f(
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
                ("joined", &1),
            ],
        );
        let mut lobbies = self
            .lobbies
            .lock()
            .map_err(|_| self.texts.t("error.internal"))?;
        lobbies.insert(req.place.channel, lobby);
        lobbies.commit().map_err(|e| self.err(e))?;
        Ok(Reply::public(text).with_choices(self.lobby_choices(texts)))
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
        let mut lobbies = self
            .lobbies
            .lock()
            .map_err(|_| self.texts.t("error.internal"))?;
        let Some(lobby) = lobbies.get_mut(&req.place.channel) else {
            return Err(self.texts.t("error.no_lobby"));
        };
        if lobby.players.iter().any(|(id, _)| *id == req.user.id) {
            return Err(self.texts.t("error.already_joined"));
        }
        if lobby.players.len() >= lobby.options.players {
            return Err(self.texts.t("error.lobby_full"));
        }
        lobby.players.push((req.user.id, req.user.name.clone()));
        let texts = lobby.texts(self);
        let text = texts.f(
            "lobby.joined",
            &[
                ("name", &req.user.name),
                ("joined", &lobby.players.len()),
                ("players", &lobby.options.players),
            ],
        );
        lobbies.commit().map_err(|e| self.err(e))?;
        Ok(vec![
            Reply::public(text).with_choices(self.lobby_choices(texts))
        ])
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
        if lobby.players.len() < lobby.options.players {
            return Err(self.texts.f(
                "error.lobby_not_full",
                &[
                    ("joined", &lobby.players.len()),
                    ("players", &lobby.options.players),
                ],
            ));
        }
        let (game, state) = match &lobby.campaign {
            Some(setup) => self.create_first_chapter(&lobby, setup)?,
            None => self
                .store
                .create_game(NewGame {
                    location: lobby.place,
                    options: lobby.options.clone(),
                    seats: new_seats(&lobby.players),
                })
                .map_err(|e| self.err(e))?,
        };
        if let Some(code) = lobby.language {
            // The game exists already: a failure here leaves it in the default language.
            if let Err(e) = self.store.set_game_language(game, code) {
                tracing::warn!("game {game}: language {code} not stored: {e}");
            }
        }
        let texts = lobby.texts(self);
        if let Ok(mut lobbies) = self.lobbies.lock() {
            lobbies.remove(&req.place.channel);
        }
        let mut replies = vec![Reply::public(texts.f("game.started", &[("game", &game)]))];
        if let Some(setup) = &lobby.campaign {
            replies.push(self.speaking(texts, || self.campaign_begun(&lobby, setup, game)));
        }
        if lobby.seeded {
            replies.push(Reply::public(
                texts.f("game.seeded", &[("seed", &lobby.options.seed)]),
            ));
        }
        replies.extend(self.after_move(game, &state, &[], None, None));
        Ok(replies)
    }
}

/// The stored seats of a game's humans, in order (the store gives Luna's seat, added by the
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

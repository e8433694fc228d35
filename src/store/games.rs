//! The game log, its rows: creating a game (its row, seats, set-up snapshot, language, level
//! and first waits in one transaction; one active game per channel, which the database's
//! unique index also guards across processes), reading game records, and ending a game
//! without a result (abandoned, archived) under the game's row lock. The rest of the game log
//! is `moves` (moves, undo, the log) and `admin` (rollback); the states in memory are `live`.

use super::error::{Result, StoreError};
use super::sql::{args, is_unique_violation, Row, Tx};
use super::waits::apply_waits;
use super::{
    json, lock, now_ms, GameId, GameRecord, GameStatus, Location, NewGame, Notify, SeatOwner,
    SeatRecord, Store,
};
use crate::engine::{self, GameOptions, GameState, ENGINE_VERSION};
use std::sync::Arc;

/// The game log: creating games, moves with their effects, undo, rollback, snapshots and
/// restore, the states and records of games, and the end of a game (see [`Store::games`]).
/// Its methods are written by duty: here the game rows; `moves` the log, moves and undo;
/// `admin` the rollback; `live` the states.
#[derive(Clone, Copy)]
pub struct GameLog<'s>(pub(super) &'s Store);

impl Store {
    /// The game log: creating games, moves and their effects, undo, rollback, states, records
    /// and the end of a game.
    pub fn games(&self) -> GameLog<'_> {
        GameLog(self)
    }
}

/// Why a game was archived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveReason {
    /// Its channel was deleted.
    ChannelDeleted,
    /// The bot was removed from its server.
    GuildRemoved,
}

impl ArchiveReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ArchiveReason::ChannelDeleted => "channel_deleted",
            ArchiveReason::GuildRemoved => "guild_removed",
        }
    }
}

pub(super) const GAME_COLUMNS: &str =
    "id, guild, channel, status, options, seed, seat_names, engine_version, \
     data_hash, last_seq, damage_report, created_at, updated_at";

/// A database error as its client says it (without this crate's "database error:").
pub(super) fn plain(e: &StoreError) -> String {
    match e {
        StoreError::Sqlite(e) => e.to_string(),
        StoreError::Postgres(e) => e.to_string(),
        other => other.to_string(),
    }
}

/// The columns of a game row a replay needs: options, seed, seat names, engine version,
/// data hash, last move.
type Heavy = (GameOptions, u64, Vec<String>, u32, String, u64);

fn text_column(r: &Row<'_>, i: usize, what: &str) -> std::result::Result<String, String> {
    r.get::<String>(i)
        .map_err(|e| format!("the {what} is not text: {}", plain(&e)))
}

fn int_column(r: &Row<'_>, i: usize, what: &str) -> std::result::Result<i64, String> {
    r.get::<i64>(i)
        .map_err(|e| format!("the {what} is not a number: {}", plain(&e)))
}

/// The heavy columns of a game row (of [`GAME_COLUMNS`]), or what does not decode.
fn heavy_columns(r: &Row<'_>) -> std::result::Result<Heavy, String> {
    let options: GameOptions = serde_json::from_str(&text_column(r, 4, "options")?)
        .map_err(|e| format!("options: {e}"))?;
    let seat_names: Vec<String> = serde_json::from_str(&text_column(r, 6, "seat names")?)
        .map_err(|e| format!("seat names: {e}"))?;
    Ok((
        options,
        int_column(r, 5, "seed")? as u64,
        seat_names,
        u32::try_from(int_column(r, 7, "engine version")?).unwrap_or(u32::MAX),
        text_column(r, 8, "data hash")?,
        int_column(r, 9, "last move")? as u64,
    ))
}

/// What of a game's row a replay needs does not decode (even when the game was set aside as
/// damaged and reads with what can be read), if anything.
pub(super) fn row_problem(tx: &mut Tx<'_>, game: GameId) -> Result<Option<String>> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
    Ok(tx
        .query_opt(&sql, args![game], |r| Ok(heavy_columns(r).err()))?
        .flatten())
}

/// A game row (of [`GAME_COLUMNS`]). Every column is decoded here, so a value that does not
/// decode (text that is not UTF-8, a seed that is not a number, options that do not parse)
/// makes this one game unreadable (the inner `Corrupt`, with the reason), never the query it
/// is part of. A game already set aside as damaged is read with what can be read (id, place,
/// status, report, times): it is still listed and reported, and never played.
pub(super) fn game_from_row(r: &Row<'_>) -> Result<Result<GameRecord>> {
    let id: GameId = r.get(0)?;
    let text = |i: usize, what: &str| text_column(r, i, what);
    let int = |i: usize, what: &str| int_column(r, i, what);
    let parsed = (|| -> std::result::Result<GameRecord, String> {
        let status_text = text(3, "status")?;
        let status = GameStatus::parse(&status_text)
            .ok_or_else(|| format!("unknown status `{status_text}`"))?;
        let guild = r
            .get::<Option<i64>>(1)
            .map_err(|e| format!("guild: {}", plain(&e)))?;
        let location = Location {
            guild: guild.map(|g| g as u64),
            channel: int(2, "channel")? as u64,
        };
        let damage_report = r
            .get::<Option<String>>(10)
            .map_err(|e| format!("damage report: {}", plain(&e)))?;
        let (created_at, updated_at) = (int(11, "creation time")?, int(12, "update time")?);
        let (options, seed, seat_names, engine_version, data_hash, seq) = match heavy_columns(r) {
            Ok(h) => h,
            Err(_) if status == GameStatus::Damaged => Default::default(),
            Err(e) => return Err(e),
        };
        Ok(GameRecord {
            id,
            location,
            status,
            options,
            seed,
            seat_names,
            engine_version,
            data_hash,
            seq,
            damage_report,
            created_at,
            updated_at,
        })
    })();
    Ok(parsed.map_err(|message| StoreError::Corrupt { game: id, message }))
}

pub(super) fn read_game(tx: &mut Tx<'_>, game: GameId) -> Result<GameRecord> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
    tx.query_opt(&sql, args![game], game_from_row)?
        .ok_or(StoreError::NoSuchGame(game))?
}

/// The game records of a listing query; one game that does not read is left out (and
/// logged), not the whole list.
pub(super) fn keep_readable(records: Vec<Result<GameRecord>>) -> Result<Vec<GameRecord>> {
    let mut out = Vec::new();
    for r in records {
        match r {
            Ok(record) => out.push(record),
            Err(StoreError::Corrupt { game, message }) => {
                tracing::warn!(game, "game left out of a list: {message}");
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

pub(super) const SEAT_COLUMNS: &str = "seat, kind, user_id, name, colour, notify, waiting_since";

/// A seat row (of [`SEAT_COLUMNS`]).
pub(super) fn seat_from_row(r: &Row<'_>) -> Result<SeatRecord> {
    let kind: String = r.get(1)?;
    let owner = match (kind.as_str(), r.opt_u64(2)?) {
        ("discord", Some(u)) => SeatOwner::Discord(u),
        ("local", _) => SeatOwner::Local,
        ("vacant", _) => SeatOwner::Vacant,
        _ => SeatOwner::Luna,
    };
    Ok(SeatRecord {
        seat: r.usize(0)?,
        owner,
        name: r.get(3)?,
        colour: r.usize(4)?,
        notify: if r.get::<String>(5)? == "dm" {
            Notify::Dm
        } else {
            Notify::Ephemeral
        },
        waiting_since: r.get(6)?,
    })
}

/// A game's seats in seat order (a seat that does not decode makes the game `Corrupt`).
pub(super) fn read_seats(tx: &mut Tx<'_>, game: GameId) -> Result<Vec<SeatRecord>> {
    let sql = format!("SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat");
    tx.query(&sql, args![game], |r| {
        seat_from_row(r).map_err(|e| e.decoding(game, "a seat"))
    })
}

/// The `kind` and `user_id` columns of a seat's owner.
pub(super) fn owner_columns(owner: SeatOwner) -> (&'static str, Option<u64>) {
    match owner {
        SeatOwner::Discord(u) => ("discord", Some(u)),
        SeatOwner::Local => ("local", None),
        SeatOwner::Luna => ("luna", None),
        SeatOwner::Vacant => ("vacant", None),
    }
}

/// Who plays each engine seat of a new game (seats past the human ones are Luna's).
pub(super) fn new_seat_owners(new: &NewGame) -> impl Fn(usize) -> (SeatOwner, Notify) + '_ {
    |seat: usize| {
        new.seats
            .get(seat)
            .map(|s| (s.owner, s.notify))
            .unwrap_or((SeatOwner::Luna, Notify::Ephemeral))
    }
}

/// The columns of a new game row.
pub(super) struct GameRows<'a> {
    pub(super) location: &'a Location,
    pub(super) options: &'a GameOptions,
    pub(super) names: &'a [String],
    /// The set-up state: the seats come from it.
    pub(super) state: &'a GameState,
    pub(super) status: GameStatus,
    pub(super) last_seq: u64,
    pub(super) now: i64,
}

/// Inserts a game row and its seats (inside the caller's transaction). An active game needs
/// a free channel (`ChannelBusy`).
pub(super) fn insert_game_rows(
    tx: &mut Tx<'_>,
    data_hash: &str,
    rows: &GameRows<'_>,
    owner: &dyn Fn(usize) -> (SeatOwner, Notify),
) -> Result<GameId> {
    let channel = rows.location.channel;
    if rows.status == GameStatus::Active {
        let busy = tx.query_opt(
            "SELECT id FROM games WHERE channel = $1 AND status IN ('active', 'damaged')",
            args![channel],
            |_| Ok(()),
        )?;
        if busy.is_some() {
            return Err(StoreError::ChannelBusy);
        }
    }
    let id = tx.query_one(
        "INSERT INTO games (guild, channel, status, options, seed, seat_names, \
         engine_version, data_hash, last_seq, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
        args![
            rows.location.guild,
            channel,
            rows.status.as_str(),
            &json(rows.options),
            rows.options.seed,
            &json(rows.names),
            ENGINE_VERSION,
            data_hash,
            rows.last_seq,
            rows.now
        ],
        |r| r.get::<GameId>(0),
    );
    let id = match id {
        // Another process started a game in the channel meanwhile.
        Err(e) if is_unique_violation(&e) => return Err(StoreError::ChannelBusy),
        other => other?,
    };
    for (i, seat) in rows.state.seats.iter().enumerate() {
        let (seat_owner, notify) = if seat.is_luna() {
            (SeatOwner::Luna, Notify::Ephemeral)
        } else {
            owner(i)
        };
        let (kind, user) = owner_columns(seat_owner);
        tx.execute(
            "INSERT INTO seats (game_id, seat, kind, user_id, name, colour, notify) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            args![id, i, kind, user, &seat.name, seat.colour, notify.as_str()],
        )?;
    }
    Ok(id)
}

/// Locks a game's row for the rest of the transaction (other processes' per-game work waits);
/// its status, last move and pause.
pub(super) fn lock_game(
    tx: &mut Tx<'_>,
    game: GameId,
) -> Result<Option<(String, u64, Option<i64>)>> {
    let sql = format!(
        "SELECT status, last_seq, paused_at FROM games WHERE id = $1{}",
        tx.dialect().for_update()
    );
    tx.query_opt(&sql, args![game], |r| Ok((r.get(0)?, r.u64(1)?, r.get(2)?)))
}

impl GameLog<'_> {
    /// Starts a game: checks the options with the engine, stores the game, its seats, the
    /// set-up snapshot, its computer players' level, its language and its first waits. Fails
    /// with `ChannelBusy` if the channel has an active game.
    pub fn create_game(&self, new: NewGame) -> Result<(GameId, Arc<GameState>)> {
        self.create_game_and(new, |_, _| Ok(()))
    }

    /// Creates a game and, in the same transaction, runs `also` with its id (a campaign records
    /// its chapter game this way, so a crash never leaves one without the other).
    pub(super) fn create_game_and(
        &self,
        new: NewGame,
        also: impl FnOnce(&mut Tx<'_>, GameId) -> Result<()>,
    ) -> Result<(GameId, Arc<GameState>)> {
        let store = self.0;
        new.check_has_person()?;
        let names: Vec<String> = new.seats.iter().map(|s| s.name.clone()).collect();
        let state = engine::new_game(&store.data, &new.options, &names)?;
        let owner = new_seat_owners(&new);
        let now = now_ms();
        let snapshot = json(&state);
        let id = store.db.write(|tx| {
            let id = insert_game_rows(
                tx,
                &store.data.hash,
                &GameRows {
                    location: &new.location,
                    options: &new.options,
                    names: &names,
                    state: &state,
                    status: GameStatus::Active,
                    last_seq: 0,
                    now,
                },
                &owner,
            )?;
            store.write_state(tx, id, 0, Some(&snapshot), now)?;
            if let Some(level) = &new.bot_level {
                tx.execute(
                    "UPDATE games SET bot_level = $2 WHERE id = $1",
                    args![id, level],
                )?;
            }
            if let Some(language) = &new.language {
                write_game_language(tx, id, language, now)?;
            }
            if let Some(waits) = &new.waits {
                apply_waits(tx, id, &state, waits)?;
            }
            also(tx, id)?;
            Ok(id)
        })?;
        let state = Arc::new(state);
        store.live.insert(id, state.clone(), 0);
        Ok((id, state))
    }

    /// A game's stored row.
    pub fn game(&self, game: GameId) -> Result<GameRecord> {
        self.0.db.read(|tx| read_game(tx, game))
    }

    /// The active (or damaged) game of a channel.
    pub fn game_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT id FROM games WHERE channel = $1 AND status IN ('active', 'damaged')",
                args![channel],
                |r| r.get(0),
            )
        })
    }

    /// The channel's most recent game when it has finished: what the channel may still look at
    /// (status, scores, log) once a game is over, until another one starts there.
    pub fn last_finished_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        let last = self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT id, status FROM games WHERE channel = $1 ORDER BY id DESC LIMIT 1",
                args![channel],
                |r| Ok((r.get::<GameId>(0)?, r.get::<String>(1)?)),
            )
        })?;
        Ok(last
            .filter(|(_, status)| status == GameStatus::Finished.as_str())
            .map(|(id, _)| id))
    }

    /// The level of a game's computer players (`easy`, `normal` or `hard`).
    pub fn bot_level(&self, game: GameId) -> Result<String> {
        self.0
            .db
            .read(|tx| {
                tx.query_opt(
                    "SELECT bot_level FROM games WHERE id = $1",
                    args![game],
                    |r| r.get(0),
                )
            })?
            .ok_or(StoreError::NoSuchGame(game))
    }

    /// Why a game was archived, if it was.
    pub fn archived_reason(&self, game: GameId) -> Result<Option<String>> {
        self.0
            .db
            .read(|tx| {
                tx.query_opt(
                    "SELECT archived_reason FROM games WHERE id = $1",
                    args![game],
                    |r| r.get(0),
                )
            })?
            .ok_or(StoreError::NoSuchGame(game))
    }

    /// Ends an active or damaged game without a result; its reminders go, its channel is free.
    pub fn abandon(&self, game: GameId) -> Result<()> {
        self.set_aside(game, GameStatus::Abandoned, None)
    }

    /// Sets an active or damaged game aside as `archived` (its channel was deleted or the bot
    /// left its server): kept whole (its log, snapshots and export), out of memory, no
    /// reminders, its channel free.
    pub fn archive(&self, game: GameId, reason: ArchiveReason) -> Result<()> {
        self.set_aside(game, GameStatus::Archived, Some(reason.as_str()))
    }

    /// Archives the active (or damaged) game of a deleted channel; returns it.
    pub fn archive_channel(&self, channel: u64) -> Result<Vec<GameId>> {
        let games = self.running_games("channel", channel)?;
        self.archive_each(&games, ArchiveReason::ChannelDeleted)
    }

    /// Archives every active (or damaged) game of a server the bot was removed from.
    pub fn archive_guild(&self, guild: u64) -> Result<Vec<GameId>> {
        let games = self.running_games("guild", guild)?;
        self.archive_each(&games, ArchiveReason::GuildRemoved)
    }

    /// The active or damaged games whose `column` (channel or guild) is `place`.
    fn running_games(&self, column: &str, place: u64) -> Result<Vec<GameId>> {
        let sql =
            format!("SELECT id FROM games WHERE {column} = $1 AND status IN ('active', 'damaged')");
        self.0
            .db
            .read(|tx| tx.query(&sql, args![place], |r| r.get(0)))
    }

    /// Archives each of `games`; returns those archived (one that finished or was abandoned
    /// meanwhile has nothing to keep and is passed over).
    fn archive_each(&self, games: &[GameId], reason: ArchiveReason) -> Result<Vec<GameId>> {
        let mut done = Vec::new();
        for game in games {
            match self.archive(*game, reason) {
                Ok(()) => done.push(*game),
                Err(StoreError::NotActive { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }

    /// Ends an active or damaged game with `status` (and why it was archived): its reminders
    /// go, it leaves memory, its channel is free. The game's row lock and its live entry are
    /// held throughout, so no move of any process slips in between.
    fn set_aside(
        &self,
        game: GameId,
        status: GameStatus,
        archived_reason: Option<&str>,
    ) -> Result<()> {
        let store = self.0;
        let entry = store.live.get(game);
        let mut guard = entry.as_ref().map(|e| lock(e));
        let now = now_ms();
        store.db.write(|tx| {
            let (current, _, _) = lock_game(tx, game)?.ok_or(StoreError::NoSuchGame(game))?;
            let current = GameStatus::parse(&current).ok_or_else(|| StoreError::Corrupt {
                game,
                message: format!("unknown status `{current}`"),
            })?;
            if !matches!(current, GameStatus::Active | GameStatus::Damaged) {
                return Err(StoreError::NotActive {
                    game,
                    status: current,
                });
            }
            tx.execute(
                "UPDATE games SET status = $2, archived_reason = $3, updated_at = $4 WHERE id = $1",
                args![game, status.as_str(), archived_reason, now],
            )?;
            super::waits::end_waits(tx, game)
        })?;
        if let Some(live) = guard.as_deref_mut() {
            store.live.evict(game, live);
        }
        Ok(())
    }
}

/// Sets (or replaces) a game's language (inside the caller's transaction). Its stored board
/// images show the old language's words, so they are cleared and drawn again when next asked
/// for.
pub(super) fn write_game_language(
    tx: &mut Tx<'_>,
    game: GameId,
    language: &str,
    now: i64,
) -> Result<()> {
    let before: Option<String> = tx.query_opt(
        "SELECT language FROM game_languages WHERE game_id = $1",
        args![game],
        |r| r.get(0),
    )?;
    tx.execute(
        "INSERT INTO game_languages (game_id, language, updated_at) VALUES ($1, $2, $3) \
         ON CONFLICT (game_id) DO UPDATE SET language = excluded.language, \
         updated_at = excluded.updated_at",
        args![game, language, now],
    )?;
    if before.as_deref() != Some(language) {
        super::images::clear_drawn(tx, game, None)?;
    }
    Ok(())
}

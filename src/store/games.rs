//! Game rows and their seats: creating a game (its row, seats and set-up snapshot in one
//! transaction; one active game per channel), reading game records, a game's seats and how
//! they are notified, and ending a game without a result (abandoned, archived).

use super::error::{Result, StoreError};
use super::images::insert_image_row;
use super::snapshots::insert_snapshot;
use super::{
    from_db, json, lock, now_ms, to_db, GameId, GameRecord, GameStatus, Location, NewGame, Notify,
    SeatOwner, SeatRecord, Store,
};
use crate::engine::{self, GameOptions, GameState, ENGINE_VERSION};
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::Arc;

pub(super) const GAME_COLUMNS: &str =
    "id, guild, channel, status, options, seed, seat_names, engine_version, \
     data_hash, last_seq, damage_report, created_at, updated_at";

/// A game row. Every column is decoded here, so a value that does not decode (text that is not
/// UTF-8, a seed that is not a number, options that do not parse) makes this one game
/// unreadable (`Corrupt`, with the reason), never the query it is part of. A game already set
/// aside as damaged is read with what can be read (id, place, status, report, times): it is
/// still listed and reported, and never played.
/// The game records of a listing query; one game that does not read is left out (and
/// logged), not the whole list.
pub(super) fn readable_games(
    rows: impl Iterator<Item = rusqlite::Result<Result<GameRecord>>>,
) -> Result<Vec<GameRecord>> {
    keep_readable(rows.map(|r| r.map_err(StoreError::from).and_then(|g| g)))
}

/// [`readable_games`] for either backend: the records, a `Corrupt` one left out (and logged).
pub(super) fn keep_readable(
    records: impl Iterator<Item = Result<GameRecord>>,
) -> Result<Vec<GameRecord>> {
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

pub(super) fn game_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<GameRecord>> {
    let id: GameId = r.get(0)?;
    let col = |i: usize, what: &str| -> std::result::Result<rusqlite::types::Value, String> {
        r.get::<_, rusqlite::types::Value>(i)
            .map_err(|e| format!("{what}: {e}"))
    };
    let text = |i: usize, what: &str| -> std::result::Result<String, String> {
        r.get::<_, String>(i)
            .map_err(|e| format!("the {what} is not text: {e}"))
    };
    let int = |i: usize, what: &str| -> std::result::Result<i64, String> {
        r.get::<_, i64>(i)
            .map_err(|e| format!("the {what} is not a number: {e}"))
    };
    let parsed = (|| -> std::result::Result<GameRecord, String> {
        let status_text = text(3, "status")?;
        let status = GameStatus::parse(&status_text)
            .ok_or_else(|| format!("unknown status `{status_text}`"))?;
        let guild = match col(1, "guild")? {
            rusqlite::types::Value::Null => None,
            _ => Some(from_db(int(1, "guild")?)),
        };
        let location = Location {
            guild,
            channel: from_db(int(2, "channel")?),
        };
        let damage_report = match col(10, "damage report")? {
            rusqlite::types::Value::Null => None,
            _ => Some(text(10, "damage report")?),
        };
        let (created_at, updated_at) = (int(11, "creation time")?, int(12, "update time")?);
        let heavy = (|| -> std::result::Result<_, String> {
            let options: GameOptions =
                serde_json::from_str(&text(4, "options")?).map_err(|e| format!("options: {e}"))?;
            let seat_names: Vec<String> = serde_json::from_str(&text(6, "seat names")?)
                .map_err(|e| format!("seat names: {e}"))?;
            Ok((
                options,
                from_db(int(5, "seed")?),
                seat_names,
                u32::try_from(int(7, "engine version")?).unwrap_or(u32::MAX),
                text(8, "data hash")?,
                from_db(int(9, "last move")?),
            ))
        })();
        let (options, seed, seat_names, engine_version, data_hash, seq) = match heavy {
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

pub(super) fn read_game(conn: &Connection, game: GameId) -> Result<GameRecord> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
    conn.prepare_cached(&sql)?
        .query_row([game], game_from_row)
        .optional()?
        .ok_or(StoreError::NoSuchGame(game))?
}

/// A game's seats in seat order (a seat that does not decode makes the game `Corrupt`).
pub(super) fn read_seats(c: &Connection, game: GameId) -> Result<Vec<SeatRecord>> {
    let mut stmt = c.prepare_cached(
        "SELECT seat, kind, user_id, name, colour, notify, waiting_since FROM seats \
         WHERE game_id = ?1 ORDER BY seat",
    )?;
    let rows = stmt.query_map([game], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<i64>>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, i64>(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, Option<i64>>(6)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        out.push(seat_record(
            row.map_err(|e| StoreError::decoding(game, "a seat", e))?,
        ));
    }
    Ok(out)
}

/// A seat row: seat, kind, user_id, name, colour, notify, waiting_since.
pub(super) type SeatRow = (i64, String, Option<i64>, String, i64, String, Option<i64>);

/// A seat from its row (either backend).
pub(super) fn seat_record(row: SeatRow) -> SeatRecord {
    let (seat, kind, user, name, colour, notify, waiting_since) = row;
    let owner = match (kind.as_str(), user) {
        ("discord", Some(u)) => SeatOwner::Discord(from_db(u)),
        ("local", _) => SeatOwner::Local,
        ("vacant", _) => SeatOwner::Vacant,
        _ => SeatOwner::Luna,
    };
    SeatRecord {
        seat: seat as usize,
        owner,
        name,
        colour: colour as usize,
        notify: if notify == "dm" {
            Notify::Dm
        } else {
            Notify::Ephemeral
        },
        waiting_since,
    }
}

/// The `kind` and `user_id` columns of a seat's owner.
pub(super) fn owner_columns(owner: SeatOwner) -> (&'static str, Option<i64>) {
    match owner {
        SeatOwner::Discord(u) => ("discord", Some(to_db(u))),
        SeatOwner::Local => ("local", None),
        SeatOwner::Luna => ("luna", None),
        SeatOwner::Vacant => ("vacant", None),
    }
}

/// A seat's owner and how it is notified: Luna's seat is always Luna's.
pub(super) fn seat_owner(
    seat: &crate::engine::state::Seat,
    i: usize,
    owner: &dyn Fn(usize) -> (SeatOwner, Notify),
) -> (SeatOwner, Notify) {
    if seat.is_luna() {
        (SeatOwner::Luna, Notify::Ephemeral)
    } else {
        owner(i)
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
    pub(super) state: &'a GameState,
    pub(super) status: GameStatus,
    pub(super) last_seq: u64,
    pub(super) now: i64,
}

impl Store {
    /// Starts a game: checks the options with the engine, stores the game, its seats and the
    /// set-up snapshot. Fails with `ChannelBusy` if the channel has an active game.
    pub fn create_game(&self, new: NewGame) -> Result<(GameId, Arc<GameState>)> {
        self.create_game_and(new, |_, _| Ok(()))
    }

    /// Creates a game and, in the same transaction, runs `also` with its id (a campaign records
    /// its chapter game this way, so a crash never leaves one without the other).
    pub(crate) fn create_game_and(
        &self,
        new: NewGame,
        also: impl FnOnce(&Connection, GameId) -> Result<()>,
    ) -> Result<(GameId, Arc<GameState>)> {
        new.check_has_person()?;
        let names: Vec<String> = new.seats.iter().map(|s| s.name.clone()).collect();
        let state = engine::new_game(&self.data, &new.options, &names)?;
        let id = self.insert_game(
            &new.location,
            &new.options,
            &names,
            &state,
            new_seat_owners(&new),
            also,
        )?;
        let state = Arc::new(state);
        self.insert_live(id, state.clone(), 0);
        Ok((id, state))
    }

    fn insert_game(
        &self,
        location: &Location,
        options: &GameOptions,
        names: &[String],
        state: &GameState,
        owner: impl Fn(usize) -> (SeatOwner, Notify),
        also: impl FnOnce(&Connection, GameId) -> Result<()>,
    ) -> Result<GameId> {
        let now = now_ms();
        let snapshot = json(state);
        self.write(|tx| {
            let id = self.insert_game_rows(
                tx,
                &GameRows {
                    location,
                    options,
                    names,
                    state,
                    status: GameStatus::Active,
                    last_seq: 0,
                    now,
                },
                &owner,
            )?;
            insert_snapshot(tx, id, 0, &snapshot, now)?;
            insert_image_row(tx, id, 0)?;
            also(tx, id)?;
            Ok(id)
        })
    }

    /// Inserts a game row and its seats (inside the caller's transaction). The seats come from
    /// the set-up state `rows.state`.
    pub(super) fn insert_game_rows(
        &self,
        tx: &Connection,
        rows: &GameRows<'_>,
        owner: &dyn Fn(usize) -> (SeatOwner, Notify),
    ) -> Result<GameId> {
        if matches!(rows.status, GameStatus::Active) {
            let busy: bool = tx
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM games WHERE channel = ?1 AND status IN ('active', 'damaged'))",
                )?
                .query_row([to_db(rows.location.channel)], |r| r.get(0))?;
            if busy {
                return Err(StoreError::ChannelBusy);
            }
        }
        tx.prepare_cached(
            "INSERT INTO games (guild, channel, status, options, seed, seat_names, \
             engine_version, data_hash, last_seq, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)",
        )?
        .execute(params![
            rows.location.guild.map(to_db),
            to_db(rows.location.channel),
            rows.status.as_str(),
            json(rows.options),
            to_db(rows.options.seed),
            json(rows.names),
            ENGINE_VERSION,
            self.data.hash,
            to_db(rows.last_seq),
            rows.now
        ])?;
        let id = tx.last_insert_rowid();
        for (i, seat) in rows.state.seats.iter().enumerate() {
            let (owner, notify) = seat_owner(seat, i, owner);
            let (kind, user) = owner_columns(owner);
            tx.prepare_cached(
                "INSERT INTO seats (game_id, seat, kind, user_id, name, colour, notify) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                id,
                i as i64,
                kind,
                user,
                seat.name,
                seat.colour as i64,
                notify.as_str()
            ])?;
        }
        Ok(id)
    }

    /// A game's stored row.
    pub fn game(&self, game: GameId) -> Result<GameRecord> {
        self.read(|c| read_game(c, game))
    }

    /// Every game in a status, oldest first.
    pub fn games_with_status(&self, status: GameStatus) -> Result<Vec<GameRecord>> {
        self.read(|c| {
            let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE status = ?1 ORDER BY id");
            let mut stmt = c.prepare(&sql)?;
            let rows = stmt.query_map([status.as_str()], game_from_row)?;
            readable_games(rows)
        })
    }

    /// The active (or damaged) game of a channel.
    pub fn game_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        self.read(|c| {
            c.prepare_cached(
                "SELECT id FROM games WHERE channel = ?1 AND status IN ('active', 'damaged')",
            )?
            .query_row([to_db(channel)], |r| r.get(0))
            .optional()
            .map_err(StoreError::from)
        })
    }

    /// The channel's most recent game when it has finished: what the channel may still look at
    /// (status, scores, log) once a game is over, until another one starts there.
    pub fn last_finished_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        self.read(|c| {
            let last: Option<(GameId, String)> = c
                .prepare_cached(
                    "SELECT id, status FROM games WHERE channel = ?1 ORDER BY id DESC LIMIT 1",
                )?
                .query_row([to_db(channel)], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            Ok(last
                .filter(|(_, status)| status == GameStatus::Finished.as_str())
                .map(|(id, _)| id))
        })
    }

    /// A game's seats in seat order.
    pub fn seats(&self, game: GameId) -> Result<Vec<SeatRecord>> {
        self.read(|c| read_seats(c, game))
    }

    /// Changes how a seat gets private messages.
    pub fn set_notify(&self, game: GameId, seat: usize, notify: Notify) -> Result<()> {
        let n = self.write(|tx| {
            Ok(tx
                .prepare_cached("UPDATE seats SET notify = ?3 WHERE game_id = ?1 AND seat = ?2")?
                .execute(params![game, seat as i64, notify.as_str()])?)
        })?;
        if n == 0 {
            return Err(StoreError::NoSuchSeat(seat));
        }
        Ok(())
    }

    /// Ends an active or damaged game without a result; its channel is free again.
    pub fn abandon(&self, game: GameId) -> Result<()> {
        self.set_aside(game, GameStatus::Abandoned, None)
    }

    /// Ends an active or damaged game with `status` (and why it was archived): its reminders
    /// go, it leaves memory, its channel is free. The game's lock is held throughout so no
    /// move slips in between.
    pub(crate) fn set_aside(
        &self,
        game: GameId,
        status: GameStatus,
        archived_reason: Option<&str>,
    ) -> Result<()> {
        let entry = self.live.get(game);
        let mut guard = entry.as_ref().map(|e| lock(e));
        let current = self.game(game)?.status;
        if !matches!(current, GameStatus::Active | GameStatus::Damaged) {
            return Err(StoreError::NotActive {
                game,
                status: current,
            });
        }
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE games SET status = ?2, archived_reason = ?3, updated_at = ?4 WHERE id = ?1",
            )?
            .execute(params![game, status.as_str(), archived_reason, now])?;
            tx.prepare_cached("DELETE FROM reminders WHERE game_id = ?1")?
                .execute([game])?;
            Ok(())
        })?;
        if let Some(live) = guard.as_deref_mut() {
            self.evict(game, live);
        }
        Ok(())
    }
}

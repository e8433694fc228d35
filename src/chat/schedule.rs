//! The chat's side of the schedule (DECISIONS B7): what a change of who a game waits on
//! implies — one reminder per seat waited on, after its user's delay and waiting for their
//! away time and quiet hours, and a deadline where one is configured — and the timer's tick
//! that sends the reminders due and plays stalled turns safely once their deadline passed.
//!
//! The plan ([`WaitPlan`]) is worked out from the seats and the users' settings BEFORE a
//! change takes the game's lock, and the store writes it in the change's own transaction (a
//! move, an undo, a rollback, a new game, a resume, a seat taken over): a crash or a failed
//! write never leaves a game waiting on a person without their reminder and deadline.

use super::game::Actor;
use super::prompt::ClickId;
use super::{time, Audience, Chat, Choice, Pinged, Reply};
use crate::engine::{self, Decision, Event, GameState};
use crate::store::{GameId, MoveEffects, NewSeat, SeatOwner, StoreError, UserSettings, WaitPlan};
use std::collections::{BTreeMap, BTreeSet};

/// The reminder kinds kept in the store.
const REMIND: &str = "remind";
const DEADLINE: &str = "deadline";
/// A claimed reminder comes due again after this long unless the tick set or cleared it
/// (the process that claimed it died, or the tick left it for later).
const REMINDER_LEASE_MS: i64 = 60_000;

/// Whether a change from `before` to `after` by `actor` changes the schedule, and if so
/// whether every wait starts afresh: the game waits on other seats, the phase or round
/// changed, or the actor's turn ended (a turn that ends starts the next one's reminder and
/// deadline afresh, also when the game waits on the same seat again).
pub(crate) fn schedule_change(
    actor: Actor,
    before: Option<&GameState>,
    after: &GameState,
) -> Option<bool> {
    let same_phase = before.is_some_and(|b| b.phase == after.phase && b.round == after.round);
    let turn_passed = super::turn::turn_passed(actor, before, after);
    let waiting_changed = before.is_none_or(|b| engine::waiting_on(b) != engine::waiting_on(after));
    (!same_phase || waiting_changed || turn_passed).then_some(!same_phase || turn_passed)
}

impl Chat {
    /// The kind of a seat's deadline among its reminders in the store.
    pub(crate) const DEADLINE: &'static str = DEADLINE;

    /// What a move by `actor` writes besides itself: `plan` (worked out before the lock) when it
    /// changes the schedule.
    pub(crate) fn move_effects(
        plan: &WaitPlan,
        actor: Actor,
    ) -> impl Fn(&GameState, &GameState, &[Event]) -> MoveEffects + '_ {
        move |before, after, _| MoveEffects {
            notifications: Vec::new(),
            waits: schedule_change(actor, Some(before), after).map(|fresh| WaitPlan {
                fresh,
                ..plan.clone()
            }),
        }
    }

    /// When the user with `settings` is next reminded, counting their delay from `from` and
    /// waiting for their away time and quiet hours; None when they turned reminders off.
    pub(crate) fn next_reminder_for(&self, settings: &UserSettings, from: i64) -> Option<i64> {
        if settings.reminders_off {
            return None;
        }
        let delay = settings
            .remind_after_min
            .map(|m| i64::from(m) * 60_000)
            .unwrap_or(self.config.reminder_after_ms);
        Some(time::reminder_time(from + delay, settings))
    }

    /// The reminders each seat's wait starts with from now, read from the game's seats and
    /// their users' settings (before any lock is taken): see [`WaitPlan`].
    pub(crate) fn wait_plan(&self, game: GameId) -> Result<WaitPlan, StoreError> {
        let seats = self.store.people().seats(game)?;
        self.plan_for(seats.iter().map(|s| (s.seat, s.owner)))
    }

    /// [`Chat::wait_plan`] of a game not created yet, from its seats.
    pub(crate) fn new_game_plan(&self, seats: &[NewSeat]) -> Result<WaitPlan, StoreError> {
        self.plan_for(seats.iter().enumerate().map(|(i, s)| (i, s.owner)))
    }

    pub(crate) fn plan_for(
        &self,
        seats: impl Iterator<Item = (usize, SeatOwner)>,
    ) -> Result<WaitPlan, StoreError> {
        let now = self.clock.now_ms();
        let mut reminders = BTreeMap::new();
        for (seat, owner) in seats {
            let remind_at = match owner {
                // A computer player moves at once: nobody to remind, no deadline.
                SeatOwner::Vacant => continue,
                SeatOwner::Discord(user) => {
                    let settings = self.store.people().user_settings(user)?;
                    self.next_reminder_for(&settings, now)
                }
                SeatOwner::Local | SeatOwner::Luna => Some(now + self.config.reminder_after_ms),
            };
            let mut times = Vec::new();
            if let Some(at) = remind_at {
                times.push((REMIND.to_string(), at));
            }
            if let Some(d) = self.config.deadline_ms {
                times.push((DEADLINE.to_string(), now + d));
            }
            reminders.insert(seat, times);
        }
        Ok(WaitPlan {
            now,
            fresh: false,
            reminders,
        })
    }

    /// Called by the adapter's timer: reminders due now, and stalled turns played safely once
    /// their deadline has passed. The due reminders are claimed (another process sharing the
    /// database does not get them) and each is then set or cleared as below, so the claim's
    /// lease matters only when this process dies before it got there.
    pub fn tick(&self) -> Vec<Reply> {
        let now = self.clock.now_ms();
        let due = match self
            .store
            .schedule()
            .claim_due_reminders(now, REMINDER_LEASE_MS)
        {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "cannot claim the due reminders; trying at the next tick");
                Vec::new()
            }
        };
        let mut replies = Vec::new();
        let mut seen = BTreeSet::new();
        for r in due {
            if !seen.insert((r.game, r.seat, r.kind.clone())) {
                continue;
            }
            let state = match self.store.games().state(r.game) {
                Ok(state) => state,
                Err(e) => {
                    tracing::warn!(game = r.game, error = %e, "a due reminder's game cannot be read; it comes due again after its lease");
                    continue;
                }
            };
            if !engine::waiting_on(&state).contains(&r.seat) {
                continue;
            }
            let Some((user, _)) = self.user_of(r.game, r.seat) else {
                // A computer player's seat: played below.
                continue;
            };
            if r.kind == DEADLINE {
                replies.extend(self.play_safely(r.game, &state, r.seat, "deadline.played"));
                replies.extend(self.play_computers(r.game));
                continue;
            }
            let settings = match self.store.people().user_settings(user) {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(game = r.game, user, error = %e, "a reminder's user settings cannot be read; it comes due again after its lease");
                    continue;
                }
            };
            let set = match self.next_reminder_for(&settings, now) {
                // The user turned reminders off after this one was set.
                None => self.store.schedule().clear_reminder(r.game, r.seat, REMIND),
                // Away or quiet hours: the reminder waits until they are over.
                Some(_) if time::reminder_time(now, &settings) > now => self
                    .store
                    .schedule()
                    .set_reminder(r.game, r.seat, REMIND, time::reminder_time(now, &settings)),
                Some(next) => {
                    let public_texts = self.game_texts(r.game);
                    let mut ping = Reply::new(
                        Audience::Ping(Pinged::one(user)),
                        public_texts.f("ping.reminder", &[("name", &state.seats[r.seat].name)]),
                    );
                    ping.choices = vec![Choice::new(
                        ClickId::Open { game: r.game }.encode(),
                        public_texts.t("button.turn"),
                    )];
                    replies.push(ping);
                    self.store
                        .schedule()
                        .set_reminder(r.game, r.seat, REMIND, next)
                }
            };
            if let Err(e) = set {
                tracing::warn!(game = r.game, seat = r.seat, error = %e, "a reminder was not moved on; it comes due again after its lease");
            }
        }
        // Computer players waited on (after a restart in the middle of their turns).
        replies.extend(self.resume_computers());
        replies.extend(self.sweep_idle_games());
        replies
    }

    /// A stalled (or vacant) seat's turn, played by the bot: finish planning as is, or drop
    /// out (the safe default), taking the simplest legal choice for anything asked along the
    /// way; announced publicly with the message `announce` (its `{name}`: the seat).
    pub(crate) fn play_safely(
        &self,
        game: GameId,
        state: &GameState,
        seat: usize,
        announce: &str,
    ) -> Vec<Reply> {
        let mut scratch = state.clone();
        let mut decisions = Vec::new();
        while engine::waiting_on(&scratch).contains(&seat) && decisions.len() < 64 {
            let legal = engine::legal_decisions(&self.data, &scratch, seat);
            let pick = [
                Decision::PlanDone,
                Decision::DropOut,
                Decision::NoBuy,
                Decision::StopTracks,
                Decision::StopExpanding,
                Decision::SkipFlip,
                Decision::StopAdvancing,
                Decision::TakeCoin,
                Decision::DeclineBarrier,
            ]
            .into_iter()
            .find(|d| legal.contains(d))
            .or_else(|| legal.first().copied());
            let Some(d) = pick else { break };
            if engine::apply(&self.data, &mut scratch, seat, d).is_err() {
                break;
            }
            decisions.push(d);
            if scratch.phase != state.phase || scratch.round != state.round {
                break;
            }
        }
        if decisions.is_empty() {
            return Vec::new();
        }
        let stored = self.wait_plan(game).and_then(|plan| {
            self.store.games().apply_with(
                game,
                seat,
                &decisions,
                &Self::move_effects(&plan, Actor::Nobody),
            )
        });
        let outcome = match stored {
            Ok(outcome) => outcome,
            Err(e) => {
                tracing::warn!(game, seat, error = %e, "a stalled turn could not be played; it is tried again when its deadline comes due after its lease");
                return Vec::new();
            }
        };
        let mut replies = vec![Reply::public(
            self.game_texts(game)
                .f(announce, &[("name", &state.seats[seat].name)]),
        )
        .about(game)];
        replies.extend(self.after_move(
            game,
            &outcome.state,
            outcome.seq,
            &outcome.events,
            Actor::Nobody,
            Some(state),
        ));
        replies
    }
}

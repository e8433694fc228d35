-- Skymines game store, schema version 6: each user's reminder settings (on/off and delay),
-- kept with their other personal settings. Applied by src/store/migrate.rs after 0005_admin.sql.

ALTER TABLE user_settings ADD COLUMN reminders_off INTEGER NOT NULL DEFAULT 0
    CHECK (reminders_off IN (0, 1));
-- Minutes from the moment a game waits on the user to the reminder; NULL: the bot's default.
ALTER TABLE user_settings ADD COLUMN remind_after_min INTEGER
    CHECK (remind_after_min BETWEEN 5 AND 10080);

-- Skymines game store on PostgreSQL, schema version 6: the twin of ../0006_reminder_settings.sql.
ALTER TABLE user_settings ADD COLUMN reminders_off BIGINT NOT NULL DEFAULT 0
    CHECK (reminders_off IN (0, 1));
ALTER TABLE user_settings ADD COLUMN remind_after_min BIGINT
    CHECK (remind_after_min BETWEEN 5 AND 10080);

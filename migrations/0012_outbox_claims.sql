-- Skymines game store, schema version 12: queued messages can be claimed, as on PostgreSQL.
-- Applied by src/store/migrate.rs after 0011_computer_players.sql.
--
-- The store writes each operation once for both databases: a flush claims the messages it
-- sends with `claimed_until`. One process owns an SQLite file, so there a claim lasts no
-- longer than the flush (what it did not send is offered again at the next one); on
-- PostgreSQL several processes share the queue and a claim holds for a lease.
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;   -- Unix ms: a flush is sending it until then

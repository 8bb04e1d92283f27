-- The request log keeps bodies up to 8 KiB as text (modules/request-log/writer.ts): the database compresses them when
-- their row is long. lz4 does that at a fraction of pglz's cost, where the server has it (Debian's PostgreSQL does;
-- PGlite has pglz only, and keeps it).
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE "request_log" ALTER COLUMN "request_body" SET COMPRESSION lz4, ALTER COLUMN "response_body" SET COMPRESSION lz4;
  END IF;
END $$;

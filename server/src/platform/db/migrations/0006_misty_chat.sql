CREATE TABLE "token_failure_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "token_failure_counters_window_idx" ON "token_failure_counters" USING btree ("window_start");
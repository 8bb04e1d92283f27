CREATE TABLE "storage_usage" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "storage_usage_bytes_check" CHECK ("storage_usage"."bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "storage_usage" ADD CONSTRAINT "storage_usage_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Files stored before the quota count from the start: the usage of each client is what its parts hold.
INSERT INTO "storage_usage" ("client_id", "bytes")
SELECT "client_id", sum(octet_length("bytes")) FROM "file_parts" GROUP BY "client_id";

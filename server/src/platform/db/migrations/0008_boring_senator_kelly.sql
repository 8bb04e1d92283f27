CREATE TABLE "countries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "countries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "languages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"request_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"api" text NOT NULL,
	"operation_id" text,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" double precision NOT NULL,
	"request_content_type" text,
	"request_body" text,
	"request_bytes" integer DEFAULT 0 NOT NULL,
	"request_truncated" boolean DEFAULT false NOT NULL,
	"response_content_type" text,
	"response_body" text,
	"response_bytes" integer DEFAULT 0 NOT NULL,
	"response_truncated" boolean DEFAULT false NOT NULL,
	"warnings" json DEFAULT '[]'::json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "payload" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "paperless" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "countries" ADD CONSTRAINT "countries_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "languages" ADD CONSTRAINT "languages_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "countries_client_idx" ON "countries" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "languages_client_idx" ON "languages" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "request_log_client_idx" ON "request_log" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "request_log_client_request_id_idx" ON "request_log" USING btree ("client_id","request_id");--> statement-breakpoint
CREATE INDEX "request_log_received_at_idx" ON "request_log" USING btree ("received_at");--> statement-breakpoint
-- Clients made before settings were theirs keep the lists every client saw, now as their own rows (language codes upper-case).
INSERT INTO "languages" ("client_id", "code", "name")
SELECT c."id", v.code, v.name FROM "clients" c CROSS JOIN (VALUES (0, 'NL', 'Nederlands'), (1, 'EN', 'Engels'), (2, 'DE', 'Duits'), (3, 'FR', 'Frans'), (4, 'ES', 'Spaans'), (5, 'IT', 'Italiaans'), (6, 'PL', 'Pools'), (7, 'SV', 'Zweeds'), (8, 'DA', 'Deens'), (9, 'PT', 'Portugees'), (10, 'FI', 'Fins')) AS v(n, code, name) ORDER BY c."id", v.n;--> statement-breakpoint
INSERT INTO "countries" ("client_id", "code", "name")
SELECT c."id", v.code, v.name FROM "clients" c CROSS JOIN (VALUES (0, 'NL', 'Netherlands'), (1, 'BE', 'Belgium'), (2, 'DE', 'Germany'), (3, 'FR', 'France'), (4, 'GB', 'United Kingdom'), (5, 'LU', 'Luxembourg'), (6, 'AT', 'Austria'), (7, 'DK', 'Denmark'), (8, 'ES', 'Spain'), (9, 'IT', 'Italy'), (10, 'PL', 'Poland'), (11, 'SE', 'Sweden'), (12, 'IE', 'Ireland'), (13, 'PT', 'Portugal'), (14, 'FI', 'Finland'), (15, 'CZ', 'Czechia'), (16, 'CH', 'Switzerland'), (17, 'NO', 'Norway'), (18, 'US', 'United States'), (19, 'ES-CN', 'Canary Islands')) AS v(n, code, name) ORDER BY c."id", v.n;--> statement-breakpoint
UPDATE "shipping_methods" SET "paperless" = true WHERE "kind" = 'return' AND "code" = 'RETURN_PAPERLESS';

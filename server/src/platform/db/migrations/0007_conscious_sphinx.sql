CREATE TABLE "file_parts" (
	"client_id" integer NOT NULL,
	"owner" text NOT NULL,
	"owner_id" integer NOT NULL,
	"part" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "file_parts_owner_owner_id_part_pk" PRIMARY KEY("owner","owner_id","part"),
	CONSTRAINT "file_parts_owner_check" CHECK ("file_parts"."owner" in ('productImage', 'orderAttachment'))
);
--> statement-breakpoint
ALTER TABLE "file_parts" ADD CONSTRAINT "file_parts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Keeps the files stored before parts existed, cut into parts of 256 KiB like file-parts.ts writes them.
INSERT INTO "file_parts" ("client_id", "owner", "owner_id", "part", "bytes")
SELECT "client_id", 'productImage', "id", n, substring("image" FROM n * 262144 + 1 FOR 262144)
FROM "products", generate_series(0, (length("image") - 1) / 262144) AS n
WHERE "image" IS NOT NULL;--> statement-breakpoint
INSERT INTO "file_parts" ("client_id", "owner", "owner_id", "part", "bytes")
SELECT "client_id", 'orderAttachment', "id", n, substring("content" FROM n * 262144 + 1 FOR 262144)
FROM "order_attachments", generate_series(0, (length("content") - 1) / 262144) AS n;--> statement-breakpoint
ALTER TABLE "order_attachments" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "image";
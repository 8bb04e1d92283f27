CREATE TABLE "order_item_json" (
	"order_item_id" integer PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_json" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_item_json_order_idx" ON "order_item_json" USING btree ("order_id","order_item_id");
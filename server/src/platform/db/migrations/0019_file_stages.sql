CREATE TABLE "file_stages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "file_stages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_parts" DROP CONSTRAINT "file_parts_owner_check";--> statement-breakpoint
ALTER TABLE "file_stages" ADD CONSTRAINT "file_stages_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_parts" ADD CONSTRAINT "file_parts_owner_check" CHECK ("file_parts"."owner" in ('productImage', 'orderAttachment', 'staged'));
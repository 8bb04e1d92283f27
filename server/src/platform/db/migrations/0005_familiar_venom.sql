CREATE TABLE "warehouse_tasks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "warehouse_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"due_on" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "warehouse_tasks" ADD CONSTRAINT "warehouse_tasks_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "warehouse_tasks_entity_key" ON "warehouse_tasks" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "warehouse_tasks_client_due_idx" ON "warehouse_tasks" USING btree ("client_id","due_on");
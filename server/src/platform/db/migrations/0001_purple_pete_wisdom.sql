CREATE TABLE "stock" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stock_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"location_type" text NOT NULL,
	"location_code" text NOT NULL,
	"quantity" integer NOT NULL,
	"quality" text DEFAULT 'OK' NOT NULL,
	"status" text DEFAULT 'OK' NOT NULL,
	"expiration_date" date,
	"expiration_status" text,
	"lot_number" text,
	"quarantined" boolean DEFAULT false NOT NULL,
	"modified_on" timestamp with time zone NOT NULL,
	"received_on" timestamp with time zone NOT NULL,
	"inbound_item_id" integer
);
--> statement-breakpoint
CREATE TABLE "stock_mutations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stock_mutations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"type" text NOT NULL,
	"created_on" timestamp with time zone NOT NULL,
	"warehouse_code" text NOT NULL,
	"location_type" text NOT NULL,
	"location_code" text NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"quality" text DEFAULT 'OK' NOT NULL,
	"status" text DEFAULT 'OK' NOT NULL,
	"expiration_date" date,
	"lot_number" text,
	"correction_code" text,
	"remarks" text,
	"inbound_item_id" integer,
	"shipment_item_id" integer,
	"return_item_id" integer,
	"synced" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stock" ADD CONSTRAINT "stock_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock" ADD CONSTRAINT "stock_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_mutations" ADD CONSTRAINT "stock_mutations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_mutations" ADD CONSTRAINT "stock_mutations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_client_id_idx" ON "stock" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "stock_client_product_idx" ON "stock" USING btree ("client_id","product_id");--> statement-breakpoint
CREATE INDEX "stock_mutations_client_id_idx" ON "stock_mutations" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "stock_mutations_client_product_idx" ON "stock_mutations" USING btree ("client_id","product_id","created_on");
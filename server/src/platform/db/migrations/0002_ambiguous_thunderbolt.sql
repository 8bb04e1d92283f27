CREATE TABLE "stock_locations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stock_locations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"warehouse_code" text NOT NULL,
	"location_type" text NOT NULL,
	"location_code" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"inbound_id" integer NOT NULL,
	"inbound_packing_slip_item_id" integer,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"lot_number" text,
	"expiration_date" date
);
--> statement-breakpoint
CREATE TABLE "inbound_packing_slip_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_packing_slip_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"inbound_packing_slip_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"expected_date" date
);
--> statement-breakpoint
CREATE TABLE "inbound_packing_slips" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_packing_slips_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"reference" text NOT NULL,
	"expected_in" text NOT NULL,
	"expected_on" date,
	"status" text DEFAULT 'EXPECTED' NOT NULL,
	"comments" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"received_on" timestamp with time zone,
	"completed_on" timestamp with time zone,
	"created_on" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbounds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbounds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"inbound_packing_slip_id" integer,
	"reference" text NOT NULL,
	"status" text DEFAULT 'PROCESSING' NOT NULL,
	"received_in" text NOT NULL,
	"created_on" timestamp with time zone NOT NULL,
	"checking_on" timestamp with time zone,
	"checked_on" timestamp with time zone,
	"completes_on" timestamp with time zone,
	"completed_on" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "return_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "return_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"return_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"order_item_id" integer,
	"shipment_item_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"return_reason_id" integer,
	"external_order_number" text NOT NULL,
	"external_reference" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"condition" text,
	"processed_on" timestamp with time zone,
	"processed_in" text,
	"restock_in" text,
	"restock_on" timestamp with time zone,
	"comment" text,
	"redeliver" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "returns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"shipment_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"remark" text,
	"external_reference" text,
	"created_on" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stock" ALTER COLUMN "expiration_status" SET DEFAULT 'OK';--> statement-breakpoint
ALTER TABLE "stock" ALTER COLUMN "expiration_status" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "stock" ADD COLUMN "stock_location_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_locations" ADD CONSTRAINT "stock_locations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_items" ADD CONSTRAINT "inbound_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_items" ADD CONSTRAINT "inbound_items_inbound_id_inbounds_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbounds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_items" ADD CONSTRAINT "inbound_items_inbound_packing_slip_item_id_inbound_packing_slip_items_id_fk" FOREIGN KEY ("inbound_packing_slip_item_id") REFERENCES "public"."inbound_packing_slip_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_items" ADD CONSTRAINT "inbound_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_packing_slip_items" ADD CONSTRAINT "inbound_packing_slip_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_packing_slip_items" ADD CONSTRAINT "inbound_packing_slip_items_inbound_packing_slip_id_inbound_packing_slips_id_fk" FOREIGN KEY ("inbound_packing_slip_id") REFERENCES "public"."inbound_packing_slips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_packing_slip_items" ADD CONSTRAINT "inbound_packing_slip_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_packing_slips" ADD CONSTRAINT "inbound_packing_slips_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbounds" ADD CONSTRAINT "inbounds_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbounds" ADD CONSTRAINT "inbounds_inbound_packing_slip_id_inbound_packing_slips_id_fk" FOREIGN KEY ("inbound_packing_slip_id") REFERENCES "public"."inbound_packing_slips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_locations_client_code_key" ON "stock_locations" USING btree ("client_id","warehouse_code","location_code");--> statement-breakpoint
CREATE INDEX "inbound_items_inbound_idx" ON "inbound_items" USING btree ("inbound_id","id");--> statement-breakpoint
CREATE INDEX "inbound_packing_slip_items_slip_idx" ON "inbound_packing_slip_items" USING btree ("inbound_packing_slip_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_packing_slips_client_reference_key" ON "inbound_packing_slips" USING btree ("client_id","reference");--> statement-breakpoint
CREATE INDEX "inbound_packing_slips_client_id_idx" ON "inbound_packing_slips" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "inbounds_client_id_idx" ON "inbounds" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "return_items_client_id_idx" ON "return_items" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "return_items_return_idx" ON "return_items" USING btree ("return_id");--> statement-breakpoint
CREATE INDEX "returns_client_id_idx" ON "returns" USING btree ("client_id","id");--> statement-breakpoint
ALTER TABLE "stock" ADD CONSTRAINT "stock_stock_location_id_stock_locations_id_fk" FOREIGN KEY ("stock_location_id") REFERENCES "public"."stock_locations"("id") ON DELETE no action ON UPDATE no action;
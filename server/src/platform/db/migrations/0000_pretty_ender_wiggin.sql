CREATE TABLE "clients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"default_warehouse" text DEFAULT 'NR' NOT NULL,
	"clock_offset_seconds" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"allow_partial_delivery" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"client_id" integer NOT NULL,
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_counters_client_id_bucket_window_start_pk" PRIMARY KEY("client_id","bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "return_reasons" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "return_reasons_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_methods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shipping_methods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"carrier" text NOT NULL,
	"main_shipping_method_id" integer,
	"warehouse" text
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"order_id" integer,
	"first_name" text,
	"last_name" text,
	"prefix" text,
	"company" text,
	"street1" text NOT NULL,
	"street2" text,
	"house_number" text,
	"house_number_extension" text,
	"postcode" text,
	"city" text NOT NULL,
	"region" text,
	"country_code" text NOT NULL,
	"translated_name" text
);
--> statement-breakpoint
CREATE TABLE "order_attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"print_strategy" text NOT NULL,
	"content" "bytea" NOT NULL,
	"page_format" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"ordered_quantity" integer NOT NULL,
	"channel_identifier" text,
	"fulfill_from" text,
	"price" numeric(14, 2),
	"vat" numeric(6, 3) DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"external_order_number" text NOT NULL,
	"locale" text NOT NULL,
	"reference" text,
	"ordered_on" timestamp with time zone,
	"consumer_reference" text,
	"promotion_code" text,
	"email" text NOT NULL,
	"phone_number" text,
	"vat_number" text,
	"fulfill_from" text,
	"preferred_shipping_date" date,
	"allow_partial_delivery" boolean DEFAULT false NOT NULL,
	"on_hold" boolean DEFAULT false NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"channel_identifier" text,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"order_type_id" integer NOT NULL,
	"preferred_shipping_method_id" integer NOT NULL,
	"delivery_address_id" integer NOT NULL,
	"billing_address_id" integer NOT NULL,
	"is_valid" boolean DEFAULT true NOT NULL,
	"fulfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pick_up_points" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pick_up_points_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"identifier" text NOT NULL,
	"registration_number" text,
	"name" text,
	"street1" text,
	"street2" text,
	"postcode" text,
	"house_number" text,
	"house_number_extension" text,
	"city" text,
	"region" text,
	"country_code" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shipment_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"shipment_id" integer NOT NULL,
	"order_item_id" integer,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"lot_number" text,
	"expiration_date" date,
	"serial_numbers" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shipments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"order_type_id" integer NOT NULL,
	"shipping_method_id" integer NOT NULL,
	"status" text NOT NULL,
	"ready_to_pick_on" timestamp with time zone,
	"ready_to_ship_on" timestamp with time zone,
	"shipped_on" timestamp with time zone,
	"warehouse_code" text NOT NULL,
	"weight" integer,
	"invoicing_weight" integer,
	"basket_picture" text,
	"return_label" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tracking" jsonb,
	"tracking_updated_at" timestamp with time zone,
	"colli" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"synced" boolean DEFAULT false NOT NULL,
	"labeled_synced" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_parts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_parts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"part_id" integer NOT NULL,
	"quantity" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"type" text DEFAULT 'DEFAULT' NOT NULL,
	"status" text DEFAULT 'AVAILABLE' NOT NULL,
	"barcode" text,
	"has_barcode" boolean DEFAULT false NOT NULL,
	"stock_level_type" text DEFAULT 'AVAILABLE' NOT NULL,
	"has_lot_number" boolean DEFAULT false NOT NULL,
	"has_serial_number" boolean DEFAULT false NOT NULL,
	"has_expiration_date" boolean DEFAULT false NOT NULL,
	"expiration_date_margin" integer,
	"expiration_date_warning" integer,
	"country_of_origin" text,
	"hs_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"purchase_price" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"legacy" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"weight" integer,
	"length" integer,
	"width" integer,
	"height" integer,
	"image" "bytea",
	"image_content_type" text,
	"cost_price" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_types" ADD CONSTRAINT "order_types_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_reasons" ADD CONSTRAINT "return_reasons_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_attachments" ADD CONSTRAINT "order_attachments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_attachments" ADD CONSTRAINT "order_attachments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_up_points" ADD CONSTRAINT "pick_up_points_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_up_points" ADD CONSTRAINT "pick_up_points_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_parts" ADD CONSTRAINT "product_parts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_parts" ADD CONSTRAINT "product_parts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_parts" ADD CONSTRAINT "product_parts_part_id_products_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_username_key" ON "clients" USING btree ("username");--> statement-breakpoint
CREATE INDEX "order_types_client_idx" ON "order_types" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "return_reasons_client_idx" ON "return_reasons" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "shipping_methods_client_idx" ON "shipping_methods" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_hash_key" ON "tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "tokens_client_idx" ON "tokens" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "addresses_order_idx" ON "addresses" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_attachments_order_idx" ON "order_attachments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_items_order_idx" ON "order_items" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_client_external_key" ON "orders" USING btree ("client_id","external_order_number");--> statement-breakpoint
CREATE INDEX "orders_client_id_idx" ON "orders" USING btree ("client_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pick_up_points_order_key" ON "pick_up_points" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "shipment_items_shipment_idx" ON "shipment_items" USING btree ("shipment_id","id");--> statement-breakpoint
CREATE INDEX "shipments_client_id_idx" ON "shipments" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "product_parts_product_idx" ON "product_parts" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_client_sku_key" ON "products" USING btree ("client_id","sku");--> statement-breakpoint
CREATE UNIQUE INDEX "products_client_barcode_key" ON "products" USING btree ("client_id","barcode");--> statement-breakpoint
CREATE INDEX "products_client_id_idx" ON "products" USING btree ("client_id","id");
ALTER TABLE "orders" ADD COLUMN "scenario" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "scenario_set_by" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "road_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "track_trace_code" integer;
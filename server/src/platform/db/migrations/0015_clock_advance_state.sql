ALTER TABLE "clients" ADD COLUMN "advance_from_offset_seconds" bigint;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "advance_to_offset_seconds" bigint;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "warehouse_lease_owner" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "warehouse_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_advance_check" CHECK (("clients"."advance_from_offset_seconds" is null and "clients"."advance_to_offset_seconds" is null) or "clients"."advance_to_offset_seconds" > "clients"."advance_from_offset_seconds");
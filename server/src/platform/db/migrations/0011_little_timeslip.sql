ALTER TABLE "request_log" ADD COLUMN "request_body_brotli" "bytea";--> statement-breakpoint
ALTER TABLE "request_log" ADD COLUMN "response_body_brotli" "bytea";--> statement-breakpoint
ALTER TABLE "request_log" ALTER COLUMN "request_body_brotli" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "request_log" ALTER COLUMN "response_body_brotli" SET STORAGE EXTERNAL;

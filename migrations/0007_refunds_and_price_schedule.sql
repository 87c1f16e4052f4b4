CREATE TABLE `payment_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`months_removed` integer DEFAULT 0 NOT NULL,
	`user_id` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_refunds_payment` ON `payment_refunds` (`payment_id`);--> statement-breakpoint
CREATE TABLE `price_schedule` (
	`id` text PRIMARY KEY NOT NULL,
	`price` integer NOT NULL,
	`effective_from` integer NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `price_schedule_from` ON `price_schedule` (`effective_from`);--> statement-breakpoint
CREATE INDEX `payments_status` ON `payments` (`status`);
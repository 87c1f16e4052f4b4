CREATE TABLE `payment_receipts` (
	`payment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`payment_id`, `user_id`)
);
--> statement-breakpoint
ALTER TABLE `payments` ADD `new_end_date` integer;
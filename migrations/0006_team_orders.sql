CREATE TABLE `payment_items` (
	`payment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`months` integer NOT NULL,
	`days` integer NOT NULL,
	`price` integer NOT NULL,
	`new_end_date` integer,
	PRIMARY KEY(`payment_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `payment_items_user` ON `payment_items` (`user_id`);--> statement-breakpoint
ALTER TABLE `payments` ADD `kind` text DEFAULT 'single' NOT NULL;
CREATE TABLE `subscription_reminders` (
	`user_id` text NOT NULL,
	`end_date` integer NOT NULL,
	`threshold` integer NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `end_date`, `threshold`)
);
--> statement-breakpoint
ALTER TABLE `users` ADD `reminders_enabled` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `users_subscription_end` ON `users` (`subscription_end_date`);
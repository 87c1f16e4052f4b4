CREATE TABLE `extension_health_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`user_id` text NOT NULL,
	`hour` integer NOT NULL,
	`version` text NOT NULL,
	`layout` text NOT NULL,
	`rows_seen` integer NOT NULL,
	`unreadable` integer NOT NULL,
	`fields` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `extension_health_session_hour` ON `extension_health_reports` (`session_id`,`hour`);--> statement-breakpoint
CREATE INDEX `extension_health_created` ON `extension_health_reports` (`created_at`);--> statement-breakpoint
ALTER TABLE `active_loads` ADD `reference` text DEFAULT '' NOT NULL;
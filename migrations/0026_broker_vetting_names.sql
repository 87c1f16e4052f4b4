CREATE TABLE `broker_vetting_names` (
	`name` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `broker_vetting_names_key` ON `broker_vetting_names` (`key`);
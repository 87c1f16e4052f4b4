CREATE TABLE `broker_filter_aliases` (
	`filter_id` text NOT NULL,
	`team_id` text NOT NULL,
	`alias` text NOT NULL,
	`normal_alias` text NOT NULL,
	PRIMARY KEY(`filter_id`, `normal_alias`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `broker_filter_aliases_team_normal` ON `broker_filter_aliases` (`team_id`,`normal_alias`);--> statement-breakpoint
CREATE TABLE `broker_filter_events` (
	`id` text PRIMARY KEY NOT NULL,
	`filter_id` text NOT NULL,
	`team_id` text NOT NULL,
	`actor_id` text NOT NULL,
	`kind` text NOT NULL,
	`changes` text DEFAULT '{}' NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `broker_filter_events_filter` ON `broker_filter_events` (`filter_id`,`at`);--> statement-breakpoint
CREATE TABLE `broker_filter_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`filter_id` text NOT NULL,
	`team_id` text NOT NULL,
	`author_id` text NOT NULL,
	`text` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `broker_filter_notes_filter` ON `broker_filter_notes` (`filter_id`,`at`);--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `normal_name` text;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `mc_number` text;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `dot_number` text;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `rejected_reason` text;--> statement-breakpoint
CREATE UNIQUE INDEX `broker_filters_team_normal_name` ON `broker_filters` (`team_id`,`normal_name`);--> statement-breakpoint
CREATE UNIQUE INDEX `broker_filters_team_mc_number` ON `broker_filters` (`team_id`,`mc_number`) WHERE mc_number is not null;--> statement-breakpoint
CREATE INDEX `broker_filters_team_dot_number` ON `broker_filters` (`team_id`,`dot_number`) WHERE dot_number is not null;--> statement-breakpoint
CREATE INDEX `broker_filters_team_queue` ON `broker_filters` (`team_id`,`index`) WHERE is_verified = 0 and rejected_reason is null;--> statement-breakpoint
CREATE INDEX `broker_filters_team_no_normal_name` ON `broker_filters` (`team_id`) WHERE normal_name is null;
CREATE TABLE `filter_team_stamps` (
	`team_id` text PRIMARY KEY NOT NULL,
	`stamp` text NOT NULL
);
--> statement-breakpoint
DROP INDEX `broker_filter_users_user`;--> statement-breakpoint
CREATE INDEX `broker_filter_users_user_filter` ON `broker_filter_users` (`user_id`,`filter_id`);--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `mc_list_json` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `users_list_json` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `contacts_json` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `aliases_json` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `users_kind` integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `search_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `broker_filters` ADD `aliases_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `broker_filters_team_users_kind` ON `broker_filters` (`team_id`,`users_kind`,`index`);--> statement-breakpoint
CREATE INDEX `broker_filters_team_new_users` ON `broker_filters` (`team_id`,`new_users`,`updated_at`);
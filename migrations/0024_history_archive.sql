-- Contact History's months moved to R2 (docs/decisions/0171-history-retention-r2.md): which team-months
-- are archived or restored, and whose contacts each holds.
CREATE TABLE `call_history_archive` (
	`team_id` text NOT NULL,
	`month` text NOT NULL,
	`rows` integer NOT NULL,
	`calls` integer NOT NULL,
	`emails` integer NOT NULL,
	`state` text NOT NULL,
	`archived_at` integer NOT NULL,
	`restored_until` integer,
	PRIMARY KEY(`team_id`, `month`)
);
--> statement-breakpoint
CREATE INDEX `call_history_archive_restored` ON `call_history_archive` (`state`,`restored_until`);--> statement-breakpoint
CREATE TABLE `call_history_archive_users` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`team_id` text NOT NULL,
	`rows` integer NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `team_id`)
);
--> statement-breakpoint
CREATE INDEX `call_history_archive_users_team` ON `call_history_archive_users` (`team_id`,`month`);
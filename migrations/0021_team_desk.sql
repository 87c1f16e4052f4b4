CREATE TABLE `team_lines` (
	`team_id` text NOT NULL,
	`line` integer NOT NULL,
	`caller_number` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`team_id`, `line`),
	CONSTRAINT "team_lines_line_range" CHECK("team_lines"."line" between 1 and 6)
);
--> statement-breakpoint
CREATE TABLE `team_settings` (
	`team_id` text PRIMARY KEY NOT NULL,
	`dialer` text DEFAULT 'tel' NOT NULL,
	`dialer_template` text DEFAULT '' NOT NULL,
	`contact_markers` integer DEFAULT true NOT NULL,
	`contact_window_hours` integer DEFAULT 12 NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "team_settings_window" CHECK("team_settings"."contact_window_hours" between 1 and 48)
);
--> statement-breakpoint
DROP INDEX `call_history_team_date_cover`;--> statement-breakpoint
ALTER TABLE `call_history` ADD `line` integer;--> statement-breakpoint
ALTER TABLE `call_history` ADD `from_number` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `call_history_team_date_cover` ON `call_history` (`team_id`,`call_date`,`kind`,`user_id`,`mc_setting_id`,`broker_name`,`mc_name`,`address`,`origin`,`dest`,`load_date`,`contact`,`line`,`from_number`);
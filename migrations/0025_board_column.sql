DROP INDEX `extension_health_session_hour`;--> statement-breakpoint
ALTER TABLE `extension_health_reports` ADD `board` text DEFAULT 'dat' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `extension_health_session_hour_board` ON `extension_health_reports` (`session_id`,`hour`,`board`);--> statement-breakpoint
DROP INDEX `call_history_team_date_cover`;--> statement-breakpoint
ALTER TABLE `call_history` ADD `board` text DEFAULT 'dat' NOT NULL;--> statement-breakpoint
CREATE INDEX `call_history_team_date_cover` ON `call_history` (`team_id`,`call_date`,`kind`,`user_id`,`mc_setting_id`,`broker_name`,`mc_name`,`address`,`origin`,`dest`,`load_date`,`contact`,`line`,`from_number`,`board`);--> statement-breakpoint
ALTER TABLE `active_loads` ADD `board` text DEFAULT 'dat' NOT NULL;
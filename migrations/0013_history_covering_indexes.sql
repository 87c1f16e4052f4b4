DROP INDEX `call_history_team_date`;--> statement-breakpoint
DROP INDEX `call_history_user_date`;--> statement-breakpoint
CREATE INDEX `call_history_team_date_cover` ON `call_history` (`team_id`,`call_date`,`kind`,`user_id`,`mc_setting_id`,`broker_name`);--> statement-breakpoint
CREATE INDEX `call_history_user_date_cover` ON `call_history` (`user_id`,`call_date`,`kind`,`mc_setting_id`,`broker_name`);
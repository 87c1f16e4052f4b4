DROP INDEX `call_history_team_date`;--> statement-breakpoint
DROP INDEX `call_history_user_date`;--> statement-breakpoint
CREATE INDEX `call_history_team_date_search` ON `call_history` (`team_id`,`call_date`,`kind`,`user_id`,`mc_setting_id`,`broker_name`,(mc_name || char(31) || broker_name || char(31) || address || char(31) || origin || char(31) || dest || char(31) || load_date || char(31) || contact));--> statement-breakpoint
CREATE INDEX `call_history_user_date_cover` ON `call_history` (`user_id`,`call_date`,`kind`,`mc_setting_id`,`broker_name`);
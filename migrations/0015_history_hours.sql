-- Contact History's chart and total (issue 21): a team's calls and e-mails per UTC hour, kept by
-- the triggers below in the same statement as the row they count, so concurrent logs cannot lose
-- a count and the counts always equal the rows. A Load adds up about 24 of these per day instead
-- of counting its rows (decision 0008).
CREATE TABLE `call_history_hours` (
	`team_id` text NOT NULL,
	`hour` integer NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`emails` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`team_id`, `hour`)
);
--> statement-breakpoint
INSERT INTO `call_history_hours` (team_id, hour, calls, emails)
SELECT team_id, call_date / 3600000, sum(kind = 'call'), sum(kind = 'email') FROM `call_history` GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `call_history_hours_insert` AFTER INSERT ON `call_history`
BEGIN
  INSERT INTO `call_history_hours` (team_id, hour, calls, emails)
  VALUES (NEW.team_id, NEW.call_date / 3600000, NEW.kind = 'call', NEW.kind = 'email')
  ON CONFLICT (team_id, hour) DO UPDATE SET calls = calls + excluded.calls, emails = emails + excluded.emails;
END;
--> statement-breakpoint
CREATE TRIGGER `call_history_hours_delete` AFTER DELETE ON `call_history`
BEGIN
  UPDATE `call_history_hours` SET calls = calls - (OLD.kind = 'call'), emails = emails - (OLD.kind = 'email')
  WHERE team_id = OLD.team_id AND hour = OLD.call_date / 3600000;
END;
--> statement-breakpoint
CREATE TRIGGER `call_history_hours_update` AFTER UPDATE OF team_id, call_date, kind ON `call_history`
BEGIN
  UPDATE `call_history_hours` SET calls = calls - (OLD.kind = 'call'), emails = emails - (OLD.kind = 'email')
  WHERE team_id = OLD.team_id AND hour = OLD.call_date / 3600000;
  INSERT INTO `call_history_hours` (team_id, hour, calls, emails)
  VALUES (NEW.team_id, NEW.call_date / 3600000, NEW.kind = 'call', NEW.kind = 'email')
  ON CONFLICT (team_id, hour) DO UPDATE SET calls = calls + excluded.calls, emails = emails + excluded.emails;
END;

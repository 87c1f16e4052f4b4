CREATE TABLE `mc_lines` (
	`user_id` text NOT NULL,
	`line` integer NOT NULL,
	`mc_setting_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `line`),
	CONSTRAINT "mc_lines_line_range" CHECK("mc_lines"."line" between 1 and 6)
);
--> statement-breakpoint
CREATE INDEX `mc_lines_setting` ON `mc_lines` (`mc_setting_id`,`line`);--> statement-breakpoint
-- Existing lines move over from the JSON arrays. Where a race had given one line to several MCs,
-- the oldest MC keeps it and the others are left without a line (the Lines screen asks for one).
INSERT OR IGNORE INTO `mc_lines` (`user_id`, `line`, `mc_setting_id`)
SELECT s.`user_id`, CAST(l.value AS INTEGER), s.`id`
FROM `mc_settings` s, json_each(CASE WHEN json_valid(s.`lines`) THEN s.`lines` ELSE '[]' END) l
WHERE l.type = 'integer' AND l.value BETWEEN 1 AND 6
ORDER BY s.`created_at`, s.`id`, l.key;--> statement-breakpoint
ALTER TABLE `mc_settings` DROP COLUMN `lines`;
CREATE TABLE `link_codes` (
	`code` text PRIMARY KEY NOT NULL,
	`link_id` text NOT NULL,
	`user_id` text NOT NULL,
	`claimed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `link_codes_link` ON `link_codes` (`link_id`);--> statement-breakpoint
ALTER TABLE `link_click_flushes` ADD `link_id` text;--> statement-breakpoint
CREATE INDEX `link_click_flushes_link` ON `link_click_flushes` (`link_id`);--> statement-breakpoint
-- Backfill (docs/decisions/0180-links-on-shards.md): every link of the first database gets its code
-- in the control plane's directory. Only the control plane has `companies` rows, so on a shard
-- this changes nothing.
INSERT OR IGNORE INTO `link_codes` (`code`, `link_id`, `user_id`, `claimed_at`)
  SELECT `code`, `id`, `user_id`, `date` FROM `links` WHERE EXISTS (SELECT 1 FROM `companies`);

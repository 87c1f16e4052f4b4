CREATE TABLE `link_click_flushes` (
	`id` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `link_click_flushes_at` ON `link_click_flushes` (`at`);
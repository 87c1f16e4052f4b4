CREATE TABLE `company_moves` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`company_id` text NOT NULL,
	`to_company_id` text NOT NULL,
	`from_shard` text NOT NULL,
	`to_shard` text NOT NULL,
	`user_ids` text DEFAULT '[]' NOT NULL,
	`flip` text,
	`step` text NOT NULL,
	`progress` text DEFAULT '{}' NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_moves_open` ON `company_moves` (`company_id`) WHERE step not in ('done', 'rolled_back');--> statement-breakpoint
CREATE INDEX `company_moves_stalled` ON `company_moves` (`updated_at`) WHERE step not in ('done', 'rolled_back');--> statement-breakpoint
CREATE INDEX `company_moves_created` ON `company_moves` (`created_at`);--> statement-breakpoint
CREATE INDEX `broker_filter_events_team` ON `broker_filter_events` (`team_id`);--> statement-breakpoint
CREATE INDEX `broker_filter_notes_team` ON `broker_filter_notes` (`team_id`);--> statement-breakpoint
CREATE INDEX `extension_health_user` ON `extension_health_reports` (`user_id`);--> statement-breakpoint
CREATE INDEX `broker_vetting_notices_user` ON `broker_vetting_notices` (`user_id`);
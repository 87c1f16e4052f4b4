CREATE TABLE `mails` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`idempotency_key` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_until` integer,
	`sent_at` integer,
	`failed_at` integer,
	`provider` text
);
--> statement-breakpoint
CREATE INDEX `mails_pending_due` ON `mails` (`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `mails_failed` ON `mails` (`failed_at`) WHERE status = 'failed';--> statement-breakpoint
CREATE INDEX `mails_sent_at` ON `mails` (`sent_at`) WHERE status = 'sent';
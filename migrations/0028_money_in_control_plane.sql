CREATE TABLE `subscription_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`months` integer NOT NULL,
	`days` integer NOT NULL,
	`at` integer NOT NULL,
	`applied_at` integer,
	`new_end_date` integer
);
--> statement-breakpoint
CREATE INDEX `subscription_changes_user` ON `subscription_changes` (`user_id`);--> statement-breakpoint
ALTER TABLE `payment_refunds` ADD `apply_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_refunds` ADD `applied_at` integer;--> statement-breakpoint
CREATE INDEX `payment_refunds_apply_pending` ON `payment_refunds` (`created_at`) WHERE apply_pending = 1;--> statement-breakpoint
ALTER TABLE `payments` ADD `apply_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `applied_at` integer;--> statement-breakpoint
CREATE INDEX `payments_apply_pending` ON `payments` (`confirmed_at`) WHERE apply_pending = 1;--> statement-breakpoint
ALTER TABLE `promo_uses` ADD `apply_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `promo_uses` ADD `applied_at` integer;--> statement-breakpoint
CREATE INDEX `promo_uses_apply_pending` ON `promo_uses` (`use_date`) WHERE apply_pending = 1;
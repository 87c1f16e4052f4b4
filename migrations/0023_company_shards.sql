CREATE TABLE `accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`company_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email_live` ON `accounts` (`email`) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX `accounts_company` ON `accounts` (`company_id`);--> statement-breakpoint
CREATE TABLE `companies` (
	`id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`state` text DEFAULT 'active' NOT NULL,
	`move_to` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `companies_shard` ON `companies` (`shard`);--> statement-breakpoint
CREATE TABLE `company_homes` (
	`company_id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `write_fence` (
	`id` integer PRIMARY KEY NOT NULL,
	`ok` integer NOT NULL,
	CONSTRAINT "write_fence_open" CHECK("write_fence"."ok" = 1)
);
--> statement-breakpoint
ALTER TABLE `users` ADD `company_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `users_company` ON `users` (`company_id`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `company_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Backfill (docs/decisions/0174-company-shards.md): today's teams become companies on `DB`, the
-- first database. On an empty shard every statement below changes nothing.
-- The staff company: admins and marketing users.
INSERT INTO `companies` (`id`, `shard`, `state`, `created_at`)
  SELECT 'staff', 'DB', 'active', min(`registration_date`) FROM `users` WHERE `user_type` IN ('admin', 'marketing') HAVING count(*) > 0;
--> statement-breakpoint
-- The tops of the trees: directors, managers without a director, agents without a manager.
INSERT INTO `companies` (`id`, `shard`, `state`, `created_at`)
  SELECT `u`.`id`, 'DB', 'active', `u`.`registration_date` FROM `users` `u`
  WHERE `u`.`user_type` = 'director'
     OR (`u`.`user_type` = 'manager' AND NOT EXISTS (SELECT 1 FROM `users` `d` WHERE `d`.`id` = `u`.`parent_id` AND `d`.`user_type` = 'director'))
     OR (`u`.`user_type` = 'agent' AND NOT EXISTS (SELECT 1 FROM `users` `m` WHERE `m`.`id` = `u`.`parent_id` AND `m`.`user_type` = 'manager'));
--> statement-breakpoint
UPDATE `users` SET `company_id` = 'staff' WHERE `user_type` IN ('admin', 'marketing');
--> statement-breakpoint
UPDATE `users` SET `company_id` = `id` WHERE `id` IN (SELECT `id` FROM `companies`);
--> statement-breakpoint
UPDATE `users` SET `company_id` = (SELECT `d`.`company_id` FROM `users` `d` WHERE `d`.`id` = `users`.`parent_id`)
  WHERE `company_id` = '' AND `user_type` = 'manager';
--> statement-breakpoint
UPDATE `users` SET `company_id` = (SELECT `m`.`company_id` FROM `users` `m` WHERE `m`.`id` = `users`.`parent_id`)
  WHERE `company_id` = '' AND `user_type` = 'agent';
--> statement-breakpoint
INSERT INTO `company_homes` (`company_id`, `state`, `changed_at`) SELECT `id`, 'active', `created_at` FROM `companies`;
--> statement-breakpoint
INSERT INTO `accounts` (`user_id`, `email`, `company_id`, `created_at`, `deleted_at`)
  SELECT `id`, `email`, `company_id`, `registration_date`, `deleted_at` FROM `users`;
--> statement-breakpoint
UPDATE `api_keys` SET `company_id` = (SELECT `u`.`company_id` FROM `users` `u` WHERE `u`.`id` = `api_keys`.`user_id`);

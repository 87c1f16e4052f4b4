CREATE TABLE `email_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_tokens_hash` ON `email_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_tokens_user` ON `email_tokens` (`user_id`,`kind`);--> statement-breakpoint
CREATE TABLE `login_events` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`client_type` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_events_user_time` ON `login_events` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_events_time` ON `login_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`date` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_date` ON `mail_outbox` (`date`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`user_type` text NOT NULL,
	`is_email_verified` integer DEFAULT false NOT NULL,
	`is_trial_period` integer DEFAULT false NOT NULL,
	`subscription_end_date` integer,
	`registration_date` integer NOT NULL,
	`parent_id` text,
	`phone` text DEFAULT '' NOT NULL,
	`country` text DEFAULT '' NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_live` ON `users` (`email`) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX `users_parent` ON `users` (`parent_id`);--> statement-breakpoint
CREATE INDEX `users_type` ON `users` (`user_type`);--> statement-breakpoint
CREATE TABLE `broker_filter_contacts` (
	`filter_id` text NOT NULL,
	`contact` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`filter_id`, `contact`)
);
--> statement-breakpoint
CREATE TABLE `broker_filter_mcs` (
	`filter_id` text NOT NULL,
	`mc_id` text NOT NULL,
	PRIMARY KEY(`filter_id`, `mc_id`)
);
--> statement-breakpoint
CREATE INDEX `broker_filter_mcs_mc` ON `broker_filter_mcs` (`mc_id`);--> statement-breakpoint
CREATE TABLE `broker_filter_users` (
	`filter_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`filter_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `broker_filter_users_user` ON `broker_filter_users` (`user_id`);--> statement-breakpoint
CREATE TABLE `broker_filters` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`creator_id` text NOT NULL,
	`name` text NOT NULL,
	`type_id` text DEFAULT '-1' NOT NULL,
	`comment` text DEFAULT '' NOT NULL,
	`is_visible` integer DEFAULT true NOT NULL,
	`is_verified` integer DEFAULT false NOT NULL,
	`only_creator` integer DEFAULT false NOT NULL,
	`all_mc` integer DEFAULT false NOT NULL,
	`only_on_contacts` integer DEFAULT false NOT NULL,
	`new_users` integer DEFAULT false NOT NULL,
	`index` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `broker_filters_team_name` ON `broker_filters` (`team_id`,`name`);--> statement-breakpoint
CREATE INDEX `broker_filters_creator` ON `broker_filters` (`creator_id`);--> statement-breakpoint
CREATE TABLE `filter_types` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`type_name` text NOT NULL,
	`color` text NOT NULL,
	`class_name` text NOT NULL,
	`index` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `filter_types_team` ON `filter_types` (`team_id`,`index`);--> statement-breakpoint
CREATE TABLE `mc_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`parent_mc_id` text,
	`lines` text DEFAULT '[]' NOT NULL,
	`email_subject` text DEFAULT '' NOT NULL,
	`email_content` text DEFAULT '' NOT NULL,
	`is_visible` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mc_settings_user` ON `mc_settings` (`user_id`);--> statement-breakpoint
CREATE INDEX `mc_settings_parent` ON `mc_settings` (`parent_mc_id`);--> statement-breakpoint
CREATE TABLE `active_loads` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`team_id` text NOT NULL,
	`mc_setting_id` text,
	`broker_name` text DEFAULT '' NOT NULL,
	`origin` text DEFAULT '' NOT NULL,
	`dest` text DEFAULT '' NOT NULL,
	`load_date` text DEFAULT '' NOT NULL,
	`date` integer NOT NULL,
	`client_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `active_loads_user` ON `active_loads` (`user_id`,`date`);--> statement-breakpoint
CREATE INDEX `active_loads_team` ON `active_loads` (`team_id`,`date`);--> statement-breakpoint
CREATE UNIQUE INDEX `active_loads_client` ON `active_loads` (`user_id`,`client_id`);--> statement-breakpoint
CREATE TABLE `call_history` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`team_id` text NOT NULL,
	`mc_setting_id` text NOT NULL,
	`mc_name` text NOT NULL,
	`kind` text NOT NULL,
	`contact` text DEFAULT '' NOT NULL,
	`broker_name` text DEFAULT '' NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`origin` text DEFAULT '' NOT NULL,
	`dest` text DEFAULT '' NOT NULL,
	`load_date` text DEFAULT '' NOT NULL,
	`call_date` integer NOT NULL,
	`client_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `call_history_team_date` ON `call_history` (`team_id`,`call_date`);--> statement-breakpoint
CREATE INDEX `call_history_user_date` ON `call_history` (`user_id`,`call_date`);--> statement-breakpoint
CREATE UNIQUE INDEX `call_history_client` ON `call_history` (`user_id`,`client_id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`global_index` integer NOT NULL,
	`type` text NOT NULL,
	`user_id` text NOT NULL,
	`payer_user_id` text NOT NULL,
	`date_created` integer NOT NULL,
	`amount` integer NOT NULL,
	`monthly_price` integer NOT NULL,
	`price_total` integer NOT NULL,
	`promo_use_id` text,
	`status` text DEFAULT 'requested' NOT NULL,
	`is_link_generation_failed` integer DEFAULT false NOT NULL,
	`is_order_confirmation_received` integer DEFAULT false NOT NULL,
	`is_payment_confirmed` integer DEFAULT false NOT NULL,
	`trans_id` text,
	`payer_account` text,
	`confirmed_at` integer
);
--> statement-breakpoint
CREATE INDEX `payments_payer_date` ON `payments` (`payer_user_id`,`date_created`);--> statement-breakpoint
CREATE INDEX `payments_user_date` ON `payments` (`user_id`,`date_created`);--> statement-breakpoint
CREATE INDEX `payments_confirmed_date` ON `payments` (`is_payment_confirmed`,`date_created`);--> statement-breakpoint
CREATE INDEX `payments_date` ON `payments` (`date_created`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_global_index` ON `payments` (`global_index`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_trans_id` ON `payments` (`trans_id`);--> statement-breakpoint
CREATE TABLE `promo_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`effect_type` text NOT NULL,
	`effect_value` integer NOT NULL,
	`is_public` integer DEFAULT true NOT NULL,
	`is_free` integer DEFAULT true NOT NULL,
	`max_uses` integer DEFAULT 1 NOT NULL,
	`used_count` integer DEFAULT 0 NOT NULL,
	`assigned_user_id` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_name` ON `promo_codes` (`name`);--> statement-breakpoint
CREATE INDEX `promo_codes_created` ON `promo_codes` (`created_at`);--> statement-breakpoint
CREATE TABLE `promo_uses` (
	`id` text PRIMARY KEY NOT NULL,
	`promo_id` text NOT NULL,
	`user_id` text NOT NULL,
	`use_date` integer NOT NULL,
	`order_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_uses_promo_user` ON `promo_uses` (`promo_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `promo_uses_user` ON `promo_uses` (`user_id`);--> statement-breakpoint
CREATE TABLE `link_click_stats` (
	`link_id` text NOT NULL,
	`day` text NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `link_click_stats_key` ON `link_click_stats` (`link_id`,`day`,`dimension`,`value`);--> statement-breakpoint
CREATE TABLE `links` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`code` text NOT NULL,
	`from` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`is_disabled` integer DEFAULT false NOT NULL,
	`date` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `links_code` ON `links` (`code`);--> statement-breakpoint
CREATE INDEX `links_user_date` ON `links` (`user_id`,`date`);
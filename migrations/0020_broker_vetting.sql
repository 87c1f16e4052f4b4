CREATE TABLE `broker_vetting` (
	`key` text PRIMARY KEY NOT NULL,
	`dot_number` text,
	`mc_number` text,
	`legal_name` text,
	`state` text,
	`broker_authority` text,
	`common_authority` text,
	`contract_authority` text,
	`bond_on_file` text,
	`bond_required` text,
	`bipd_on_file` text,
	`bipd_required` text,
	`allowed_to_operate` text,
	`status_code` text,
	`oos_date` text,
	`checked_at` integer,
	`attempted_at` integer,
	`last_error` text,
	`change_seq` integer DEFAULT 0 NOT NULL,
	`state_changed_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `broker_vetting_attempted` ON `broker_vetting` (`attempted_at`);--> statement-breakpoint
CREATE INDEX `broker_vetting_state_changed` ON `broker_vetting` (`state_changed_at`);--> statement-breakpoint
CREATE INDEX `broker_vetting_dot` ON `broker_vetting` (`dot_number`);--> statement-breakpoint
CREATE TABLE `broker_vetting_changes` (
	`key` text NOT NULL,
	`seq` integer NOT NULL,
	`from_state` text NOT NULL,
	`to_state` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`key`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `broker_vetting_notices` (
	`key` text NOT NULL,
	`seq` integer NOT NULL,
	`user_id` text NOT NULL,
	`mail_id` text NOT NULL,
	PRIMARY KEY(`key`, `seq`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `fmcsa_call_days` (
	`day` text PRIMARY KEY NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL
);

CREATE TABLE `asset_brands` (
	`asset_id` integer NOT NULL,
	`brand` text NOT NULL,
	PRIMARY KEY(`asset_id`, `brand`),
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `asset_brands_value_idx` ON `asset_brands` (`brand`);--> statement-breakpoint
CREATE TABLE `asset_channels` (
	`asset_id` integer NOT NULL,
	`channel` text NOT NULL,
	PRIMARY KEY(`asset_id`, `channel`),
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `asset_channels_value_idx` ON `asset_channels` (`channel`);--> statement-breakpoint
CREATE TABLE `asset_markets` (
	`asset_id` integer NOT NULL,
	`market` text NOT NULL,
	PRIMARY KEY(`asset_id`, `market`),
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `asset_markets_value_idx` ON `asset_markets` (`market`);--> statement-breakpoint
CREATE TABLE `assets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` text NOT NULL,
	`version` text DEFAULT '' NOT NULL,
	`source` text DEFAULT '' NOT NULL,
	`url` text NOT NULL,
	`name` text,
	`description` text,
	`workspace_id` integer,
	`manifest_file_id` integer,
	`manifest_line` integer,
	`unique_id` text,
	`remote_status` text,
	`media_type` text,
	`sync_state` text DEFAULT 'pending' NOT NULL,
	`submit_attempts` integer DEFAULT 0 NOT NULL,
	`poll_count` integer DEFAULT 0 NOT NULL,
	`error_polls` integer DEFAULT 0 NOT NULL,
	`next_poll_at` integer,
	`last_polled_at` integer,
	`last_error` text,
	`last_error_kind` text,
	`last_trace_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`submitted_at` integer,
	`completed_at` integer,
	`scored_at` integer,
	FOREIGN KEY (`manifest_file_id`) REFERENCES `manifest_files`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assets_key_unique` ON `assets` (`client_id`,`version`,`source`);--> statement-breakpoint
CREATE INDEX `assets_due_idx` ON `assets` (`sync_state`,`next_poll_at`);--> statement-breakpoint
CREATE INDEX `assets_unique_id_idx` ON `assets` (`unique_id`);--> statement-breakpoint
CREATE TABLE `channel_scores` (
	`asset_id` integer NOT NULL,
	`channel` text NOT NULL,
	`score` real,
	`adherence` real,
	`pass_count` integer NOT NULL,
	`fail_count` integer NOT NULL,
	`applicable_count` integer NOT NULL,
	`not_applicable_count` integer NOT NULL,
	`not_available_count` integer NOT NULL,
	PRIMARY KEY(`asset_id`, `channel`),
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `channel_scores_channel_idx` ON `channel_scores` (`channel`);--> statement-breakpoint
CREATE TABLE `guideline_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`asset_id` integer NOT NULL,
	`channel` text NOT NULL,
	`name` text NOT NULL,
	`rule` text,
	`result` text NOT NULL,
	`weight` real,
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guideline_results_asset_idx` ON `guideline_results` (`asset_id`,`channel`);--> statement-breakpoint
CREATE TABLE `manifest_errors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`manifest_file_id` integer NOT NULL,
	`line` integer,
	`field` text,
	`value` text,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`manifest_file_id`) REFERENCES `manifest_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `manifest_errors_file_idx` ON `manifest_errors` (`manifest_file_id`);--> statement-breakpoint
CREATE TABLE `manifest_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`status` text NOT NULL,
	`rows_read` integer DEFAULT 0 NOT NULL,
	`rows_accepted` integer DEFAULT 0 NOT NULL,
	`rows_rejected` integer DEFAULT 0 NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_read_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `manifest_files_path_unique` ON `manifest_files` (`path`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`outcome` text DEFAULT 'running' NOT NULL,
	`mode` text NOT NULL,
	`files_read` integer DEFAULT 0 NOT NULL,
	`rows_accepted` integer DEFAULT 0 NOT NULL,
	`rows_rejected` integer DEFAULT 0 NOT NULL,
	`submitted` integer DEFAULT 0 NOT NULL,
	`polled` integer DEFAULT 0 NOT NULL,
	`scored` integer DEFAULT 0 NOT NULL,
	`final_failures` integer DEFAULT 0 NOT NULL,
	`still_in_flight` integer DEFAULT 0 NOT NULL,
	`api_calls` integer DEFAULT 0 NOT NULL,
	`api_calls_by_endpoint` text,
	`note` text,
	`report_path` text
);
--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` integer PRIMARY KEY NOT NULL,
	`organization_id` text,
	`name` text NOT NULL,
	`fetched_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);

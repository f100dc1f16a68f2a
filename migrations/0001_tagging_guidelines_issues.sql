CREATE TABLE `asset_issues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`asset_id` integer NOT NULL,
	`kind` text NOT NULL,
	`channel` text,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `asset_issues_asset_idx` ON `asset_issues` (`asset_id`);--> statement-breakpoint
CREATE TABLE `creative_tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tag_job_id` integer NOT NULL,
	`asset_id` integer,
	`creative_id` text,
	`tag_type` text,
	`tag_name` text,
	`tag_value` text,
	`confidence` real,
	`start_time` real,
	`end_time` real,
	`raw` text NOT NULL,
	FOREIGN KEY (`tag_job_id`) REFERENCES `tag_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `creative_tags_job_idx` ON `creative_tags` (`tag_job_id`);--> statement-breakpoint
CREATE INDEX `creative_tags_asset_idx` ON `creative_tags` (`asset_id`);--> statement-breakpoint
CREATE TABLE `guidelines` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`rule` text,
	`category` text,
	`channel` text NOT NULL,
	`consideration` text,
	`best_practice` text,
	`creative_types` text,
	`criteria_groups` text,
	`workspace_id` integer,
	`organization_level` integer DEFAULT false NOT NULL,
	`date_created` text,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `guidelines_channel_name_idx` ON `guidelines` (`channel`,`name`);--> statement-breakpoint
CREATE TABLE `tag_job_creatives` (
	`tag_job_id` integer NOT NULL,
	`asset_id` integer NOT NULL,
	`creative_id` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`error` text,
	PRIMARY KEY(`tag_job_id`, `asset_id`),
	FOREIGN KEY (`tag_job_id`) REFERENCES `tag_jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tag_job_creatives_asset_idx` ON `tag_job_creatives` (`asset_id`);--> statement-breakpoint
CREATE TABLE `tag_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` text,
	`state` text DEFAULT 'intent' NOT NULL,
	`remote_status` text,
	`message` text,
	`client_tags` text,
	`creative_count` integer NOT NULL,
	`submit_attempts` integer DEFAULT 0 NOT NULL,
	`poll_count` integer DEFAULT 0 NOT NULL,
	`next_poll_at` integer,
	`report_rows` integer,
	`last_error` text,
	`last_error_kind` text,
	`last_trace_id` text,
	`run_id` integer,
	`created_at` integer NOT NULL,
	`submitted_at` integer,
	`completed_at` integer,
	`downloaded_at` integer
);
--> statement-breakpoint
CREATE INDEX `tag_jobs_state_idx` ON `tag_jobs` (`state`,`next_poll_at`);--> statement-breakpoint
CREATE INDEX `tag_jobs_job_id_idx` ON `tag_jobs` (`job_id`);--> statement-breakpoint
ALTER TABLE `assets` ADD `tag_wanted` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `assets` ADD `client_tags` text;--> statement-breakpoint
ALTER TABLE `assets` ADD `rescore_of` integer;--> statement-breakpoint
ALTER TABLE `guideline_results` ADD `guideline_id` text;--> statement-breakpoint
ALTER TABLE `manifest_errors` ADD `severity` text DEFAULT 'error' NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `details` text;
ALTER TABLE `assets` ADD `url_flag` text;--> statement-breakpoint
ALTER TABLE `assets` ADD `url_checked_at` integer;
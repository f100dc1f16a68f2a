DROP INDEX `asset_brands_value_idx`;--> statement-breakpoint
DROP INDEX `asset_channels_value_idx`;--> statement-breakpoint
DROP INDEX `asset_markets_value_idx`;
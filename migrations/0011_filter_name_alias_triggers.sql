-- Custom migration (drizzle-kit cannot express triggers): a filter's normal name and the team's
-- aliases share one namespace. The unique indexes keep names apart from names and aliases apart
-- from aliases; these triggers refuse a name that is another filter's alias and an alias that is
-- another filter's name, inside the writing statement, so two racing saves cannot both land.
-- The messages read like SQLite's own so the Worker maps them to 409 like the indexes' failures.
CREATE TRIGGER `broker_filters_name_not_alias_insert` BEFORE INSERT ON `broker_filters`
WHEN NEW.normal_name IS NOT NULL AND EXISTS (
  SELECT 1 FROM `broker_filter_aliases` WHERE team_id = NEW.team_id AND normal_alias = NEW.normal_name
)
BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: broker_filter_aliases.normal_alias');
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_name_not_alias_update` BEFORE UPDATE OF normal_name ON `broker_filters`
WHEN NEW.normal_name IS NOT NULL AND EXISTS (
  SELECT 1 FROM `broker_filter_aliases` WHERE team_id = NEW.team_id AND normal_alias = NEW.normal_name AND filter_id <> NEW.id
)
BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: broker_filter_aliases.normal_alias');
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_aliases_not_name_insert` BEFORE INSERT ON `broker_filter_aliases`
WHEN EXISTS (
  SELECT 1 FROM `broker_filters` WHERE team_id = NEW.team_id AND normal_name = NEW.normal_alias AND id <> NEW.filter_id
)
BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: broker_filters.normal_name');
END;

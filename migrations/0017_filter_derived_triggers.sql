-- Custom migration (drizzle-kit cannot express triggers), issue 21 item 3: the derived columns of
-- `broker_filters` added by 0016 (docs/decisions/0007-filters.md). The lists of a filter's MCs,
-- users, contacts and aliases are kept on the filter row as JSON arrays, in the order the answers
-- always gave them, with the Users kind and the text a 1-2 character term scans, so the search
-- and the extension's list read one row per filter instead of four correlated subqueries and an
-- exists() per row. Triggers recompute them inside the statement that changes a list or the
-- filter, so every write path (add, update, bulk, import, delete, an MC deleted, the seeder) keeps
-- them right, also when writes race. `filter_team_stamps` gets a new random stamp in the same
-- statement as any change to a team's filters, lists or types: the extension's list's ETag.
UPDATE `broker_filters` SET
    mc_list_json = (SELECT json_group_array(mc_id ORDER BY mc_id) FROM `broker_filter_mcs` WHERE filter_id = `broker_filters`.id),
    users_list_json = (SELECT json_group_array(user_id ORDER BY user_id) FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id),
    users_kind = CASE WHEN only_creator THEN 0 WHEN EXISTS (SELECT 1 FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id AND user_id = `broker_filters`.creator_id) THEN 1 ELSE 2 END,
    contacts_json = (SELECT json_group_array(contact ORDER BY position, contact) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id),
    aliases_json = (SELECT json_group_array(alias ORDER BY normal_alias) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id),
    search_text = lower(name) || char(10) || lower(comment) || char(10) || coalesce((SELECT group_concat(lower(contact), char(10)) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id), ''),
    aliases_text = coalesce((SELECT group_concat(normal_alias, char(10)) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id), '');
--> statement-breakpoint
CREATE TRIGGER `broker_filters_derived_insert` AFTER INSERT ON `broker_filters`
BEGIN
  UPDATE `broker_filters` SET
    mc_list_json = (SELECT json_group_array(mc_id ORDER BY mc_id) FROM `broker_filter_mcs` WHERE filter_id = `broker_filters`.id),
    users_list_json = (SELECT json_group_array(user_id ORDER BY user_id) FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id),
    users_kind = CASE WHEN only_creator THEN 0 WHEN EXISTS (SELECT 1 FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id AND user_id = `broker_filters`.creator_id) THEN 1 ELSE 2 END,
    contacts_json = (SELECT json_group_array(contact ORDER BY position, contact) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id),
    aliases_json = (SELECT json_group_array(alias ORDER BY normal_alias) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id),
    search_text = lower(name) || char(10) || lower(comment) || char(10) || coalesce((SELECT group_concat(lower(contact), char(10)) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id), ''),
    aliases_text = coalesce((SELECT group_concat(normal_alias, char(10)) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id), '')
  WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_derived_update` AFTER UPDATE OF name, comment, only_creator, creator_id ON `broker_filters`
BEGIN
  UPDATE `broker_filters` SET
    users_kind = CASE WHEN only_creator THEN 0 WHEN EXISTS (SELECT 1 FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id AND user_id = `broker_filters`.creator_id) THEN 1 ELSE 2 END,
    search_text = lower(name) || char(10) || lower(comment) || char(10) || coalesce((SELECT group_concat(lower(contact), char(10)) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id), '')
  WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_mcs_derived_insert` AFTER INSERT ON `broker_filter_mcs`
BEGIN
  UPDATE `broker_filters` SET
    mc_list_json = (SELECT json_group_array(mc_id ORDER BY mc_id) FROM `broker_filter_mcs` WHERE filter_id = `broker_filters`.id)
  WHERE id = NEW.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_mcs_derived_delete` AFTER DELETE ON `broker_filter_mcs`
BEGIN
  UPDATE `broker_filters` SET
    mc_list_json = (SELECT json_group_array(mc_id ORDER BY mc_id) FROM `broker_filter_mcs` WHERE filter_id = `broker_filters`.id)
  WHERE id = OLD.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_mcs_derived_update` AFTER UPDATE ON `broker_filter_mcs`
BEGIN
  UPDATE `broker_filters` SET
    mc_list_json = (SELECT json_group_array(mc_id ORDER BY mc_id) FROM `broker_filter_mcs` WHERE filter_id = `broker_filters`.id)
  WHERE id IN (OLD.filter_id, NEW.filter_id);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_users_derived_insert` AFTER INSERT ON `broker_filter_users`
BEGIN
  UPDATE `broker_filters` SET
    users_list_json = (SELECT json_group_array(user_id ORDER BY user_id) FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id),
    users_kind = CASE WHEN only_creator THEN 0 WHEN EXISTS (SELECT 1 FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id AND user_id = `broker_filters`.creator_id) THEN 1 ELSE 2 END
  WHERE id = NEW.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_users_derived_delete` AFTER DELETE ON `broker_filter_users`
BEGIN
  UPDATE `broker_filters` SET
    users_list_json = (SELECT json_group_array(user_id ORDER BY user_id) FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id),
    users_kind = CASE WHEN only_creator THEN 0 WHEN EXISTS (SELECT 1 FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id AND user_id = `broker_filters`.creator_id) THEN 1 ELSE 2 END
  WHERE id = OLD.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_users_derived_update` AFTER UPDATE ON `broker_filter_users`
BEGIN
  UPDATE `broker_filters` SET
    users_list_json = (SELECT json_group_array(user_id ORDER BY user_id) FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id),
    users_kind = CASE WHEN only_creator THEN 0 WHEN EXISTS (SELECT 1 FROM `broker_filter_users` WHERE filter_id = `broker_filters`.id AND user_id = `broker_filters`.creator_id) THEN 1 ELSE 2 END
  WHERE id IN (OLD.filter_id, NEW.filter_id);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_contacts_derived_insert` AFTER INSERT ON `broker_filter_contacts`
BEGIN
  UPDATE `broker_filters` SET
    contacts_json = (SELECT json_group_array(contact ORDER BY position, contact) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id),
    search_text = lower(name) || char(10) || lower(comment) || char(10) || coalesce((SELECT group_concat(lower(contact), char(10)) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id), '')
  WHERE id = NEW.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_contacts_derived_delete` AFTER DELETE ON `broker_filter_contacts`
BEGIN
  UPDATE `broker_filters` SET
    contacts_json = (SELECT json_group_array(contact ORDER BY position, contact) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id),
    search_text = lower(name) || char(10) || lower(comment) || char(10) || coalesce((SELECT group_concat(lower(contact), char(10)) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id), '')
  WHERE id = OLD.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_contacts_derived_update` AFTER UPDATE ON `broker_filter_contacts`
BEGIN
  UPDATE `broker_filters` SET
    contacts_json = (SELECT json_group_array(contact ORDER BY position, contact) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id),
    search_text = lower(name) || char(10) || lower(comment) || char(10) || coalesce((SELECT group_concat(lower(contact), char(10)) FROM `broker_filter_contacts` WHERE filter_id = `broker_filters`.id), '')
  WHERE id IN (OLD.filter_id, NEW.filter_id);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_aliases_derived_insert` AFTER INSERT ON `broker_filter_aliases`
BEGIN
  UPDATE `broker_filters` SET
    aliases_json = (SELECT json_group_array(alias ORDER BY normal_alias) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id),
    aliases_text = coalesce((SELECT group_concat(normal_alias, char(10)) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id), '')
  WHERE id = NEW.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_aliases_derived_delete` AFTER DELETE ON `broker_filter_aliases`
BEGIN
  UPDATE `broker_filters` SET
    aliases_json = (SELECT json_group_array(alias ORDER BY normal_alias) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id),
    aliases_text = coalesce((SELECT group_concat(normal_alias, char(10)) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id), '')
  WHERE id = OLD.filter_id;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_aliases_derived_update` AFTER UPDATE ON `broker_filter_aliases`
BEGIN
  UPDATE `broker_filters` SET
    aliases_json = (SELECT json_group_array(alias ORDER BY normal_alias) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id),
    aliases_text = coalesce((SELECT group_concat(normal_alias, char(10)) FROM `broker_filter_aliases` WHERE filter_id = `broker_filters`.id), '')
  WHERE id IN (OLD.filter_id, NEW.filter_id);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_stamp_insert` AFTER INSERT ON `broker_filters`
BEGIN
  INSERT INTO `filter_team_stamps` (team_id, stamp) VALUES (NEW.team_id, lower(hex(randomblob(8))))
    ON CONFLICT (team_id) DO UPDATE SET stamp = excluded.stamp;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_stamp_update` AFTER UPDATE ON `broker_filters`
BEGIN
  INSERT INTO `filter_team_stamps` (team_id, stamp) VALUES (NEW.team_id, lower(hex(randomblob(8))))
    ON CONFLICT (team_id) DO UPDATE SET stamp = excluded.stamp;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_stamp_delete` AFTER DELETE ON `broker_filters`
BEGIN
  INSERT INTO `filter_team_stamps` (team_id, stamp) VALUES (OLD.team_id, lower(hex(randomblob(8))))
    ON CONFLICT (team_id) DO UPDATE SET stamp = excluded.stamp;
END;
--> statement-breakpoint
CREATE TRIGGER `filter_types_stamp_insert` AFTER INSERT ON `filter_types`
BEGIN
  INSERT INTO `filter_team_stamps` (team_id, stamp) VALUES (NEW.team_id, lower(hex(randomblob(8))))
    ON CONFLICT (team_id) DO UPDATE SET stamp = excluded.stamp;
END;
--> statement-breakpoint
CREATE TRIGGER `filter_types_stamp_update` AFTER UPDATE ON `filter_types`
BEGIN
  INSERT INTO `filter_team_stamps` (team_id, stamp) VALUES (NEW.team_id, lower(hex(randomblob(8))))
    ON CONFLICT (team_id) DO UPDATE SET stamp = excluded.stamp;
END;
--> statement-breakpoint
CREATE TRIGGER `filter_types_stamp_delete` AFTER DELETE ON `filter_types`
BEGIN
  INSERT INTO `filter_team_stamps` (team_id, stamp) VALUES (OLD.team_id, lower(hex(randomblob(8))))
    ON CONFLICT (team_id) DO UPDATE SET stamp = excluded.stamp;
END;

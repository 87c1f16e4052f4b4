-- Search (issue 17 item 6): an FTS5 index with the trigram tokenizer, so "part of a name" is an
-- index lookup instead of a scan of the team's filters. One row per filter, its rowid the filter
-- row's rowid; the triggers below keep it in step with the filter, its aliases and its contacts.
CREATE VIRTUAL TABLE `broker_filters_fts` USING fts5(name, aliases, mc, dot, contacts, comment, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `broker_filters_fts` (rowid, name, aliases, mc, dot, contacts, comment)
SELECT f.rowid, f.name,
  coalesce((SELECT group_concat(alias, ' | ') FROM `broker_filter_aliases` WHERE filter_id = f.id), ''),
  coalesce(f.mc_number, ''), coalesce(f.dot_number, ''),
  coalesce((SELECT group_concat(contact, ' | ') FROM `broker_filter_contacts` WHERE filter_id = f.id), ''),
  f.comment
FROM `broker_filters` f;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_fts_insert` AFTER INSERT ON `broker_filters`
BEGIN
  INSERT INTO `broker_filters_fts` (rowid, name, aliases, mc, dot, contacts, comment)
  VALUES (NEW.rowid, NEW.name, '', coalesce(NEW.mc_number, ''), coalesce(NEW.dot_number, ''), '', NEW.comment);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_fts_update` AFTER UPDATE OF name, mc_number, dot_number, comment ON `broker_filters`
BEGIN
  UPDATE `broker_filters_fts` SET name = NEW.name, mc = coalesce(NEW.mc_number, ''), dot = coalesce(NEW.dot_number, ''), comment = NEW.comment
  WHERE rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filters_fts_delete` AFTER DELETE ON `broker_filters`
BEGIN
  DELETE FROM `broker_filters_fts` WHERE rowid = OLD.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_aliases_fts_insert` AFTER INSERT ON `broker_filter_aliases`
BEGIN
  UPDATE `broker_filters_fts` SET aliases = coalesce((SELECT group_concat(alias, ' | ') FROM `broker_filter_aliases` WHERE filter_id = NEW.filter_id), '')
  WHERE rowid = (SELECT rowid FROM `broker_filters` WHERE id = NEW.filter_id);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_aliases_fts_delete` AFTER DELETE ON `broker_filter_aliases`
BEGIN
  UPDATE `broker_filters_fts` SET aliases = coalesce((SELECT group_concat(alias, ' | ') FROM `broker_filter_aliases` WHERE filter_id = OLD.filter_id), '')
  WHERE rowid = (SELECT rowid FROM `broker_filters` WHERE id = OLD.filter_id);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_contacts_fts_insert` AFTER INSERT ON `broker_filter_contacts`
BEGIN
  UPDATE `broker_filters_fts` SET contacts = coalesce((SELECT group_concat(contact, ' | ') FROM `broker_filter_contacts` WHERE filter_id = NEW.filter_id), '')
  WHERE rowid = (SELECT rowid FROM `broker_filters` WHERE id = NEW.filter_id);
END;
--> statement-breakpoint
CREATE TRIGGER `broker_filter_contacts_fts_delete` AFTER DELETE ON `broker_filter_contacts`
BEGIN
  UPDATE `broker_filters_fts` SET contacts = coalesce((SELECT group_concat(contact, ' | ') FROM `broker_filter_contacts` WHERE filter_id = OLD.filter_id), '')
  WHERE rowid = (SELECT rowid FROM `broker_filters` WHERE id = OLD.filter_id);
END;

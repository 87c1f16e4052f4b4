-- contract: the twins it deletes were folded into their survivor first; until the new Worker is live the old one shows a folded twin's filter as not yet checked, nothing worse
-- Custom migration (data only), issue 43 item 2: one vetting record per broker however teams name
-- it (docs/decisions/0021-broker-vetting.md). Before this, a team naming a broker by MC and another
-- by DOT made two records (`mc:<n>`, which its first lookup resolved to the DOT, and `dot:<n>`):
-- FMCSA was asked twice a run and the DOT team's manager was mailed twice a change. Every record
-- gets its own name; the records resolved to one USDOT number fold into one (the `dot:` record,
-- else the smallest key), which keeps the newest answer of the group, and their names point at it.
-- Each statement can run again without changing anything.
INSERT OR IGNORE INTO `broker_vetting_names` (name, key) SELECT key, key FROM `broker_vetting`;
--> statement-breakpoint
-- the survivor takes the group's newest answer when its own is older or missing, and a new state
-- time, so the extension's list (whose ETag reads the newest) is read again
UPDATE `broker_vetting` AS s SET
    (legal_name, state, broker_authority, common_authority, contract_authority, bond_on_file, bond_required, bipd_on_file, bipd_required, allowed_to_operate, status_code, oos_date, checked_at, last_error) = (
      SELECT t.legal_name, t.state, t.broker_authority, t.common_authority, t.contract_authority, t.bond_on_file, t.bond_required, t.bipd_on_file, t.bipd_required, t.allowed_to_operate, t.status_code, t.oos_date, t.checked_at, t.last_error
      FROM `broker_vetting` t WHERE t.dot_number = s.dot_number AND t.checked_at IS NOT NULL ORDER BY t.checked_at DESC, t.key LIMIT 1)
WHERE s.dot_number IS NOT NULL
  AND s.key = coalesce((SELECT b.key FROM `broker_vetting` b WHERE b.key = 'dot:' || s.dot_number), (SELECT min(b.key) FROM `broker_vetting` b WHERE b.dot_number = s.dot_number))
  AND EXISTS (SELECT 1 FROM `broker_vetting` t WHERE t.dot_number = s.dot_number AND t.key <> s.key AND t.checked_at > coalesce(s.checked_at, 0));
--> statement-breakpoint
UPDATE `broker_vetting` AS s SET
    mc_number = coalesce(s.mc_number, (SELECT min(t.mc_number) FROM `broker_vetting` t WHERE t.dot_number = s.dot_number)),
    state_changed_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
WHERE s.dot_number IS NOT NULL
  AND s.key = coalesce((SELECT b.key FROM `broker_vetting` b WHERE b.key = 'dot:' || s.dot_number), (SELECT min(b.key) FROM `broker_vetting` b WHERE b.dot_number = s.dot_number))
  AND EXISTS (SELECT 1 FROM `broker_vetting` t WHERE t.dot_number = s.dot_number AND t.key <> s.key);
--> statement-breakpoint
-- the USDOT number names the survivor
INSERT OR IGNORE INTO `broker_vetting_names` (name, key)
SELECT DISTINCT 'dot:' || r.dot_number,
  coalesce((SELECT b.key FROM `broker_vetting` b WHERE b.key = 'dot:' || r.dot_number), (SELECT min(b.key) FROM `broker_vetting` b WHERE b.dot_number = r.dot_number))
FROM `broker_vetting` r WHERE r.dot_number IS NOT NULL;
--> statement-breakpoint
-- the other records' names follow it
UPDATE `broker_vetting_names` SET key = (
  SELECT coalesce((SELECT b.key FROM `broker_vetting` b WHERE b.key = 'dot:' || r.dot_number), (SELECT min(b.key) FROM `broker_vetting` b WHERE b.dot_number = r.dot_number))
  FROM `broker_vetting` r WHERE r.key = `broker_vetting_names`.key)
WHERE key IN (
  SELECT r.key FROM `broker_vetting` r WHERE r.dot_number IS NOT NULL
    AND r.key <> coalesce((SELECT b.key FROM `broker_vetting` b WHERE b.key = 'dot:' || r.dot_number), (SELECT min(b.key) FROM `broker_vetting` b WHERE b.dot_number = r.dot_number)));
--> statement-breakpoint
DELETE FROM `broker_vetting` WHERE key IN (
  SELECT r.key FROM `broker_vetting` r WHERE r.dot_number IS NOT NULL
    AND r.key <> coalesce((SELECT b.key FROM `broker_vetting` b WHERE b.key = 'dot:' || r.dot_number), (SELECT min(b.key) FROM `broker_vetting` b WHERE b.dot_number = r.dot_number)));

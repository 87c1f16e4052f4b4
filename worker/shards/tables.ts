/** Every table, by what moving a company does with it (docs/decisions/0181-moving-companies.md); tables.test.ts fails on a missing one. */

/** Rows whose `column` is a moving user's id (a team's id is its lead's), or, with `via`, names a row of `via.table` selected so. */
export interface MovedTable {
  table: string;
  column: string;
  via?: { table: string; key: string; column: string };
  /** The copy pages by these; default `rowid`, which a one-column index keeps in order. */
  order?: readonly string[];
  /** Triggers rewrite these rows while the others are copied: copied last, over what they wrote. */
  overwrite?: boolean;
}

/** Parents first: the triggers of migrations 0011, 0012 and 0017 read the parent row. Deleting goes the other way. */
export const MOVED_TABLES: readonly MovedTable[] = [
  { table: 'users', column: 'id' },
  { table: 'sessions', column: 'user_id' },
  { table: 'email_tokens', column: 'user_id' },
  { table: 'login_events', column: 'user_id' },
  { table: 'extension_health_reports', column: 'user_id' },
  { table: 'subscription_reminders', column: 'user_id' },
  // money's changes to the user's end date, by cause (decision 0179): a replay after the move finds its change applied
  { table: 'subscription_changes', column: 'user_id' },
  { table: 'mc_settings', column: 'user_id' },
  { table: 'mc_lines', column: 'user_id', order: ['line'] },
  { table: 'team_settings', column: 'team_id' },
  { table: 'team_lines', column: 'team_id', order: ['line'] },
  { table: 'filter_types', column: 'team_id' },
  { table: 'broker_filters', column: 'team_id' },
  { table: 'broker_filter_mcs', column: 'filter_id', via: { table: 'broker_filters', key: 'id', column: 'team_id' } },
  { table: 'broker_filter_users', column: 'filter_id', via: { table: 'broker_filters', key: 'id', column: 'team_id' } },
  { table: 'broker_filter_contacts', column: 'filter_id', via: { table: 'broker_filters', key: 'id', column: 'team_id' } },
  { table: 'broker_filter_aliases', column: 'filter_id', via: { table: 'broker_filters', key: 'id', column: 'team_id' } },
  { table: 'broker_filter_events', column: 'team_id' },
  { table: 'broker_filter_notes', column: 'team_id' },
  { table: 'call_history', column: 'user_id', order: ['client_id'] },
  { table: 'active_loads', column: 'user_id', order: ['client_id'] },
  { table: 'links', column: 'user_id' },
  { table: 'link_click_stats', column: 'link_id', via: { table: 'links', key: 'id', column: 'user_id' } },
  // the receipts of the links' applied click flushes: a flush retried after the move is refused on the target
  // (decision 0180); the counters' pruning leaves a moving company's alone, so the count check holds
  { table: 'link_click_flushes', column: 'link_id', via: { table: 'links', key: 'id', column: 'user_id' } },
  { table: 'broker_vetting_notices', column: 'user_id' },
  // the ledger of the team's months in R2 (decision 0171): without it the moved team's archived
  // months would vanish from Contact History (their objects stay where they are, keyed by team)
  { table: 'call_history_archive', column: 'team_id', order: ['month'] },
  { table: 'call_history_archive_users', column: 'team_id', order: ['month', 'user_id'] },
  // every filter and type written above gave the team a new stamp (migration 0017): the source's
  // stamp goes over it, so the extension's ETag stays valid across the move
  { table: 'filter_team_stamps', column: 'team_id', overwrite: true },
];

/** Built by the target's triggers as rows arrive, not copied; `check` must answer `wrong` 0 on the target. */
export const DERIVED_TABLES: Readonly<Record<string, { from: string; why: string; check?: string }>> = {
  call_history_hours: {
    from: 'call_history',
    why: "a team's calls and e-mails per hour (migration 0015); not checked: a team's hours also count rows of users who left it",
  },
  broker_filters_fts: {
    from: 'broker_filters',
    why: 'the filters search index (migration 0012), its rowid the filter row’s',
    // each moving filter indexed with what its row, aliases and contacts say now
    check: `select count(*) as rows, sum(x.rowid is null or x.name is not f.name or x.mc is not coalesce(f.mc_number, '') or x.dot is not coalesce(f.dot_number, '')
        or x.comment is not f.comment
        or x.aliases is not coalesce((select group_concat(alias, ' | ') from broker_filter_aliases where filter_id = f.id), '')
        or x.contacts is not coalesce((select group_concat(contact, ' | ') from broker_filter_contacts where filter_id = f.id), '')) as wrong
      from broker_filters f left join broker_filters_fts x on x.rowid = f.rowid where f.team_id in (select value from json_each(?1))`,
  },
};

/** Tables of the control plane (`DB`): one copy for every company, never moved. */
export const CONTROL_TABLES: Readonly<Record<string, string>> = {
  companies: 'company -> shard',
  accounts: 'the account directory',
  company_moves: 'moves between shards',
  api_keys: 'API key hashes (a users move repoints their company)',
  link_codes: 'short codes, unique product-wide; they name the owner, whose company the directory knows (decision 0180)',
  payments: 'money',
  payment_items: 'money',
  payment_receipts: 'money',
  payment_refunds: 'money',
  price_schedule: 'money',
  promo_codes: 'money',
  promo_uses: 'money',
  fmcsa_call_days: 'the FMCSA budget, product-wide',
};

/** Tables of each database that belong to no company: they stay where they are. */
export const INFRASTRUCTURE_TABLES: Readonly<Record<string, string>> = {
  company_homes: 'each shard’s companies and their state: the mover writes them',
  write_fence: 'the fence’s one row',
  mails: 'kept where the change that sends them was written, and sent from there',
  mail_outbox: 'the development outbox',
  d1_migrations: 'the migrations applied to this database',
  // each shard vets its own teams' brokers (decision 0176): a moved team's brokers are seeded on the
  // new shard by its filters (the daily run, or their next save) and checked by the next runs
  broker_vetting: 'the records of this shard’s teams’ brokers',
  broker_vetting_names: 'the names leading to those records',
  broker_vetting_changes: 'those records’ changes',
};

/** Where a table is classified, or undefined; an FTS table's shadow tables (`<name>_data` …) go with it. */
export function classificationOf(table: string): string | undefined {
  if (MOVED_TABLES.some((t) => t.table === table)) return 'company';
  if (table in DERIVED_TABLES) return 'derived';
  if (table in CONTROL_TABLES) return 'control';
  if (table in INFRASTRUCTURE_TABLES) return 'infrastructure';
  const shadow = /^(.+)_(data|idx|content|docsize|config)$/.exec(table);
  if (shadow && shadow[1]! in DERIVED_TABLES) return 'derived';
  return undefined;
}

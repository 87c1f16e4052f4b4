import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** A team's filter types (name and colour); the team is its manager. */
export const filterTypes = sqliteTable(
  'filter_types',
  {
    id: text().primaryKey(),
    teamId: text().notNull(),
    typeName: text().notNull(),
    color: text().notNull(),
    className: text().notNull(),
    index: integer().notNull(),
  },
  // My Filters: a team's types in order
  (t) => [index('filter_types_team').on(t.teamId, t.index)],
);

export const brokerFilters = sqliteTable(
  'broker_filters',
  {
    id: text().primaryKey(),
    teamId: text().notNull(),
    creatorId: text().notNull(),
    name: text().notNull(),
    /** normalizeBrokerName(name); null on old rows until the team's next write (docs/decisions/0088-duplicate-rule-in-database.md). */
    normalName: text(),
    /** The broker's MC and USDOT numbers, digits only. */
    mcNumber: text(),
    dotNumber: text(),
    /** Set when a manager rejected an agent's submission; cleared by the agent's next save. */
    rejectedReason: text(),
    // a filter type id, or '-1' for none
    typeId: text().notNull().default('-1'),
    comment: text().notNull().default(''),
    isVisible: integer({ mode: 'boolean' }).notNull().default(true),
    isVerified: integer({ mode: 'boolean' }).notNull().default(false),
    onlyCreator: integer({ mode: 'boolean' }).notNull().default(false),
    allMc: integer({ mode: 'boolean' }).notNull().default(false),
    onlyOnContacts: integer({ mode: 'boolean' }).notNull().default(false),
    newUsers: integer({ mode: 'boolean' }).notNull().default(false),
    index: integer().notNull().default(0),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull(),
    /* Written only by triggers (docs/decisions/0094-filter-derived-columns.md), so a row is read in one go. */
    /** broker_filter_mcs' mc ids, by id. */
    mcListJson: text().notNull().default('[]'),
    /** broker_filter_users' user ids, by id. */
    usersListJson: text().notNull().default('[]'),
    /** broker_filter_contacts' contacts, by position. */
    contactsJson: text().notNull().default('[]'),
    /** broker_filter_aliases' aliases, by normal form. */
    aliasesJson: text().notNull().default('[]'),
    /** The Users column: 0 only the creator, 1 team with the creator, 2 team without it. */
    usersKind: integer().notNull().default(2),
    /** lower(name), lower(comment) and each lower(contact), one per line: what a 1–2 character term scans. */
    searchText: text().notNull().default(''),
    /** The aliases' normal forms, one per line. */
    aliasesText: text().notNull().default(''),
  },
  (t) => [
    // Broker Filtering: a team's filters by name
    index('broker_filters_team_name').on(t.teamId, t.name),
    // Broker Filtering search: a team's newest filters first, so the answer's limit stops the walk early
    index('broker_filters_team_index').on(t.teamId, t.index),
    // the search's Users filter (Only Me / Team with Me / Team without Me): the newest of one kind first
    index('broker_filters_team_users_kind').on(t.teamId, t.usersKind, t.index),
    // the extension's list: the team's filters for users added later, by last save
    index('broker_filters_team_new_users').on(t.teamId, t.newUsers, t.updatedAt),
    index('broker_filters_creator').on(t.creatorId),
    // the duplicate rule: one filter per normal name and per MC number in a team
    uniqueIndex('broker_filters_team_normal_name').on(t.teamId, t.normalName),
    uniqueIndex('broker_filters_team_mc_number').on(t.teamId, t.mcNumber).where(sql`mc_number is not null`),
    // search by DOT number
    index('broker_filters_team_dot_number').on(t.teamId, t.dotNumber).where(sql`dot_number is not null`),
    // the verification queue and the menu's count: a team's waiting filters, newest first
    index('broker_filters_team_queue').on(t.teamId, t.index).where(sql`is_verified = 0 and rejected_reason is null`),
    // the one-off fill of normal names for rows saved before the column existed
    index('broker_filters_team_no_normal_name').on(t.teamId).where(sql`normal_name is null`),
  ],
);

/** Replaced by triggers on any change to a team's filters: GET /api/broker/minified's ETag, so an idle sync is one read and a 304. */
export const filterTeamStamps = sqliteTable('filter_team_stamps', {
  teamId: text().primaryKey(),
  stamp: text().notNull(),
});

export const brokerFilterMcs = sqliteTable(
  'broker_filter_mcs',
  {
    filterId: text().notNull(),
    mcId: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.filterId, t.mcId] }), index('broker_filter_mcs_mc').on(t.mcId)],
);

export const brokerFilterUsers = sqliteTable(
  'broker_filter_users',
  {
    filterId: text().notNull(),
    userId: text().notNull(),
  },
  // by user, covering the filter id: the extension's list starts from the filters listing the caller
  (t) => [primaryKey({ columns: [t.filterId, t.userId] }), index('broker_filter_users_user_filter').on(t.userId, t.filterId)],
);

export const brokerFilterContacts = sqliteTable(
  'broker_filter_contacts',
  {
    filterId: text().notNull(),
    contact: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.filterId, t.contact] })],
);

/** Other names a broker trades under; they match like the filter's own name. */
export const brokerFilterAliases = sqliteTable(
  'broker_filter_aliases',
  {
    filterId: text().notNull(),
    teamId: text().notNull(),
    alias: text().notNull(),
    normalAlias: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.filterId, t.normalAlias] }),
    // the duplicate rule: an alias names one filter of the team (triggers keep it apart from names)
    uniqueIndex('broker_filter_aliases_team_normal').on(t.teamId, t.normalAlias),
  ],
);

export const FILTER_EVENT_KINDS = [
  'created',
  'edited',
  'verified',
  'rejected',
  'disabled',
  'enabled',
  'deleted',
  'noted',
  'imported',
  'vetting',
  'resubmitted',
] as const;
export type FilterEventKind = (typeof FILTER_EVENT_KINDS)[number];

/** A filter's audit trail; rows outlive the filter (a deleted filter's history stays). */
export const brokerFilterEvents = sqliteTable(
  'broker_filter_events',
  {
    id: text().primaryKey(),
    filterId: text().notNull(),
    teamId: text().notNull(),
    actorId: text().notNull(),
    kind: text({ enum: FILTER_EVENT_KINDS }).notNull(),
    /** JSON: the fields changed ({field: [before, after]}), or a reason. */
    changes: text().notNull().default('{}'),
    at: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // the filter modal's History: one filter's events, newest first
    index('broker_filter_events_filter').on(t.filterId, t.at),
    // moving a team's rows to another shard (worker/shards/tables.ts)
    index('broker_filter_events_team').on(t.teamId),
  ],
);

export const brokerFilterNotes = sqliteTable(
  'broker_filter_notes',
  {
    id: text().primaryKey(),
    filterId: text().notNull(),
    teamId: text().notNull(),
    authorId: text().notNull(),
    text: text().notNull(),
    at: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // the filter modal's Notes: one filter's notes in order
    index('broker_filter_notes_filter').on(t.filterId, t.at),
    // moving a team's rows to another shard (worker/shards/tables.ts)
    index('broker_filter_notes_team').on(t.teamId),
  ],
);

import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

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
  },
  (t) => [
    // Broker Filtering: a team's filters by name
    index('broker_filters_team_name').on(t.teamId, t.name),
    // Broker Filtering search: a team's newest filters first, so the answer's limit stops the walk early
    index('broker_filters_team_index').on(t.teamId, t.index),
    index('broker_filters_creator').on(t.creatorId),
  ],
);

/** The MCs a filter applies to (when not allMc). */
export const brokerFilterMcs = sqliteTable(
  'broker_filter_mcs',
  {
    filterId: text().notNull(),
    mcId: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.filterId, t.mcId] }), index('broker_filter_mcs_mc').on(t.mcId)],
);

/** The team users a filter applies to. */
export const brokerFilterUsers = sqliteTable(
  'broker_filter_users',
  {
    filterId: text().notNull(),
    userId: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.filterId, t.userId] }), index('broker_filter_users_user').on(t.userId)],
);

/** Phones or e-mails a filter is tied to. */
export const brokerFilterContacts = sqliteTable(
  'broker_filter_contacts',
  {
    filterId: text().notNull(),
    contact: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.filterId, t.contact] })],
);

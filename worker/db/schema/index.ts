export * from './users';
export * from './filters';
export * from './mc-settings';
export * from './history';
export * from './payments';
export * from './subscriptions';
export * from './promo';
export * from './links';

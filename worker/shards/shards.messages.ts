import { defineMessages } from '../lib/messages';

/**
 * The shard calls' refusals. Only the operator's `npm run company:move` makes these calls, and no
 * screen shows them, so they stay English: they are not in the screens' catalogues (error-codes.ts).
 */
export const SHARD_MESSAGES = defineMessages('shards', {
  shardName: [400, 'A shard is DB or SHARD_<n>', 'the shard named is not a D1 binding name'],
  noShard: [400, 'No shard {{shard}}: the shards are {{shards}}', 'the shard is not one of `SHARD_BINDINGS`'],
  companyNotFound: [404, 'Company not found', 'no company has that id'],
  alreadyMoving: [
    409,
    'Company {{companyId}} is already moving (move {{moveId}} to {{toShard}}, {{step}})',
    'the company has an open move to another shard (`params`: `companyId`, `moveId`, `toShard`, `step`)',
  ],
  alreadyOnShard: [400, 'Company {{companyId}} is already on {{shard}}', 'the company is on the shard named'],
  moveNotFound: [404, 'Move not found', 'no move has that id'],
  moveDone: [409, 'Move {{moveId}} is done: move the company back with a new move to {{fromShard}}', 'a rollback of a move that finished'],
  moveCommitted: [
    409,
    'Move {{moveId}} has committed ({{step}}): it can only finish; then move the company back to {{fromShard}}',
    'a rollback of a move past its flip',
  ],
});

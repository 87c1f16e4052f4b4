import type { Bindings, Db } from '../env';
import type { Home } from '../users/directory';

/**
 * Moves users (a team, or a whole company) and every row they own from one shard to another
 * (docs/decisions/0174-company-shards.md). To be built: see the move's decision record.
 */
export async function moveUsers(_env: Bindings, _control: Db, move: { userIds: readonly string[]; from: Home; to: Home }): Promise<void> {
  throw new Error(`moving users between shards is not built yet (${move.from.shard} -> ${move.to.shard})`);
}

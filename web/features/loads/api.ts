import { parseResponse } from 'hono/client';
import { api } from '../../lib/api-client';
import { type Data, useGet, usePost } from '../../lib/use-api';

export type ActiveLoadDto = Data<typeof api.activeLoad.my.$get>[number];

/** A manager sees its team's loads (POST /team); everyone else its own (GET /my). */
export function useActiveLoads(isManager: boolean) {
  const mine = useGet(isManager ? null : api.activeLoad.my);
  const team = usePost(isManager ? api.activeLoad.team : null, {});
  return isManager ? team : mine;
}

export const deleteLoad = (id: string) => parseResponse(api.activeLoad.delete.$post({ json: { id } }));

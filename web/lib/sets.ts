/** A copy of `set` with `id` in or out: the checkbox handler of a table's selection. */
export function toggled(set: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

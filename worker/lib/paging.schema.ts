import * as z from 'zod';

/** Page sizes a paged view accepts (docs/decisions/0187-paged-fan-out.md); the screens offer 10 to 50. */
export const MAX_PAGE_SIZE = 100;

/** The query of every paged view: the page's size, the previous page's `next`, and the search. */
export const pageQueryShape = {
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  cursor: z.string().max(2000).optional(),
  q: z.string().trim().max(200).optional(),
};

/** What every paged view answers beside its own counts. */
export const pageShape = <T extends z.ZodType>(item: T) => ({
  items: z.array(item),
  /** The rows of the view (its search and filters applied) over every shard it reads. */
  total: z.number(),
  /** The cursor of the next page; null on the last. */
  next: z.string().nullable(),
});

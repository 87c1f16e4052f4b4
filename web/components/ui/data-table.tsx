import {
  type ColumnDef,
  type ColumnFiltersState,
  flexRender,
  type PaginationState,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type SortingState,
  type Updater,
  useReactTable,
} from '@tanstack/react-table';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useUrlParams } from '../../lib/use-url-state';

export const PAGE_SIZES = [10, 20, 30, 40, 50] as const;

/**
 * The product's table (TanStack Table): global search, sortable columns, 'Show n' page sizes
 * 10-50, previous/next and 'Page x of y', and an empty-state text. Column filters come from
 * each column's `meta.filter` ('select' renders a dropdown of the column's values; give such a
 * column `filterFn: 'equalsString'`).
 *
 * The search, sort, page, page size and column filters live in the query string (decision 0133):
 * `q`, `sort` ("name" or "-name"), `page` (from 1), `size` and `f.<column>`, each
 * prefixed with `urlKey.` when a screen has more than one table. A column with the id `action`
 * or `actions` stays in view at the right edge while a wide table scrolls (item 1). `title`
 * may be a function of the counts, to say how many rows the search and filters leave.
 */
export function DataTable<T>(props: {
  data: T[];
  columns: ColumnDef<T, any>[];
  emptyText: string;
  title?: ReactNode | ((counts: { total: number; shown: number }) => ReactNode);
  toolbar?: ReactNode;
  initialPageSize?: number;
  searchPlaceholder?: string;
  testId?: string;
  urlKey?: string;
  /**
   * The server searches, filters, sorts and pages (Contact History): `data` is the page it
   * answered, `total` and `shown` its counts, `filterOptions` each select filter's choices. The
   * table keeps the same URL keys and only reads and writes them.
   */
  server?: { total: number; shown: number; filterOptions?: Record<string, string[]> };
  /** The rows shown are the last view's while the server answers for this one (`aria-busy`). */
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const server = props.server;
  const [params, update] = useUrlParams();
  const k = (name: string) => (props.urlKey ? `${props.urlKey}.${name}` : name);
  const defaultSize = props.initialPageSize ?? 10;
  const globalFilter = params.get(k('q')) ?? '';
  const sortParam = params.get(k('sort'));
  const sorting: SortingState = sortParam ? [{ id: sortParam.replace(/^-/, ''), desc: sortParam.startsWith('-') }] : [];
  const sizeParam = Number(params.get(k('size')));
  const pageSize = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : defaultSize;
  const pageParam = Number(params.get(k('page')));
  const pageIndex = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam - 1 : 0;
  const filterPrefix = k('f.');
  const columnFilters: ColumnFiltersState = [...params.entries()]
    .filter(([key]) => key.startsWith(filterPrefix))
    .map(([key, value]) => ({ id: key.slice(filterPrefix.length), value }));

  // a new search, sort or filter starts again at page 1
  const setSorting = (u: Updater<SortingState>) =>
    update((p) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      const first = next[0];
      if (first) p.set(k('sort'), `${first.desc ? '-' : ''}${first.id}`);
      else p.delete(k('sort'));
      p.delete(k('page'));
    });
  const setGlobalFilter = (u: Updater<string>) =>
    update((p) => {
      const next = String((typeof u === 'function' ? u(globalFilter) : u) ?? '');
      if (next) p.set(k('q'), next);
      else p.delete(k('q'));
      p.delete(k('page'));
    });
  const setColumnFilters = (u: Updater<ColumnFiltersState>) =>
    update((p) => {
      const next = typeof u === 'function' ? u(columnFilters) : u;
      for (const key of [...p.keys()]) if (key.startsWith(filterPrefix)) p.delete(key);
      for (const f of next) if (f.value !== undefined && f.value !== '') p.set(`${filterPrefix}${f.id}`, String(f.value));
      p.delete(k('page'));
    });
  const setPagination = (u: Updater<PaginationState>) =>
    update((p) => {
      const next = typeof u === 'function' ? u({ pageIndex, pageSize }) : u;
      if (next.pageSize !== pageSize) {
        // a new page size keeps the first row shown on screen
        const first = pageIndex * pageSize;
        next.pageIndex = Math.floor(first / next.pageSize);
      }
      if (next.pageSize === defaultSize) p.delete(k('size'));
      else p.set(k('size'), String(next.pageSize));
      if (next.pageIndex > 0) p.set(k('page'), String(next.pageIndex + 1));
      else p.delete(k('page'));
    });

  const table = useReactTable({
    data: props.data,
    columns: props.columns,
    state: { sorting, globalFilter, columnFilters, pagination: { pageIndex, pageSize } },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    onColumnFiltersChange: setColumnFilters,
    onPaginationChange: setPagination,
    getCoreRowModel: getCoreRowModel(),
    ...(server
      ? { manualPagination: true, manualSorting: true, manualFiltering: true, rowCount: server.shown }
      : { getSortedRowModel: getSortedRowModel(), getFilteredRowModel: getFilteredRowModel(), getPaginationRowModel: getPaginationRowModel() }),
    globalFilterFn: 'includesString',
    // the page comes from the URL: new data (a revalidation) must not send it back to page 1
    autoResetPageIndex: false,
  });
  const pageCount = Math.max(1, table.getPageCount());
  const rows = table.getRowModel().rows;
  const total = server ? server.total : props.data.length;
  const shown = server ? server.shown : table.getFilteredRowModel().rows.length;
  // a page past the end (fewer rows now than when the link was made) shows the last page
  const pastEnd = total > 0 && pageIndex >= pageCount;
  useEffect(() => {
    if (pastEnd) table.setPageIndex(pageCount - 1);
  }, [pastEnd, pageCount, table]);
  const title = typeof props.title === 'function' ? props.title({ total, shown }) : props.title;
  const sticky = (id: string) => (id === 'action' || id === 'actions' ? 'col-sticky' : undefined);
  return (
    <div className="data-table" data-testid={props.testId}>
      <div className="table-toolbar">
        {title && <h2 className="table-title">{title}</h2>}
        <div className="table-tools">
          {props.toolbar}
          <input
            className="table-search"
            type="search"
            aria-label={t('table.search')}
            placeholder={props.searchPlaceholder ?? t('table.searchPlaceholder')}
            value={globalFilter}
            onChange={(e) => setGlobalFilter(e.target.value)}
          />
        </div>
      </div>
      <div className="table-scroll">
        <table className="cards-narrow" aria-busy={props.busy ?? false}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sortable = header.column.getCanSort();
                  const dir = header.column.getIsSorted();
                  const meta = header.column.columnDef.meta as { filter?: 'select'; filterLabel?: (v: string) => string } | undefined;
                  return (
                    <th
                      key={header.id}
                      className={sticky(header.column.id)}
                      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
                    >
                      {header.isPlaceholder ? null : sortable ? (
                        <button type="button" className="th-sort" onClick={header.column.getToggleSortingHandler()}>
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ' ↕'}</span>
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                      {meta?.filter === 'select' && (
                        <select
                          className="th-filter"
                          aria-label={t('table.filter', { column: String(header.column.columnDef.header) })}
                          value={(header.column.getFilterValue() as string) ?? ''}
                          onChange={(e) => header.column.setFilterValue(e.target.value || undefined)}
                        >
                          <option value="">{t('table.all')}</option>
                          {(
                            server?.filterOptions?.[header.column.id] ??
                            uniqueValues(table.getPreFilteredRowModel().rows.map((r) => r.getValue(header.column.id)))
                          ).map((v) => (
                            <option key={v} value={v}>
                              {meta.filterLabel ? meta.filterLabel(v) : v}
                            </option>
                          ))}
                        </select>
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={props.columns.length} className="table-empty">
                  {props.emptyText}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={sticky(cell.column.id)} data-label={labelOf(cell.column.columnDef)}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="table-pager">
        <label>
          <select aria-label={t('table.pageSize')} value={table.getState().pagination.pageSize} onChange={(e) => table.setPageSize(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {t('table.show', { count: n })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-secondary" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
          {t('table.previous')}
        </button>
        <span className="page-info">{t('table.page', { page: Math.min(pageIndex, pageCount - 1) + 1, pages: pageCount })}</span>
        {shown !== total && (
          <span className="rows-info" data-testid="rows-shown">
            {t('table.showing', { shown, total })}
          </span>
        )}
        <button type="button" className="btn btn-secondary" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
          {t('table.next')}
        </button>
      </div>
    </div>
  );
}

/** A column's header as text, for the narrow-screen card layout ('' for a header that is a control). */
const labelOf = (def: { header?: unknown; meta?: unknown }) =>
  (def.meta as { label?: string } | undefined)?.label ?? (typeof def.header === 'string' ? def.header : '');

const uniqueValues = (values: unknown[]) => [...new Set(values.filter((v) => v !== null && v !== undefined && v !== '').map(String))].sort();

import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type Header,
  type Table,
  useReactTable,
} from '@tanstack/react-table';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, useTableUrlState } from './table-url-state';

export { PAGE_SIZES } from './table-url-state';

/**
 * The product's table (TanStack Table): global search, sortable columns, 'Show n' page sizes
 * 10-50, previous/next and 'Page x of y', and an empty-state text. Column filters come from
 * each column's `meta.filter` ('select' renders a dropdown of the column's values; give such a
 * column `filterFn: 'equalsString'`).
 *
 * The search, sort, page, page size and column filters live in the query string (rule 0133):
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
  /** Tighter cells for a table with many columns, so all of them fit from 1280 px. */
  dense?: boolean;
}) {
  const { t } = useTranslation();
  const server = props.server;
  const defaultSize = props.initialPageSize ?? 10;
  const { globalFilter, sorting, columnFilters, pageIndex, pageSize, setSorting, setGlobalFilter, setColumnFilters, setPagination } = useTableUrlState(
    props.urlKey,
    defaultSize,
  );

  // TanStack keeps each row's accessor values until `data` changes, so a column whose accessor
  // reads something that arrives later (an MC's name, a type's name, the language) kept its first
  // value: Broker Filtering's MC read "…" for ever when the MC lists answered after the filters.
  // New columns (their accessors see the new values) give the rows a fresh start.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the columns are the reason to copy
  const data = useMemo(() => props.data.slice(), [props.data, props.columns]);
  const table = useReactTable({
    data,
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
  return (
    <div className={props.dense ? 'data-table data-table-dense' : 'data-table'} data-testid={props.testId}>
      <div className="table-toolbar">
        {title && <h2 className="table-title">{title}</h2>}
        <div className="table-tools">
          {props.toolbar}
          <SearchBox value={globalFilter} onChange={setGlobalFilter} placeholder={props.searchPlaceholder ?? t('table.searchPlaceholder')} />
        </div>
      </div>
      <div className="table-scroll">
        <table className="cards-narrow" aria-busy={props.busy ?? false}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <HeaderCell key={header.id} header={header} table={table} filterOptions={server?.filterOptions?.[header.column.id]} />
                ))}
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
      <TablePager table={table} pageIndex={pageIndex} pageCount={pageCount} shown={shown} total={total} />
    </div>
  );
}

/** A column's header as text, for the narrow-screen card layout ('' for a header that is a control). */
const labelOf = (def: { header?: unknown; meta?: unknown }) =>
  (def.meta as { label?: string } | undefined)?.label ?? (typeof def.header === 'string' ? def.header : '');

const uniqueValues = (values: unknown[]) => [...new Set(values.filter((v) => v !== null && v !== undefined && v !== '').map(String))].sort();

/** A column's header: its sort button (▲ ▼ ↕) and, for `meta.filter: 'select'`, a dropdown of its values. */
function HeaderCell<T>({ header, table, filterOptions }: { header: Header<T, unknown>; table: Table<T>; filterOptions?: string[] }) {
  const { t } = useTranslation();
  const sortable = header.column.getCanSort();
  const dir = header.column.getIsSorted();
  const meta = header.column.columnDef.meta as { filter?: 'select'; filterLabel?: (v: string) => string } | undefined;
  return (
    <th key={header.id} className={sticky(header.column.id)} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}>
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
          {(filterOptions ?? uniqueValues(table.getPreFilteredRowModel().rows.map((r) => r.getValue(header.column.id)))).map((v) => (
            <option key={v} value={v}>
              {meta.filterLabel ? meta.filterLabel(v) : v}
            </option>
          ))}
        </select>
      )}
    </th>
  );
}

/**
 * The table's search. What the person types is the input's own state: the URL follows it a
 * navigation later, and a controlled input fed from the URL alone drops the keys typed while that
 * navigation is under way (a busy phone typing "Little Rock" got "LilRck"). The URL's value is
 * taken over when it changes from elsewhere (Back, a link) while the box is not being typed in.
 */
function SearchBox({ value, onChange, placeholder }: { value: string; onChange: (value: string) => void; placeholder: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (document.activeElement !== input.current) setText(value);
  }, [value]);
  return (
    <input
      ref={input}
      className="table-search"
      type="search"
      aria-label={t('table.search')}
      placeholder={placeholder}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value);
      }}
    />
  );
}

/** Page size ('Show n'), Previous and Next, 'Page x of y', and how many rows the search leaves. */
function TablePager<T>({ table, pageIndex, pageCount, shown, total }: { table: Table<T>; pageIndex: number; pageCount: number; shown: number; total: number }) {
  const { t } = useTranslation();
  return (
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
  );
}

/** The column that holds a row's actions stays in view at the right edge while a wide table scrolls. */
const sticky = (id: string) => (id === 'action' || id === 'actions' ? 'col-sticky' : undefined);

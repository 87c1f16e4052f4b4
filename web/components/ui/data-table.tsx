import {
  type ColumnDef,
  type ColumnFiltersState,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { type ReactNode, useState } from 'react';

export const PAGE_SIZES = [10, 20, 30, 40, 50] as const;

/**
 * The product's table (TanStack Table): global search, sortable columns, 'Show n' page sizes
 * 10-50, previous/next and 'Page x of y', and an empty-state text. Column filters come from
 * each column's `meta.filter` ('select' renders a dropdown of the column's values; give such a
 * column `filterFn: 'equalsString'`).
 */
export function DataTable<T>(props: {
  data: T[];
  columns: ColumnDef<T, any>[];
  emptyText: string;
  title?: ReactNode;
  toolbar?: ReactNode;
  initialPageSize?: number;
  searchPlaceholder?: string;
  testId?: string;
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [globalFilter, setGlobalFilter] = useState('');
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>([]);
  const table = useReactTable({
    data: props.data,
    columns: props.columns,
    state: { sorting, globalFilter, columnFilters },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    onColumnFiltersChange: setColumnFilters,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    globalFilterFn: 'includesString',
    autoResetPageIndex: true,
    initialState: { pagination: { pageSize: props.initialPageSize ?? 10, pageIndex: 0 } },
  });
  const pageCount = Math.max(1, table.getPageCount());
  const rows = table.getRowModel().rows;
  return (
    <div className="data-table" data-testid={props.testId}>
      <div className="table-toolbar">
        {props.title && <h2 className="table-title">{props.title}</h2>}
        <div className="table-tools">
          {props.toolbar}
          <input
            className="table-search"
            type="search"
            aria-label="Search"
            placeholder={props.searchPlaceholder ?? 'Search…'}
            value={globalFilter}
            onChange={(e) => setGlobalFilter(e.target.value)}
          />
        </div>
      </div>
      <div className="table-scroll">
        <table>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sortable = header.column.getCanSort();
                  const dir = header.column.getIsSorted();
                  const meta = header.column.columnDef.meta as { filter?: 'select'; filterLabel?: (v: string) => string } | undefined;
                  return (
                    <th key={header.id} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}>
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
                          aria-label={`Filter ${String(header.column.columnDef.header)}`}
                          value={(header.column.getFilterValue() as string) ?? ''}
                          onChange={(e) => header.column.setFilterValue(e.target.value || undefined)}
                        >
                          <option value="">All</option>
                          {uniqueValues(table.getPreFilteredRowModel().rows.map((r) => r.getValue(header.column.id))).map((v) => (
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
                    <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="table-pager">
        <label>
          <select aria-label="Page size" value={table.getState().pagination.pageSize} onChange={(e) => table.setPageSize(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                Show {n}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-secondary" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
          Previous
        </button>
        <span className="page-info">
          Page {table.getState().pagination.pageIndex + 1} of {pageCount}
        </span>
        <button type="button" className="btn btn-secondary" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
          Next
        </button>
      </div>
    </div>
  );
}

const uniqueValues = (values: unknown[]) => [...new Set(values.filter((v) => v !== null && v !== undefined && v !== '').map(String))].sort();

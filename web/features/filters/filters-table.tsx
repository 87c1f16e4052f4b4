import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useRef } from 'react';
import { statusLabel, usersLabel } from '../../../worker/filters/filters.schema';
import { DataTable } from '../../components/ui/data-table';
import type { FilterDto, FilterTypeDto } from './api';
import { textColorOn } from '../../lib/color';

/** A filter type's coloured label. */
export function TypeLabel({ type }: { type: FilterTypeDto | undefined }) {
  if (!type) return <span className="muted">No type</span>;
  return (
    <span className={`type-label type-${type.className}`} style={{ background: type.color, color: textColorOn(type.color) }}>
      {type.typeName}
    </span>
  );
}

/** 'All', or the first contact plus ', ...' when there are more (spec: Filters list table). */
export const contactsText = (contacts: string[]) => (contacts.length === 0 ? 'All' : contacts.length === 1 ? contacts[0]! : `${contacts[0]}, ...`);

const STATUS_PILL = { Rejected: 'pill-bad', Unverified: 'pill-warn', Active: 'pill-ok', Disabled: 'pill-off' } as const;

/**
 * Filters List (Total: n): newest first, with the spec's column, status and action rules. The
 * server's `canEdit` decides between edit/toggle/delete and the view-only button.
 */
export function FiltersTable(props: {
  filters: FilterDto[];
  types: FilterTypeDto[];
  mcName: (id: string) => string;
  isManager: boolean;
  busy: boolean;
  onEdit: (f: FilterDto) => void;
  onView: (f: FilterDto) => void;
  onToggle: (f: FilterDto) => void;
  onDelete: (f: FilterDto) => void;
  /** Row selection for the bulk actions (only rows the caller may edit can be picked). */
  selected?: Set<string>;
  onSelect?: (next: Set<string>) => void;
}) {
  const { types, mcName, isManager } = props;
  // shown in reverse order: the newest filter first
  const rows = useMemo(() => [...props.filters].reverse(), [props.filters]);
  const typeById = useMemo(() => new Map(types.map((t) => [t._id, t])), [types]);
  // the row buttons call the latest handlers without rebuilding the columns
  const on = useRef(props);
  on.current = props;

  const selectable = !!props.onSelect;
  const selected = props.selected ?? new Set<string>();
  // the row checkboxes read the selection through `on`; the table redraws its cells on each render
  const editableIds = useMemo(() => rows.filter((f) => f.canEdit).map((f) => f._id), [rows]);
  const allPicked = editableIds.length > 0 && editableIds.every((id) => selected.has(id));

  const columns = useMemo<ColumnDef<FilterDto, any>[]>(
    () => [
      ...(selectable
        ? [
            {
              id: 'select',
              enableSorting: false,
              header: () => (
                <input
                  type="checkbox"
                  aria-label="Select all filters you can edit"
                  checked={on.current.selected !== undefined && allPicked}
                  onChange={(e) => on.current.onSelect?.(e.target.checked ? new Set(editableIds) : new Set())}
                />
              ),
              cell: ({ row }: { row: { original: FilterDto } }) =>
                row.original.canEdit ? (
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.original.name}`}
                    checked={on.current.selected?.has(row.original._id) ?? false}
                    onChange={(e) => {
                      const next = new Set(on.current.selected);
                      if (e.target.checked) next.add(row.original._id);
                      else next.delete(row.original._id);
                      on.current.onSelect?.(next);
                    }}
                  />
                ) : null,
            } satisfies ColumnDef<FilterDto, any>,
          ]
        : []),
      {
        accessorKey: 'name',
        header: 'Name',
        cell: ({ row }) => (
          <span>
            <strong>{row.original.name}</strong>
            {row.original.aliases.length > 0 && <span className="muted cell-aliases"> aka {row.original.aliases.join(', ')}</span>}
          </span>
        ),
      },
      { id: 'mcNumber', header: 'MC #', accessorFn: (f) => f.mcNumber ?? '', cell: ({ getValue }) => <span className="cell-number">{getValue()}</span> },
      { id: 'dotNumber', header: 'DOT #', accessorFn: (f) => f.dotNumber ?? '', cell: ({ getValue }) => <span className="cell-number">{getValue()}</span> },
      { id: 'contacts', header: 'Contacts', accessorFn: (f) => contactsText(f.contacts) },
      {
        id: 'type',
        header: 'Type',
        accessorFn: (f) => typeById.get(f.type)?.typeName ?? 'No type',
        cell: ({ row }) => <TypeLabel type={typeById.get(row.original.type)} />,
        // the type filter is in the non-manager variant (spec: Filters list table)
        ...(isManager ? {} : { filterFn: 'equalsString' as const, meta: { filter: 'select' } }),
      },
      { accessorKey: 'comment', header: 'Comment', cell: ({ getValue }) => <span className="cell-comment">{getValue()}</span> },
      { id: 'users', header: 'Users', accessorFn: (f) => usersLabel(f) },
      { id: 'mc', header: 'MC', accessorFn: (f) => (f.allMC ? 'All MC' : f.mcList.map(mcName).join(', ')) },
      { id: 'creator', header: 'Creator', accessorFn: (f) => f.creator.name },
      {
        id: 'status',
        header: 'Status',
        accessorFn: (f) => statusLabel(f),
        cell: ({ row }) => {
          const status = statusLabel(row.original);
          return (
            <span className="status-cell">
              <span className={`label-pill ${STATUS_PILL[status]}`}>{status}</span>
              {status === 'Unverified' && <span className="status-note">(Added by Agent)</span>}
              {status === 'Rejected' && <span className="status-note">{row.original.rejectedReason}</span>}
            </span>
          );
        },
      },
      {
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        cell: ({ row }) => {
          const f = row.original;
          if (!f.canEdit)
            return (
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => on.current.onView(f)} aria-label={`View ${f.name}`}>
                View
              </button>
            );
          return (
            <div className="row-actions">
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => on.current.onEdit(f)} aria-label={`Edit ${f.name}`}>
                Edit
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={props.busy}
                onClick={() => on.current.onToggle(f)}
                aria-label={`${f.isVisible ? 'Disable' : 'Activate'} ${f.name}`}
              >
                {f.isVisible ? 'Disable' : 'Activate'}
              </button>
              <button type="button" className="btn btn-danger btn-sm" onClick={() => on.current.onDelete(f)} aria-label={`Delete ${f.name}`}>
                Delete
              </button>
            </div>
          );
        },
      },
    ],
    [typeById, mcName, isManager, props.busy, selectable, allPicked, editableIds],
  );

  return (
    <DataTable
      data={rows}
      columns={columns}
      emptyText="No Filters"
      title={({ total, shown }) => `Filters List (Total: ${total})${shown !== total ? ` · ${shown} shown` : ''}`}
      testId="filters-table"
    />
  );
}

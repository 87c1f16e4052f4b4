import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { statusLabel, usersLabel } from '../../../worker/filters/filters.schema';
import { DataTable } from '../../components/ui/data-table';
import { textColorOn } from '../../lib/color';
import { contactText } from '../../lib/format';
import type { FilterDto, FilterTypeDto } from './api';
import { useFilterVetting, VettingChip } from './vetting';
import './texts';

/** A filter type's coloured label. */
export function TypeLabel({ type }: { type: FilterTypeDto | undefined }) {
  const { t } = useTranslation();
  if (!type) return <span className="muted">{t('filters.noType')}</span>;
  return (
    <span className={`type-label type-${type.className}`} style={{ background: type.color, color: textColorOn(type.color) }}>
      {type.typeName}
    </span>
  );
}

/** 'All', or the first contact plus ', ...' when there are more (spec: Filters list table). */
export const contactsText = (contacts: string[], t: TFunction) =>
  contacts.length === 0 ? t('filters.all') : contacts.length === 1 ? contactText(contacts[0]!) : `${contactText(contacts[0]!)}, ...`;

const STATUS_PILL = { Rejected: 'pill-bad', Unverified: 'pill-warn', Active: 'pill-ok', Disabled: 'pill-off' } as const;
const STATUS_KEYS = {
  Rejected: 'filters.statusRejected',
  Unverified: 'filters.statusUnverified',
  Active: 'filters.statusActive',
  Disabled: 'filters.statusDisabled',
} as const;
const USERS_KEYS: Record<string, string> = {
  'Only Me': 'filters.usersOnlyMe',
  'Team and Me': 'filters.usersTeamAndMe',
  'Team without Me': 'filters.usersTeamWithoutMe',
};
const usersText = (f: FilterDto, t: TFunction) => {
  const label = usersLabel(f);
  const key = USERS_KEYS[label];
  return key ? t(key) : label;
};

/**
 * Filters List (Total: n): newest first, with the spec's column, status and action rules. The
 * server's `canEdit` decides between edit/toggle/delete and the view-only button; `canCorrect`
 * offers Edit alone on the caller's own rejected filter.
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
  const { t } = useTranslation();
  const { types, mcName, isManager } = props;
  // shown in reverse order: the newest filter first
  const rows = useMemo(() => [...props.filters].reverse(), [props.filters]);
  const typeById = useMemo(() => new Map(types.map((t) => [t._id, t])), [types]);
  // the brokers' FMCSA status, one call for the list (a failed call says so in the column, never "empty");
  // the cells read it through a ref, like the selection: the table redraws its cells on each render
  const vettingIds = useMemo(() => rows.filter((f) => f.mcNumber || f.dotNumber).map((f) => f._id), [rows]);
  const vetting = useFilterVetting(vettingIds);
  const vettingRef = useRef(vetting);
  vettingRef.current = vetting;
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
                  aria-label={t('filters.selectAllEditable')}
                  checked={on.current.selected !== undefined && allPicked}
                  onChange={(e) => on.current.onSelect?.(e.target.checked ? new Set(editableIds) : new Set())}
                />
              ),
              cell: ({ row }: { row: { original: FilterDto } }) =>
                row.original.canEdit ? (
                  <input
                    type="checkbox"
                    aria-label={t('filters.selectRow', { name: row.original.name })}
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
        header: t('filters.colName'),
        cell: ({ row }) => (
          <span className="cell-name">
            <strong>{row.original.name}</strong>
            {row.original.aliases.length > 0 && <span className="muted cell-aliases"> {t('filters.aka', { names: row.original.aliases.join(', ') })}</span>}
          </span>
        ),
      },
      {
        id: 'mcNumber',
        header: t('filters.colMcNumber'),
        accessorFn: (f) => f.mcNumber ?? '',
        cell: ({ getValue }) => <span className="cell-number">{getValue()}</span>,
      },
      {
        id: 'dotNumber',
        header: t('filters.colDotNumber'),
        accessorFn: (f) => f.dotNumber ?? '',
        cell: ({ getValue }) => <span className="cell-number">{getValue()}</span>,
      },
      {
        id: 'fmcsa',
        header: t('filterVetting.heading'),
        enableSorting: false,
        cell: ({ row }) => {
          const f = row.original;
          if (!f.mcNumber && !f.dotNumber) return <span className="muted">—</span>;
          const v = vettingRef.current;
          if (v.error != null && !v.data) return <span className="muted">{t('filters.statusNotLoaded')}</span>;
          if (!v.data) return <span className="muted">…</span>;
          return <VettingChip record={v.data.records[f._id]} configured={v.data.configured} />;
        },
      },
      {
        id: 'contacts',
        header: t('filters.colContacts'),
        accessorFn: (f) => contactsText(f.contacts, t),
        cell: ({ getValue }) => <span className="cell-contacts">{getValue<string>()}</span>,
      },
      {
        id: 'type',
        header: t('filters.colType'),
        accessorFn: (f) => typeById.get(f.type)?.typeName ?? t('filters.noType'),
        cell: ({ row }) => <TypeLabel type={typeById.get(row.original.type)} />,
        // the type filter is in the non-manager variant (spec: Filters list table)
        ...(isManager ? {} : { filterFn: 'equalsString' as const, meta: { filter: 'select' } }),
      },
      { accessorKey: 'comment', header: t('filters.colComment'), cell: ({ getValue }) => <span className="cell-comment">{getValue()}</span> },
      { id: 'users', header: t('filters.colUsers'), accessorFn: (f) => usersText(f, t) },
      { id: 'mc', header: t('filters.colMc'), accessorFn: (f) => (f.allMC ? t('filters.allMc') : f.mcList.map(mcName).join(', ')) },
      { id: 'creator', header: t('filters.colCreator'), accessorFn: (f) => f.creator.name },
      {
        id: 'status',
        header: t('filters.colStatus'),
        accessorFn: (f) => t(STATUS_KEYS[statusLabel(f)]),
        cell: ({ row }) => {
          const status = statusLabel(row.original);
          return (
            <span className="status-cell">
              <span className={`label-pill ${STATUS_PILL[status]}`}>{t(STATUS_KEYS[status])}</span>
              {status === 'Unverified' && <span className="status-note">{t('filters.addedByAgent')}</span>}
              {status === 'Rejected' && <span className="status-note">{row.original.rejectedReason}</span>}
            </span>
          );
        },
      },
      {
        id: 'actions',
        header: t('filters.colActions'),
        enableSorting: false,
        cell: ({ row }) => {
          const f = row.original;
          const edit = (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => on.current.onEdit(f)} aria-label={t('filters.editRow', { name: f.name })}>
              {t('filters.edit')}
            </button>
          );
          // its creator corrects a rejected filter (back to the queue): Edit alone, no Disable or Delete
          if (!f.canEdit && f.canCorrect) return edit;
          if (!f.canEdit)
            return (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => on.current.onView(f)}
                aria-label={t('filters.viewRow', { name: f.name })}
              >
                {t('filters.view')}
              </button>
            );
          return (
            <div className="row-actions">
              {edit}
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={props.busy}
                onClick={() => on.current.onToggle(f)}
                aria-label={f.isVisible ? t('filters.disableRow', { name: f.name }) : t('filters.activateRow', { name: f.name })}
              >
                {f.isVisible ? t('filters.disable') : t('filters.activate')}
              </button>
              <button
                type="button"
                className="btn btn-danger btn-sm"
                onClick={() => on.current.onDelete(f)}
                aria-label={t('filters.deleteRow', { name: f.name })}
              >
                {t('filters.delete')}
              </button>
            </div>
          );
        },
      },
    ],
    [t, typeById, mcName, isManager, props.busy, selectable, allPicked, editableIds],
  );

  return (
    <DataTable
      data={rows}
      columns={columns}
      emptyText={t('filters.empty')}
      title={({ total, shown }) => `${t('filters.tableTitle', { total })}${shown !== total ? t('filters.tableShown', { shown }) : ''}`}
      testId="filters-table"
      dense
    />
  );
}

import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/ui/data-table';
import { Button } from '../../components/ui/button';
import { Loaded } from '../../components/ui/request-state';
import { useSession } from '../../lib/session';
import { exportLinks, type LinkDto, useLinks } from './api';
import './links.css';

type Row = LinkDto & { number: number };

/**
 * /links: Number (from 1), From, To, Open; empty: No Links. Errors are silent (spec). The admin
 * may switch to every user's links, which adds an Owner column.
 */
export default function LinksList() {
  const session = useSession();
  const [all, setAll] = useState(false);
  const showAll = all && session?.userType === 'admin';
  const read = useLinks(showAll);
  const { data } = read;
  const rows = useMemo<Row[]>(() => (data ?? []).map((link, i) => ({ ...link, number: i + 1 })), [data]);
  const columns = useMemo<ColumnDef<Row, any>[]>(
    () => [
      { accessorKey: 'number', header: 'Number' },
      { accessorKey: 'from', header: 'From', cell: (c) => <span className="link-cell">{c.getValue()}</span> },
      { accessorKey: 'to', header: 'To', cell: (c) => <span className="link-cell">{c.getValue()}</span> },
      ...(showAll ? [{ id: 'owner', header: 'Owner', accessorFn: (r: Row) => r.owner?.email ?? '' } satisfies ColumnDef<Row, any>] : []),
      {
        id: 'open',
        header: 'Open',
        enableSorting: false,
        cell: (c) => (
          <Link className="btn btn-secondary btn-sm" to={`/detail/${c.row.original._id}`} aria-label={`Open link ${c.row.original.number}`}>
            Open
          </Link>
        ),
      },
    ],
    [showAll],
  );
  return (
    <div className="page links-page">
      <div className="page-header">
        <h1>Links</h1>
        <div className="page-header-actions">
          <Button variant="secondary" onClick={() => exportLinks(showAll)} disabled={!data?.length}>
            Export CSV
          </Button>
          <Link className="btn btn-secondary" to="/links/keys">
            API keys
          </Link>
          <Link className="btn btn-primary" to="/create">
            Create link
          </Link>
        </div>
      </div>
      <Loaded what="the links" state={read}>
        {() => (
          <DataTable
            data={rows}
            columns={columns}
            emptyText="No Links"
            testId="links-table"
            searchPlaceholder="Search links…"
            toolbar={
              session?.userType === 'admin' && (
                <label className="links-all">
                  <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
                  Every user&apos;s links
                </label>
              )
            }
          />
        )}
      </Loaded>
    </div>
  );
}

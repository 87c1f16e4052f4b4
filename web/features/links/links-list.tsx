import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { Loaded, type ReadState } from '../../components/ui/request-state';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-links.json';
import { useSession } from '../../lib/session';
import { exportLinks, type LinkDto, useLinks } from './api';
import { useLinksPageView } from './use-links-page';
import './links.css';

// this feature's English texts (the login page's first bundle has none of them)
addEnglish(english);

type Row = LinkDto & { number: number };

/**
 * /links: Number (from 1), From, To, Open; empty: No Links. Errors are silent (spec). The admin
 * may switch to every user's links, which adds an Owner column: those span every company, so they
 * come a page at a time from the server (decision 0187), a failed page said with Retry.
 */
/** One's own links are numbered in creation order, the whole list's. */
const inOrder = (i: number) => i + 1;

export default function LinksList() {
  const { t } = useTranslation();
  const session = useSession();
  const [all, setAll] = useState(false);
  const showAll = all && session?.userType === 'admin';
  const whole = useLinks(!showAll);
  const paged = useLinksPageView(showAll);
  const read: ReadState<unknown> = showAll ? paged.state : whole;
  const links = showAll ? paged.page?.items : whole.data;
  const numberOf = showAll ? paged.numberOf : inOrder;
  const rows = useMemo<Row[]>(() => (links ?? []).map((link, i) => ({ ...link, number: numberOf(i) })), [links, numberOf]);
  const columns = useMemo<ColumnDef<Row, any>[]>(
    () => [
      // every user's links sort on the server (use-links-page.ts), one's own in the browser
      { accessorKey: 'number', header: t('links.number') },
      { accessorKey: 'from', header: t('links.from'), cell: (c) => <span className="link-cell">{c.getValue()}</span> },
      { accessorKey: 'to', header: t('links.to'), cell: (c) => <span className="link-cell">{c.getValue()}</span> },
      ...(showAll
        ? [{ id: 'owner', header: t('links.owner'), enableSorting: false, accessorFn: (r: Row) => r.owner?.email ?? '' } satisfies ColumnDef<Row, any>]
        : []),
      {
        id: 'open',
        header: t('links.open'),
        enableSorting: false,
        cell: (c) => (
          <Link className="btn btn-secondary btn-sm" to={`/detail/${c.row.original._id}`} aria-label={t('links.openLink', { number: c.row.original.number })}>
            {t('links.open')}
          </Link>
        ),
      },
    ],
    [showAll, t],
  );
  return (
    <div className="page links-page">
      <div className="page-header">
        <h1>{t('links.title')}</h1>
        <div className="page-header-actions">
          <Button variant="secondary" onClick={() => exportLinks(showAll)} disabled={!(showAll ? paged.page?.total : whole.data?.length)}>
            {t('links.exportCsv')}
          </Button>
          <Link className="btn btn-secondary" to="/links/keys">
            {t('links.apiKeys')}
          </Link>
          <Link className="btn btn-primary" to="/create">
            {t('links.create')}
          </Link>
        </div>
      </div>
      <Loaded what={t('links.what')} state={read}>
        {() => (
          <DataTable
            data={rows}
            columns={columns}
            emptyText={t('links.empty')}
            testId="links-table"
            busy={showAll && paged.busy}
            server={showAll && paged.page ? { total: paged.page.total, shown: paged.page.total } : undefined}
            searchPlaceholder={t('links.search')}
            toolbar={
              session?.userType === 'admin' && (
                <label className="links-all">
                  <input
                    type="checkbox"
                    checked={all}
                    onChange={(e) => {
                      setAll(e.target.checked);
                      paged.toFirstPage();
                    }}
                  />
                  {t('links.everyUser')}
                </label>
              )
            }
          />
        )}
      </Loaded>
    </div>
  );
}

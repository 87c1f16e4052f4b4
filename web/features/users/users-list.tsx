import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/ui/data-table';
import { Loaded, type ReadState } from '../../components/ui/request-state';
import { Stat } from '../../components/ui/section';
import { addEnglish, currentLanguage } from '../../i18n';
import english from '../../i18n/en-users.json';
import { phoneText, shortDate } from '../../lib/format';
import { useRegionNames } from '../../lib/region-names';
import { useSession } from '../../lib/session';
import { type UserDto, useDirectors, useManagers, useUsers } from './api';
import { DeleteUserDialog } from './delete-user-dialog';
import { roleText, subscriptionEndText } from './texts';
import { SERVER_SORTS, useUsersPageView } from './use-users-page';
import './users.css';

// this screen's English texts (the login page's first bundle has none of them)
addEnglish(english);

/** An e-mail that may wrap after its @ rather than anywhere. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/** A count not known yet: never a 0 that is not true (rule 0136). */
function Placeholder() {
  const { t } = useTranslation();
  return (
    <span className="placeholder" role="status">
      …<span className="sr-only">{t('users.loading')}</span>
    </span>
  );
}

/** A count that could not be loaded (the failure below says why). */
function NotLoaded() {
  const { t } = useTranslation();
  return (
    <span className="placeholder">
      —<span className="sr-only">{t('users.notLoaded')}</span>
    </span>
  );
}

/**
 * Subscription End's order: dates (earliest first), then 'No End Date', then 'Email verification
 * pending', each kind together (rule 0136) whichever way the column is sorted.
 */
function bySubscriptionEnd(a: UserDto, b: UserDto) {
  const rank = (u: UserDto) => (!u.isEmailVerified ? 2 : u.subscriptionEndDate ? 0 : 1);
  return rank(a) - rank(b) || (a.subscriptionEndDate ?? '').localeCompare(b.subscriptionEndDate ?? '');
}

/** Users List (/users): All Users for the admin, My Team for a manager. */
export default function UsersList() {
  const { t } = useTranslation();
  const session = useSession();
  const isAdmin = session?.userType === 'admin';
  const regionNames = useRegionNames(currentLanguage());
  // the admin's list spans every company: a page at a time from the server; a team's is whole
  const wholeRead = useUsers(!isAdmin);
  const paged = useUsersPageView(isAdmin);
  const usersRead: ReadState<unknown> = isAdmin ? paged.state : wholeRead;
  const { data, mutate } = usersRead;
  // a count is shown only once the list is in: never a 0 that is not true, while loading or after a failure
  const known = data !== undefined;
  const [deleting, setDeleting] = useState<UserDto | null>(null);
  const users = useMemo(() => (paged.page ? paged.page.items : (wholeRead.data ?? [])), [paged.page, wholeRead.data]);
  const managers = paged.page ? paged.page.managers : users.filter((u) => u.userType === 'manager').length;
  const agents = paged.page ? paged.page.agents : users.filter((u) => u.userType === 'agent').length;
  // the Parent filter's choices: every manager and director (the parents there are), by e-mail
  const managerList = useManagers(isAdmin).data;
  const directorList = useDirectors(isAdmin).data;
  const parents = useMemo(() => [...(managerList ?? []), ...(directorList ?? [])].sort((a, b) => a.email.localeCompare(b.email)), [managerList, directorList]);
  const parentEmails = useMemo(() => new Map(parents.map((p) => [p._id, p.email])), [parents]);

  const columns = useMemo<ColumnDef<UserDto, any>[]>(() => {
    const action: ColumnDef<UserDto, any> = {
      id: 'action',
      header: t('users.action'),
      enableSorting: false,
      cell: ({ row }) => (
        <div className="row-actions">
          <Link className="btn btn-secondary btn-sm" to={`/profile/${row.original._id}`} aria-label={t('users.profileOf', { name: row.original.name })}>
            {t('users.profile')}
          </Link>
          {row.original._id !== session?.userId && (
            <button
              type="button"
              className="btn btn-danger btn-sm"
              onClick={() => setDeleting(row.original)}
              aria-label={t('users.deleteOf', { name: row.original.name })}
            >
              {t('users.delete')}
            </button>
          )}
        </div>
      ),
    };
    const subEnd: ColumnDef<UserDto, any> = {
      id: 'subscriptionEnd',
      header: t('users.subscriptionEnd'),
      accessorFn: (u) => subscriptionEndText(t, u),
      // a date stays on one line; 'No End Date' and 'Email verification pending' may wrap (longer in Russian and Armenian)
      cell: ({ row, getValue }) => (
        <span className={row.original.isEmailVerified && row.original.subscriptionEndDate ? 'nowrap' : undefined}>{getValue()}</span>
      ),
      sortingFn: (a, b) => bySubscriptionEnd(a.original, b.original),
    };
    const base: ColumnDef<UserDto, any>[] = [
      { accessorKey: 'email', header: t('users.email'), cell: ({ getValue }) => <EmailText email={getValue()} /> },
      { accessorKey: 'name', header: t('users.name') },
    ];
    if (!isAdmin) return [...base, subEnd, action];
    // every column sorts on the server (Country by its ISO code: the server does not know the language)
    const serverSorted = (cols: ColumnDef<UserDto, any>[]) =>
      cols.map((c) => {
        const id = c.id ?? (c as { accessorKey?: string }).accessorKey;
        return (SERVER_SORTS as readonly string[]).includes(id ?? '') ? c : { ...c, enableSorting: false };
      });
    return serverSorted([
      ...base,
      {
        accessorKey: 'userType',
        header: t('users.type'),
        // searched and filtered by the type itself; shown by its name in the user's language
        cell: ({ getValue }) => roleText(t, getValue()),
        filterFn: 'equalsString',
        meta: { filter: 'select', filterLabel: (type: string) => roleText(t, type as UserDto['userType']) },
      },
      {
        id: 'parent',
        header: t('users.parent'),
        accessorFn: (u) => u.parent?.email ?? '',
        cell: ({ getValue }) => <EmailText email={getValue()} />,
        filterFn: 'equalsString',
        // filtered by the parent's id on the server, shown by its e-mail
        meta: { filter: 'select', filterLabel: (id: string) => parentEmails.get(id) ?? id },
      },
      {
        id: 'country',
        header: t('users.country'),
        // the stored ISO code named in the screen's language, so it is searched and sorted by that name too
        accessorFn: (u) => (u.country && regionNames ? regionNames(u.country) : ''),
      },
      { accessorKey: 'phone', header: t('users.phone'), cell: ({ getValue }) => (getValue() ? phoneText(getValue()) : '') },
      {
        id: 'registrationDate',
        header: t('users.registered'),
        accessorFn: (u) => u.registrationDate,
        cell: ({ getValue }) => <span className="nowrap">{shortDate(getValue())}</span>,
      },
      subEnd,
      action,
    ]);
  }, [isAdmin, session?.userId, t, regionNames, parentEmails]);

  return (
    <div className="page users-list">
      <div className="page-header">
        <h1>{isAdmin ? t('titles.allUsers') : t('titles.myTeam')}</h1>
        <Link className="btn btn-primary" to="/createUser/">
          {t('users.addUser')}
        </Link>
      </div>
      <div className="stat-row">
        {isAdmin && (
          <Stat label={t('users.totalManagers')} testId="total-managers">
            {known ? managers : usersRead.error ? <NotLoaded /> : <Placeholder />}
          </Stat>
        )}
        <Stat label={t('users.totalAgents')} testId="total-agents">
          {known ? agents : usersRead.error ? <NotLoaded /> : <Placeholder />}
        </Stat>
      </div>
      <Loaded what={t('users.what')} state={usersRead}>
        {() => (
          <DataTable
            data={users}
            columns={columns}
            emptyText={t('users.empty')}
            testId="users-table"
            busy={paged.busy}
            server={
              paged.page && {
                total: paged.page.all,
                shown: paged.page.total,
                filterOptions: { userType: ['admin', 'director', 'manager', 'marketing', 'agent'], parent: parents.map((p) => p._id) },
              }
            }
          />
        )}
      </Loaded>
      <DeleteUserDialog user={deleting} isAdmin={isAdmin} onClose={() => setDeleting(null)} onDeleted={mutate} />
    </div>
  );
}

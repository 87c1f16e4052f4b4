import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/ui/dialog';
import { DataTable } from '../../components/ui/data-table';
import { Stat } from '../../components/ui/section';
import { Loaded } from '../../components/ui/request-state';
import { shortDate, phoneText } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { deleteUser, subscriptionEndText, type UserDto, useUsers } from './api';
import './users.css';

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

/** A count not known yet: never a 0 that is not true (decision 0136). */
const Placeholder = () => (
  <span className="placeholder" role="status">
    …<span className="sr-only">Loading</span>
  </span>
);

/** A count that could not be loaded (the failure below says why). */
const NotLoaded = () => (
  <span className="placeholder">
    —<span className="sr-only">Not loaded</span>
  </span>
);

/**
 * Subscription End's order: dates (earliest first), then 'No End Date', then 'Email verification
 * pending', each kind together (decision 0136) whichever way the column is sorted.
 */
function bySubscriptionEnd(a: UserDto, b: UserDto) {
  const rank = (u: UserDto) => (!u.isEmailVerified ? 2 : u.subscriptionEndDate ? 0 : 1);
  return rank(a) - rank(b) || (a.subscriptionEndDate ?? '').localeCompare(b.subscriptionEndDate ?? '');
}

/** Users List (/users): All Users for the admin, My Team for a manager. */
export default function UsersList() {
  const session = useSession();
  const isAdmin = session?.userType === 'admin';
  const usersRead = useUsers();
  const { data, mutate } = usersRead;
  // a count is shown only once the list is in: never a 0 that is not true, while loading or after a failure
  const known = data !== undefined;
  const [deleting, setDeleting] = useState<UserDto | null>(null);
  const { loading, run } = useRequest();
  const users = useMemo(() => data ?? [], [data]);
  const managers = users.filter((u) => u.userType === 'manager').length;
  const agents = users.filter((u) => u.userType === 'agent').length;

  const columns = useMemo<ColumnDef<UserDto, any>[]>(() => {
    const action: ColumnDef<UserDto, any> = {
      id: 'action',
      header: 'Action',
      enableSorting: false,
      cell: ({ row }) => (
        <div className="row-actions">
          <Link className="btn btn-secondary btn-sm" to={`/profile/${row.original._id}`} aria-label={`Profile of ${row.original.name}`}>
            Profile
          </Link>
          {row.original._id !== session?.userId && (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => setDeleting(row.original)} aria-label={`Delete ${row.original.name}`}>
              Delete
            </button>
          )}
        </div>
      ),
    };
    const subEnd: ColumnDef<UserDto, any> = {
      id: 'subscriptionEnd',
      header: 'Subscription End',
      accessorFn: (u) => subscriptionEndText(u),
      cell: ({ getValue }) => <span className={getValue() === 'Email verification pending' ? undefined : 'nowrap'}>{getValue()}</span>,
      sortingFn: (a, b) => bySubscriptionEnd(a.original, b.original),
    };
    const base: ColumnDef<UserDto, any>[] = [
      { accessorKey: 'email', header: 'Email', cell: ({ getValue }) => <EmailText email={getValue()} /> },
      { accessorKey: 'name', header: 'Name' },
    ];
    if (!isAdmin) return [...base, subEnd, action];
    return [
      ...base,
      { accessorKey: 'userType', header: 'Type', filterFn: 'equalsString', meta: { filter: 'select' } },
      {
        id: 'parent',
        header: 'Parent',
        accessorFn: (u) => u.parent?.email ?? '',
        cell: ({ getValue }) => <EmailText email={getValue()} />,
        filterFn: 'equalsString',
        meta: { filter: 'select' },
      },
      { accessorKey: 'country', header: 'Country' },
      { accessorKey: 'phone', header: 'Phone', cell: ({ getValue }) => (getValue() ? phoneText(getValue()) : '') },
      {
        id: 'registrationDate',
        header: 'Register Date',
        accessorFn: (u) => u.registrationDate,
        cell: ({ getValue }) => <span className="nowrap">{shortDate(getValue())}</span>,
      },
      subEnd,
      action,
    ];
  }, [isAdmin, session?.userId]);

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await run(() => deleteUser(deleting._id), { success: (r) => r.message });
    setDeleting(null);
    if (res) await mutate();
  };

  return (
    <div className="page users-list">
      <div className="page-header">
        <h1>{isAdmin ? 'All Users' : 'My Team'}</h1>
        <Link className="btn btn-primary" to="/createUser/">
          Add User
        </Link>
      </div>
      <div className="stat-row">
        {isAdmin && (
          <Stat label="Total Managers" testId="total-managers">
            {known ? managers : usersRead.error ? <NotLoaded /> : <Placeholder />}
          </Stat>
        )}
        <Stat label="Total Agents" testId="total-agents">
          {known ? agents : usersRead.error ? <NotLoaded /> : <Placeholder />}
        </Stat>
      </div>
      <Loaded what="the users" state={usersRead}>
        {() => <DataTable data={users} columns={columns} emptyText="No Users" testId="users-table" />}
      </Loaded>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        message={`Are you sure you want to delete ${deleting?.name ?? ''}?`}
        onConfirm={confirmDelete}
        busy={loading}
      />
    </div>
  );
}

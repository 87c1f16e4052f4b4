import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import useSWR from 'swr';
import { FILTER_MESSAGES, normalizeContact, SEARCH_LIMIT } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { post, put } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { EMPTY_SEARCH, type FilterDto, pickableMcs, type SearchForm, useAllNames, useFilterTypes, useMyMcs, useTeamMcs, useTeamUsers } from './api';
import { type FilterDraft, FilterModal, type FilterPayload, type ModalMode } from './filter-modal';
import { FiltersTable } from './filters-table';
import { SearchPanel } from './search-panel';
import './filters.css';

/**
 * Broker Filtering (/companyFilters, /companyFilters/{action}/{name}/{contact}): the search
 * panel, Create Filter, the filter modal and the Filters List.
 */
export default function CompanyFilters() {
  const session = useSession();
  const navigate = useNavigate();
  const params = useParams();
  const isLead = session?.userType === 'manager' || session?.userType === 'admin';
  const { data: types = [] } = useFilterTypes();
  const { data: myMcs } = useMyMcs();
  const { data: teamMcs } = useTeamMcs();
  const { data: teamUsers = [] } = useTeamUsers();
  const { data: names = [], mutate: refreshNames } = useAllNames();
  const [form, setForm] = useState<SearchForm>(EMPTY_SEARCH);
  const [applied, setApplied] = useState<SearchForm>(EMPTY_SEARCH);
  const results = useSWR(['/api/broker', applied] as const, ([url, body]) => post<FilterDto[]>(url, body), { keepPreviousData: true });
  const [modal, setModal] = useState<{ mode: ModalMode; draft: FilterDraft } | null>(null);
  const [deleting, setDeleting] = useState<FilterDto | null>(null);
  const [noMcs, setNoMcs] = useState(false);
  const save = useRequest();
  const act = useRequest();

  const mcs = useMemo(() => pickableMcs(myMcs), [myMcs]);
  const mcNames = useMemo(
    () => new Map([...(teamMcs ?? []).map((m) => [m._id, m.name] as const), ...mcs.map((m) => [m._id, m.name] as const)]),
    [teamMcs, mcs],
  );
  const mcName = useCallback((id: string) => mcNames.get(id) ?? 'Removed MC', [mcNames]);

  const openCreate = useCallback(
    (draft: FilterDraft) => {
      if (!mcs.length) {
        setNoMcs(true);
        return;
      }
      setNoMcs(false);
      setModal({ mode: 'create', draft });
    },
    [mcs.length],
  );

  // URL actions: create pre-fills a new filter, search pre-fills the name search
  const { action, name: urlName, contact: urlContact } = params;
  useEffect(() => {
    if (action === 'search' && urlName) {
      const next = { ...EMPTY_SEARCH, name: urlName };
      setForm(next);
      setApplied(next);
    }
  }, [action, urlName]);
  useEffect(() => {
    if (action === 'create' && myMcs) openCreate({ name: urlName ?? '', contacts: urlContact ? [normalizeContact(urlContact)] : [] });
  }, [action, urlName, urlContact, myMcs, openCreate]);

  const closeModal = () => {
    setModal(null);
    if (action) navigate('/companyFilters');
  };

  const onSave = async (payload: FilterPayload) => {
    const path = modal?.mode === 'create' ? '/api/broker/add' : '/api/broker/update/details';
    const res = await save.run(() => post<{ message: string }>(path, payload), { success: (r) => r.message });
    if (!res) return;
    closeModal();
    await Promise.all([results.mutate(), refreshNames()]);
  };

  const onToggle = async (f: FilterDto) => {
    const res = await act.run(() => put<{ message: string }>('/api/broker/update/isactive/', { filterId: f._id }), { success: (r) => r.message });
    if (res) await results.mutate();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await act.run(() => put<{ message: string }>('/api/broker/update/delete/', { filterId: deleting._id }), { success: (r) => r.message });
    setDeleting(null);
    if (res) await Promise.all([results.mutate(), refreshNames()]);
  };

  const filters = results.data ?? [];
  return (
    <div className="page">
      <div className="page-header">
        <h1>Broker Filtering</h1>
        <div className="card-actions">
          <Link className="btn btn-link" to="/help/filters" target="_blank" rel="noopener">
            Help
          </Link>
          <Button onClick={() => openCreate({})} disabled={!myMcs}>
            Create Filter
          </Button>
        </div>
      </div>
      {noMcs && (
        <p className="error-text filters-no-mc" role="alert">
          {FILTER_MESSAGES.noMcs}. <Link to="/lines">Open Lines</Link>
        </p>
      )}
      <SearchPanel
        form={form}
        onChange={setForm}
        onSearch={(next) => setApplied({ ...next, name: next.name.trim() })}
        names={names}
        types={types}
        mcs={mcs}
        loading={results.isValidating}
      />
      {filters.length >= SEARCH_LIMIT && <p className="notice">Showing the newest {SEARCH_LIMIT} matching filters. Narrow the search to see older ones.</p>}
      {results.isLoading && !results.data ? (
        <Spinner />
      ) : (
        <FiltersTable
          filters={filters}
          types={types}
          mcName={mcName}
          isManager={isLead}
          busy={act.loading}
          onEdit={(f) => setModal({ mode: 'update', draft: { filter: f } })}
          onView={(f) => setModal({ mode: 'view', draft: { filter: f } })}
          onToggle={onToggle}
          onDelete={setDeleting}
        />
      )}
      {modal && session && (
        <FilterModal
          key={`${modal.mode}-${modal.draft.filter?._id ?? 'new'}`}
          mode={modal.mode}
          draft={modal.draft}
          me={{ id: session.userId, isLead }}
          types={types}
          mcs={mcs}
          mcName={mcName}
          teamUsers={teamUsers}
          saving={save.loading}
          onClose={closeModal}
          onSave={onSave}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        message={`Are you sure you want to delete ${deleting?.name ?? ''}?`}
        onConfirm={confirmDelete}
        busy={act.loading}
      />
    </div>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { normalizeContact } from '../../../worker/filters/filters.schema';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import {
  addFilter,
  deleteFilter,
  EMPTY_SEARCH,
  type FilterDto,
  type FilterPayload,
  pickableMcs,
  type SearchForm,
  toggleFilter,
  updateFilter,
  useAllNames,
  useFilterSearch,
  useFilterTypes,
  useMyMcs,
  useTeamMcs,
  useTeamUsers,
} from './api';
import type { FilterDraft, ModalMode } from './use-filter-form';

/**
 * Broker Filtering's data and state: the lists the screen reads, the search (typed and
 * applied), the open modal, the filter being deleted, and the writes with their refreshes.
 * The URL actions (/companyFilters/create/{name}/{contact}, /companyFilters/search/{name})
 * open the modal or run the search.
 */
export function useCompanyFilters() {
  const session = useSession();
  const navigate = useNavigate();
  const { action, name: urlName, contact: urlContact } = useParams();
  const isLead = session?.userType === 'manager' || session?.userType === 'admin';
  const { data: types = [] } = useFilterTypes();
  const { data: myMcs } = useMyMcs();
  const { data: teamMcs } = useTeamMcs();
  const { data: teamUsers = [] } = useTeamUsers();
  const { data: names = [], mutate: refreshNames } = useAllNames();
  const [form, setForm] = useState<SearchForm>(EMPTY_SEARCH);
  const [applied, setApplied] = useState<SearchForm>(EMPTY_SEARCH);
  const results = useFilterSearch(applied);
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

  const saveFilter = async (payload: FilterPayload) => {
    const creating = modal?.mode === 'create';
    const res = await save.run(async () => (creating ? await addFilter(payload) : await updateFilter(payload)), { success: (r) => r.message });
    if (!res) return;
    closeModal();
    await Promise.all([results.mutate(), refreshNames()]);
  };

  const toggle = async (f: FilterDto) => {
    const res = await act.run(() => toggleFilter(f._id), { success: (r) => r.message });
    if (res) await results.mutate();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await act.run(() => deleteFilter(deleting._id), { success: (r) => r.message });
    setDeleting(null);
    if (res) await Promise.all([results.mutate(), refreshNames()]);
  };

  return {
    session,
    isLead,
    types,
    myMcs,
    mcs,
    mcName,
    teamUsers,
    names,
    noMcs,
    search: { form, setForm, apply: (next: SearchForm) => setApplied({ ...next, name: next.name.trim() }) },
    results,
    modal,
    openCreate,
    openFilter: (mode: ModalMode, filter: FilterDto) => setModal({ mode, draft: { filter } }),
    closeModal,
    saveFilter,
    saving: save.loading,
    toggle,
    deleting,
    setDeleting,
    confirmDelete,
    busy: act.loading,
  };
}

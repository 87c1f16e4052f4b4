import { parseResponse } from 'hono/client';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useSWRConfig } from 'swr';
import { normalizeContact } from '../../../worker/filters/filters.schema';
import { errorText, messageText } from '../../i18n/errors';
import { ApiFailure, api } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { keyOf } from '../../lib/use-api';
import { useRequest } from '../../lib/use-request';
import { useUrlParams } from '../../lib/use-url-state';
import {
  addFilter,
  type BulkAction,
  bulkFilters,
  deleteFilter,
  EMPTY_SEARCH,
  exportFilters,
  type FilterDto,
  type FilterPayload,
  type SearchForm,
  toggleFilter,
  updateFilter,
  useAllNames,
  useFilterSearch,
  useFilterTypes,
  useTeamUsers,
} from './api';
import { filterMessage } from './texts';
import type { FilterDraft, ModalMode } from './use-filter-form';
import { useMcNames } from './use-mc-names';

const SEARCH_PREFIX = 's.';

/** The applied search from the query string (rule 0133): `s.<field>`, only what differs from the empty search. */
function searchFromParams(params: URLSearchParams): SearchForm {
  const get = (key: keyof SearchForm) => params.get(`${SEARCH_PREFIX}${key}`);
  const flag = (key: keyof SearchForm, fallback: boolean) => {
    const v = get(key);
    return v === null ? fallback : v === '1';
  };
  const mcList = get('mcList');
  return {
    name: get('name') ?? EMPTY_SEARCH.name,
    onlyCreator: flag('onlyCreator', EMPTY_SEARCH.onlyCreator),
    teamWithMe: flag('teamWithMe', EMPTY_SEARCH.teamWithMe),
    teamWithoutMe: flag('teamWithoutMe', EMPTY_SEARCH.teamWithoutMe),
    type: get('type') ?? EMPTY_SEARCH.type,
    onlyContacts: flag('onlyContacts', EMPTY_SEARCH.onlyContacts),
    creator: get('creator') ?? EMPTY_SEARCH.creator,
    allMC: flag('allMC', EMPTY_SEARCH.allMC),
    mcList: mcList ? mcList.split(',').filter(Boolean) : [],
  };
}

function writeSearch(params: URLSearchParams, search: SearchForm) {
  for (const key of Object.keys(EMPTY_SEARCH) as (keyof SearchForm)[]) {
    const value = search[key];
    const empty = EMPTY_SEARCH[key];
    const text = Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? (value ? '1' : '0') : String(value ?? '');
    const emptyText = Array.isArray(empty) ? empty.join(',') : typeof empty === 'boolean' ? (empty ? '1' : '0') : String(empty ?? '');
    if (text === emptyText) params.delete(`${SEARCH_PREFIX}${key}`);
    else params.set(`${SEARCH_PREFIX}${key}`, text);
  }
}

/**
 * Broker Filtering's data and state: the lists the screen reads, the search (typed and
 * applied), the open modal, the filter being deleted, and the writes with their refreshes.
 * The URL actions (/companyFilters/create/{name}/{contact}, /companyFilters/search/{name})
 * open the modal or run the search. The applied search lives in the query string, so a reload,
 * Back or a shared link shows the same results.
 */
export function useCompanyFilters() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { action, name: urlName, contact: urlContact } = useParams();
  const isLead = session?.userType === 'manager' || session?.userType === 'admin';
  const { data: types = [] } = useFilterTypes();
  const { myMcs, mcs, mcName } = useMcNames();
  const { data: teamUsers = [] } = useTeamUsers();
  const { data: names = [], mutate: refreshNames } = useAllNames();
  const [params, updateParams] = useUrlParams();
  const searchKey = [...params.entries()].filter(([k]) => k.startsWith(SEARCH_PREFIX)).join('&');
  // biome-ignore lint/correctness/useExhaustiveDependencies: searchKey names the params it reads
  const applied = useMemo(() => searchFromParams(params), [searchKey]);
  const setApplied = useCallback((next: SearchForm) => updateParams((p) => writeSearch(p, next)), [updateParams]);
  const [form, setForm] = useState<SearchForm>(applied);
  // Back or a changed link shows its search in the panel too
  useEffect(() => setForm(applied), [applied]);
  const results = useFilterSearch(applied);
  const [modal, setModal] = useState<{ mode: ModalMode; draft: FilterDraft } | null>(null);
  const [deleting, setDeleting] = useState<FilterDto | null>(null);
  const [noMcs, setNoMcs] = useState(false);
  const [duplicate, setDuplicate] = useState<{ message: string; filterId?: string; name?: string } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkDeleting, setBulkDeleting] = useState(false);
  const save = useRequest();
  const act = useRequest();
  const { mutate } = useSWRConfig();
  // the menu's queue badge (managers): a save or a bulk delete may change it
  const refreshQueueCount = () => (isLead ? mutate(keyOf(api.broker.queue.count)) : Promise.resolve());

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
  }, [action, urlName, setApplied]);
  useEffect(() => {
    if (action === 'create' && myMcs) openCreate({ name: urlName ?? '', contacts: urlContact ? [normalizeContact(urlContact)] : [] });
  }, [action, urlName, urlContact, myMcs, openCreate]);

  const closeModal = () => {
    setModal(null);
    setDuplicate(null);
    if (action) navigate('/companyFilters');
  };

  const saveFilter = async (payload: FilterPayload) => {
    const creating = modal?.mode === 'create';
    setDuplicate(null);
    const res = await save.run(
      async () => {
        try {
          return creating ? await addFilter(payload) : await updateFilter(payload);
        } catch (err) {
          // the duplicate rule: shown in the modal with "Open it", not as a toast
          if (err instanceof ApiFailure && err.status === 409) {
            const id = err.data?.existingFilterId;
            const name = err.data?.existingFilterName;
            const named = typeof name === 'string' ? name : undefined;
            // in the user's language by the answer's code and the name it carries
            const message = errorText(err);
            setDuplicate({ message, filterId: typeof id === 'string' ? id : undefined, name: named });
            return null;
          }
          throw err;
        }
      },
      { success: (r) => (r ? messageText(r.message, r.code) : undefined) },
    );
    if (!res) return;
    closeModal();
    await Promise.all([results.mutate(), refreshNames(), refreshQueueCount()]);
  };

  const toggle = async (f: FilterDto) => {
    const res = await act.run(() => toggleFilter(f._id), { success: (r) => filterMessage(r.isVisible ? 'activated' : 'disabled') });
    if (res) await results.mutate();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await act.run(() => deleteFilter(deleting._id), { success: () => filterMessage('deleted') });
    setDeleting(null);
    if (res) await Promise.all([results.mutate(), refreshNames()]);
  };

  /** "Open it": the filter the duplicate rule named, found by its name, in the modal (edit or view as the caller may). */
  const openDuplicate = async ({ filterId, name }: { filterId: string; name: string }) => {
    const found = await save.run(() => parseResponse(api.broker.index.$post({ json: { ...EMPTY_SEARCH, name } })));
    const filter = found?.find((x) => x._id === filterId);
    if (!filter) return;
    setDuplicate(null);
    setModal({ mode: filter.canEdit || filter.canCorrect ? 'update' : 'view', draft: { filter } });
  };

  /** "3 filters disabled": what the API answered, in the user's language. */
  const bulkDone = (action: BulkAction, count: number) =>
    ({
      disable: () => t('filters.bulkDisabled', { count }),
      enable: () => t('filters.bulkActivated', { count }),
      delete: () => t('filters.bulkDeleted', { count }),
      setType: () => t('filters.bulkUpdated', { count }),
    })[action]();

  const runBulk = async (action: BulkAction, type?: string) => {
    const ids = [...selected];
    if (!ids.length) return;
    const res = await act.run(() => bulkFilters(action, ids, type), { success: (r) => bulkDone(action, r.count) });
    setBulkDeleting(false);
    if (res) {
      setSelected(new Set());
      await Promise.all([results.mutate(), refreshNames(), refreshQueueCount()]);
    }
  };

  const exportCsv = () => act.run(exportFilters);

  return {
    session,
    exportCsv,
    duplicate,
    openDuplicate,
    selected,
    setSelected,
    runBulk,
    bulkDeleting,
    setBulkDeleting,
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

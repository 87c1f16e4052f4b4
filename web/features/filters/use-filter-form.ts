import { type FormEvent, useMemo } from 'react';
import { cleanContacts, filterSaveSchema, NO_TYPE } from '../../../worker/filters/filters.schema';
import { useSchemaForm } from '../../lib/use-schema-form';
import type { FilterDto, FilterPayload, TeamUserDto } from './api';

export type ModalMode = 'create' | 'update' | 'view';
export type Audience = 'onlyMe' | 'teamWithMe' | 'teamWithoutMe';
export type Mc = { _id: string; name: string };

/** What the modal starts from: a filter to update or view, or a draft for a new one. */
export interface FilterDraft {
  filter?: FilterDto;
  name?: string;
  contacts?: string[];
}

/** The modal's fields (react-hook-form's values): the payload's, with the audience and the contact being typed. */
interface FilterForm {
  name: string;
  type: string;
  comment: string;
  audience: Audience;
  picked: string[];
  newUsers: boolean;
  allMC: boolean;
  mcList: string[];
  contacts: string[];
  pending: string;
  onlyOnContacts: boolean;
  isVisible: boolean;
  mcNumber: string;
  dotNumber: string;
  /** Other trading names, one per line. */
  aliases: string;
}

type Update<T> = T | ((previous: T) => T);

/**
 * The filter modal's fields, started from the draft, and its save: the payload is checked by the
 * API's own schema (filterSaveSchema: the spec's checks in order), then sent. "Me" is the filter's
 * creator. A contact still in the input is added on save.
 */
export function useFilterForm(props: {
  mode: ModalMode;
  draft: FilterDraft;
  me: { id: string; isLead: boolean };
  mcs: Mc[];
  mcName: (id: string) => string;
  teamUsers: TeamUserDto[];
  onSave: (payload: FilterPayload) => void;
}) {
  const { draft, me } = props;
  const filter = draft.filter;
  const creatorId = filter?.creator._id ?? me.id;
  const others = props.teamUsers.filter((u) => u._id !== creatorId);
  const pickable = new Set(props.mcs.map((m) => m._id));

  /** What the save sends: the audience as the creator and the users list, a pending contact added, MCs the caller can pick. */
  const toPayload = (v: FilterForm): FilterPayload => {
    const contacts = cleanContacts([...v.contacts, v.pending]);
    const team = v.audience !== 'onlyMe';
    return {
      updateFilterId: filter?._id ?? null,
      name: v.name.trim(),
      type: v.type,
      comment: v.comment,
      onlyCreator: !team,
      allMC: v.allMC,
      mcList: v.allMC ? [] : v.mcList.filter((id) => pickable.has(id)),
      usersList: team
        ? [...(v.audience === 'teamWithMe' ? [creatorId] : []), ...others.filter((u) => v.picked.includes(u._id)).map((u) => u._id)]
        : [creatorId],
      onlyOnContacts: contacts.length > 0 && v.onlyOnContacts,
      contacts,
      newUsers: team && v.newUsers,
      isVisible: v.isVisible,
      mcNumber: v.mcNumber.trim() || null,
      dotNumber: v.dotNumber.trim() || null,
      aliases: v.aliases
        .split('\n')
        .map((a) => a.trim())
        .filter(Boolean),
    };
  };

  const form = useSchemaForm<FilterForm, FilterPayload>(
    filterSaveSchema,
    {
      name: filter?.name ?? draft.name ?? '',
      type: filter?.type ?? NO_TYPE,
      comment: filter?.comment ?? '',
      audience: !filter
        ? me.isLead
          ? 'teamWithMe'
          : 'onlyMe'
        : filter.onlyCreator
          ? 'onlyMe'
          : filter.usersList.includes(creatorId)
            ? 'teamWithMe'
            : 'teamWithoutMe',
      picked: filter ? filter.usersList.filter((id) => id !== creatorId) : props.teamUsers.filter((u) => u._id !== me.id).map((u) => u._id),
      newUsers: filter?.newUsers ?? (!filter && me.isLead),
      allMC: filter?.allMC ?? false,
      mcList: filter?.mcList ?? (props.mcs.length === 1 ? [props.mcs[0]!._id] : []),
      contacts: filter?.contacts ?? draft.contacts ?? [],
      pending: '',
      onlyOnContacts: filter?.onlyOnContacts ?? false,
      isVisible: filter?.isVisible ?? true,
      mcNumber: filter?.mcNumber ?? '',
      dotNumber: filter?.dotNumber ?? '',
      aliases: (filter?.aliases ?? []).join('\n'),
    },
    toPayload,
  );
  const v = form.watch();
  const set =
    <K extends keyof FilterForm>(key: K) =>
    (next: Update<FilterForm[K]>) =>
      form.setValue(key, (typeof next === 'function' ? (next as (p: FilterForm[K]) => FilterForm[K])(form.getValues(key)) : next) as never, {
        shouldDirty: true,
      });
  const setPicked = (next: Update<Set<string>>) => set('picked')((list) => [...(typeof next === 'function' ? next(new Set(list)) : next)]);

  // the filter's MCs stay listed (by name) even when the caller cannot pick them
  const mcOptions = useMemo(() => {
    const list = [...props.mcs];
    for (const id of filter?.mcList ?? []) if (!list.some((m) => m._id === id)) list.push({ _id: id, name: props.mcName(id) });
    return list;
  }, [props.mcs, filter, props.mcName]);

  const addContact = () => {
    set('contacts')(cleanContacts([...v.contacts, v.pending]));
    set('pending')('');
  };

  const save = form.handleSubmit((payload) => {
    set('contacts')(payload.contacts ?? []);
    set('pending')('');
    props.onSave(payload);
  });
  const submit = (e: FormEvent) => {
    if (props.mode !== 'view') return save(e);
    e.preventDefault();
  };

  return {
    filter,
    /** Whether a field differs from what the modal opened with (react-hook-form compares with the defaults). */
    dirty: props.mode !== 'view' && form.formState.isDirty,
    /** Checks and sends the form as its submit button does (for the unsaved-changes dialog's Save). */
    saveNow: () => save(),
    details: {
      name: v.name,
      setName: set('name'),
      type: v.type,
      setType: set('type'),
      comment: v.comment,
      setComment: set('comment'),
      isVisible: v.isVisible,
      setIsVisible: set('isVisible'),
      mcNumber: v.mcNumber,
      setMcNumber: set('mcNumber'),
      dotNumber: v.dotNumber,
      setDotNumber: set('dotNumber'),
      aliases: v.aliases,
      setAliases: set('aliases'),
    },
    users: {
      audience: v.audience,
      setAudience: set('audience'),
      others,
      picked: new Set(v.picked),
      setPicked,
      newUsers: v.newUsers,
      setNewUsers: set('newUsers'),
    },
    mc: { allMC: v.allMC, setAllMC: set('allMC'), mcList: v.mcList, setMcList: set('mcList'), options: mcOptions, pickable },
    contacts: {
      list: v.contacts,
      setList: set('contacts'),
      pending: v.pending,
      setPending: set('pending'),
      add: addContact,
      onlyOnContacts: v.onlyOnContacts,
      setOnlyOnContacts: set('onlyOnContacts'),
    },
    problem: form.problem,
    submit,
  };
}

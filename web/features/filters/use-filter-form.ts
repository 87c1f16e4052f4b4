import { type FormEvent, useMemo, useState } from 'react';
import { cleanContacts, filterSaveError, NO_TYPE } from '../../../worker/filters/filters.schema';
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

/**
 * The filter modal's fields, started from the draft, and its save: the spec's checks, then the
 * payload. "Me" is the filter's creator. A contact still in the input is added on save.
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
  const [name, setName] = useState(filter?.name ?? draft.name ?? '');
  const [type, setType] = useState(filter?.type ?? NO_TYPE);
  const [comment, setComment] = useState(filter?.comment ?? '');
  const [audience, setAudience] = useState<Audience>(() => {
    if (!filter) return me.isLead ? 'teamWithMe' : 'onlyMe';
    if (filter.onlyCreator) return 'onlyMe';
    return filter.usersList.includes(creatorId) ? 'teamWithMe' : 'teamWithoutMe';
  });
  const [picked, setPicked] = useState<Set<string>>(
    () => new Set(filter ? filter.usersList.filter((id) => id !== creatorId) : props.teamUsers.filter((u) => u._id !== me.id).map((u) => u._id)),
  );
  const [newUsers, setNewUsers] = useState(filter?.newUsers ?? (!filter && me.isLead));
  const [allMC, setAllMC] = useState(filter?.allMC ?? false);
  const [mcList, setMcList] = useState<string[]>(filter?.mcList ?? (props.mcs.length === 1 ? [props.mcs[0]!._id] : []));
  const [contacts, setContacts] = useState<string[]>(filter?.contacts ?? draft.contacts ?? []);
  const [pending, setPending] = useState('');
  const [onlyOnContacts, setOnlyOnContacts] = useState(filter?.onlyOnContacts ?? false);
  const [isVisible, setIsVisible] = useState(filter?.isVisible ?? true);
  const [problem, setProblem] = useState<string | null>(null);

  // the filter's MCs stay listed (by name) even when the caller cannot pick them
  const mcOptions = useMemo(() => {
    const list = [...props.mcs];
    for (const id of filter?.mcList ?? []) if (!list.some((m) => m._id === id)) list.push({ _id: id, name: props.mcName(id) });
    return list;
  }, [props.mcs, filter, props.mcName]);
  const pickable = new Set(props.mcs.map((m) => m._id));

  const addContact = () => {
    setContacts(cleanContacts([...contacts, pending]));
    setPending('');
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (props.mode === 'view') return;
    const allContacts = cleanContacts([...contacts, pending]);
    const mcs = allMC ? [] : mcList.filter((id) => pickable.has(id));
    const error = filterSaveError({ name, type, allMC, mcList: mcs });
    setProblem(error);
    if (error) return;
    setContacts(allContacts);
    setPending('');
    const team = audience !== 'onlyMe';
    props.onSave({
      updateFilterId: filter?._id ?? null,
      name: name.trim(),
      type,
      comment,
      onlyCreator: !team,
      allMC,
      mcList: mcs,
      usersList: team ? [...(audience === 'teamWithMe' ? [creatorId] : []), ...others.filter((u) => picked.has(u._id)).map((u) => u._id)] : [creatorId],
      onlyOnContacts: allContacts.length > 0 && onlyOnContacts,
      contacts: allContacts,
      newUsers: team && newUsers,
      isVisible,
    });
  };

  return {
    filter,
    details: { name, setName, type, setType, comment, setComment, isVisible, setIsVisible },
    users: { audience, setAudience, others, picked, setPicked, newUsers, setNewUsers },
    mc: { allMC, setAllMC, mcList, setMcList, options: mcOptions, pickable },
    contacts: { list: contacts, setList: setContacts, pending, setPending, add: addContact, onlyOnContacts, setOnlyOnContacts },
    problem,
    submit,
  };
}

import { type FormEvent, useId, useMemo, useState } from 'react';
import { ALL_TYPES, filterSearchSchema } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { firstProblem } from '../../lib/use-schema-form';
import { CollapsibleSection } from '../../components/ui/section';
import { EMPTY_SEARCH, type FilterTypeDto, type SearchForm } from './api';
import { TypeSelect } from './filter-fields';

const MAX_SUGGESTIONS = 12;
const SHOW_FOR = [
  ['onlyCreator', 'Only Me'],
  ['teamWithMe', 'Team with Me'],
  ['teamWithoutMe', 'Team without Me'],
  ['onlyContacts', 'Contacts Only'],
] as const;

/**
 * The collapsible search panel: company name with autocomplete from allNames, type or All, For
 * All MCs, the MC multi-select, Show Filters for, Reset and Search.
 */
export function SearchPanel(props: {
  form: SearchForm;
  onChange: (form: SearchForm) => void;
  onSearch: (form: SearchForm) => void;
  names: string[];
  types: FilterTypeDto[];
  mcs: { _id: string; name: string }[];
  loading: boolean;
}) {
  const { form, onChange } = props;
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { name: useId(), list: useId() };
  const set = <K extends keyof SearchForm>(key: K, value: SearchForm[K]) => onChange({ ...form, [key]: value });

  // a short list of matches keeps the autocomplete light even with thousands of names
  const suggestions = useMemo(() => {
    const q = form.name.trim().toLowerCase();
    if (!q) return [];
    const out: string[] = [];
    for (const n of props.names) {
      if (n.toLowerCase().includes(q) && n.toLowerCase() !== q) out.push(n);
      if (out.length >= MAX_SUGGESTIONS) break;
    }
    return out;
  }, [form.name, props.names]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // the API's own check (filterSearchSchema): 'Choose minimum 1 MC' unless All MCs
    const problem = firstProblem(filterSearchSchema, form);
    setProblem(problem);
    if (!problem) props.onSearch(form);
  };
  const reset = () => {
    setProblem(null);
    onChange(EMPTY_SEARCH);
    props.onSearch(EMPTY_SEARCH);
  };

  return (
    <CollapsibleSection title="Search Filters" defaultOpen>
      <form className="search-panel" onSubmit={submit} noValidate aria-label="Search Filters">
        <div className="search-row">
          <div className="field grow">
            <label htmlFor={ids.name}>Company name</label>
            <input
              id={ids.name}
              list={ids.list}
              value={form.name}
              onChange={(e) => set('name', e.target.value)}
              autoComplete="off"
              placeholder="Company, other name, MC or DOT number, contact or comment"
            />
            <datalist id={ids.list}>
              {suggestions.map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </div>
          <TypeSelect
            label="Filter type"
            value={form.type}
            onChange={(type) => set('type', type)}
            types={props.types}
            none={{ value: ALL_TYPES, label: 'All' }}
          />
        </div>
        <div className="search-row">
          <fieldset className="group-box grow">
            <legend>MC</legend>
            <label className="check-line">
              <input type="checkbox" checked={form.allMC} onChange={(e) => set('allMC', e.target.checked)} />
              For All MCs
            </label>
            <div className="checks" role="group" aria-label="Search MCs">
              {props.mcs.length === 0 && <span className="muted">No MCs yet</span>}
              {props.mcs.map((mc) => (
                <label key={mc._id}>
                  <input
                    type="checkbox"
                    disabled={form.allMC}
                    checked={!form.allMC && form.mcList.includes(mc._id)}
                    onChange={(e) => set('mcList', e.target.checked ? [...form.mcList, mc._id] : form.mcList.filter((id) => id !== mc._id))}
                  />
                  {mc.name}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="group-box grow">
            <legend>Show Filters for</legend>
            <div className="checks">
              {SHOW_FOR.map(([key, label]) => (
                <label key={key}>
                  <input type="checkbox" checked={form[key]} onChange={(e) => set(key, e.target.checked)} />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <ErrorText>{problem}</ErrorText>
        <div className="search-actions">
          <Button variant="ghost" onClick={reset}>
            Reset
          </Button>
          <Button type="submit" disabled={props.loading}>
            Search
          </Button>
        </div>
      </form>
    </CollapsibleSection>
  );
}

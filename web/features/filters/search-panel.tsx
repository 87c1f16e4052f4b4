import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_TYPES, filterSearchSchema } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { CollapsibleSection } from '../../components/ui/section';
import { messageText } from '../../i18n/errors';
import { firstProblem } from '../../lib/use-schema-form';
import { EMPTY_SEARCH, type FilterTypeDto, type SearchForm } from './api';
import { TypeSelect } from './filter-fields';

const MAX_SUGGESTIONS = 12;
const SHOW_FOR = [
  ['onlyCreator', 'filters.showOnlyMe'],
  ['teamWithMe', 'filters.showTeamWithMe'],
  ['teamWithoutMe', 'filters.showTeamWithoutMe'],
  ['onlyContacts', 'filters.showContactsOnly'],
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
  const { t } = useTranslation();
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
    <CollapsibleSection title={t('filters.searchTitle')} defaultOpen>
      <form className="search-panel" onSubmit={submit} noValidate aria-label={t('filters.searchTitle')}>
        <div className="search-row">
          <div className="field grow">
            <label htmlFor={ids.name}>{t('filters.companyName')}</label>
            <input
              id={ids.name}
              list={ids.list}
              value={form.name}
              onChange={(e) => set('name', e.target.value)}
              autoComplete="off"
              placeholder={t('filters.searchPlaceholder')}
            />
            <datalist id={ids.list}>
              {suggestions.map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </div>
          <TypeSelect
            label={t('filters.filterType')}
            value={form.type}
            onChange={(type) => set('type', type)}
            types={props.types}
            none={{ value: ALL_TYPES, label: t('filters.all') }}
          />
        </div>
        <div className="search-row">
          <fieldset className="group-box grow">
            <legend>{t('filters.mc')}</legend>
            <label className="check-line">
              <input type="checkbox" checked={form.allMC} onChange={(e) => set('allMC', e.target.checked)} />
              {t('filters.forAllMcs')}
            </label>
            <div className="checks" role="group" aria-label={t('filters.searchMcs')}>
              {props.mcs.length === 0 && <span className="muted">{t('filters.noMcsYet')}</span>}
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
            <legend>{t('filters.showFor')}</legend>
            <div className="checks">
              {SHOW_FOR.map(([key, label]) => (
                <label key={key}>
                  <input type="checkbox" checked={form[key]} onChange={(e) => set(key, e.target.checked)} />
                  {t(label)}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <ErrorText>{messageText(problem)}</ErrorText>
        <div className="search-actions">
          <Button variant="ghost" onClick={reset}>
            {t('filters.reset')}
          </Button>
          <Button type="submit" disabled={props.loading}>
            {t('filters.search')}
          </Button>
        </div>
      </form>
    </CollapsibleSection>
  );
}

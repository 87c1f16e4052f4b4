import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SEARCH_LIMIT } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Loaded } from '../../components/ui/request-state';
import { FilterModal } from './filter-modal';
import { FiltersTable } from './filters-table';
import { SearchPanel } from './search-panel';
import { filterMessage } from './texts';
import { useCompanyFilters } from './use-company-filters';
import './filters.css';

/**
 * Broker Filtering (/companyFilters, /companyFilters/{action}/{name}/{contact}): the search
 * panel, Create Filter, the filter modal and the Filters List.
 */
export default function CompanyFilters() {
  const { t } = useTranslation();
  const screen = useCompanyFilters();
  const { session, modal, results, deleting } = screen;
  const filters = results.data ?? [];
  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('filters.title')}</h1>
        <div className="card-actions">
          <Link className="btn btn-link" to="/help/filters" target="_blank" rel="noopener">
            {t('filters.help')}
          </Link>
          <Button variant="secondary" disabled={screen.busy} onClick={screen.exportCsv}>
            {t('filters.exportCsv')}
          </Button>
          {screen.isLead && (
            <Link className="btn btn-secondary" to="/companyFilters/import">
              {t('filters.importCsv')}
            </Link>
          )}
          <Button onClick={() => screen.openCreate({})} disabled={!screen.myMcs}>
            {t('filters.create')}
          </Button>
        </div>
      </div>
      {screen.noMcs && (
        <p className="error-text filters-no-mc" role="alert">
          {filterMessage('noMcs')}. <Link to="/lines">{t('filters.openLines')}</Link>
        </p>
      )}
      <SearchPanel
        form={screen.search.form}
        onChange={screen.search.setForm}
        onSearch={screen.search.apply}
        names={screen.names}
        types={screen.types}
        mcs={screen.mcs}
        loading={results.isValidating}
      />
      {filters.length >= SEARCH_LIMIT && <p className="notice">{t('filters.limit', { limit: SEARCH_LIMIT })}</p>}
      {screen.selected.size > 0 && <BulkBar screen={screen} />}
      <Loaded what={t('filters.what')} state={results}>
        {() => (
          <FiltersTable
            filters={filters}
            types={screen.types}
            mcName={screen.mcName}
            isManager={screen.isLead}
            busy={screen.busy}
            onEdit={(f) => screen.openFilter('update', f)}
            onView={(f) => screen.openFilter('view', f)}
            onToggle={screen.toggle}
            onDelete={screen.setDeleting}
            selected={screen.selected}
            onSelect={screen.setSelected}
          />
        )}
      </Loaded>
      {modal && session && (
        <FilterModal
          key={`${modal.mode}-${modal.draft.filter?._id ?? 'new'}`}
          mode={modal.mode}
          draft={modal.draft}
          me={{ id: session.userId, isLead: screen.isLead }}
          types={screen.types}
          mcs={screen.mcs}
          mcName={screen.mcName}
          teamUsers={screen.teamUsers}
          saving={screen.saving}
          duplicate={screen.duplicate}
          onOpenDuplicate={screen.openDuplicate}
          onClose={screen.closeModal}
          onSave={screen.saveFilter}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && screen.setDeleting(null)}
        message={t('filters.confirmDelete', { name: deleting?.name ?? '' })}
        onConfirm={screen.confirmDelete}
        busy={screen.busy}
      />
      <ConfirmDialog
        open={screen.bulkDeleting}
        onOpenChange={(open) => !open && screen.setBulkDeleting(false)}
        message={t('filters.confirmBulkDelete', { count: screen.selected.size })}
        onConfirm={() => screen.runBulk('delete')}
        busy={screen.busy}
      />
    </div>
  );
}

/** The actions on the selected rows: disable, activate, change type, delete (one confirmation). */
function BulkBar({ screen }: { screen: ReturnType<typeof useCompanyFilters> }) {
  const { t } = useTranslation();
  const [type, setType] = useState('');
  const n = screen.selected.size;
  return (
    <div className="bulk-bar" role="toolbar" aria-label={t('filters.bulkLabel')} data-testid="bulk-bar">
      <strong>{t('filters.selectedCount', { count: n })}</strong>
      <Button variant="secondary" disabled={screen.busy} onClick={() => screen.runBulk('disable')}>
        {t('filters.disable')}
      </Button>
      <Button variant="secondary" disabled={screen.busy} onClick={() => screen.runBulk('enable')}>
        {t('filters.activate')}
      </Button>
      <select aria-label={t('filters.newType')} value={type} onChange={(e) => setType(e.target.value)}>
        <option value="">{t('filters.changeTypeTo')}</option>
        {screen.types.map((type) => (
          <option key={type._id} value={type._id}>
            {type.typeName}
          </option>
        ))}
      </select>
      <Button variant="secondary" disabled={screen.busy || !type} onClick={() => screen.runBulk('setType', type)}>
        {t('filters.applyType')}
      </Button>
      <Button variant="danger" disabled={screen.busy} onClick={() => screen.setBulkDeleting(true)}>
        {t('filters.delete')}
      </Button>
      <Button variant="ghost" onClick={() => screen.setSelected(new Set())}>
        {t('filters.clearSelection')}
      </Button>
    </div>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import { FILTER_MESSAGES, SEARCH_LIMIT } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Loaded } from '../../components/ui/request-state';
import { FilterModal } from './filter-modal';
import { FiltersTable } from './filters-table';
import { SearchPanel } from './search-panel';
import { useCompanyFilters } from './use-company-filters';
import './filters.css';

/**
 * Broker Filtering (/companyFilters, /companyFilters/{action}/{name}/{contact}): the search
 * panel, Create Filter, the filter modal and the Filters List.
 */
export default function CompanyFilters() {
  const screen = useCompanyFilters();
  const { session, modal, results, deleting } = screen;
  const filters = results.data ?? [];
  return (
    <div className="page">
      <div className="page-header">
        <h1>Broker Filtering</h1>
        <div className="card-actions">
          <Link className="btn btn-link" to="/help/filters" target="_blank" rel="noopener">
            Help
          </Link>
          <Button variant="secondary" disabled={screen.busy} onClick={screen.exportCsv}>
            Export CSV
          </Button>
          {screen.isLead && (
            <Link className="btn btn-secondary" to="/companyFilters/import">
              Import CSV
            </Link>
          )}
          <Button onClick={() => screen.openCreate({})} disabled={!screen.myMcs}>
            Create Filter
          </Button>
        </div>
      </div>
      {screen.noMcs && (
        <p className="error-text filters-no-mc" role="alert">
          {FILTER_MESSAGES.noMcs}. <Link to="/lines">Open Lines</Link>
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
      {filters.length >= SEARCH_LIMIT && <p className="notice">Showing the newest {SEARCH_LIMIT} matching filters. Narrow the search to see older ones.</p>}
      {screen.selected.size > 0 && <BulkBar screen={screen} />}
      <Loaded what="the filters" state={results}>
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
        message={`Are you sure you want to delete ${deleting?.name ?? ''}?`}
        onConfirm={screen.confirmDelete}
        busy={screen.busy}
      />
      <ConfirmDialog
        open={screen.bulkDeleting}
        onOpenChange={(open) => !open && screen.setBulkDeleting(false)}
        message={`Are you sure you want to delete ${screen.selected.size} selected ${screen.selected.size === 1 ? 'filter' : 'filters'}?`}
        onConfirm={() => screen.runBulk('delete')}
        busy={screen.busy}
      />
    </div>
  );
}

/** The actions on the selected rows: disable, activate, change type, delete (one confirmation). */
function BulkBar({ screen }: { screen: ReturnType<typeof useCompanyFilters> }) {
  const [type, setType] = useState('');
  const n = screen.selected.size;
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Selected filters" data-testid="bulk-bar">
      <strong>{n} selected</strong>
      <Button variant="secondary" disabled={screen.busy} onClick={() => screen.runBulk('disable')}>
        Disable
      </Button>
      <Button variant="secondary" disabled={screen.busy} onClick={() => screen.runBulk('enable')}>
        Activate
      </Button>
      <select aria-label="New type" value={type} onChange={(e) => setType(e.target.value)}>
        <option value="">Change type to…</option>
        {screen.types.map((t) => (
          <option key={t._id} value={t._id}>
            {t.typeName}
          </option>
        ))}
      </select>
      <Button variant="secondary" disabled={screen.busy || !type} onClick={() => screen.runBulk('setType', type)}>
        Apply type
      </Button>
      <Button variant="danger" disabled={screen.busy} onClick={() => screen.setBulkDeleting(true)}>
        Delete
      </Button>
      <Button variant="ghost" onClick={() => screen.setSelected(new Set())}>
        Clear selection
      </Button>
    </div>
  );
}

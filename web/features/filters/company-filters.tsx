import { Link } from 'react-router';
import { FILTER_MESSAGES, SEARCH_LIMIT } from '../../../worker/filters/filters.schema';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
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
      {results.isLoading && !results.data ? (
        <Spinner />
      ) : (
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
        />
      )}
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
    </div>
  );
}

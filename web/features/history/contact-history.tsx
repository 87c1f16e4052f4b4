import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { RequestFailed } from '../../components/ui/request-state';
import { Checklist, DateRangeFields, ManagerSelect, Toggle } from './history-filters';
import { ContactsPerDay, HistoryTable } from './history-results';
import { useContactHistory } from './use-contact-history';
import './history.css';

/** Contact History (/callHistory): the spec's filters, Load, and the result table; a chart and CSV beyond it. */
export default function ContactHistory() {
  const screen = useContactHistory();
  const { role, loaded, loading, managers, users, mcs, kinds } = screen;
  return (
    <div className="page contact-history">
      <div className="page-header">
        <h1>Contact History</h1>
        {(role === 'manager' || role === 'agent') && (
          <Link className="btn btn-secondary" to="/activeLoads">
            {role === 'manager' ? "Team's active loads" : 'My active loads'}
          </Link>
        )}
      </div>
      <Card>
        <form
          className="history-form"
          aria-label="Contact History filters"
          onSubmit={(e) => {
            e.preventDefault();
            void screen.load();
          }}
          noValidate
        >
          <div className="history-row">
            <DateRangeFields range={screen.range} onChange={screen.setRange} />
          </div>
          <ErrorText>{screen.rangeError}</ErrorText>

          {screen.picks && <ManagerSelect managers={managers.list} isLoading={managers.isLoading} value={managers.current} onChange={managers.pick} />}

          <div className="history-row groups">
            {!screen.isAgent && (
              <Checklist
                legend="Users"
                allLabel="All users"
                items={users.items}
                excluded={users.excluded}
                onChange={users.setExcluded}
                emptyText={users.isLoading ? 'Loading…' : 'No users'}
              />
            )}
            <Checklist
              legend="MC"
              allLabel="All MC"
              items={mcs.items}
              excluded={mcs.excluded}
              onChange={mcs.setExcluded}
              emptyText={mcs.isLoading ? 'Loading…' : 'No MCs yet'}
            />
          </div>

          <div className="history-row history-actions">
            <Toggle label="Phone Calls" checked={kinds.phoneLogs} onChange={kinds.setPhoneLogs} />
            <Toggle label="Emails" checked={kinds.emailLogs} onChange={kinds.setEmailLogs} />
            <span className="muted hint">{screen.hint}</span>
            <Button type="submit" disabled={!screen.canLoad}>
              {loading ? 'Loading…' : 'Load'}
            </Button>
          </div>
        </form>
      </Card>

      {loading && <Spinner label="Loading contacts" />}
      {screen.page && screen.page.total > 0 && <ContactsPerDay perDay={screen.page.perDay} />}
      {screen.pageFailure != null && <RequestFailed what="the contacts" error={screen.pageFailure} onRetry={screen.retryPage} compact={screen.page !== null} />}
      {!loading && !(screen.pageFailure != null && screen.page === null) && (
        <HistoryTable
          page={screen.page}
          busy={screen.pageBusy}
          emptyText={loaded ? 'No contacts in this range' : 'Pick the dates and press Load'}
          onExport={screen.exportCsv}
          exporting={screen.exportingCsv}
        />
      )}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BOARD_NAMES, LOAD_BOARDS } from '../../../worker/history/boards';
import { Button } from '../../components/ui/button';
import { ErrorText } from '../../components/ui/field';
import { RequestFailed } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-history.json';
import { ArchivedInRange, ArchivedMonthsCard } from './archived-months';
import { Checklist, DateRangeFields, ManagerSelect, Toggle } from './history-filters';
import { ContactsPerDay, HistoryTable } from './history-results';
import { useContactHistory } from './use-contact-history';
import './history.css';

// this screen's English texts (its chunk brings them)
addEnglish(english);

/** Contact History (/callHistory): the spec's filters, Load, and the result table; a chart and CSV beyond it. */
export default function ContactHistory() {
  const { t } = useTranslation();
  const screen = useContactHistory();
  const { role, loaded, loading, managers, users, mcs, kinds, board } = screen;
  // the team's leads export and restore its archived months (the rule of the archive calls)
  const isLead = role === 'manager' || role === 'director' || role === 'admin';
  const archiveTeam = isLead && managers.current !== null;
  // an empty list is said as empty only when it loaded: not while loading, nor before the managers it needs
  const listText = (isLoading: boolean, empty: string) =>
    isLoading ? t('contactHistory.loadingList') : screen.waitingForManagers ? t('contactHistory.afterManagers') : empty;
  return (
    <div className="page contact-history">
      <div className="page-header">
        <h1>{t('contactHistory.title')}</h1>
        {(role === 'manager' || role === 'agent') && (
          <Link className="btn btn-secondary" to="/activeLoads">
            {role === 'manager' ? t('contactHistory.teamLoads') : t('contactHistory.myLoads')}
          </Link>
        )}
      </div>
      <Card>
        <form
          className="history-form"
          aria-label={t('contactHistory.filters')}
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

          {screen.picks && (
            <ManagerSelect
              managers={managers.list}
              isLoading={managers.isLoading}
              error={managers.error}
              onRetry={managers.retry}
              value={managers.current}
              onChange={managers.pick}
            />
          )}

          <div className="history-row groups">
            {!screen.isAgent && (
              <Checklist
                legend={t('contactHistory.users')}
                allLabel={t('contactHistory.allUsers')}
                items={users.items}
                excluded={users.excluded}
                onChange={users.setExcluded}
                emptyText={listText(users.isLoading, t('contactHistory.noUsers'))}
                failure={users.error != null ? { what: t('contactHistory.usersWhat'), error: users.error, onRetry: users.retry } : null}
              />
            )}
            <Checklist
              legend={t('contactHistory.mc')}
              allLabel={t('contactHistory.allMc')}
              items={mcs.items}
              excluded={mcs.excluded}
              onChange={mcs.setExcluded}
              emptyText={listText(mcs.isLoading, t('contactHistory.noMcs'))}
              failure={mcs.error != null ? { what: t('contactHistory.mcsWhat'), error: mcs.error, onRetry: mcs.retry } : null}
            />
          </div>

          <div className="history-row history-actions">
            <Toggle label={t('contactHistory.phoneCalls')} checked={kinds.phoneLogs} onChange={kinds.setPhoneLogs} />
            <Toggle label={t('contactHistory.emails')} checked={kinds.emailLogs} onChange={kinds.setEmailLogs} />
            <label className="history-board">
              {t('contactHistory.board')}
              <select value={board.value ?? ''} onChange={(e) => board.set((e.target.value || null) as typeof board.value)}>
                <option value="">{t('contactHistory.allBoards')}</option>
                {LOAD_BOARDS.map((b) => (
                  <option key={b} value={b}>
                    {BOARD_NAMES[b]}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted hint">{screen.hint}</span>
            <Button type="submit" disabled={!screen.canLoad}>
              {loading ? t('contactHistory.loading') : t('contactHistory.load')}
            </Button>
          </div>
        </form>
      </Card>

      {loading && <Spinner label={t('contactHistory.loadingContacts')} />}
      {screen.page && screen.page.total > 0 && <ContactsPerDay perDay={screen.page.perDay} />}
      {screen.pageFailure != null && (
        <RequestFailed what={t('contactHistory.what')} error={screen.pageFailure} onRetry={screen.retryPage} compact={screen.page !== null} />
      )}
      {screen.page && <ArchivedInRange months={screen.page.archived} isLead={isLead} managerId={managers.current} onRestored={screen.reload} />}
      {!loading && !(screen.pageFailure != null && screen.page === null) && (
        <HistoryTable
          page={screen.page}
          busy={screen.pageBusy}
          emptyText={loaded ? t('contactHistory.empty') : t('contactHistory.notLoaded')}
          onExport={screen.exportCsv}
          exporting={screen.exportingCsv}
        />
      )}
      <ArchivedMonthsCard enabled={archiveTeam} managerId={managers.current} onRestored={screen.reload} />
    </div>
  );
}

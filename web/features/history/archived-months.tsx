import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { Button } from '../../components/ui/button';
import { RequestFailed } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { api } from '../../lib/api-client';
import { monthOf as monthName, shortDate } from '../../lib/format';
import { keyOf } from '../../lib/use-api';
import { useRequest } from '../../lib/use-request';
import { type ArchivedMonth, exportArchivedMonth, restoreArchivedMonth, useArchivedMonths } from './api';

/**
 * Contact History's archived months (docs/decisions/0171-history-retention-r2.md): months older
 * than the hot window live in R2, so a load of their days finds nothing in D1. The screen says
 * which months of the loaded range are archived (never an empty list without a word), and a lead
 * exports or restores each, from the note or from the team's list.
 */

interface Actions {
  /** Whose team (a director's or the admin's pick); null: the manager's own. */
  managerId: string | null;
  /** After a restore: the loaded view reads again. */
  onRestored: () => void;
}

/** Export CSV and Restore for one month, with their own busy states and messages. */
function MonthActions({ month, managerId, onRestored }: { month: ArchivedMonth } & Actions) {
  const { t } = useTranslation();
  const { mutate } = useSWRConfig();
  const exporting = useRequest();
  const restoring = useRequest();
  const name = monthName(month.month);
  const body = { month: month.month, ...(managerId ? { managerId } : {}) };
  const restore = async () => {
    const done = await restoring.run(() => restoreArchivedMonth(body), {
      success: (r) => t('historyArchive.restored', { month: name, date: shortDate(r.month.restoredUntil ?? '') }),
    });
    if (!done) return;
    await mutate(keyOf(api.callHistory.archive, { query: managerId ? { managerId } : {} }));
    onRestored();
  };
  // several months' buttons on one screen: each names its month after its visible text (WCAG 2.5.3)
  const exportText = exporting.loading ? t('historyTable.exporting') : t('historyTable.export');
  const restoreText = restoring.loading ? t('historyArchive.restoring') : t('historyArchive.restore');
  return (
    <div className="archive-actions">
      <Button
        variant="secondary"
        className="btn-sm"
        aria-label={t('historyArchive.monthAction', { action: exportText, month: name })}
        disabled={exporting.loading}
        onClick={() => void exporting.run(() => exportArchivedMonth(body, `contact-history-${month.month}.csv`))}
      >
        {exportText}
      </Button>
      {month.state === 'archived' && (
        <Button
          variant="secondary"
          className="btn-sm"
          aria-label={t('historyArchive.monthAction', { action: restoreText, month: name })}
          disabled={restoring.loading}
          onClick={() => void restore()}
        >
          {restoreText}
        </Button>
      )}
    </div>
  );
}

/** The loaded range's archived (or restored) months, where the rows would be. */
export function ArchivedInRange({ months, isLead, ...actions }: { months: ArchivedMonth[]; isLead: boolean } & Actions) {
  const { t } = useTranslation();
  if (!months.length) return null;
  return (
    <div className="archive-note" role="status" data-testid="archived-in-range">
      {months.map((m) => {
        const name = monthName(m.month);
        const text =
          m.state === 'restored'
            ? t('historyArchive.inRangeRestored', { month: name, date: shortDate(m.restoredUntil ?? '') })
            : isLead
              ? t('historyArchive.inRange', { month: name, count: m.contacts })
              : t('historyArchive.inRangeAgent', { month: name, count: m.contacts });
        return (
          <div key={m.month} className="archive-row">
            <span>{text}</span>
            {isLead && <MonthActions month={m} {...actions} />}
          </div>
        );
      })}
    </div>
  );
}

/** The team's archived months, newest first, for its lead; nothing when there are none. */
export function ArchivedMonthsCard({ enabled, ...actions }: { enabled: boolean } & Actions) {
  const { t } = useTranslation();
  const read = useArchivedMonths(enabled, actions.managerId);
  if (!enabled) return null;
  if (read.error)
    return (
      <div className="archive-months">
        <RequestFailed what={t('historyArchive.what')} error={read.error} onRetry={() => void read.mutate()} />
      </div>
    );
  const months = read.data?.months ?? [];
  if (!months.length) return null;
  return (
    <div className="archive-months">
      <Card title={t('historyArchive.title')}>
        <p className="muted archive-intro">{t('historyArchive.intro')}</p>
        <ul className="archive-list" data-testid="archived-months">
          {months.map((m) => (
            <li key={m.month} className="archive-row">
              <span className="archive-month">
                <strong>{monthName(m.month)}</strong>
                <span className="muted">
                  {t('historyArchive.contacts', { count: m.contacts })} ·{' '}
                  {m.state === 'restored' ? t('historyArchive.restoredUntil', { date: shortDate(m.restoredUntil ?? '') }) : t('historyArchive.archived')}
                </span>
              </span>
              <MonthActions month={m} {...actions} />
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Loaded } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { dateAndTime } from '../../lib/format';
import { setSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { type SessionDto, signOutSession, useSessions } from './api';
import './users.css';
import { CLIENT_TYPES } from '../../../worker/auth/sessions.schema';
import { useColumnLabels } from '../../lib/use-column-labels';

/** A session's client in the screen's language (the API's `client` is English). */
const clientKey = (clientType: number) =>
  clientType === CLIENT_TYPES.web ? 'sessions.clients.web' : clientType === CLIENT_TYPES.extension ? 'sessions.clients.extension' : 'sessions.clients.other';

/** Browser and system in the screen's language ("Chrome, Linux"); their names are their makers'. */
const deviceText = (t: TFunction, s: SessionDto) => (s.browser && s.os ? t('sessions.deviceOn', { browser: s.browser, os: s.os }) : s.browser || s.os);

/**
 * My Profile's Active sessions: where the user is signed in (the web app, the load-board
 * extension), since when and when last active, with Sign out per session. Signing this session
 * out is logging out; any other one ends only there (docs/decisions/0030-sessions.md).
 */
export function ActiveSessions() {
  const { t } = useTranslation();
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const read = useSessions(true);
  const { mutate } = read;
  const { loading, run } = useRequest();
  const signOut = async (s: SessionDto) => {
    const done = await run(() => signOutSession(s._id), { success: s.current ? undefined : () => t('sessions.signedOut') });
    if (!done) return;
    if (s.current) setSession(null);
    else await mutate();
  };
  return (
    <Card title={t('sessions.title')}>
      <Loaded what={t('sessions.what')} state={read}>
        {(data) => (
          <div className="table-scroll">
            <table className="cards-narrow" ref={labelColumns} data-testid="sessions-table">
              <thead>
                <tr>
                  <th>{t('sessions.client')}</th>
                  <th>{t('sessions.device')}</th>
                  <th>{t('sessions.signedIn')}</th>
                  <th>{t('sessions.lastActive')}</th>
                  <th>
                    <span className="sr-only">{t('sessions.action')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.map((s) => {
                  const client = t(clientKey(s.clientType));
                  const device = deviceText(t, s);
                  return (
                    <tr key={s._id} data-testid="session-row">
                      <td>
                        {client}
                        {s.current && <span className="label-pill pill-ok"> {t('sessions.this')}</span>}
                      </td>
                      <td>{device || <span className="muted">{t('sessions.unknownDevice')}</span>}</td>
                      <td>{dateAndTime(s.createdAt)}</td>
                      <td>{dateAndTime(s.lastSeenAt)}</td>
                      <td>
                        <Button
                          variant="secondary"
                          className="btn-sm session-signout"
                          disabled={loading}
                          onClick={() => signOut(s)}
                          aria-label={t(
                            device
                              ? s.current
                                ? 'sessions.signOutThisOn'
                                : 'sessions.signOutOn'
                              : s.current
                                ? 'sessions.signOutThis'
                                : 'sessions.signOutClient',
                            { client, device },
                          )}
                        >
                          {t('sessions.signOut')}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </Card>
  );
}

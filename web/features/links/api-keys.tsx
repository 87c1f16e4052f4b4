import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Loaded } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-links.json';
import { copyText } from '../../lib/clipboard';
import { shortDateTime } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { type ApiKeyDto, createApiKey, KEYS_KEY, revokeApiKey, useApiKeys } from './api';
import './links.css';
import { useColumnLabels } from '../../lib/use-column-labels';

// this feature's English texts (the login page's first bundle has none of them)
addEnglish(english);

const LIFETIMES = [
  { label: 'apiKeys.days30', days: 30 },
  { label: 'apiKeys.days90', days: 90 },
  { label: 'apiKeys.year', days: 365 },
  { label: 'apiKeys.noExpiry', days: 0 },
] as const;

/**
 * /links/keys: the caller's API keys for the link calls. A new key is shown once, with a copy
 * button; the list shows each key's first characters, dates and last use; revoking asks first.
 */
export default function ApiKeys() {
  const { t } = useTranslation();
  const labelColumns = useColumnLabels<HTMLTableElement>();
  const read = useApiKeys();
  const { data } = read;
  const [name, setName] = useState('');
  const [days, setDays] = useState(90);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyDto | null>(null);
  const create = useRequest();
  const revoke = useRequest();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const expiresAt = days ? new Date(Date.now() + days * 86_400_000).toISOString() : null;
    const key = await create.run(() => createApiKey({ name, expiresAt }), { silent: true });
    if (!key) return;
    setCreated({ name: key.name, key: key.key });
    setCopied(false);
    setName('');
    await mutate(KEYS_KEY);
  };
  const copy = async () => {
    if (created && (await copyText(created.key))) setCopied(true);
  };
  const confirmRevoke = async () => {
    if (!revoking) return;
    const done = await revoke.run(() => revokeApiKey(revoking._id), { success: t('apiKeys.revoked') });
    if (!done) return;
    setRevoking(null);
    await mutate(KEYS_KEY);
  };

  return (
    <div className="page narrow-wide">
      <Link className="link-back" to="/links">
        {t('links.back')}
      </Link>
      <h1>{t('apiKeys.title')}</h1>
      <p className="muted">
        <Trans i18nKey="apiKeys.intro" components={{ code: <code /> }} />
      </p>
      <Card title={t('apiKeys.newKey')}>
        {created && (
          <div className="link-key-once" data-testid="new-key" role="status">
            <strong>{t('apiKeys.once', { name: created.name })}</strong>
            <code data-testid="new-key-value">{created.key}</code>
            <Button variant="secondary" className="btn-sm" onClick={copy}>
              {copied ? t('apiKeys.copied') : t('apiKeys.copyKey')}
            </Button>
          </div>
        )}
        <form className="form link-key-form" onSubmit={submit} aria-label={t('apiKeys.newKeyForm')}>
          <div className="field">
            <label htmlFor="key-name">{t('apiKeys.name')}</label>
            <input
              id="key-name"
              type="text"
              autoComplete="off"
              maxLength={60}
              placeholder={t('apiKeys.namePlaceholder')}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="key-expiry">{t('apiKeys.expiresAfter')}</label>
            <select id="key-expiry" value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {LIFETIMES.map((l) => (
                <option key={l.days} value={l.days}>
                  {t(l.label)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <Button type="submit" disabled={create.loading}>
              {t('apiKeys.createKey')}
            </Button>
          </div>
        </form>
        {create.error && (
          <p className="error-text" role="alert">
            {create.error}
          </p>
        )}
      </Card>
      <Card title={t('apiKeys.yourKeys')}>
        <Loaded what={t('apiKeys.what')} state={read}>
          {() =>
            !data?.length ? (
              <p className="muted">{t('apiKeys.none')}</p>
            ) : (
              <div className="table-scroll">
                <table className="link-keys-table cards-narrow" ref={labelColumns} data-testid="keys-table">
                  <thead>
                    <tr>
                      <th>{t('apiKeys.colName')}</th>
                      <th>{t('apiKeys.colKey')}</th>
                      <th>{t('apiKeys.colCreated')}</th>
                      <th>{t('apiKeys.colExpires')}</th>
                      <th>{t('apiKeys.colLastUsed')}</th>
                      <th>
                        <span className="sr-only">{t('apiKeys.colRevoke')}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((k) => {
                      const expired = k.expiresAt !== null && new Date(k.expiresAt) <= new Date();
                      return (
                        <tr key={k._id}>
                          <td>{k.name}</td>
                          <td>
                            <code>{k.prefix}…</code>
                          </td>
                          <td>{shortDateTime(k.createdAt)}</td>
                          <td>
                            {k.expiresAt
                              ? expired
                                ? t('apiKeys.expiredOn', { date: shortDateTime(k.expiresAt) })
                                : shortDateTime(k.expiresAt)
                              : t('apiKeys.neverExpires')}
                          </td>
                          <td>{k.lastUsedAt ? shortDateTime(k.lastUsedAt) : t('apiKeys.neverUsed')}</td>
                          <td>
                            <Button variant="danger" className="btn-sm" onClick={() => setRevoking(k)} aria-label={t('apiKeys.revokeKey', { name: k.name })}>
                              {t('apiKeys.revoke')}
                            </Button>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )
          }
        </Loaded>
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={t('apiKeys.confirmTitle')}
        message={t('apiKeys.confirmMessage', { name: revoking?.name ?? '' })}
        confirmLabel={t('apiKeys.revoke')}
        dismissLabel={t('apiKeys.cancel')}
        onConfirm={confirmRevoke}
        busy={revoke.loading}
      />
    </div>
  );
}

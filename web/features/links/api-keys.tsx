import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Card } from '../../components/ui/section';
import { Loaded } from '../../components/ui/request-state';
import { copyText } from '../../lib/clipboard';
import { shortDateTime } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { type ApiKeyDto, createApiKey, KEYS_KEY, revokeApiKey, useApiKeys } from './api';
import './links.css';
import { useColumnLabels } from '../../lib/use-column-labels';

const LIFETIMES = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'No expiry', days: 0 },
] as const;

/**
 * /links/keys: the caller's API keys for the link calls. A new key is shown once, with a copy
 * button; the list shows each key's first characters, dates and last use; revoking asks first.
 */
export default function ApiKeys() {
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
    const done = await revoke.run(() => revokeApiKey(revoking._id), { success: 'Key revoked' });
    if (!done) return;
    setRevoking(null);
    await mutate(KEYS_KEY);
  };

  return (
    <div className="page narrow-wide">
      <Link className="link-back" to="/links">
        ← Links
      </Link>
      <h1>API keys</h1>
      <p className="muted">
        A key lets a script list, create, edit and delete your short links (the <code>/api/link</code> calls) and nothing else. Send it as{' '}
        <code>Authorization: Bearer fd_live_…</code>. See the API documentation for an example.
      </p>
      <Card title="New key">
        {created && (
          <div className="link-key-once" data-testid="new-key" role="status">
            <strong>Copy your key “{created.name}” now: it will not be shown again.</strong>
            <code data-testid="new-key-value">{created.key}</code>
            <Button variant="secondary" className="btn-sm" onClick={copy}>
              {copied ? 'Copied!' : 'Copy key'}
            </Button>
          </div>
        )}
        <form className="form link-key-form" onSubmit={submit} aria-label="New API key">
          <div className="field">
            <label htmlFor="key-name">Name</label>
            <input
              id="key-name"
              type="text"
              autoComplete="off"
              maxLength={60}
              placeholder="e.g. Load board script"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="key-expiry">Expires after</label>
            <select id="key-expiry" value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {LIFETIMES.map((l) => (
                <option key={l.days} value={l.days}>
                  {l.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <Button type="submit" disabled={create.loading}>
              Create key
            </Button>
          </div>
        </form>
        {create.error && (
          <p className="error-text" role="alert">
            {create.error}
          </p>
        )}
      </Card>
      <Card title="Your keys">
        <Loaded what="your API keys" state={read}>
          {() =>
            !data?.length ? (
              <p className="muted">No keys yet.</p>
            ) : (
              <div className="table-scroll">
                <table className="link-keys-table cards-narrow" ref={labelColumns} data-testid="keys-table">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Key</th>
                      <th>Created</th>
                      <th>Expires</th>
                      <th>Last used</th>
                      <th>
                        <span className="sr-only">Revoke</span>
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
                          <td>{k.expiresAt ? `${expired ? 'Expired ' : ''}${shortDateTime(k.expiresAt)}` : 'Never'}</td>
                          <td>{k.lastUsedAt ? shortDateTime(k.lastUsedAt) : 'Never'}</td>
                          <td>
                            <Button variant="danger" className="btn-sm" onClick={() => setRevoking(k)} aria-label={`Revoke key ${k.name}`}>
                              Revoke
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
        title="Revoke this key?"
        message={`Scripts using “${revoking?.name ?? ''}” stop working at once. This cannot be undone.`}
        confirmLabel="Revoke"
        onConfirm={confirmRevoke}
        busy={revoke.loading}
      />
    </div>
  );
}

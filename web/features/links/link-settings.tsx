import { type FormEvent, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { DateTimeField } from '../../components/ui/date-input';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Card } from '../../components/ui/section';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { useRequest } from '../../lib/use-request';
import { deleteLink, LINKS_KEY, type LinkDetail, updateLink } from './api';

/** `2026-11-24T10:30` in the browser's time zone, as a datetime-local input wants it. */
function localInputValue(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The link's settings: target, alias, expiry and click limit, saved together (only the fields
 * that changed are sent), and deleting the link behind a confirmation whose Cancel has the focus.
 */
export function LinkSettings({ link, onSaved }: { link: LinkDetail; onSaved: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [from, setFrom] = useState(link.from);
  const [alias, setAlias] = useState(link.code);
  const [expires, setExpires] = useState(localInputValue(link.expiresAt));
  const [limit, setLimit] = useState(link.maxClicks ? String(link.maxClicks) : '');
  const [confirming, setConfirming] = useState(false);
  const save = useRequest();
  const remove = useRequest();

  /** The fields that differ from the stored link (only those are sent). */
  const changes = () => {
    const json: Parameters<typeof updateLink>[1] = {};
    if (from.trim() !== link.from) json.from = from;
    if (alias.trim() !== link.code) json.alias = alias.trim();
    const expiresAt = expires ? new Date(expires).toISOString() : null;
    if (expiresAt !== link.expiresAt && localInputValue(expiresAt) !== localInputValue(link.expiresAt)) json.expiresAt = expiresAt;
    const maxClicks = limit.trim() ? Number(limit) : null;
    if (maxClicks !== link.maxClicks) json.maxClicks = maxClicks;
    return json;
  };
  const dirty = Object.keys(changes()).length > 0;

  /** Saves the changes; true when saved (the unsaved-changes dialog leaves the screen then). */
  const persist = async () => {
    const json = changes();
    if (!Object.keys(json).length) return true;
    const saved = await save.run(() => updateLink(link._id, json), { success: t('linkSettings.saved') });
    if (!saved) return false;
    setFrom(saved.from);
    setAlias(saved.code);
    await Promise.all([onSaved(), mutate(LINKS_KEY)]);
    return true;
  };
  const unsaved = useUnsavedChanges(dirty && !confirming, persist);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await persist();
  };

  const confirmDelete = async () => {
    const done = await remove.run(() => deleteLink(link._id), { success: t('linkSettings.deleted') });
    if (!done) return;
    await mutate(LINKS_KEY);
    // still `confirming`, so the unsaved-changes guard lets the deleted link's screen go
    navigate('/links');
  };

  return (
    <Card title={t('linkSettings.title')}>
      <form className="form link-settings" onSubmit={submit} aria-label={t('linkSettings.form')}>
        <div className="field">
          <label htmlFor="link-edit-from">{t('linkSettings.target')}</label>
          <input id="link-edit-from" type="text" autoComplete="off" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="link-edit-alias">{t('linkSettings.alias')}</label>
          <input
            id="link-edit-alias"
            type="text"
            autoComplete="off"
            value={alias}
            onChange={(e) => setAlias(e.target.value)}
            aria-describedby="link-edit-alias-hint"
          />
          <div id="link-edit-alias-hint" className="field-hint">
            {t('linkSettings.aliasHint')}
          </div>
        </div>
        <div className="link-settings-row">
          <DateTimeField id="link-edit-expires" label={t('linkSettings.expires')} hint={t('linkSettings.expiresHint')} value={expires} onChange={setExpires} />
          <div className="field">
            <label htmlFor="link-edit-limit">{t('linkSettings.limit')}</label>
            <input id="link-edit-limit" type="number" min={1} step={1} inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} />
            <div className="field-hint">{t('linkSettings.limitHint')}</div>
          </div>
        </div>
        {save.error && (
          <p className="error-text" role="alert">
            {save.error}
          </p>
        )}
        <div className="link-settings-actions">
          <Button type="submit" disabled={save.loading}>
            {save.loading ? t('linkSettings.saving') : t('linkSettings.save')}
          </Button>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('linkSettings.delete')}
          </Button>
        </div>
        <p className="field-hint">{t('linkSettings.reach')}</p>
      </form>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('linkSettings.confirmTitle')}
        message={<Trans i18nKey="linkSettings.confirmMessage" values={{ link: link.to }} components={{ strong: <strong /> }} />}
        confirmLabel={t('linkSettings.confirm')}
        dismissLabel={t('linkSettings.cancel')}
        onConfirm={confirmDelete}
        busy={remove.loading}
      />
      {unsaved.dialog}
    </Card>
  );
}

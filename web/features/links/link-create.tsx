import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { mutate } from 'swr';
import { Button } from '../../components/ui/button';
import { DateTimeField } from '../../components/ui/date-input';
import { CollapsibleSection } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-links.json';
import { errorText } from '../../i18n/errors';
import { isLoggedOut } from '../../lib/api-client';
import { createLink, LINKS_KEY } from './api';
import './links.css';

// this feature's English texts (the login page's first bundle has none of them)
addEnglish(english);

/**
 * /create: one input, Enter submits, then the new link's detail. The spec keeps errors silent
 * (no toast); the field still says why nothing happened, so the user is never left guessing.
 * A custom alias hides behind a closed disclosure, so the screen shows the spec's one input.
 */
export default function LinkCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [from, setFrom] = useState('');
  const [alias, setAlias] = useState('');
  const [expires, setExpires] = useState('');
  const [limit, setLimit] = useState('');
  const [hint, setHint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setHint(null);
    try {
      const link = await createLink({
        from,
        ...(alias.trim() ? { alias: alias.trim() } : {}),
        ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
        ...(limit.trim() ? { maxClicks: Number(limit) } : {}),
      });
      await mutate(LINKS_KEY);
      navigate(`/detail/${link._id}`);
    } catch (err) {
      if (!isLoggedOut(err)) setHint(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  // Enter in any of the inputs submits, as the spec's one input did (also in the date input, which would not)
  const submitOnEnter = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  };
  return (
    <div className="page narrow">
      <h1>{t('linkCreate.title')}</h1>
      <form onSubmit={submit} className="card form" aria-label={t('linkCreate.title')}>
        <div className="field">
          <label htmlFor="link-from">{t('linkCreate.enterLink')}</label>
          <div className="link-create-row">
            <input
              id="link-from"
              className="link-create-input"
              type="text"
              autoComplete="off"
              placeholder={t('linkCreate.placeholder')}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              onKeyDown={submitOnEnter}
              // biome-ignore lint/a11y/noAutofocus: the screen is this one input (spec: Enter Link, Enter submits); focus saves a click
              autoFocus
              aria-describedby="link-hint"
            />
            {/* Enter still submits (spec); the button says there is a way to submit, for a pointer or a phone keyboard */}
            <Button type="submit" disabled={busy}>
              {t('linkCreate.create')}
            </Button>
          </div>
          <div id="link-hint" className={hint ? 'field-hint field-hint-bad' : 'field-hint'} aria-live="polite">
            {busy ? t('linkCreate.creating') : (hint ?? t('linkCreate.hint'))}
          </div>
        </div>
        <CollapsibleSection title={t('linkCreate.options')}>
          <div className="field">
            <label htmlFor="link-alias">{t('linkCreate.alias')}</label>
            <input
              id="link-alias"
              type="text"
              autoComplete="off"
              value={alias}
              onChange={(e) => setAlias(e.target.value)}
              onKeyDown={submitOnEnter}
              aria-describedby="link-alias-hint"
            />
            <div id="link-alias-hint" className="field-hint">
              {t('linkCreate.aliasHint', { alias: alias.trim() || t('linkCreate.aliasExample') })}
            </div>
          </div>
          <div className="link-settings-row">
            <DateTimeField
              id="link-expires"
              label={t('linkCreate.expires')}
              hint={t('linkCreate.emptyNever')}
              value={expires}
              onChange={setExpires}
              onKeyDown={submitOnEnter}
            />
            <div className="field">
              <label htmlFor="link-limit">{t('linkCreate.limit')}</label>
              <input
                id="link-limit"
                type="number"
                min={1}
                step={1}
                inputMode="numeric"
                value={limit}
                onChange={(e) => setLimit(e.target.value)}
                onKeyDown={submitOnEnter}
              />
              <div className="field-hint">{t('linkCreate.emptyNoLimit')}</div>
            </div>
          </div>
        </CollapsibleSection>
      </form>
    </div>
  );
}

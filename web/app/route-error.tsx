import { useEffect, useRef } from 'react';
import { Link, useRouteError } from 'react-router';
import { useText } from '../i18n/startup';
import { STARTUP_ENGLISH } from '../i18n/startup-english';
import { useOnline } from '../lib/online';

/** English before the common part is loaded (on the login page, or when its chunk failed too). */
const en = STARTUP_ENGLISH.routeError;

const RELOAD_KEY = 'fd.chunkReloadAt';
/** A failed screen load within this long after the last automatic reload is not retried again. */
const RELOAD_WINDOW_MS = 60_000;

/**
 * A screen's code that could not be fetched: a tab left open across a deploy asks for a chunk
 * the new deploy no longer has (its name carries the old hash), or the connection dropped. Vite
 * names the failure "Failed to fetch dynamically imported module" (Chromium), "error loading
 * dynamically imported module" (Firefox) or "Importing a module script failed" (Safari).
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|Importing a module script failed|Loading (CSS )?chunk|Unable to preload CSS/i.test(message);
}

function lastAutoReload(): number {
  try {
    return Number(sessionStorage.getItem(RELOAD_KEY)) || 0;
  } catch {
    return 0;
  }
}

function markAutoReload() {
  try {
    sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
    return true;
  } catch {
    // no storage: never reload on our own, or a broken deploy would reload for ever
    return false;
  }
}

/**
 * The app's own look (decision 0153), not React Router's developer page. A screen whose code failed
 * to load reloads once (the new index.html names the new chunks); not offline, where the browser
 * would show its own page.
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useText();
  const online = useOnline();
  const chunk = isChunkLoadError(error);
  const autoReload = chunk && online && Date.now() - lastAutoReload() > RELOAD_WINDOW_MS;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (autoReload && markAutoReload()) window.location.reload();
  }, [autoReload]);
  useEffect(() => {
    if (!error) return;
    // the error's text is for the console; the screen says what the person can do
    console.error(error);
    heading.current?.focus();
  }, [error]);
  const reload = () => {
    try {
      sessionStorage.removeItem(RELOAD_KEY);
    } catch {
      // nothing kept
    }
    window.location.reload();
  };
  if (autoReload) return null;
  return (
    <div className="page route-error" data-testid="route-error">
      <section className="card route-error-card" role="alert">
        {chunk && online ? (
          <>
            <h1 ref={heading} tabIndex={-1}>
              {t('common.routeError.updateTitle', { defaultValue: en.updateTitle })}
            </h1>
            <p>{t('common.routeError.updateText', { defaultValue: en.updateText })}</p>
          </>
        ) : chunk ? (
          <>
            <h1 ref={heading} tabIndex={-1}>
              {t('common.routeError.offlineTitle', { defaultValue: en.offlineTitle })}
            </h1>
            <p>{t('common.routeError.offlineText', { defaultValue: en.offlineText })}</p>
          </>
        ) : (
          <>
            <h1 ref={heading} tabIndex={-1}>
              {t('common.routeError.errorTitle', { defaultValue: en.errorTitle })}
            </h1>
            <p>{t('common.routeError.errorText', { defaultValue: en.errorText })}</p>
          </>
        )}
        <div className="card-actions">
          <button type="button" className="btn btn-primary" onClick={reload}>
            {t('common.routeError.reload', { defaultValue: en.reload })}
          </button>
          <Link className="btn btn-secondary" to="/" reloadDocument>
            {t('common.routeError.startScreen', { defaultValue: en.startScreen })}
          </Link>
        </div>
      </section>
    </div>
  );
}

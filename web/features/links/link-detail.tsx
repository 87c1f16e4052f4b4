import { QRCodeSVG } from 'qrcode.react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { RequestFailed } from '../../components/ui/request-state';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { addEnglish, currentLanguage } from '../../i18n';
import english from '../../i18n/en-links.json';
import { ApiFailure } from '../../lib/api-client';
import { copyText } from '../../lib/clipboard';
import { fullDateTime } from '../../lib/format';
import { useRegionNames } from '../../lib/region-names';
import { useRequest } from '../../lib/use-request';
import { exportClicks, setLinkDisabled, useLink } from './api';
import { LinkSettings } from './link-settings';
import './links.css';

// this feature's English texts (the login page's first bundle has none of them)
addEnglish(english);

const ClicksChart = lazy(() => import('./clicks-chart'));

/** The words the stats use for what they could not name, or a kind (a map of literal keys: each one is said in the user's language). */
const VALUE_NAMES = new Map([
  ['direct', 'linkDetail.direct'],
  ['unknown', 'linkDetail.unknown'],
  ['mobile', 'linkDetail.mobile'],
  ['tablet', 'linkDetail.tablet'],
  ['desktop', 'linkDetail.desktop'],
  ['Other', 'linkDetail.other'],
  ['bot', 'linkDetail.bot'],
]);

/**
 * /detail/{id}: the spec's Link card (Your Link, From Link, Click Amount, Creation Date), then
 * the extras: copy, QR code, disable, clicks over time and who clicked. A failed load says what
 * failed with Retry (decision 0018 overrides the spec's silent errors here); a link that is not there says so.
 */
export default function LinkDetail() {
  const { t } = useTranslation();
  // Cloudflare's two-letter codes, named in the screen's language
  const regionNames = useRegionNames(currentLanguage());
  const countryName = (code: string) => (/^[A-Z]{2}$/.test(code) && regionNames ? regionNames(code) : code);
  const { id } = useParams();
  const read = useLink(id);
  const { data, error, mutate } = read;
  const [copied, setCopied] = useState(false);
  const { loading, run } = useRequest();
  if (!data) {
    if (!error) return <Spinner label={t('linkDetail.loading')} />;
    return (
      <LinkPage>
        <Card>
          <h1>{t('linkDetail.title')}</h1>
          {error instanceof ApiFailure && error.status === 404 ? (
            <p className="muted">{t('linkDetail.notFound')}</p>
          ) : (
            <RequestFailed what={t('linkDetail.what')} error={error} onRetry={() => void mutate()} />
          )}
        </Card>
      </LinkPage>
    );
  }
  const copy = async () => {
    if (await copyText(data.to)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
      return;
    }
    // no clipboard (an insecure origin): select the link so Ctrl+C copies it
    const a = document.querySelector<HTMLAnchorElement>('[data-testid="short-link"]');
    if (a) getSelection()?.selectAllChildren(a);
  };
  const toggle = async () => {
    const res = await run(() => setLinkDisabled(data._id, !data.isDisabled), {
      success: (r) => (r.isDisabled ? t('linkDetail.linkDisabled') : t('linkDetail.linkEnabled')),
    });
    if (res) await mutate();
  };
  const people = data.stats.daily.reduce((n, d) => n + d.people, 0);
  const status = { active: t('linkDetail.active'), disabled: t('linkDetail.disabled'), expired: t('linkDetail.expired') }[data.status];
  const limits = [
    data.expiresAt &&
      (data.status === 'expired' && new Date(data.expiresAt) <= new Date()
        ? t('linkDetail.expiredOn', { date: fullDateTime(data.expiresAt) })
        : t('linkDetail.expiresOn', { date: fullDateTime(data.expiresAt) })),
    data.maxClicks && t('linkDetail.limit', { max: data.maxClicks, left: Math.max(0, data.maxClicks - data.clicks) }),
  ].filter(Boolean);
  return (
    <LinkPage>
      <Card>
        <h1>{t('linkDetail.title')}</h1>
        <dl className="kv link-kv" data-testid="link-detail">
          <dt>{t('linkDetail.yourLink')}</dt>
          <dd>
            <a href={data.to} target="_blank" rel="noopener noreferrer" data-testid="short-link">
              {data.to}
            </a>
          </dd>
          <dt>{t('linkDetail.fromLink')}</dt>
          <dd className="link-cell">{data.from}</dd>
          <dt>{t('linkDetail.clickAmount')}</dt>
          <dd data-testid="click-amount">{data.clicks}</dd>
          <dt>{t('linkDetail.creationDate')}</dt>
          <dd>{fullDateTime(data.date)}</dd>
        </dl>
      </Card>
      <div className="grid-2">
        <Card
          title={
            <>
              {t('linkDetail.share')}
              <span className={`link-status ${data.status === 'active' ? 'link-status-on' : 'link-status-off'}`} data-testid="link-status">
                {status}
              </span>
            </>
          }
        >
          <div className="link-share">
            <div className="link-share-qr" role="img" aria-label={t('linkDetail.qr', { link: data.to })}>
              <QRCodeSVG value={data.to} size={132} marginSize={1} title={t('linkDetail.qr', { link: data.to })} />
            </div>
            <div className="link-share-actions">
              <Button variant="secondary" onClick={copy}>
                {copied ? t('linkDetail.copied') : t('linkDetail.copyShort')}
              </Button>
              <Button variant={data.isDisabled ? 'primary' : 'danger'} onClick={toggle} disabled={loading}>
                {data.isDisabled ? t('linkDetail.enable') : t('linkDetail.disable')}
              </Button>
              <p className="field-hint">{data.isDisabled ? t('linkDetail.disabledHint') : t('linkDetail.disableHint')}</p>
              {limits.length > 0 && (
                <p className="field-hint" data-testid="link-limits">
                  {limits.join(' · ')}
                </p>
              )}
            </div>
          </div>
        </Card>
        <Card title={t('linkDetail.whoClicked')}>
          <p className="field-hint" data-testid="people-bots">
            {t('linkDetail.peopleBots', {
              people: t('linkDetail.people', { count: people }),
              bots: t('linkDetail.bots', { count: data.stats.bots }),
            })}
          </p>
          <div className="link-breakdowns">
            <Breakdown title={t('linkDetail.referrers')} rows={data.stats.referrers} />
            <Breakdown title={t('linkDetail.countries')} rows={data.stats.countries} nameOf={countryName} />
            <Breakdown title={t('linkDetail.devices')} rows={data.stats.devices.filter((d) => d.value !== 'bot')} />
            <Breakdown title={t('linkDetail.browsers')} rows={data.stats.browsers} />
            <Breakdown title={t('linkDetail.oses')} rows={data.stats.oses} />
          </div>
        </Card>
      </div>
      <Card
        title={t('linkDetail.chartTitle')}
        actions={
          <Button variant="secondary" className="btn-sm" onClick={() => exportClicks(data._id, data.code)}>
            {t('links.exportCsv')}
          </Button>
        }
      >
        <div className="link-chart" data-testid="clicks-chart">
          <Suspense fallback={<Spinner label={t('linkDetail.loadingChart')} />}>
            <ClicksChart daily={data.stats.daily} />
          </Suspense>
        </div>
      </Card>
      <LinkSettings key={`${data._id}:${data.code}:${data.from}:${data.expiresAt}:${data.maxClicks}`} link={data} onSaved={() => mutate()} />
    </LinkPage>
  );
}

/** The detail's frame: the way back to the list, then the cards. */
function LinkPage({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="page narrow-wide">
      <Link className="link-back" to="/links">
        {t('links.back')}
      </Link>
      {children}
    </div>
  );
}

function Breakdown({ title, rows, nameOf }: { title: string; rows: { value: string; count: number }[]; nameOf?: (value: string) => string }) {
  const { t } = useTranslation();
  const top = rows.slice(0, 5);
  const max = Math.max(1, ...top.map((r) => r.count));
  const name = (value: string) => {
    const key = VALUE_NAMES.get(value);
    return key ? t(key) : (nameOf?.(value) ?? value);
  };
  return (
    <section className="link-breakdown" aria-label={title}>
      <h3>{title}</h3>
      {top.length === 0 ? (
        <p className="field-hint">{t('linkDetail.noClicks')}</p>
      ) : (
        <ol>
          {top.map((r) => (
            <li key={r.value}>
              <span className="value" title={name(r.value)}>
                {name(r.value)}
              </span>
              <span className="bar" aria-hidden="true">
                <span style={{ width: `${(r.count / max) * 100}%` }} />
              </span>
              <span className="count">{r.count}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

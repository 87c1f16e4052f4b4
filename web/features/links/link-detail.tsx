import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import useSWR from 'swr';
import type { LinkDto, LinkStats } from '../../../worker/links/links.schema';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { fetcher, put } from '../../lib/api-client';
import { useRequest } from '../../lib/use-request';

type Detail = LinkDto & { stats: LinkStats };

/** /detail/{id}: the spec's Link card, then copy, QR code, clicks over time and breakdowns. */
export default function LinkDetail() {
  const { id } = useParams();
  const { data, isLoading, mutate } = useSWR<Detail>(id ? `/api/link/${id}` : null, fetcher, { onError: () => undefined, refreshInterval: 10_000 });
  const [copied, setCopied] = useState(false);
  const { loading, run } = useRequest();
  if (isLoading) return <Spinner />;
  if (!data) return <div className="page"><p className="muted">This link could not be loaded.</p></div>;
  const copy = async () => {
    await navigator.clipboard?.writeText(data.to).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  const toggle = async () => {
    const res = await run(() => put<LinkDto>(`/api/link/${data._id}`, { isDisabled: !data.isDisabled }), { success: (r) => (r.isDisabled ? 'Link disabled' : 'Link enabled') });
    if (res) await mutate();
  };
  return (
    <div className="page narrow-wide">
      <Card>
        <h1>Link</h1>
        <dl className="kv" data-testid="link-detail">
          <dt>Your Link</dt>
          <dd>
            <a href={data.to} target="_blank" rel="noopener noreferrer">
              {data.to}
            </a>
          </dd>
          <dt>From Link</dt>
          <dd className="link-cell">{data.from}</dd>
          <dt>Click Amount</dt>
          <dd data-testid="click-amount">{data.clicks}</dd>
          <dt>Creation Date</dt>
          <dd>{new Date(data.date).toLocaleString()}</dd>
        </dl>
      </Card>
      <div className="grid-2">
        <Card title="Share">
          <div className="share">
            <QRCodeSVG value={data.to} size={148} marginSize={2} title={`QR code of ${data.to}`} />
            <div className="form">
              <Button variant="secondary" onClick={copy}>
                {copied ? 'Copied!' : 'Copy short link'}
              </Button>
              <Button variant={data.isDisabled ? 'primary' : 'danger'} onClick={toggle} disabled={loading}>
                {data.isDisabled ? 'Enable link' : 'Disable link'}
              </Button>
              {data.isDisabled && <p className="muted">Disabled: visitors see a notice instead of the target.</p>}
            </div>
          </div>
        </Card>
        <Card title="Who clicked">
          <p className="muted">People only; {data.stats.bots} bot visits are left out.</p>
          <Breakdown title="Referrers" rows={data.stats.referrers} />
          <Breakdown title="Countries" rows={data.stats.countries} />
          <Breakdown title="Devices" rows={data.stats.devices.filter((d) => d.value !== 'bot')} />
        </Card>
      </div>
      <Card title="Clicks over the last 30 days">
        <div style={{ width: '100%', height: 240 }} data-testid="clicks-chart">
          <ResponsiveContainer>
            <BarChart data={data.stats.daily.map((d) => ({ ...d, day: d.day.slice(5) }))}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="day" fontSize={12} />
              <YAxis allowDecimals={false} fontSize={12} />
              <Tooltip />
              <Legend />
              <Bar dataKey="people" name="People" stackId="c" fill="#1d4ed8" isAnimationActive={false} />
              <Bar dataKey="bots" name="Bots" stackId="c" fill="#c9d6f2" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Card>
    </div>
  );
}

function Breakdown({ title, rows }: { title: string; rows: { value: string; count: number }[] }) {
  return (
    <div className="breakdown">
      <span className="stat-label">{title}</span>
      {rows.length === 0 ? (
        <p className="muted">No clicks yet</p>
      ) : (
        <ul className="inline-list">
          {rows.slice(0, 5).map((r) => (
            <li key={r.value}>
              {r.value} <strong>{r.count}</strong>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

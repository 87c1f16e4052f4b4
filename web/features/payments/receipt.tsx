import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Pending } from '../../components/ui/request-state';
import { ApiFailure } from '../../lib/api-client';
import { amd, shortDate, shortDateTime } from '../../lib/format';
import { type ReceiptDto, useReceipt } from './api';
import './payments.css';

const bought = (l: ReceiptDto['lines'][number]) =>
  [l.months ? `${l.months} month${l.months === 1 ? '' : 's'}` : '', l.days ? `${l.days} day${l.days === 1 ? '' : 's'}` : ''].filter(Boolean).join(' + ');

/** /payment/receipt/{id}: a confirmed payment's receipt, laid out to print (the menu and buttons are not printed). */
export default function Receipt() {
  const { id = '' } = useParams();
  const read = useReceipt(id);
  const { data: receipt, error } = read;
  if (!receipt) {
    // a receipt that is not there (or not the caller's) says so; any other failure offers Retry
    if (error instanceof ApiFailure && error.status === 404) return <p className="muted">{error.message}</p>;
    return <Pending what="the receipt" state={read} />;
  }
  return (
    <div className="receipt-page">
      <div className="page-header no-print">
        <Link to="/payment/">← Payment</Link>
        <Button onClick={() => window.print()}>Print</Button>
      </div>
      <article className="receipt card" data-testid="receipt">
        <header className="receipt-head">
          <div>
            <div className="receipt-brand">FreightDesk</div>
            <h1>Receipt</h1>
          </div>
          <div className="receipt-number">Order #{receipt.orderNumber}</div>
        </header>
        <dl className="kv">
          <dt>Paid on</dt>
          <dd>{shortDateTime(receipt.confirmedAt ?? receipt.dateCreated)}</dd>
          <dt>Paid by</dt>
          <dd>{receipt.payer ? `${receipt.payer.name} (${receipt.payer.email})` : 'Deleted user'}</dd>
          <dt>Idram transaction</dt>
          <dd data-testid="receipt-transaction">{receipt.transactionId ?? 'None: the promo code paid the whole order'}</dd>
        </dl>
        <table className="receipt-lines">
          <thead>
            <tr>
              <th>For</th>
              <th>Bought</th>
              <th className="num">Price</th>
              <th>Subscription ends</th>
            </tr>
          </thead>
          <tbody>
            {receipt.lines.map((l, i) => (
              <tr key={l.user?._id ?? i}>
                <td>
                  {l.user ? l.user.name : 'Deleted user'}
                  {l.user && <div className="muted">{l.user.email}</div>}
                </td>
                <td>{bought(l)}</td>
                <td className="num">{amd(l.price)}</td>
                <td>{l.newEndDate ? shortDate(l.newEndDate) : 'No End Date'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {receipt.isPartial ? (
          <p className="muted">Paid for you by {receipt.payer?.name ?? 'your manager'}; the order's total is on the payer's receipt.</p>
        ) : (
          <dl className="receipt-totals" data-testid="receipt-totals">
            {(receipt.discount > 0 || receipt.promo) && (
              <>
                <dt>Subtotal</dt>
                <dd>{amd(receipt.subtotal)}</dd>
                <dt>
                  Promo code {receipt.promo?.name} ({receipt.promo?.percent ?? 0}% off)
                </dt>
                <dd>−{amd(receipt.discount)}</dd>
              </>
            )}
            <dt className="receipt-total">Total paid</dt>
            <dd className="receipt-total">{amd(receipt.total)}</dd>
          </dl>
        )}
        {receipt.refunds.length > 0 && (
          <section className="receipt-refunds" data-testid="receipt-refunds">
            <h2>Refunds</h2>
            <ul>
              {receipt.refunds.map((r) => (
                <li key={r._id}>
                  {shortDate(r.date)}: {receipt.isPartial ? '' : `${amd(r.amount)} refunded`}
                  {r.monthsRemoved > 0 ? `${receipt.isPartial ? '' : ', '}${r.monthsRemoved} month${r.monthsRemoved === 1 ? '' : 's'} taken back` : ''}
                  {r.user && r.monthsRemoved > 0 ? ` from ${r.user.name}` : ''} ({r.reason})
                </li>
              ))}
            </ul>
            {!receipt.isPartial && (
              <p>
                <strong>Net paid: {amd(receipt.total - receipt.refunds.reduce((sum, r) => sum + r.amount, 0))}</strong>
              </p>
            )}
          </section>
        )}
        <p className="muted receipt-foot">
          Prices in Armenian dram (AMD). {receipt.monthlyPrice.toLocaleString('en-US')} AMD per month at the time of the order.
        </p>
      </article>
    </div>
  );
}

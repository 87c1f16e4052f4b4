import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Pending } from '../../components/ui/request-state';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { errorText } from '../../i18n/errors';
import { ApiFailure } from '../../lib/api-client';
import { amd, shortDate, shortDateTime } from '../../lib/format';
import { type ReceiptDto, useReceipt } from './api';
import { daysText, monthsBackText, monthsText } from './order-text';
import './payments.css';

addEnglish(english);

const bought = (l: ReceiptDto['lines'][number]) => [l.months ? monthsText(l.months) : '', l.days ? daysText(l.days) : ''].filter(Boolean).join(' + ');

/** /payment/receipt/{id}: a confirmed payment's receipt, laid out to print (the menu and buttons are not printed). */
export default function Receipt() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const read = useReceipt(id);
  const { data: receipt, error } = read;
  if (!receipt) {
    // a receipt that is not there (or not the caller's) says so; any other failure offers Retry
    if (error instanceof ApiFailure && error.status === 404) return <p className="muted">{errorText(error)}</p>;
    return <Pending what={t('receiptPage.what')} state={read} />;
  }
  return (
    <div className="receipt-page">
      <div className="page-header no-print">
        <Link to="/payment/">{t('receiptPage.back')}</Link>
        <Button onClick={() => window.print()}>{t('receiptPage.print')}</Button>
      </div>
      <article className="receipt card" data-testid="receipt">
        <header className="receipt-head">
          <div>
            <div className="receipt-brand">FreightDesk</div>
            <h1>{t('receiptPage.title')}</h1>
          </div>
          <div className="receipt-number">{t('receiptPage.order', { number: receipt.orderNumber })}</div>
        </header>
        <dl className="kv">
          <dt>{t('receiptPage.paidOn')}</dt>
          <dd>{shortDateTime(receipt.confirmedAt ?? receipt.dateCreated)}</dd>
          <dt>{t('receiptPage.paidBy')}</dt>
          <dd>{receipt.payer ? `${receipt.payer.name} (${receipt.payer.email})` : t('payHistory.deletedUser')}</dd>
          <dt>{t('receiptPage.transaction')}</dt>
          <dd data-testid="receipt-transaction">{receipt.transactionId ?? t('receiptPage.noTransaction')}</dd>
        </dl>
        <table className="receipt-lines">
          <thead>
            <tr>
              <th>{t('receiptPage.colFor')}</th>
              <th>{t('receiptPage.colBought')}</th>
              <th className="num">{t('receiptPage.colPrice')}</th>
              <th>{t('receiptPage.colEnds')}</th>
            </tr>
          </thead>
          <tbody>
            {receipt.lines.map((l, i) => (
              <tr key={l.user?._id ?? i}>
                <td>
                  {l.user ? l.user.name : t('payHistory.deletedUser')}
                  {l.user && <div className="muted">{l.user.email}</div>}
                </td>
                <td>{bought(l)}</td>
                <td className="num">{amd(l.price)}</td>
                <td>{l.newEndDate ? shortDate(l.newEndDate) : t('payment.noEndDate')}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {receipt.isPartial ? (
          <p className="muted">{receipt.payer ? t('receiptPage.partialBy', { name: receipt.payer.name }) : t('receiptPage.partialByManager')}</p>
        ) : (
          <dl className="receipt-totals" data-testid="receipt-totals">
            {(receipt.discount > 0 || receipt.promo) && (
              <>
                <dt>{t('receiptPage.subtotal')}</dt>
                <dd>{amd(receipt.subtotal)}</dd>
                <dt>{t('receiptPage.promo', { name: receipt.promo?.name ?? '', percent: receipt.promo?.percent ?? 0 })}</dt>
                <dd>−{amd(receipt.discount)}</dd>
              </>
            )}
            <dt className="receipt-total">{t('receiptPage.totalPaid')}</dt>
            <dd className="receipt-total">{amd(receipt.total)}</dd>
          </dl>
        )}
        {receipt.refunds.length > 0 && (
          <section className="receipt-refunds" data-testid="receipt-refunds">
            <h2>{t('receiptPage.refunds')}</h2>
            <ul>
              {receipt.refunds.map((r) => (
                <li key={r._id}>
                  {shortDate(r.date)}: {receipt.isPartial ? '' : t('receiptPage.refunded', { amount: amd(r.amount) })}
                  {r.monthsRemoved > 0 ? `${receipt.isPartial ? '' : ', '}${monthsBackText(r.monthsRemoved)}` : ''}
                  {r.user && r.monthsRemoved > 0 ? ` ${t('receiptPage.fromUser', { name: r.user.name })}` : ''} ({r.reason})
                </li>
              ))}
            </ul>
            {!receipt.isPartial && (
              <p>
                <strong>{t('receiptPage.netPaid', { amount: amd(receipt.total - receipt.refunds.reduce((sum, r) => sum + r.amount, 0)) })}</strong>
              </p>
            )}
          </section>
        )}
        <p className="muted receipt-foot">{t('receiptPage.foot', { price: amd(receipt.monthlyPrice) })}</p>
      </article>
    </div>
  );
}

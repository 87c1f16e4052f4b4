import { useState } from 'react';
import { mutate } from 'swr';
import { MAX_MONTHS } from '../../../worker/payments/payments.schema';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { amd } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { HISTORY_KEY, type PaymentDto, recordRefund, SUMMARY_KEY } from './api';

/** Whether Idram took money for a payment that is not all given back yet. */
export const refundable = (p: PaymentDto) => (p.isPaymentConfirmed || p.status === 'Needs refund') && p.priceTotal - p.refunded > 0;

/**
 * Admin payments: record a refund on a paid payment: the amount (at most what is left), the
 * reason, and the months it takes back from whom it extended (a team order: one agent at a time).
 */
export function RefundDialog({ payment, onClose }: { payment: PaymentDto; onClose: () => void }) {
  const left = payment.priceTotal - payment.refunded;
  const [amountText, setAmountText] = useState(String(left));
  const [reason, setReason] = useState('');
  const [monthsText, setMonthsText] = useState('0');
  const extended = payment.isPaymentConfirmed;
  const monthItems = payment.items.filter((i) => i.months > 0);
  const [userId, setUserId] = useState<string>(payment.kind === 'team' ? (monthItems[0]?.user?._id ?? '') : (payment.user?._id ?? ''));
  const { loading, error, run } = useRequest();
  const save = async () => {
    const res = await run(
      () =>
        recordRefund({
          paymentId: payment._id,
          amount: Number(amountText),
          reason,
          monthsRemoved: extended ? Number(monthsText) : 0,
          userId: payment.kind === 'team' ? userId : null,
        }),
      { success: (r) => r.message, silent: true },
    );
    if (!res) return;
    await Promise.all([mutate(HISTORY_KEY), mutate(SUMMARY_KEY)]);
    onClose();
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Refund order #${payment.globalIndex}`}
      footer={
        <>
          <Button onClick={save} disabled={loading}>
            Record refund
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </>
      }
    >
      <form
        className="form"
        aria-label="Refund"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <p className="muted">
          Charged {amd(payment.priceTotal)}
          {payment.refunded > 0 ? `, ${amd(payment.refunded)} already refunded` : ''}: at most {amd(left)} left to refund. Give the money back through Idram's
          merchant tools; this records it, takes the months back and keeps the totals right.
        </p>
        <Field label="Amount (AMD)" inputMode="numeric" value={amountText} onChange={(e) => setAmountText(e.target.value.replace(/[^\d]/g, '').slice(0, 10))} />
        <Field label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} placeholder="e.g. paid twice by mistake" />
        {extended ? (
          <>
            {payment.kind === 'team' && (
              <div className="field">
                <label htmlFor="refund-user">Take months back from</label>
                <select id="refund-user" value={userId} onChange={(e) => setUserId(e.target.value)}>
                  {monthItems.map((i) => (
                    <option key={i.user?._id} value={i.user?._id ?? ''}>
                      {i.user?.name ?? 'Deleted user'} ({i.months} months)
                    </option>
                  ))}
                </select>
              </div>
            )}
            <Field
              label="Months to take back"
              inputMode="numeric"
              value={monthsText}
              onChange={(e) => setMonthsText(e.target.value.replace(/[^\d]/g, '').slice(0, 2))}
              hint={`0 to ${MAX_MONTHS}: calendar months off the end date; 0 gives money back only.`}
            />
          </>
        ) : (
          <p className="muted">This payment extended no subscription: money only.</p>
        )}
        <ErrorText>{error}</ErrorText>
      </form>
    </Modal>
  );
}

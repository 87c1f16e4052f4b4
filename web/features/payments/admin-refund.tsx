import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mutate } from 'swr';
import { MAX_MONTHS } from '../../../worker/payments/payments.schema';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-payments.json';
import { amd } from '../../lib/format';
import { useRequest } from '../../lib/use-request';
import { HISTORY_KEY, type PaymentDto, recordRefund, SUMMARY_KEY } from './api';

addEnglish(english);

/** Whether Idram took money for a payment that is not all given back yet. */
export const refundable = (p: PaymentDto) => (p.isPaymentConfirmed || p.status === 'Needs refund') && p.priceTotal - p.refunded > 0;

/**
 * Admin payments: record a refund on a paid payment: the amount (at most what is left), the
 * reason, and the months it takes back from whom it extended (a team order: one agent at a time).
 */
export function RefundDialog({ payment, onClose }: { payment: PaymentDto; onClose: () => void }) {
  const { t } = useTranslation();
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
      { success: () => t('refundDialog.recorded'), silent: true },
    );
    if (!res) return;
    await Promise.all([mutate(HISTORY_KEY), mutate(SUMMARY_KEY)]);
    onClose();
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('refundDialog.title', { number: payment.globalIndex })}
      footer={
        <>
          <Button onClick={save} disabled={loading}>
            {t('refundDialog.record')}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            {t('refundDialog.cancel')}
          </Button>
        </>
      }
    >
      <form
        className="form"
        aria-label={t('adminPayments.refund')}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <p className="muted">
          {payment.refunded > 0
            ? t('refundDialog.chargedRefunded', { charged: amd(payment.priceTotal), refunded: amd(payment.refunded), left: amd(left) })
            : t('refundDialog.charged', { charged: amd(payment.priceTotal), left: amd(left) })}{' '}
          {t('refundDialog.how')}
        </p>
        <Field
          label={t('refundDialog.amount')}
          inputMode="numeric"
          value={amountText}
          onChange={(e) => setAmountText(e.target.value.replace(/[^\d]/g, '').slice(0, 10))}
        />
        <Field
          label={t('refundDialog.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={500}
          placeholder={t('refundDialog.reasonExample')}
        />
        {extended ? (
          <>
            {payment.kind === 'team' && (
              <div className="field">
                <label htmlFor="refund-user">{t('refundDialog.fromWhom')}</label>
                <select id="refund-user" value={userId} onChange={(e) => setUserId(e.target.value)}>
                  {monthItems.map((i) => (
                    <option key={i.user?._id} value={i.user?._id ?? ''}>
                      {t('refundDialog.option', { name: i.user?.name ?? t('payHistory.deletedUser'), months: i.months })}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <Field
              label={t('refundDialog.monthsBack')}
              inputMode="numeric"
              value={monthsText}
              onChange={(e) => setMonthsText(e.target.value.replace(/[^\d]/g, '').slice(0, 2))}
              hint={t('refundDialog.monthsHint', { max: MAX_MONTHS })}
            />
          </>
        ) : (
          <p className="muted">{t('refundDialog.moneyOnly')}</p>
        )}
        <ErrorText>{error}</ErrorText>
      </form>
    </Modal>
  );
}

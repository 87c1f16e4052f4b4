import { useTranslation } from 'react-i18next';
import { MAX_MONTHS, PAYMENT_MESSAGES } from '../../../worker/payments/payments.schema';
import { ErrorText } from '../../components/ui/field';
import { WholeNumberStepper } from '../../components/ui/stepper';
import { messageText } from '../../i18n/errors';
import type { PriceInfoDto } from './api';
import { UpcomingPrice } from './upcoming-price';

/** How many months to pay, as Payment and Pay for Team both ask it: the stepper, its price hint and the next price. */
export function MonthsField(props: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  hint: string;
  upcoming: PriceInfoDto['upcoming'];
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={props.id}>{t('payment.months')}</label>
      <WholeNumberStepper
        id={props.id}
        value={props.value}
        onChange={props.onChange}
        min={1}
        max={MAX_MONTHS}
        lessLabel={t('payment.monthLess')}
        moreLabel={t('payment.monthMore')}
      />
      <div className="field-hint">{props.hint}</div>
      <UpcomingPrice upcoming={props.upcoming} />
      {props.children}
    </div>
  );
}

/** Why the months typed cannot be paid: more than the most, or not a whole number of at least one. */
export function MonthsError({ months }: { months: number }) {
  return (
    <ErrorText>
      {months > MAX_MONTHS
        ? messageText(PAYMENT_MESSAGES.maxMonths.text, PAYMENT_MESSAGES.maxMonths.code)
        : messageText(PAYMENT_MESSAGES.months.text, PAYMENT_MESSAGES.months.code)}
    </ErrorText>
  );
}

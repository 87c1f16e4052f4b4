import { DEFAULT_LANGUAGE, type Language } from '../lib/languages';
import { mailText, plural } from '../mail/texts';

/** The payer's language (docs/decisions/0178-no-english-left.md): Idram's page speaks it too (EDP_LANGUAGE). */
interface IdramTexts {
  title: string;
  heading: string;
  /** Beside Idram's name on the page: "Idram payment". */
  payment: string;
  description: string;
  amount: string;
  continue: string;
  /** One person's order: "FreightDesk subscription, 3 months" and, for an agent, " for A. V. A.". */
  subscription: (months: number, forWhom: string) => string;
  /** A team order: for how many agents, and the months each when they are the same. */
  team: (agents: number, monthsEach: number | null) => string;
}

const TEXTS: Record<Language, IdramTexts> = {
  en: {
    title: 'Redirecting to Idram',
    heading: 'Redirecting to Idram…',
    payment: 'payment',
    description: 'Description',
    amount: 'Amount',
    continue: 'Continue to Idram',
    subscription: (months, forWhom) =>
      `FreightDesk subscription, ${plural('en', months, { one: '# month', other: '# months' })}${forWhom ? ` for ${forWhom}` : ''}`,
    team: (agents, each) =>
      `FreightDesk subscription for ${plural('en', agents, { one: '# agent', other: '# agents' })}${each ? `, ${plural('en', each, { one: '# month', other: '# months' })} each` : ', up to your end date'}`,
  },
  ru: {
    title: 'Переход в Idram',
    heading: 'Переходим в Idram…',
    payment: 'оплата',
    description: 'Описание',
    amount: 'Сумма',
    continue: 'Перейти в Idram',
    subscription: (months, forWhom) =>
      `Подписка FreightDesk на ${plural('ru', months, { one: '# месяц', few: '# месяца', many: '# месяцев', other: '# месяца' })}${forWhom ? ` для ${forWhom}` : ''}`,
    team: (agents, each) =>
      `Подписка FreightDesk для ${plural('ru', agents, { one: '# агента', other: '# агентов' })}${
        each
          ? `, каждому на ${plural('ru', each, { one: '# месяц', few: '# месяца', many: '# месяцев', other: '# месяца' })}`
          : ', до даты окончания вашей подписки'
      }`,
  },
  hy: {
    title: 'Անցում Idram-ի էջ',
    heading: 'Անցնում ենք Idram-ի էջ…',
    payment: 'վճարում',
    description: 'Նկարագրություն',
    amount: 'Գումար',
    continue: 'Շարունակել Idram-ում',
    subscription: (months, forWhom) => `FreightDesk բաժանորդագրություն, ${months} ամիս${forWhom ? `, ${forWhom}` : ''}`,
    team: (agents, each) =>
      `FreightDesk բաժանորդագրություն ${agents} գործակալի համար${each ? `, յուրաքանչյուրին ${each} ամիս` : ', մինչև ձեր բաժանորդագրության ավարտը'}`,
  },
};

/** The Idram page's texts in `language` (English for none), with its amounts as the receipts write them. */
export const idramText = (language: Language | null | undefined) => ({
  ...TEXTS[language ?? DEFAULT_LANGUAGE],
  money: mailText(language).receipt.amount,
});

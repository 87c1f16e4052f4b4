import { DEFAULT_LANGUAGE, type Language } from './languages';

/**
 * The mails' texts in each language (docs/decisions/0023-languages.md): typed maps rather than
 * i18next in the Worker, so a missing text is a type error and the Worker carries no catalogue
 * loader. English is the spec's and the fallback; plurals through Intl.PluralRules.
 */
interface MailTexts {
  verifySubject: string;
  verifyIntro: string;
  resetSubject: string;
  resetIntro: string;
  hello: (name: string) => string;
  /** "today", "in 3 days" */
  inDays: (n: number) => string;
  reminderSubject: (when: string) => string;
  reminderBody: (when: string, moment: string) => string;
  reminderRenew: (url: string) => string;
  reminderOff: (url: string) => string;
  /** "22 Jan 2027, 09:00 Yerevan time" */
  moment: (day: string, time: string) => string;
  locale: string;
}

const plural = (locale: string, n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }) =>
  (forms[new Intl.PluralRules(locale).select(n)] ?? forms.other).replace('#', String(n));

const TEXTS: Record<Language, MailTexts> = {
  en: {
    verifySubject: 'Verify your e-mail',
    verifyIntro: 'Please confirm your e-mail address by opening this link:',
    resetSubject: 'Password recovery',
    resetIntro: 'To set a new password, open this link (valid for one hour):',
    hello: (name) => `Hello ${name},`,
    inDays: (n) => (n === 0 ? 'today' : plural('en', n, { one: 'in # day', other: 'in # days' })),
    reminderSubject: (when) => `Your FreightDesk subscription ends ${when}`,
    reminderBody: (when, moment) =>
      `Your FreightDesk subscription ends ${when}, on ${moment}. After that only the Profile and Payment screens open until it is renewed.`,
    reminderRenew: (url) => `Renew it on the Payment screen: ${url}`,
    reminderOff: (url) => `You can turn these reminders off on your Profile: ${url}`,
    moment: (day, time) => `${day}, ${time} Yerevan time`,
    locale: 'en-GB',
  },
  ru: {
    verifySubject: 'Подтвердите адрес электронной почты',
    verifyIntro: 'Чтобы подтвердить адрес электронной почты, откройте эту ссылку:',
    resetSubject: 'Восстановление пароля',
    resetIntro: 'Чтобы задать новый пароль, откройте эту ссылку (она действует один час):',
    hello: (name) => `Здравствуйте, ${name}!`,
    inDays: (n) => (n === 0 ? 'сегодня' : plural('ru', n, { one: 'через # день', few: 'через # дня', many: 'через # дней', other: 'через # дня' })),
    reminderSubject: (when) => `Ваша подписка FreightDesk заканчивается ${when}`,
    reminderBody: (when, moment) =>
      `Ваша подписка FreightDesk заканчивается ${when}, ${moment}. После этого, пока вы её не продлите, будут открываться только «Профиль» и «Оплата».`,
    reminderRenew: (url) => `Продлить подписку можно на странице «Оплата»: ${url}`,
    reminderOff: (url) => `Отключить эти напоминания можно в профиле: ${url}`,
    moment: (day, time) => `${day}, ${time} по ереванскому времени`,
    locale: 'ru-RU',
  },
  hy: {
    verifySubject: 'Հաստատեք ձեր էլ. հասցեն',
    verifyIntro: 'Էլ. հասցեն հաստատելու համար բացեք այս հղումը՝',
    resetSubject: 'Գաղտնաբառի վերականգնում',
    resetIntro: 'Նոր գաղտնաբառ սահմանելու համար բացեք այս հղումը (գործում է մեկ ժամ)՝',
    hello: (name) => `Բարև ձեզ, ${name},`,
    inDays: (n) => (n === 0 ? 'այսօր' : `${n} օրից`),
    reminderSubject: (when) => `Ձեր FreightDesk բաժանորդագրությունն ավարտվում է ${when}`,
    reminderBody: (when, moment) =>
      `Ձեր FreightDesk բաժանորդագրությունն ավարտվում է ${when}՝ ${moment}։ Դրանից հետո, մինչև այն երկարաձգեք, կբացվեն միայն «Պրոֆիլ» և «Վճարում» էջերը։`,
    reminderRenew: (url) => `Երկարաձգել կարող եք «Վճարում» էջում՝ ${url}`,
    reminderOff: (url) => `Այս հիշեցումները կարող եք անջատել ձեր պրոֆիլում՝ ${url}`,
    moment: (day, time) => `${day}, ${time} (Երևանի ժամանակով)`,
    locale: 'hy-AM',
  },
};

/** The mail texts of a recipient's language (English for none). */
export const mailText = (language: Language | null | undefined): MailTexts => TEXTS[language ?? DEFAULT_LANGUAGE];

/** A moment as a mail in `language` writes it, on Yerevan's calendar and clock. */
export function mailMomentIn(language: Language | null | undefined, date: Date) {
  const text = mailText(language);
  const day = date.toLocaleDateString(text.locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Yerevan' });
  const time = date.toLocaleTimeString(text.locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Yerevan' });
  return text.moment(day, time);
}

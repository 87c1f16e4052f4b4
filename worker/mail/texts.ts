import { DEFAULT_LANGUAGE, type Language } from '../lib/languages';
import { VETTING_LABELS, type VettingState } from '../vetting/vetting.states';

/** Typed maps rather than i18next in the Worker: a missing text is a type error, and no catalogue loader ships. */
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
  /** A day of `locale` where the runtime has no date data for it (workerd has no Armenian): as Intl writes it where it has. */
  dayByHand: (day: number, month: number, year: number) => string;

  receipt: {
    subject: (orderNumber: number) => string;
    orderNumber: (orderNumber: number) => string;
    paidForYou: (payer: string) => string;
    thanks: string;
    order: string;
    paidOn: string;
    paidBy: string;
    transaction: string;
    noTransaction: string;
    deletedUser: string;
    months: (n: number) => string;
    days: (n: number) => string;
    /** Joins "2 months" and "3 days". */
    and: string;
    endsOn: (day: string | null) => string;
    subtotal: string;
    promo: (name: string, percent: number) => string;
    totalPaid: string;
    view: string;
    /** An amount in drams: "5,000 AMD" (English as the spec writes it), "5 000 драм", "5 000 դր.". */
    amount: (n: number) => string;
  };
  digest: {
    subject: (agents: number) => string;
    intro: (agents: number) => string;
    row: (name: string, email: string, when: string, moment: string) => string;
    payForTeam: string;
  };
  vetting: {
    labels: Record<VettingState, string>;
    aBroker: string;
    subject: (broker: string, label: string) => string;
    changed: (who: string, from: string, to: string, day: string) => string;
    why: string;
    filters: (url: string) => string;
  };
  emailChanged: {
    subject: string;
    changed: (by: 'self' | 'staff', oldEmail: string, newEmail: string) => string;
    warning: string;
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** Whether the runtime has date and number data for `locale`: workerd, like Chromium, has none for Armenian. */
const hasData = (locale: string) => Intl.DateTimeFormat.supportedLocalesOf(locale).length > 0;

/** CLDR's Armenian short month names: "22 հնվ, 2027 թ." is what Intl writes where it has the data. */
const ARMENIAN_MONTHS = ['հնվ', 'փտվ', 'մրտ', 'ապր', 'մյս', 'հնս', 'հլս', 'օգս', 'սեպ', 'հոկ', 'նոյ', 'դեկ'] as const;

/** `forms` picked by Intl's plural rules of `locale` (Russian one, few, many), '#' replaced by `n`. */
export const plural = (locale: string, n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }) =>
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
    dayByHand: (day, month, year) => `${two(day)}/${two(month)}/${year}`,
    receipt: {
      subject: (n) => `Receipt for your FreightDesk order #${n}`,
      orderNumber: (n) => `#${n}`,
      paidForYou: (payer) => `${payer} paid for your FreightDesk subscription.`,
      thanks: 'Thank you for your payment.',
      order: 'Order',
      paidOn: 'Paid on',
      paidBy: 'Paid by',
      transaction: 'Idram transaction',
      noTransaction: 'none: the promo code paid the whole order',
      deletedUser: 'a deleted user',
      months: (n) => plural('en', n, { one: '# month', other: '# months' }),
      days: (n) => plural('en', n, { one: '# day', other: '# days' }),
      and: ' and ',
      endsOn: (day) => `subscription now ends ${day ?? 'on no date'}`,
      subtotal: 'Subtotal',
      promo: (name, percent) => `Promo code ${name} (${percent}% off)`,
      totalPaid: 'Total paid',
      view: 'View or print this receipt',
      amount: (n) => `${n.toLocaleString('en-US')} AMD`,
    },
    digest: {
      subject: (n) => (n === 1 ? "An agent's FreightDesk subscription ends soon" : `${n} of your agents' FreightDesk subscriptions end soon`),
      intro: (n) => `${n === 1 ? 'The subscription of one of your agents ends' : `The subscriptions of ${n} of your agents end`} soon:`,
      row: (name, email, when, moment) => `${name} (${email}): ends ${when}, on ${moment}`,
      payForTeam: 'Pay for several agents in one order on Pay for Team',
    },
    vetting: {
      // the chips' own words
      labels: VETTING_LABELS,
      aBroker: 'A broker',
      subject: (broker, label) => `FMCSA status changed: ${broker} — ${label}`,
      changed: (who, from, to, day) => `FMCSA's record of ${who} changed: it was "${from}" and is now "${to}" (checked ${day}).`,
      why: 'Your team has a filter for this broker or contacted it in the last 30 days. FreightDesk only informs: nothing is blocked.',
      filters: (url) => `Your filters: ${url}`,
    },
    emailChanged: {
      subject: 'Your FreightDesk e-mail address was changed',
      changed: (by, oldEmail, newEmail) =>
        `The e-mail address of your FreightDesk account was changed ${by === 'self' ? 'from your account' : 'by your administrator or team manager'} from ${oldEmail} to ${newEmail}. ` +
        'Password-reset links sent to this address no longer work, and every signed-in device has been signed out.',
      warning: 'If you did not ask for this, contact your administrator or reply to this e-mail at once: someone else may have access to your account.',
    },
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
    dayByHand: (day, month, year) => `${two(day)}.${two(month)}.${year}`,
    receipt: {
      subject: (n) => `Чек по вашему заказу FreightDesk № ${n}`,
      orderNumber: (n) => `№ ${n}`,
      paidForYou: (payer) => `Вашу подписку FreightDesk оплатил(а) ${payer}.`,
      thanks: 'Спасибо за оплату.',
      order: 'Заказ',
      paidOn: 'Дата оплаты',
      paidBy: 'Плательщик',
      transaction: 'Транзакция Idram',
      noTransaction: 'нет: весь заказ оплачен промокодом',
      deletedUser: 'удалённый пользователь',
      months: (n) => plural('ru', n, { one: '# месяц', few: '# месяца', many: '# месяцев', other: '# месяца' }),
      days: (n) => plural('ru', n, { one: '# день', few: '# дня', many: '# дней', other: '# дня' }),
      and: ' и ',
      endsOn: (day) => (day ? `подписка теперь действует до ${day}` : 'дата окончания подписки не указана'),
      subtotal: 'Сумма без скидки',
      promo: (name, percent) => `Промокод ${name} (скидка ${percent}%)`,
      totalPaid: 'Итого оплачено',
      view: 'Открыть или распечатать чек',
      amount: (n) => `${n.toLocaleString('ru-RU')} драм`,
    },
    digest: {
      subject: (n) =>
        n === 1
          ? 'Скоро закончится подписка FreightDesk у одного из ваших агентов'
          : plural('ru', n, {
              one: 'Скоро закончатся подписки FreightDesk у # вашего агента',
              other: 'Скоро закончатся подписки FreightDesk у # ваших агентов',
            }),
      intro: (n) =>
        n === 1
          ? 'Скоро закончится подписка одного из ваших агентов:'
          : plural('ru', n, { one: 'Скоро закончатся подписки # вашего агента:', other: 'Скоро закончатся подписки # ваших агентов:' }),
      row: (name, email, when, moment) => `${name} (${email}): заканчивается ${when}, ${moment}`,
      payForTeam: 'Оплатить подписки нескольких агентов одним заказом можно на вкладке «За команду» страницы «Оплата»',
    },
    vetting: {
      labels: {
        active: 'Полномочия действуют · залог есть',
        inactive: 'Полномочия брокера недействительны',
        no_bond: 'Нет залога (bond)',
        not_found: 'Не найден в FMCSA',
      },
      aBroker: 'Брокер',
      subject: (broker, label) => `Статус в FMCSA изменился: ${broker} — ${label}`,
      changed: (who, from, to, day) => `Запись FMCSA о брокере ${who} изменилась: было «${from}», стало «${to}» (проверено ${day}).`,
      why: 'У вашей команды есть фильтр для этого брокера, или она связывалась с ним за последние 30 дней. FreightDesk только сообщает: ничего не блокируется.',
      filters: (url) => `Ваши фильтры: ${url}`,
    },
    emailChanged: {
      subject: 'Адрес электронной почты в FreightDesk изменён',
      changed: (by, oldEmail, newEmail) =>
        `${by === 'self' ? 'Из вашей учётной записи FreightDesk изменён адрес электронной почты' : 'Администратор или руководитель вашей команды изменил адрес электронной почты вашей учётной записи FreightDesk'}: с ${oldEmail} на ${newEmail}. ` +
        'Ссылки для сброса пароля, отправленные на этот адрес, больше не действуют, а на всех устройствах выполнен выход из учётной записи.',
      warning:
        'Если вы этого не делали, немедленно свяжитесь с администратором или ответьте на это письмо: возможно, кто-то другой получил доступ к вашей учётной записи.',
    },
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
    dayByHand: (day, month, year) => `${day} ${ARMENIAN_MONTHS[month - 1]}, ${year} թ.`,
    receipt: {
      subject: (n) => `Ձեր FreightDesk պատվերի անդորրագիրը՝ № ${n}`,
      orderNumber: (n) => `№ ${n}`,
      paidForYou: (payer) => `Ձեր FreightDesk բաժանորդագրության համար վճարել է ${payer}։`,
      thanks: 'Շնորհակալություն վճարման համար։',
      order: 'Պատվեր',
      paidOn: 'Վճարման ամսաթիվ',
      paidBy: 'Վճարող',
      transaction: 'Idram գործարք',
      noTransaction: 'չկա. ամբողջ պատվերը վճարվել է պրոմոկոդով',
      deletedUser: 'ջնջված օգտատեր',
      months: (n) => `${n} ամիս`,
      days: (n) => `${n} օր`,
      and: ' և ',
      endsOn: (day) => (day ? `բաժանորդագրությունն այժմ գործում է մինչև ${day}` : 'բաժանորդագրության ավարտի ամսաթիվ չկա'),
      subtotal: 'Գումարը առանց զեղչի',
      promo: (name, percent) => `Պրոմոկոդ ${name} (${percent}% զեղչ)`,
      totalPaid: 'Ընդամենը վճարվել է',
      view: 'Դիտել կամ տպել անդորրագիրը',
      // grouped as the screens group it where the runtime has no Armenian data ("5 000 դր.", web/lib/format.ts)
      amount: (n) => `${n.toLocaleString(hasData('hy-AM') ? 'hy-AM' : 'ru-RU')} դր.`,
    },
    digest: {
      subject: (n) =>
        n === 1
          ? 'Ձեր գործակալներից մեկի FreightDesk բաժանորդագրությունը շուտով ավարտվում է'
          : `Ձեր գործակալներից ${n}-ի FreightDesk բաժանորդագրությունները շուտով ավարտվում են`,
      intro: (n) =>
        n === 1 ? 'Ձեր գործակալներից մեկի բաժանորդագրությունը շուտով ավարտվում է՝' : `Ձեր գործակալներից ${n}-ի բաժանորդագրությունները շուտով ավարտվում են՝`,
      row: (name, email, when, moment) => `${name} (${email})՝ ավարտվում է ${when}, ${moment}`,
      payForTeam: 'Մի քանի գործակալի համար մեկ պատվերով կարող եք վճարել «Վճարում» էջի «Թիմի համար» ներդիրում',
    },
    vetting: {
      labels: {
        active: 'Լիազորությունը գործում է · երաշխիքն առկա է',
        inactive: 'Բրոքերի լիազորությունը չի գործում',
        no_bond: 'Երաշխիք (bond) չկա',
        not_found: 'FMCSA-ում չի գտնվել',
      },
      aBroker: 'Բրոքեր',
      subject: (broker, label) => `FMCSA կարգավիճակը փոխվել է՝ ${broker} — ${label}`,
      changed: (who, from, to, day) => `FMCSA-ում փոխվել է բրոքերի գրառումը՝ ${who}։ Նախկինում՝ «${from}», այժմ՝ «${to}» (ստուգվել է ${day})։`,
      why: 'Ձեր թիմն ունի այս բրոքերի ֆիլտր կամ վերջին 30 օրում կապվել է նրա հետ։ FreightDesk-ը միայն տեղեկացնում է. ոչինչ չի արգելափակվում։',
      filters: (url) => `Ձեր ֆիլտրերը՝ ${url}`,
    },
    emailChanged: {
      subject: 'Ձեր FreightDesk էլ. հասցեն փոխվել է',
      changed: (by, oldEmail, newEmail) =>
        `${by === 'self' ? 'Ձեր FreightDesk հաշվից փոխվել է հաշվի էլ. հասցեն' : 'Ձեր ադմինիստրատորը կամ թիմի մենեջերը փոխել է ձեր FreightDesk հաշվի էլ. հասցեն'}։ Նախկին հասցեն՝ ${oldEmail}, նորը՝ ${newEmail}։ ` +
        'Այս հասցեին ուղարկված գաղտնաբառի վերականգնման հղումներն այլևս չեն գործում, և բոլոր սարքերում հաշվից դուրս եք եկել։',
      warning: 'Եթե դա դուք չեք խնդրել, անմիջապես կապվեք ձեր ադմինիստրատորի հետ կամ պատասխանեք այս նամակին. հնարավոր է, որ ուրիշ մեկը մուտք ունի ձեր հաշիվ։',
    },
  },
};

export const mailText = (language: Language | null | undefined): MailTexts => TEXTS[language ?? DEFAULT_LANGUAGE];

const yerevanDay = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'Asia/Yerevan' });

/** By hand where the runtime has no data: never English month names in an Armenian mail (docs/decisions/0178-no-english-left.md). */
export function mailDayIn(language: Language | null | undefined, date: Date) {
  const text = mailText(language);
  if (hasData(text.locale)) return date.toLocaleDateString(text.locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Yerevan' });
  const part = (type: string) => Number(yerevanDay.formatToParts(date).find((p) => p.type === type)?.value);
  return text.dayByHand(part('day'), part('month'), part('year'));
}

export function mailMomentIn(language: Language | null | undefined, date: Date) {
  const text = mailText(language);
  const day = mailDayIn(language, date);
  const time = date.toLocaleTimeString(hasData(text.locale) ? text.locale : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Asia/Yerevan',
  });
  return text.moment(day, time);
}

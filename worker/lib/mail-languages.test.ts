import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../db/schema';
import { runReminders } from '../subscriptions/reminders';
import { addFilter, filterSave, teamWithMcs } from '../test/filters';
import { call, createTeam, createUser, everyDb, getUser, homeOfUser, PASSWORD, type TestUser, testEnv } from '../test/helpers';
import { mailsTo, order, PRICE, pay, paymentRow } from '../test/idram';
import { checkBroker } from '../vetting/vetting.service';
import type { Language } from './languages';

/**
 * The receipt, digest, vetting and e-mail-changed mails go out in the recipient's stored language
 * (docs/decisions/0023-languages.md), read from the development outbox as the recipient gets them.
 */
const DAY = 86_400_000;
/** The user's own shard (docs/decisions/0174-company-shards.md). */
const dbOf = async (who: { id: string }) => (await homeOfUser(who.id)).db;
const speak = async (who: { id: string }, language: Language) => (await dbOf(who)).update(users).set({ language }).where(eq(users.id, who.id));
const CONTROL = (testEnv as unknown as { FMCSA_STAND_IN_CONTROL: string }).FMCSA_STAND_IN_CONTROL;
const fast = { ...testEnv, FMCSA_CALLS_PER_SECOND: '50' };
const putBroker = async (dot: string, body: Record<string, string>) =>
  expect((await fetch(`${CONTROL}/carriers/${dot}`, { method: 'PUT', body: JSON.stringify(body) })).status).toBe(200);

describe('mails in the recipient language', () => {
  it("a receipt in each recipient's language: the Armenian payer's whole order, the Russian agent's own line", async () => {
    const team = await createTeam();
    const [agent] = team.agents;
    await speak(team.manager, 'hy');
    await speak(agent, 'ru');
    const id = await order(team.manager, { amount: 2, userToBePaidId: agent.id });
    const conf = await pay(id);
    const n = (await paymentRow(id)).globalIndex;
    const amount = 2 * PRICE;

    const hyMails = (await mailsTo(team.manager.email)).filter((m) => m.subject.includes(`№ ${n}`));
    expect(hyMails).toHaveLength(1);
    const [hy] = hyMails;
    expect(hy!.subject).toBe(`Ձեր FreightDesk պատվերի անդորրագիրը՝ № ${n}`);
    expect(hy!.text).toContain(`Բարև ձեզ, ${team.manager.name},`);
    expect(hy!.text).toContain('Շնորհակալություն վճարման համար։');
    expect(hy!.text).toContain(`Պատվեր: № ${n}`);
    expect(hy!.text).toContain(`Idram գործարք: ${conf.EDP_TRANS_ID}`);
    expect(hy!.text).toContain(`${agent.name} (${agent.email}), 2 ամիս, ${amount.toLocaleString('ru-RU')} դր., բաժանորդագրությունն այժմ գործում է մինչև`);
    expect(hy!.text).toContain(`Ընդամենը վճարվել է: ${amount.toLocaleString('ru-RU')} դր.`);
    expect(hy!.html).toContain('Դիտել կամ տպել անդորրագիրը</a>');
    expect(hy!.text).not.toMatch(/Receipt|Order|Total paid|AMD/);

    const [ru] = (await mailsTo(agent.email)).filter((m) => m.subject.includes(`№ ${n}`));
    expect(ru!.subject).toBe(`Чек по вашему заказу FreightDesk № ${n}`);
    expect(ru!.text).toContain(`Здравствуйте, ${agent.name}!`);
    expect(ru!.text).toContain(`Вашу подписку FreightDesk оплатил(а) ${team.manager.name}.`);
    expect(ru!.text).toContain(`${agent.name} (${agent.email}), 2 месяца, ${amount.toLocaleString('ru-RU')} драм, подписка теперь действует до`);
    // the agent sees what was bought for it, not the order's total
    expect(ru!.text).not.toContain('Итого оплачено');
    expect(ru!.text).toContain(`Открыть или распечатать чек: ${testEnv.PUBLIC_URL.replace(/\/$/, '')}/payment/receipt/${id}`);
  });

  it('Armenian mails carry Armenian dates though the runtime has no Armenian data, Russian mails Russian ones: the reminder and the receipt', async () => {
    // workerd, like Chromium, has no Armenian: Intl would write "Jan 22, 2027"
    expect(Intl.DateTimeFormat.supportedLocalesOf('hy-AM')).toEqual([]);
    const ARMENIAN = ['հնվ', 'փտվ', 'մրտ', 'ապր', 'մյս', 'հնս', 'հլս', 'օգս', 'սեպ', 'հոկ', 'նոյ', 'դեկ'];
    const ENGLISH_MONTH = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b/;
    const yerevan = (date: Date) => {
      const parts = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'Asia/Yerevan' }).formatToParts(date);
      const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
      return { day: part('day'), month: part('month'), year: part('year') };
    };
    const armenianDay = (date: Date) => {
      const { day, month, year } = yerevan(date);
      return `${day} ${ARMENIAN[month - 1]}, ${year} թ.`;
    };
    const russianDay = (date: Date) => date.toLocaleDateString('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Yerevan' });

    const hyManager = await createUser('manager', { subscriptionDays: 3.5 });
    await speak(hyManager, 'hy');
    const ruManager = await createUser('manager', { subscriptionDays: 3.5 });
    await speak(ruManager, 'ru');
    await runReminders(testEnv);
    const endOf = async (who: { id: string }) => (await getUser(who.id))!.subscriptionEndDate!;
    const [hyReminder] = (await mailsTo(hyManager.email)).filter((m) => m.subject.includes('բաժանորդագրությունն'));
    expect(hyReminder!.text).toContain(`${armenianDay(await endOf(hyManager))}, `);
    expect(hyReminder!.text).toMatch(/\d\d:\d\d \(Երևանի ժամանակով\)/);
    expect(hyReminder!.text).not.toMatch(ENGLISH_MONTH);
    const [ruReminder] = (await mailsTo(ruManager.email)).filter((m) => m.subject.includes('подписка'));
    expect(russianDay(await endOf(ruManager))).toMatch(/^\d+ [а-я]+\.? \d{4} г\.$/);
    expect(ruReminder!.text).toContain(`${russianDay(await endOf(ruManager))}, `);
    expect(ruReminder!.text).not.toMatch(ENGLISH_MONTH);

    // the receipt: the day paid and the new end
    const id = await order(hyManager, { amount: 1 });
    await pay(id);
    const n = (await paymentRow(id)).globalIndex;
    const [receipt] = (await mailsTo(hyManager.email)).filter((m) => m.subject.includes(`№ ${n}`));
    expect(receipt!.text).toContain(`բաժանորդագրությունն այժմ գործում է մինչև ${armenianDay(await endOf(hyManager))}`);
    expect(receipt!.text).toContain(armenianDay(new Date()));
    expect(receipt!.text).not.toMatch(ENGLISH_MONTH);
    // the amount grouped as on the Armenian screens, not "5,000"
    expect(receipt!.text).toContain(`${PRICE.toLocaleString('ru-RU')} դր.`);
  });

  it("a manager's digest in the manager's language, the days counted by its plural rules", async () => {
    const end = (days: number) => new Date(Date.now() + days * DAY - 3_600_000);
    const hyManager = await createUser('manager', { subscriptionDays: 60 });
    await speak(hyManager, 'hy');
    const ruManager = await createUser('manager', { subscriptionDays: 60 });
    await speak(ruManager, 'ru');
    const hyAgents = [
      await createUser('agent', { parentId: hyManager.id, name: 'Anahit' }),
      await createUser('agent', { parentId: hyManager.id, name: 'Aram' }),
    ];
    const ruAgent = await createUser('agent', { parentId: ruManager.id, name: 'Ruzanna' });
    for (const a of hyAgents)
      await (await dbOf(a))
        .update(users)
        .set({ subscriptionEndDate: end(3) })
        .where(eq(users.id, a.id));
    await (await dbOf(ruAgent))
      .update(users)
      .set({ subscriptionEndDate: end(5) })
      .where(eq(users.id, ruAgent.id));
    await runReminders(testEnv);

    const [hy] = (await mailsTo(hyManager.email)).filter((m) => m.subject.includes('գործակալներից'));
    expect(hy!.subject).toBe('Ձեր գործակալներից 2-ի FreightDesk բաժանորդագրությունները շուտով ավարտվում են');
    expect(hy!.text).toContain('Ձեր գործակալներից 2-ի բաժանորդագրությունները շուտով ավարտվում են՝');
    expect(hy!.text).toMatch(new RegExp(`- Anahit \\(${hyAgents[0]!.email}\\)՝ ավարտվում է [23] օրից, .+ \\(Երևանի ժամանակով\\)`));
    expect(hy!.text).toContain('«Թիմի համար»');

    const [ru] = (await mailsTo(ruManager.email)).filter((m) => m.subject.includes('агент'));
    expect(ru!.subject).toBe('Скоро закончится подписка FreightDesk у одного из ваших агентов');
    expect(ru!.text).toMatch(new RegExp(`- Ruzanna \\(${ruAgent.email}\\): заканчивается через [45] (дня|дней), .+ по ереванскому времени`));
    expect(ru!.html).toContain('«За команду»');
    expect(ru!.text).not.toMatch(/Hello|ends|Pay for Team/);
  });

  it("a broker's FMCSA change is mailed to each watching manager in that manager's language", async () => {
    const dot = String(3_900_000 + Math.floor(Math.random() * 90_000));
    const name = `LANG BROKER ${dot} LLC`;
    await putBroker(dot, {
      legalName: name,
      mcNumber: String(900_000 + Math.floor(Math.random() * 90_000)),
      brokerAuthorityStatus: 'A',
      bondInsuranceOnFile: '75',
    });
    const teams = [await teamWithMcs(), await teamWithMcs()] as const;
    await speak(teams[0].manager, 'ru');
    await speak(teams[1].manager, 'hy');
    for (const t of teams) await addFilter(t.manager, filterSave(t, { name: `Lang ${dot}`, usersList: [t.agents[0].id], dotNumber: dot }));
    const key = `dot:${dot}`;
    // each shard checks the records of its own teams' brokers (docs/decisions/0176-one-vetting-record-per-broker.md)
    const shards = [...new Map(await Promise.all(teams.map(async (t) => [(await homeOfUser(t.manager.id)).shard, await dbOf(t.manager)] as const))).values()];
    for (const shardDb of shards) expect(await checkBroker(fast, shardDb, key)).toBe('checked');
    await putBroker(dot, { brokerAuthorityStatus: 'I' });
    for (const shardDb of shards) expect(await checkBroker(fast, shardDb, key)).toBe('changed');
    const sent = (await Promise.all(everyDb().map(({ db }) => db.select().from(mailOutbox)))).flat().filter((m) => m.subject.includes(name));
    expect(sent).toHaveLength(2);

    const ru = sent.find((m) => m.to === teams[0].manager.email)!;
    expect(ru.subject).toBe(`Статус в FMCSA изменился: ${name} — Полномочия брокера недействительны`);
    expect(ru.text).toContain(`Запись FMCSA о брокере ${name}, USDOT ${dot}`);
    expect(ru.text).toContain('было «Полномочия действуют · залог есть», стало «Полномочия брокера недействительны»');
    expect(ru.text).toContain('FreightDesk только сообщает: ничего не блокируется.');
    const hy = sent.find((m) => m.to === teams[1].manager.email)!;
    expect(hy.subject).toBe(`FMCSA կարգավիճակը փոխվել է՝ ${name} — Բրոքերի լիազորությունը չի գործում`);
    expect(hy.text).toContain('Նախկինում՝ «Լիազորությունը գործում է · երաշխիքն առկա է», այժմ՝ «Բրոքերի լիազորությունը չի գործում»');
    expect(hy.html).toContain('Ձեր ֆիլտրերը՝ <a href=');
  }, 60_000);

  it("the e-mail-changed notice goes to the old address in the user's language, saying who changed it", async () => {
    const hyUser = await createUser('manager');
    await speak(hyUser, 'hy');
    const hyNew = `hy-new-${Date.now()}@test.example`;
    const own = await call('PUT', `/api/user/update/email/${hyUser.id}`, { token: hyUser.token, body: { newEmail: hyNew, currentPassword: PASSWORD } });
    expect(own.status, own.text).toBe(200);
    const [hy] = await mailsTo(hyUser.email);
    expect(hy!.subject).toBe('Ձեր FreightDesk էլ. հասցեն փոխվել է');
    expect(hy!.text).toContain('Ձեր FreightDesk հաշվից փոխվել է հաշվի էլ. հասցեն');
    expect(hy!.text).toContain(`Նախկին հասցեն՝ ${hyUser.email}, նորը՝ ${hyNew}`);

    const admin = await createUser('admin');
    const ruUser: TestUser = await createUser('agent');
    await speak(ruUser, 'ru');
    const ruNew = `ru-new-${Date.now()}@test.example`;
    expect((await call('PUT', `/api/user/update/email/${ruUser.id}`, { token: admin.token, body: { newEmail: ruNew } })).status).toBe(200);
    const [ru] = await mailsTo(ruUser.email);
    expect(ru!.subject).toBe('Адрес электронной почты в FreightDesk изменён');
    expect(ru!.text).toContain(
      `Администратор или руководитель вашей команды изменил адрес электронной почты вашей учётной записи FreightDesk: с ${ruUser.email} на ${ruNew}.`,
    );
    expect(ru!.text).toContain('Если вы этого не делали, немедленно свяжитесь с администратором');
    expect(ru!.html).not.toContain('Hello');
  });
});

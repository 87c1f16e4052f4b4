import { eq, sql } from 'drizzle-orm';
import { paymentReceipts, payments, promoCodes, promoUses } from '../db/schema';
import type { Bindings, Caller, Db } from '../env';
import { runBatch } from '../lib/db';
import { apiError } from '../lib/errors';
import type { Language } from '../lib/languages';
import { enqueueMails, escapeHtml, type Mail, mailStatements } from '../mail/mailer';
import { mailDayIn, mailText } from '../mail/texts';
import { peopleByIds } from '../users/people';
import { itemsOf } from './items';
import { PAYMENT_MESSAGES, type PaymentPerson, type ReceiptDto, type ReceiptLineDto } from './payments.schema';
import { refundsByPayment } from './refunds';

type PaymentRow = typeof payments.$inferSelect;

interface Receipt extends Omit<ReceiptDto, 'isPartial'> {
  payerUserId: string;
}

/** What a payment bought, one line per payee: a single order is one line (its payee, its months); a team order, its items. */
async function linesOf(db: Db, order: PaymentRow): Promise<{ userId: string; months: number; days: number; price: number; newEndDate: Date | null }[]> {
  if (order.kind === 'team') return itemsOf(db, order.id);
  return [{ userId: order.userId, months: order.amount, days: 0, price: order.monthlyPrice * order.amount, newEndDate: order.newEndDate }];
}

/** The payer and payees, from their shards (`local`: the caller's, read first). */
async function peopleOf(env: Bindings, control: Db, ids: string[], local?: Db) {
  const people = new Map<string, PaymentPerson & { deleted: boolean; language: Language }>();
  for (const u of (await peopleByIds(env, control, ids, local)).values())
    people.set(u.id, { _id: u.id, name: u.name, email: u.email, deleted: u.deletedAt !== null, language: u.language });
  return people;
}

const person = (p: (PaymentPerson & { deleted: boolean }) | undefined): PaymentPerson | null => (p ? { _id: p._id, name: p.name, email: p.email } : null);

/** The whole receipt of a confirmed payment, or null when the payment is unknown or not confirmed. */
async function loadReceipt(
  env: Bindings,
  db: Db,
  orderId: string,
  local?: Db,
): Promise<{ receipt: Receipt; people: Awaited<ReturnType<typeof peopleOf>> } | null> {
  const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
  if (!order?.isPaymentConfirmed) return null;
  const lines = await linesOf(db, order);
  const [promo] = order.promoUseId
    ? await db
        .select({ name: promoCodes.name, percent: promoCodes.effectValue })
        .from(promoUses)
        .innerJoin(promoCodes, eq(promoCodes.id, promoUses.promoId))
        .where(eq(promoUses.id, order.promoUseId))
        .limit(1)
    : [];
  const [people, refunds] = await Promise.all([peopleOf(env, db, [order.payerUserId, ...lines.map((l) => l.userId)], local), refundsByPayment(db, [order.id])]);
  const subtotal = lines.reduce((sum, l) => sum + l.price, 0);
  return {
    people,
    receipt: {
      _id: order.id,
      orderNumber: order.globalIndex,
      dateCreated: order.dateCreated.toISOString(),
      confirmedAt: (order.confirmedAt ?? order.dateCreated).toISOString(),
      payer: person(people.get(order.payerUserId)),
      payerUserId: order.payerUserId,
      lines: lines.map(
        (l): ReceiptLineDto => ({
          user: person(people.get(l.userId)),
          months: l.months,
          days: l.days,
          price: l.price,
          newEndDate: l.newEndDate?.toISOString() ?? null,
        }),
      ),
      monthlyPrice: order.monthlyPrice,
      subtotal,
      promo: promo ? { name: promo.name, percent: promo.percent } : null,
      discount: subtotal - order.priceTotal,
      total: order.priceTotal,
      transactionId: order.transId,
      refunds: (refunds.get(order.id) ?? []).map((r) => ({
        _id: r.id,
        amount: r.amount,
        reason: r.reason,
        monthsRemoved: r.monthsRemoved,
        user: r.userId ? person(people.get(r.userId)) : null,
        date: r.createdAt.toISOString(),
      })),
    },
  };
}

/** A payee who did not pay sees its own lines, not the order's total, promo or the other agents. */
function viewFor(receipt: Receipt, viewerId: string, isAdmin: boolean): ReceiptDto {
  const { payerUserId, ...dto } = receipt;
  if (isAdmin || viewerId === payerUserId) return { ...dto, isPartial: false };
  return {
    ...dto,
    lines: dto.lines.filter((l) => l.user?._id === viewerId),
    subtotal: 0,
    promo: null,
    discount: 0,
    total: 0,
    isPartial: true,
    // the months taken back from the viewer; the money went back to the payer
    refunds: dto.refunds.filter((r) => r.user?._id === viewerId).map((r) => ({ ...r, amount: 0 })),
  };
}

export async function receiptFor(env: Bindings, control: Db, db: Db, caller: Caller, orderId: string): Promise<ReceiptDto> {
  const isAdmin = caller.userType === 'admin';
  const loaded = await loadReceipt(env, control, orderId, isAdmin ? undefined : db);
  const receipt = loaded?.receipt;
  if (!receipt || !(isAdmin || receipt.payerUserId === caller.id || receipt.lines.some((l) => l.user?._id === caller.id)))
    throw apiError(PAYMENT_MESSAGES.receiptNotFound);
  return viewFor(receipt, caller.id, isAdmin);
}

export function receiptMail(env: Bindings, view: ReceiptDto, to: PaymentPerson & { language?: Language }): Mail {
  const texts = mailText(to.language);
  const r = texts.receipt;
  const day = (date: Date) => mailDayIn(to.language, date);
  const url = `${env.PUBLIC_URL.replace(/\/$/, '')}/payment/receipt/${view._id}`;
  const paidByOther = view.payer && view.payer._id !== to._id;
  const intro = paidByOther ? r.paidForYou(view.payer!.name) : r.thanks;
  const facts: [string, string][] = [
    [r.order, r.orderNumber(view.orderNumber)],
    [r.paidOn, day(new Date(view.confirmedAt ?? view.dateCreated))],
    [r.paidBy, view.payer ? `${view.payer.name} (${view.payer.email})` : r.deletedUser],
    [r.transaction, view.transactionId ?? r.noTransaction],
  ];
  const bought = (l: ReceiptLineDto) => [l.months ? r.months(l.months) : '', l.days ? r.days(l.days) : ''].filter(Boolean).join(r.and);
  const lineText = (l: ReceiptLineDto) =>
    [l.user ? `${l.user.name} (${l.user.email})` : r.deletedUser, bought(l), r.amount(l.price), r.endsOn(l.newEndDate ? day(new Date(l.newEndDate)) : null)]
      .filter(Boolean)
      .join(', ');
  const money: [string, string][] = view.isPartial
    ? []
    : [
        ...(view.discount || view.promo
          ? ([
              [r.subtotal, r.amount(view.subtotal)],
              [r.promo(view.promo?.name ?? '', view.promo?.percent ?? 0), `-${r.amount(view.discount)}`],
            ] as [string, string][])
          : []),
        [r.totalPaid, r.amount(view.total)],
      ];
  const text = [
    texts.hello(to.name),
    intro,
    facts.map(([k, v]) => `${k}: ${v}`).join('\n'),
    view.lines.map((l) => `- ${lineText(l)}`).join('\n'),
    money.map(([k, v]) => `${k}: ${v}`).join('\n'),
    `${r.view}: ${url}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const row = ([k, v]: [string, string]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`;
  const html = [
    `<p>${escapeHtml(texts.hello(to.name))}</p><p>${escapeHtml(intro)}</p>`,
    `<table cellpadding="4">${facts.map(row).join('')}</table>`,
    `<ul>${view.lines.map((l) => `<li>${escapeHtml(lineText(l))}</li>`).join('')}</ul>`,
    money.length ? `<table cellpadding="4">${money.map(row).join('')}</table>` : '',
    `<p><a href="${escapeHtml(url)}">${escapeHtml(r.view)}</a></p>`,
  ].join('');
  return { to: to.email, subject: r.subject(view.orderNumber), text, html };
}

/**
 * Mail inserts guarded by "no receipt row yet", then the rows with ON CONFLICT DO NOTHING, in one
 * batch: of Idram's simultaneous replays one writes each receipt, the others nothing. Never
 * throws: the payment is applied whatever happens to the mail.
 */
export async function sendReceipts(env: Bindings, db: Db, orderId: string): Promise<void> {
  try {
    const [order] = await db.select().from(payments).where(eq(payments.id, orderId)).limit(1);
    if (!order?.isPaymentConfirmed || order.applyPending) return;
    const recipientIds = [...new Set([order.payerUserId, ...(await linesOf(db, order)).map((l) => l.userId)])];
    // a replay of an order whose receipts went out costs this read alone
    const recorded = new Set(
      (await db.select({ userId: paymentReceipts.userId }).from(paymentReceipts).where(eq(paymentReceipts.paymentId, order.id))).map((r) => r.userId),
    );
    if (recipientIds.every((id) => recorded.has(id))) return;
    const loaded = await loadReceipt(env, db, orderId);
    if (!loaded) return;
    const drafts = recipientIds
      .filter((id) => !recorded.has(id))
      .flatMap((id) => {
        const to = loaded.people.get(id);
        return to && !to.deleted ? [{ ...receiptMail(env, viewFor(loaded.receipt, id, false), to), kind: 'receipt' as const, ref: { user: id } }] : [];
      });
    if (!drafts.length) return;
    const now = Date.now();
    const mails = mailStatements(
      env,
      db,
      drafts,
      sql`not exists (select 1 from ${paymentReceipts} r where r.payment_id = ${order.id} and r.user_id = value ->> '$.ref.user')`,
      new Date(now),
    );
    await runBatch(db, [
      ...mails.statements,
      db
        .insert(paymentReceipts)
        .select(
          sql`select ${order.id}, value ->> 'u', value ->> 'e', ${now} from json_each(${JSON.stringify(drafts.map((d) => ({ u: d.ref.user, e: d.to })))}) where true`,
        )
        .onConflictDoNothing(),
    ]);
    await enqueueMails(env, mails.ids);
  } catch (err) {
    console.error(
      JSON.stringify({
        level: 'error',
        event: 'receipts.failed',
        orderId,
        error: { message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined },
      }),
    );
  }
}

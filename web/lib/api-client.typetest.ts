// Checked by `npm run typecheck`, never run or bundled: each `@ts-expect-error` fails the check if
// its line stops being an error.
import { parseResponse } from 'hono/client';
import { createApi } from './api';
import type { Args, Data } from './use-api';

const api = createApi('http://localhost', fetch);

export async function typeTests() {
  // @ts-expect-error a path the worker does not serve
  await api.user.nope.$get();
  // @ts-expect-error a renamed route: the spec's is /api/broker/update/isactive
  await api.broker.update.isActive.$put({ json: { filterId: 'f1' } });
  // @ts-expect-error the wrong method: filters are searched by POST /api/broker
  await api.broker.index.$get();
  // @ts-expect-error a body the route does not take: setting ids are `settingID`
  await api.mcSettings.update.toggleVisibility.$post({ json: { settingId: 's1' } });
  // @ts-expect-error a wrongly typed field: the number of months is a number
  await api.payment.generateLink.$post({ json: { amount: '3', userToBePaidId: null, paymentType: 'idram' } });
  // @ts-expect-error a path parameter left out
  await api.user.update.name[':id'].$put({ json: { newName: 'Ann' } });

  // the answers are the worker's: checkPromoCode answers a PromoCheckDto (uses left), not a PromoDto
  const check = await parseResponse(api.promocode.checkPromoCode.$post({ json: { name: 'SPRING' } }));
  check.usesLeft satisfies number;
  // @ts-expect-error a PromoDto's field that the check does not answer
  check.usedUsersList;
  // the history answers the rows SQLite builds, typed by the route
  const rows = await parseResponse(api.callHistory.getHistory.$post({ json: { dateFrom: '2026-01-01', dateTo: '2026-01-07' } }));
  rows[0]?.brokerName satisfies string | undefined;
  const login = await parseResponse(api.auth.login.$post({ json: { email: 'a@b.c', password: 'secret', clientType: 0 } }));
  login.accessToken satisfies string;

  ({}) as Data<typeof api.subscription.status.$get> satisfies { isSubscriptionActive: boolean; subscriptionDaysLeft: number };
  // @ts-expect-error a filter's body has no `title`
  ({ title: 'x' }) satisfies Args<typeof api.broker.add.$post>['json'];
}

import type { Page } from '@playwright/test';

/** A load as DAT One's board data file describes it (e2e/fixtures/dat-one/loads.js). */
export interface BoardLoad {
  postingId: string;
  rowId: string;
  company: string;
  mc: string;
  contactForm: 'a-tel' | 'wrap-tel' | 'ce-phone' | 'wrap-mail' | 'ce-email' | 'none';
  contact: string | null;
  contactEmail: string | null;
  contactPhone: string;
  pickUpDate: string;
  pickUpText: string;
  referenceId: string | null;
  origin: { text: string };
  destination: { text: string };
  similar: boolean;
}

export const boardLoads = (page: Page) => page.evaluate(() => (window as any).datBoard.loads as BoardLoad[]);

/** A call to the load's broker as the extension logs it: the body of POST /api/callHistory/log, less its ids. */
export const callAbout = (load: BoardLoad) => ({
  kind: 'call',
  contact: load.contactPhone,
  brokerName: load.company,
  origin: load.origin.text,
  dest: load.destination.text,
  loadDate: load.pickUpDate,
});

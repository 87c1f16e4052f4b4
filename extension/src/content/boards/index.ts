/** The boards the extension reads, one adapter each: the content script picks the one for the page's address. */
import type { BoardAdapter } from '../read';
import { dat } from './dat';
import { truckstop } from './truckstop';

export const BOARDS: readonly BoardAdapter[] = [dat, truckstop];

export const adapterFor = (url: URL): BoardAdapter | null => BOARDS.find((b) => b.matches(url)) ?? null;

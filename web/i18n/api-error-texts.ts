/**
 * The API errors' texts by language, for the extension (docs/decisions/0023-languages.md, "Error
 * codes"): every `<area>Messages` group of the web app's catalogue parts, imported by name so the
 * rest of each part stays out of the extension. The web app loads them with each area's part.
 * web/i18n/catalogues.test.ts fails when a part's group is missing here.
 */
import { analyticsMessages as enAnalyticsMessages, healthMessages as enHealthMessages } from './en-analytics.json';
import { commonMessages as enCommonMessages } from './en-common.json';
import { filterMessages as enFilterMessages, vettingMessages as enVettingMessages } from './en-filters.json';
import { historyMessages as enHistoryMessages } from './en-history.json';
import { linesMessages as enLinesMessages } from './en-lines.json';
import { linkMessages as enLinkMessages } from './en-links.json';
import { loadMessages as enLoadMessages } from './en-loads.json';
import { mailMessages as enMailMessages } from './en-mail.json';
import { paymentMessages as enPaymentMessages } from './en-payments.json';
import { promoMessages as enPromoMessages } from './en-promo.json';
import { userMessages as enUserMessages } from './en-users.json';
import { analyticsMessages as hyAnalyticsMessages, healthMessages as hyHealthMessages } from './hy-analytics.json';
import { commonMessages as hyCommonMessages } from './hy-common.json';
import { filterMessages as hyFilterMessages, vettingMessages as hyVettingMessages } from './hy-filters.json';
import { historyMessages as hyHistoryMessages } from './hy-history.json';
import { linesMessages as hyLinesMessages } from './hy-lines.json';
import { linkMessages as hyLinkMessages } from './hy-links.json';
import { loadMessages as hyLoadMessages } from './hy-loads.json';
import { mailMessages as hyMailMessages } from './hy-mail.json';
import { paymentMessages as hyPaymentMessages } from './hy-payments.json';
import { promoMessages as hyPromoMessages } from './hy-promo.json';
import { userMessages as hyUserMessages } from './hy-users.json';
import { analyticsMessages as ruAnalyticsMessages, healthMessages as ruHealthMessages } from './ru-analytics.json';
import { commonMessages as ruCommonMessages } from './ru-common.json';
import { filterMessages as ruFilterMessages, vettingMessages as ruVettingMessages } from './ru-filters.json';
import { historyMessages as ruHistoryMessages } from './ru-history.json';
import { linesMessages as ruLinesMessages } from './ru-lines.json';
import { linkMessages as ruLinkMessages } from './ru-links.json';
import { loadMessages as ruLoadMessages } from './ru-loads.json';
import { mailMessages as ruMailMessages } from './ru-mail.json';
import { paymentMessages as ruPaymentMessages } from './ru-payments.json';
import { promoMessages as ruPromoMessages } from './ru-promo.json';
import { userMessages as ruUserMessages } from './ru-users.json';

export const API_ERROR_TEXTS = {
  en: {
    analyticsMessages: enAnalyticsMessages,
    healthMessages: enHealthMessages,
    commonMessages: enCommonMessages,
    filterMessages: enFilterMessages,
    vettingMessages: enVettingMessages,
    historyMessages: enHistoryMessages,
    linesMessages: enLinesMessages,
    linkMessages: enLinkMessages,
    loadMessages: enLoadMessages,
    mailMessages: enMailMessages,
    paymentMessages: enPaymentMessages,
    promoMessages: enPromoMessages,
    userMessages: enUserMessages,
  },
  ru: {
    analyticsMessages: ruAnalyticsMessages,
    healthMessages: ruHealthMessages,
    commonMessages: ruCommonMessages,
    filterMessages: ruFilterMessages,
    vettingMessages: ruVettingMessages,
    historyMessages: ruHistoryMessages,
    linesMessages: ruLinesMessages,
    linkMessages: ruLinkMessages,
    loadMessages: ruLoadMessages,
    mailMessages: ruMailMessages,
    paymentMessages: ruPaymentMessages,
    promoMessages: ruPromoMessages,
    userMessages: ruUserMessages,
  },
  hy: {
    analyticsMessages: hyAnalyticsMessages,
    healthMessages: hyHealthMessages,
    commonMessages: hyCommonMessages,
    filterMessages: hyFilterMessages,
    vettingMessages: hyVettingMessages,
    historyMessages: hyHistoryMessages,
    linesMessages: hyLinesMessages,
    linkMessages: hyLinkMessages,
    loadMessages: hyLoadMessages,
    mailMessages: hyMailMessages,
    paymentMessages: hyPaymentMessages,
    promoMessages: hyPromoMessages,
    userMessages: hyUserMessages,
  },
};

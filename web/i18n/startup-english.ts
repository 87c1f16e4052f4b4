/**
 * The English of the shared texts the login page may show before any screen's part is loaded: the
 * route error (shown when a chunk could not be fetched, web/i18n/en-common.json's included) and
 * the offline banner. The login page does not carry the common part
 * (docs/decisions/0024-login-bundle.md), so these are the `defaultValue`s of their keys; the same
 * texts are in en-common.json (common.test.ts keeps them equal). Russian and Armenian come with
 * their catalogues.
 */
export const STARTUP_ENGLISH = {
  routeError: {
    updateTitle: 'A new version is available',
    updateText: 'FreightDesk was updated since this tab was opened. Reload to get the new version; anything you had saved stays saved.',
    offlineTitle: 'This screen could not be loaded',
    offlineText: 'You are offline. Reload when the connection is back.',
    errorTitle: 'Something went wrong on this screen',
    errorText: 'The screen stopped with an error. Reload it, or go back to your start screen.',
    reload: 'Reload',
    startScreen: 'Start screen',
  },
  offline: 'You are offline. What is on screen may be out of date, and saving or paying waits until the connection is back.',
};

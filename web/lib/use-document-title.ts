import { useEffect } from 'react';

export const APP_NAME = 'FreightDesk';

/** Sets the tab's title to "<screen> · FreightDesk" while the screen is shown (rule 0141). */
export function useDocumentTitle(screen: string | null | undefined) {
  useEffect(() => {
    document.title = screen ? `${screen} · ${APP_NAME}` : APP_NAME;
  }, [screen]);
}

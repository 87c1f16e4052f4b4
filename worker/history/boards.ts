/** Constants only, no zod: the extension's content script imports them. Rows from before Truckstop are DAT's. */
export const LOAD_BOARDS = ['dat', 'truckstop'] as const;
export type LoadBoard = (typeof LOAD_BOARDS)[number];

/** The boards as they call themselves (brand names: the same in every language). */
export const BOARD_NAMES: Record<LoadBoard, string> = { dat: 'DAT', truckstop: 'Truckstop' };

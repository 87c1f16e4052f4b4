import { parseResponse } from 'hono/client';
import { api } from '../../lib/api-client';
import { type Args, type Data, useGet } from '../../lib/use-api';

const mcSettings = api.mcSettings;

export type McSettingDto = Data<typeof mcSettings.index.$get>[number];
export type NewMc = Args<typeof mcSettings.add.$post>['json'];
export type McChanges = Args<typeof mcSettings.update.details.$post>['json']['mcSettings'];

/** The caller's own MC list. */
export const useMyMcs = () => useGet(mcSettings.index);
/** The manager's MCs an agent picks from (a lead gets its own). */
export const useParentMcs = (enabled: boolean) => useGet(enabled ? mcSettings.parentMcSettings : null);

export const addMc = (json: NewMc) => parseResponse(mcSettings.add.$post({ json }));
export const saveMcs = (changes: McChanges) => parseResponse(mcSettings.update.details.$post({ json: { mcSettings: changes } }));
export const toggleMcVisibility = (settingID: string) => parseResponse(mcSettings.update.toggleVisibility.$post({ json: { settingID } }));
export const deleteMc = (settingID: string) => parseResponse(mcSettings.index.$delete({ json: { settingID } }));

export type TeamSettingsDto = Data<typeof api.team.settings.$get>;
export type TeamSettingsInput = Args<typeof api.team.settings.$put>['json'];
/** The team's phone lines and dialer (every member reads them; the lead edits them). */
export const useTeamSettings = () => useGet(api.team.settings);
export const saveTeamSettings = (json: TeamSettingsInput) => parseResponse(api.team.settings.$put({ json }));

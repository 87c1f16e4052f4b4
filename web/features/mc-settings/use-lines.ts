import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problem } from '../../../worker/lib/messages';
import { LINES_MESSAGES } from '../../../worker/mc-settings/mc-settings.messages';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { deleteMc, type McSettingDto, saveMcs, useMyMcs, useParentMcs } from './api';

/** What My MC List lets a person change before Save Settings. */
export type McEdit = Partial<Pick<McSettingDto, 'name' | 'lines' | 'emailSubject' | 'emailContent' | 'isVisible'>>;

/** The edits without the line picks that another MC of `stored` holds. */
function withoutTakenLines(edits: Record<string, McEdit>, stored: McSettingDto[]) {
  const next: Record<string, McEdit> = {};
  for (const [id, edit] of Object.entries(edits)) {
    const taken = edit.lines?.some((line) => stored.some((m) => m._id !== id && m.lines.includes(line)));
    const { lines: _dropped, ...rest } = edit;
    const kept = taken ? rest : edit;
    if (Object.keys(kept).length) next[id] = kept;
  }
  return next;
}

/**
 * Lines' data and state: the caller's MCs with the unsaved edits laid over them, who holds
 * which line, Save Settings, Show in DAT and delete. One saving model (rule 0131): Show in
 * DAT is an edit like a line or a template and is saved by Save Settings with the rest, so the
 * screen never holds some changes saved and others not; only Delete (confirmed) acts at once.
 */
export function useLines() {
  const { t } = useTranslation();
  const session = useSession();
  const isAgent = session?.userType === 'agent';
  const read = useMyMcs();
  const { data, mutate } = read;
  const { data: parentMcs } = useParentMcs(isAgent);
  const [edits, setEdits] = useState<Record<string, McEdit>>({});
  const [deleting, setDeleting] = useState<McSettingDto | null>(null);
  const [listProblem, setListProblem] = useState<string | null>(null);
  const save = useRequest();
  const act = useRequest();
  const mcs = useMemo(() => (data ?? []).map((m) => ({ ...m, ...edits[m._id] })), [data, edits]);

  /** Which MC holds each line, leaving one MC out (its own lines stay pickable). */
  const holders = (exceptId?: string) => {
    const map = new Map<number, string>();
    for (const m of mcs) if (m._id !== exceptId) for (const l of m.lines) map.set(l, m.name);
    return map;
  };
  const edit = (id: string, patch: McEdit) => setEdits((all) => ({ ...all, [id]: { ...all[id], ...patch } }));

  /** Save Settings: true when saved (or nothing to save), false when refused. */
  const saveSettings = async (): Promise<boolean> => {
    const error = mcs.some((m) => !m.parentMc && !m.name.trim()) ? problem(LINES_MESSAGES.nameEmpty) : null;
    setListProblem(error);
    if (error) return false;
    // only the MCs edited here: a line or template another tab saved meanwhile is not overwritten
    // with this screen's older copy (and a line taken meanwhile is refused, naming its MC)
    const changes = mcs
      .filter((m) => edits[m._id])
      .map((m) => ({
        _id: m._id,
        ...(m.parentMc ? {} : { name: m.name }),
        lines: m.lines,
        emailSubject: m.emailSubject,
        emailContent: m.emailContent,
        // sent only when changed here: another tab's Show in DAT is not overwritten
        ...(edits[m._id]?.isVisible !== undefined ? { isVisible: m.isVisible } : {}),
      }));
    const res = await save.run(() => saveMcs(changes), { success: () => t('linesMessages.saved') });
    if (res) {
      setEdits({});
      await mutate(res.mcSettings, { revalidate: false });
      return true;
    } else {
      // a refused save (say, a line another tab took meanwhile): show the list as it is stored now,
      // and drop the picks of lines another MC holds there, so the screen never shows a line twice
      const stored = await mutate();
      if (stored) setEdits((all) => withoutTakenLines(all, stored));
      return false;
    }
  };

  /** Show in DAT: flips the screen's value; back to the stored value is no edit. */
  const toggle = (m: McSettingDto) => {
    const stored = data?.find((x) => x._id === m._id)?.isVisible;
    setEdits((all) => {
      const { isVisible: _old, ...rest } = all[m._id] ?? {};
      const next = !m.isVisible === stored ? rest : { ...rest, isVisible: !m.isVisible };
      const { [m._id]: _gone, ...others } = all;
      return Object.keys(next).length ? { ...others, [m._id]: next } : others;
    });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await act.run(() => deleteMc(deleting._id), { success: () => t('linesMessages.deleted') });
    if (res) {
      setEdits(({ [deleting._id]: _gone, ...rest }) => rest);
      await mutate();
    }
    setDeleting(null);
  };

  return {
    isAgent,
    saved: data,
    read,
    reload: () => mutate(),
    parentMcs: parentMcs ?? [],
    mcs,
    holders,
    edit,
    dirty: Object.keys(edits).length > 0,
    saveSettings,
    saving: save.loading,
    listProblem,
    toggle,
    busy: act.loading,
    deleting,
    setDeleting,
    confirmDelete,
  };
}

import { type FormEvent, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { LINE_NUMBERS, MC_MESSAGES, mcAddError } from '../../../worker/mc-settings/mc-settings.schema';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { ErrorText, Field } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { del, post } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { useRequest } from '../../lib/use-request';
import { type McSettingDto, useMyMcs, useParentMcs } from './api';
import './lines.css';

interface Editable {
  name: string;
  lines: number[];
  emailSubject: string;
  emailContent: string;
}

/** Line buttons 1 to 6: one line per MC; a line another MC holds is unavailable. */
function LinePicker(props: { value: number[]; takenBy: Map<number, string>; onPick: (line: number) => void; label: string; disabled?: boolean }) {
  return (
    <div className="line-picker" role="group" aria-label={props.label}>
      {LINE_NUMBERS.map((n) => {
        const selected = props.value.includes(n);
        const holder = props.takenBy.get(n);
        return (
          <button
            key={n}
            type="button"
            className={`line-btn${selected ? ' line-selected' : ''}`}
            aria-pressed={selected}
            aria-label={`Line ${n}`}
            title={holder ? `Line ${n} is used by ${holder}` : `Line ${n}`}
            disabled={props.disabled || (!!holder && !selected)}
            onClick={() => props.onPick(n)}
          >
            {n}
          </button>
        );
      })}
    </div>
  );
}

/** Lines (/lines): Add New MC, My MC List with Show in DAT, lines, templates, delete, Save Settings. */
export default function Lines() {
  const session = useSession();
  const isAgent = session?.userType === 'agent';
  const { data, isLoading, mutate } = useMyMcs();
  const { data: parentMcs } = useParentMcs(isAgent);
  const [edits, setEdits] = useState<Record<string, Partial<Editable>>>({});
  const [deleting, setDeleting] = useState<McSettingDto | null>(null);
  const [listProblem, setListProblem] = useState<string | null>(null);
  const save = useRequest();
  const act = useRequest();
  const mcs = useMemo(() => (data ?? []).map((m) => ({ ...m, ...edits[m._id] })), [data, edits]);

  const holders = (exceptId?: string) => {
    const map = new Map<number, string>();
    for (const m of mcs) if (m._id !== exceptId) for (const l of m.lines) map.set(l, m.name);
    return map;
  };
  const edit = (id: string, patch: Partial<Editable>) => setEdits((all) => ({ ...all, [id]: { ...all[id], ...patch } }));
  const dirty = Object.keys(edits).length > 0;

  const saveSettings = async () => {
    const body = {
      mcSettings: mcs.map((m) => ({
        _id: m._id,
        ...(m.parentMc ? {} : { name: m.name }),
        lines: m.lines,
        emailSubject: m.emailSubject,
        emailContent: m.emailContent,
      })),
    };
    const error = mcs.some((m) => !m.parentMc && !m.name.trim()) ? MC_MESSAGES.nameEmpty : null;
    setListProblem(error);
    if (error) return;
    const res = await save.run(() => post<{ message: string; mcSettings: McSettingDto[] }>('/api/mcSettings/update/details', body), {
      success: (r) => r.message,
    });
    if (res) {
      setEdits({});
      await mutate(res.mcSettings, { revalidate: false });
    }
  };

  const toggle = async (m: McSettingDto) => {
    const res = await act.run(() => post<{ message: string; isVisible: boolean }>('/api/mcSettings/update/toggleVisibility', { settingID: m._id }), {
      success: (r) => r.message,
    });
    if (res) await mutate((list) => list?.map((x) => (x._id === m._id ? { ...x, isVisible: res.isVisible } : x)), { revalidate: false });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const res = await act.run(() => del<{ message: string }>('/api/mcSettings', { settingID: deleting._id }), { success: (r) => r.message });
    if (res) {
      setEdits(({ [deleting._id]: _gone, ...rest }) => rest);
      await mutate();
    }
    setDeleting(null);
  };

  return (
    <div className="page narrow-wide">
      <div className="page-header">
        <h1>Lines</h1>
        <Link className="btn btn-link" to="/help/lines" target="_blank" rel="noopener">
          Help
        </Link>
      </div>
      <AddMc isAgent={isAgent} parentMcs={parentMcs ?? []} mine={data ?? []} takenBy={holders()} onAdded={() => mutate()} />
      <Card
        title="My MC List"
        actions={
          <Button onClick={saveSettings} disabled={!dirty || save.loading}>
            Save Settings
          </Button>
        }
      >
        {isLoading ? (
          <Spinner />
        ) : mcs.length === 0 ? (
          <p className="muted">No MCs yet. Add your first MC above.</p>
        ) : (
          <ul className="mc-list" data-testid="mc-list">
            {mcs.map((m) => (
              <li key={m._id} className="mc-item" data-testid="mc-item">
                <div className="mc-head">
                  {m.parentMc ? (
                    <h3 className="mc-name">{m.name}</h3>
                  ) : (
                    <input
                      className="mc-name-input"
                      aria-label={`Name of ${data?.find((d) => d._id === m._id)?.name ?? m.name}`}
                      value={m.name}
                      onChange={(e) => edit(m._id, { name: e.target.value })}
                    />
                  )}
                  <div className="mc-dat">
                    <span className="label">Show in DAT</span>
                    <button
                      type="button"
                      className={`dat-toggle${m.isVisible ? ' dat-on' : ''}`}
                      aria-pressed={m.isVisible}
                      aria-label={`Show ${m.name} in DAT`}
                      disabled={act.loading}
                      onClick={() => toggle(m)}
                    >
                      {m.isVisible ? 'Visible' : 'Hidden'}
                    </button>
                  </div>
                  <Button variant="danger" className="btn-sm" onClick={() => setDeleting(m)} aria-label={`Delete ${m.name}`}>
                    Delete
                  </Button>
                </div>
                <div className="mc-body">
                  <div className="field">
                    <span className="label">Line</span>
                    <LinePicker label={`Line of ${m.name}`} value={m.lines} takenBy={holders(m._id)} onPick={(line) => edit(m._id, { lines: [line] })} />
                  </div>
                  <Field label="Email subject" value={m.emailSubject} onChange={(e) => edit(m._id, { emailSubject: e.target.value })} />
                  <TemplateArea label="Email content" value={m.emailContent} onChange={(v) => edit(m._id, { emailContent: v })} />
                </div>
              </li>
            ))}
          </ul>
        )}
        <ErrorText>{listProblem}</ErrorText>
        {dirty && <p className="muted unsaved">You have unsaved changes: press Save Settings.</p>}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        message={
          <>
            Are you sure you want to delete {deleting?.name}?
            {deleting && !isAgent && <span className="confirm-note">Your agents' settings for this MC are removed too, and filters no longer list it.</span>}
          </>
        }
        onConfirm={confirmDelete}
        busy={act.loading}
      />
    </div>
  );
}

function TemplateArea({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div className="field template-field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** Add New MC: a lead names a new MC; an agent picks one of its manager's MCs. */
function AddMc(props: { isAgent: boolean; parentMcs: McSettingDto[]; mine: McSettingDto[]; takenBy: Map<number, string>; onAdded: () => void }) {
  const [name, setName] = useState('');
  const [parentMc, setParentMc] = useState('');
  const [lines, setLines] = useState<number[]>([]);
  const [emailSubject, setEmailSubject] = useState('');
  const [emailContent, setEmailContent] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { loading, run } = useRequest();
  const selectId = useId();
  const used = new Set(props.mine.map((m) => m.parentMc?._id));
  const choices = props.parentMcs.filter((p) => !used.has(p._id));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const error = mcAddError(props.isAgent, { name, parentMc: parentMc || null, lines });
    setProblem(error);
    if (error) return;
    // errors of MC add are silently ignored (spec: Error catalogue); taken lines cannot be picked
    const res = await run(() => post<{ message: string }>('/api/mcSettings/add/', { name, parentMc: parentMc || null, lines, emailContent, emailSubject }), {
      success: (r) => r.message,
      silent: true,
    });
    if (res) {
      setName('');
      setParentMc('');
      setLines([]);
      setEmailSubject('');
      setEmailContent('');
      props.onAdded();
    }
  };

  return (
    <Card title="Add New MC">
      <form className="form" onSubmit={submit} noValidate aria-label="Add New MC">
        <div className="form-row">
          {props.isAgent ? (
            <div className="field grow">
              <label htmlFor={selectId}>MC</label>
              <select id={selectId} value={parentMc} onChange={(e) => setParentMc(e.target.value)}>
                <option value="">Select MC</option>
                {choices.map((p) => (
                  <option key={p._id} value={p._id}>
                    {p.name}
                  </option>
                ))}
              </select>
              {props.parentMcs.length === 0 && <span className="field-hint">Your manager has no MCs yet.</span>}
            </div>
          ) : (
            <div className="grow">
              <Field label="MC name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Acme Trucking MC 123456" />
            </div>
          )}
          <div className="field">
            <span className="label">Line</span>
            <LinePicker label="Line for new MC" value={lines} takenBy={props.takenBy} onPick={(line) => setLines([line])} />
          </div>
        </div>
        <Field label="Email subject" value={emailSubject} onChange={(e) => setEmailSubject(e.target.value)} />
        <TemplateArea label="Email content" value={emailContent} onChange={setEmailContent} />
        <ErrorText>{problem}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            Add MC
          </Button>
        </div>
      </form>
    </Card>
  );
}

import { type FormEvent, useId, useState } from 'react';
import { mcAddError } from '../../../worker/mc-settings/mc-settings.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { useRequest } from '../../lib/use-request';
import { addMc, type McSettingDto } from './api';
import { LinePicker, TemplateArea, TemplatePreview, PlaceholderHint } from './mc-fields';

/** Add New MC: a lead names a new MC; an agent picks one of its manager's MCs. */
export function AddMc(props: { isAgent: boolean; parentMcs: McSettingDto[]; mine: McSettingDto[]; takenBy: Map<number, string>; onAdded: () => void }) {
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
    const res = await run(() => addMc({ name, parentMc: parentMc || null, lines, emailContent, emailSubject }), {
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
        <PlaceholderHint />
        <TemplatePreview subject={emailSubject} content={emailContent} mcName={props.isAgent ? (choices.find((p) => p._id === parentMc)?.name ?? '') : name} />
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

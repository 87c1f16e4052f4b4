import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import type { McSettingDto } from './api';
import { LinePicker, PlaceholderHint, TemplateArea, TemplatePreview } from './mc-fields';
import type { McEdit } from './use-lines';

/** One MC of My MC List: its name (a lead's own MC), Show in DAT, Delete, line and template. */
export function McItem(props: {
  mc: McSettingDto;
  savedName: string;
  takenBy: Map<number, string>;
  busy: boolean;
  onEdit: (patch: McEdit) => void;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const { mc: m, onEdit } = props;
  return (
    <li className="mc-item" data-testid="mc-item">
      <div className="mc-head">
        {m.parentMc ? (
          <h3 className="mc-name">{m.name}</h3>
        ) : (
          <input className="mc-name-input" aria-label={`Name of ${props.savedName}`} value={m.name} onChange={(e) => onEdit({ name: e.target.value })} />
        )}
        <div className="mc-dat">
          <span className="label">Show in DAT</span>
          <button
            type="button"
            className={`dat-toggle${m.isVisible ? ' dat-on' : ''}`}
            aria-pressed={m.isVisible}
            // the name holds the visible text (WCAG 2.5.3 label in name): "Show Acme in DAT: Visible"
            aria-label={`Show ${m.name} in DAT: ${m.isVisible ? 'Visible' : 'Hidden'}`}
            disabled={props.busy}
            onClick={props.onToggle}
          >
            {m.isVisible ? 'Visible' : 'Hidden'}
          </button>
        </div>
        <Button variant="danger" className="btn-sm" onClick={props.onDelete} aria-label={`Delete ${m.name}`}>
          Delete
        </Button>
      </div>
      <div className="mc-body">
        <div className="field">
          <span className="label">Line</span>
          <LinePicker label={`Line of ${m.name}`} value={m.lines} takenBy={props.takenBy} onPick={(line) => onEdit({ lines: [line] })} />
        </div>
        <Field label="Email subject" value={m.emailSubject} onChange={(e) => onEdit({ emailSubject: e.target.value })} />
        <TemplateArea label="Email content" value={m.emailContent} onChange={(v) => onEdit({ emailContent: v })} />
        <PlaceholderHint />
        <TemplatePreview subject={m.emailSubject} content={m.emailContent} mcName={m.name} />
      </div>
    </li>
  );
}

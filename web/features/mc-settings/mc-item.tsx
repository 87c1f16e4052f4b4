import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const { mc: m, onEdit } = props;
  return (
    <li className="mc-item" data-testid="mc-item">
      <div className="mc-head">
        {m.parentMc ? (
          <h3 className="mc-name">{m.name}</h3>
        ) : (
          <input
            className="mc-name-input"
            aria-label={t('mcItem.nameOf', { name: props.savedName })}
            value={m.name}
            onChange={(e) => onEdit({ name: e.target.value })}
          />
        )}
        <div className="mc-dat">
          <span className="label">{t('mcItem.showInDat')}</span>
          <button
            type="button"
            className={`dat-toggle${m.isVisible ? ' dat-on' : ''}`}
            aria-pressed={m.isVisible}
            // the name holds the visible text (WCAG 2.5.3 label in name): "Show Acme in DAT: Visible"
            aria-label={t('mcItem.toggle', { name: m.name, state: m.isVisible ? t('mcItem.visible') : t('mcItem.hidden') })}
            disabled={props.busy}
            onClick={props.onToggle}
          >
            {m.isVisible ? t('mcItem.visible') : t('mcItem.hidden')}
          </button>
        </div>
        <Button variant="danger" className="btn-sm" onClick={props.onDelete} aria-label={t('mcItem.deleteLabel', { name: m.name })}>
          {t('mcItem.delete')}
        </Button>
      </div>
      <div className="mc-body">
        <div className="field">
          <span className="label">{t('mcItem.line')}</span>
          <LinePicker label={t('mcItem.lineOf', { name: m.name })} value={m.lines} takenBy={props.takenBy} onPick={(line) => onEdit({ lines: [line] })} />
        </div>
        <Field label={t('mcItem.emailSubject')} value={m.emailSubject} onChange={(e) => onEdit({ emailSubject: e.target.value })} />
        <TemplateArea label={t('mcItem.emailContent')} value={m.emailContent} onChange={(v) => onEdit({ emailContent: v })} />
        <PlaceholderHint />
        <TemplatePreview subject={m.emailSubject} content={m.emailContent} mcName={m.name} />
      </div>
    </li>
  );
}

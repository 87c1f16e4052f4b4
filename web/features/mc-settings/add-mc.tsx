import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { mcAddSchemaFor } from '../../../worker/mc-settings/mc-settings.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Card } from '../../components/ui/section';
import { messageText } from '../../i18n/errors';
import { useRequest } from '../../lib/use-request';
import { useSchemaForm } from '../../lib/use-schema-form';
import { addMc, type McSettingDto } from './api';
import { LinePicker, PlaceholderHint, TemplateArea, TemplatePreview } from './mc-fields';

/** Add New MC: a lead names a new MC; an agent picks one of its manager's MCs. */
export function AddMc(props: { isAgent: boolean; parentMcs: McSettingDto[]; mine: McSettingDto[]; takenBy: Map<number, string>; onAdded: () => void }) {
  const { t } = useTranslation();
  const form = useSchemaForm<{ name: string; parentMc: string; lines: number[]; emailSubject: string; emailContent: string }>(mcAddSchemaFor(props.isAgent), {
    name: '',
    parentMc: '',
    lines: [],
    emailSubject: '',
    emailContent: '',
  });
  const [name, parentMc, lines, emailSubject, emailContent] = form.watch(['name', 'parentMc', 'lines', 'emailSubject', 'emailContent']);
  const { loading, run } = useRequest();
  const selectId = useId();
  const used = new Set(props.mine.map((m) => m.parentMc?._id));
  const choices = props.parentMcs.filter((p) => !used.has(p._id));

  const submit = form.handleSubmit(async (values) => {
    // errors of MC add are silently ignored (spec: Error catalogue); taken lines cannot be picked
    const res = await run(() => addMc({ ...values, parentMc: values.parentMc || null }), { success: () => t('linesMessages.added'), silent: true });
    if (res) {
      form.reset();
      props.onAdded();
    }
  });

  return (
    <Card title={t('addMc.title')}>
      <form className="form" onSubmit={submit} noValidate aria-label={t('addMc.title')}>
        <div className="form-row">
          {props.isAgent ? (
            <div className="field grow">
              <label htmlFor={selectId}>{t('addMc.mc')}</label>
              <select id={selectId} value={parentMc} onChange={(e) => form.setValue('parentMc', e.target.value)}>
                <option value="">{t('addMc.selectMc')}</option>
                {choices.map((p) => (
                  <option key={p._id} value={p._id}>
                    {p.name}
                  </option>
                ))}
              </select>
              {props.parentMcs.length === 0 && <span className="field-hint">{t('addMc.noParentMcs')}</span>}
            </div>
          ) : (
            <div className="grow">
              <Field label={t('addMc.name')} placeholder={t('addMc.namePlaceholder')} {...form.register('name')} />
            </div>
          )}
          <div className="field">
            <span className="label">{t('addMc.line')}</span>
            <LinePicker label={t('addMc.lineForNew')} value={lines} takenBy={props.takenBy} onPick={(line) => form.setValue('lines', [line])} />
          </div>
        </div>
        <Field label={t('addMc.emailSubject')} {...form.register('emailSubject')} />
        <TemplateArea label={t('addMc.emailContent')} value={emailContent} onChange={(text) => form.setValue('emailContent', text)} />
        <PlaceholderHint />
        <TemplatePreview subject={emailSubject} content={emailContent} mcName={props.isAgent ? (choices.find((p) => p._id === parentMc)?.name ?? '') : name} />
        <ErrorText>{messageText(form.problem)}</ErrorText>
        <div>
          <Button type="submit" disabled={loading}>
            {t('addMc.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

import type { TFunction } from 'i18next';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../../worker/lib/messages';
import { EFFECT_TYPES, effectValueError, MAX_GENERATE, PROMO_MESSAGES, type PromoEffectType, toPositiveInt } from '../../../worker/promo/promo.schema';
import { Button } from '../../components/ui/button';
import { ErrorText, Field } from '../../components/ui/field';
import { Card, CollapsibleSection } from '../../components/ui/section';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-promo.json';
import { useRequest } from '../../lib/use-request';
import { createNamedCode, generateCodes, type PromoDto, refreshPromoLists, setFreeStatus } from './api';
import { CopyButton } from './copy-button';
import { effectText, effectTypeText, formProblemText } from './texts';

addEnglish(english);

const valueLabel = (t: TFunction, type: string) =>
  type === 'discountPercent' ? t('promo.valueDiscount') : type === 'freeMonths' ? t('promo.valueMonths') : t('promo.value');

/** A whole number of at least 1 (spec: anything non-numeric becomes 1), normalised when the field is left. */
function WholeNumberField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={label} inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value)} onBlur={() => onChange(String(toPositiveInt(value)))} />
  );
}

function TypeSelect({ value, onChange, id }: { value: string; onChange: (v: string) => void; id: string }) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={id}>{t('promo.type')}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('promo.selectType')}</option>
        {EFFECT_TYPES.map((type) => (
          <option key={type.value} value={type.value}>
            {effectTypeText(t, type.value)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Create Promo Codes: type (required), value and amount (whole numbers ≥ 1; anything else becomes 1). */
export function CreatePromoCodes() {
  const { t } = useTranslation();
  const typeId = useId();
  const [type, setType] = useState('');
  const [value, setValue] = useState('10');
  const [amount, setAmount] = useState('10');
  const [problem, setProblem] = useState<Message | null>(null);
  const [generated, setGenerated] = useState<PromoDto[]>([]);
  const { loading, run } = useRequest();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const effectValue = toPositiveInt(value);
    const generateAmount = toPositiveInt(amount);
    setValue(String(effectValue));
    setAmount(String(generateAmount));
    if (!type) return setProblem(PROMO_MESSAGES.type);
    const invalid = effectValueError(type as PromoEffectType, effectValue) ?? (generateAmount > MAX_GENERATE ? PROMO_MESSAGES.amount : null);
    if (invalid) return setProblem(invalid);
    setProblem(null);
    const res = await run(() => generateCodes({ effectType: type as PromoEffectType, effectValue, generateAmount }), {
      success: (r) => t('promo.created', { count: r.codes.length }),
    });
    if (res) {
      setGenerated(res.codes);
      await refreshPromoLists();
    }
  };

  return (
    <>
      <Card title={t('promo.createTitle')}>
        <form className="form" onSubmit={submit} noValidate>
          <div className="form-row">
            <TypeSelect
              id={typeId}
              value={type}
              onChange={(v) => {
                setType(v);
                setProblem(null);
              }}
            />
            <WholeNumberField label={valueLabel(t, type)} value={value} onChange={setValue} />
            <WholeNumberField label={t('promo.amount')} value={amount} onChange={setAmount} />
            <Button type="submit" disabled={loading}>
              {loading ? t('promo.generating') : t('promo.generate')}
            </Button>
          </div>
          <p className="muted promo-note">{t('promo.note', { max: MAX_GENERATE })}</p>
          <ErrorText>{formProblemText(t, problem)}</ErrorText>
        </form>
      </Card>
      {generated.length > 0 && <GeneratedCodes codes={generated} onHandedOut={() => setGenerated([])} />}
      <NamedCode />
    </>
  );
}

/** The codes just made, each with its copy button; copy all, or mark them all as given away. */
function GeneratedCodes({ codes, onHandedOut }: { codes: PromoDto[]; onHandedOut: () => void }) {
  const { t } = useTranslation();
  const { loading, run } = useRequest();
  const first = codes[0]!;
  const handOut = async () => {
    const res = await run(() => setFreeStatus(codes.map((c) => ({ _id: c._id, isFree: false }))), { success: (r) => t('promo.updated', { count: r.updated }) });
    if (res) {
      await refreshPromoLists();
      onHandedOut();
    }
  };
  return (
    <Card
      title={t('promo.generatedTitle', { n: codes.length })}
      actions={
        <>
          <CopyButton text={codes.map((c) => c.name).join('\n')} label={t('promo.copyAll')} ariaLabel={t('promo.copyAllCodes')} variant="primary" />
          <Button variant="secondary" className="btn-sm" onClick={handOut} disabled={loading}>
            {t('promo.markAllGiven')}
          </Button>
        </>
      }
    >
      <p className="muted">{t('promo.eachCode', { effect: effectText(t, first.effectType, first.effectValue) })}</p>
      <ul className="promo-code-grid" data-testid="generated-codes">
        {codes.map((c) => (
          <li key={c._id} className="promo-chip">
            <code className="promo-code">{c.name}</code>
            <CopyButton text={c.name} />
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Beyond the spec's form: a named code (e.g. SPRING-2026), multi-use, public or reserved for one user. */
function NamedCode() {
  const { t } = useTranslation();
  const typeId = useId();
  const [name, setName] = useState('');
  const [type, setType] = useState('');
  const [value, setValue] = useState('10');
  const [uses, setUses] = useState('1');
  const [isPublic, setIsPublic] = useState(true);
  const [problem, setProblem] = useState<Message | null>(null);
  const { loading, run } = useRequest();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const effectValue = toPositiveInt(value);
    const maxUses = toPositiveInt(uses);
    setValue(String(effectValue));
    setUses(String(maxUses));
    if (!/^[A-Za-z0-9-]{4,32}$/.test(name.trim())) return setProblem(PROMO_MESSAGES.name);
    if (!type) return setProblem(PROMO_MESSAGES.type);
    const invalid = effectValueError(type as PromoEffectType, effectValue);
    if (invalid) return setProblem(invalid);
    setProblem(null);
    const res = await run(() => createNamedCode({ name: name.trim(), effectType: type as PromoEffectType, effectValue, maxUses, isPublic }), {
      success: (r) => t('promo.codeCreated', { name: r.name }),
    });
    if (res) {
      setName('');
      await refreshPromoLists();
    }
  };
  return (
    <CollapsibleSection title={t('promo.namedTitle')}>
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field
            label={t('promo.name')}
            value={name}
            onChange={(e) => setName(e.target.value.toUpperCase())}
            placeholder={t('promo.namePlaceholder')}
            maxLength={32}
          />
          <TypeSelect id={typeId} value={type} onChange={setType} />
          <WholeNumberField label={valueLabel(t, type)} value={value} onChange={setValue} />
          <WholeNumberField label={t('promo.uses')} value={uses} onChange={setUses} />
        </div>
        <label className="check-inline">
          <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} /> {t('promo.public')}
        </label>
        <Button type="submit" disabled={loading}>
          {t('promo.createCode')}
        </Button>
        <ErrorText>{formProblemText(t, problem)}</ErrorText>
      </form>
    </CollapsibleSection>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { addEnglish } from '../../i18n';
import english from '../../i18n/en-promo.json';
import { copyText } from '../../lib/clipboard';
import { useToast } from '../../lib/toast';

addEnglish(english);

/** Copies `text` to the clipboard; the label says 'Copied!' for a moment. Without a `label`: "Copy", named "Copy {text}". */
export function CopyButton({
  text,
  label,
  ariaLabel,
  variant = 'secondary',
}: {
  text: string;
  label?: string;
  ariaLabel?: string;
  variant?: 'secondary' | 'primary';
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const toast = useToast();
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    if (!(await copyText(text))) {
      toast.show(t('promo.copyFailed'), 'error');
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 1500);
  };
  return (
    <Button
      variant={variant}
      className="btn-sm copy-btn"
      onClick={copy}
      aria-label={ariaLabel ?? (label ? `${label} ${text}` : t('promo.copyCode', { code: text }))}
    >
      {copied ? t('promo.copied') : (label ?? t('promo.copy'))}
    </Button>
  );
}

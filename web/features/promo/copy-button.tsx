import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { useToast } from '../../lib/toast';
import { copyText } from '../../lib/clipboard';

/** Copies `text` to the clipboard; the label says 'Copied!' for a moment. */
export function CopyButton({
  text,
  label = 'Copy',
  ariaLabel,
  variant = 'secondary',
}: {
  text: string;
  label?: string;
  ariaLabel?: string;
  variant?: 'secondary' | 'primary';
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const toast = useToast();
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    if (!(await copyText(text))) {
      toast.show('The browser did not allow copying; select the code and copy it by hand', 'error');
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 1500);
  };
  return (
    <Button variant={variant} className="btn-sm copy-btn" onClick={copy} aria-label={ariaLabel ?? `${label} ${text}`}>
      {copied ? 'Copied!' : label}
    </Button>
  );
}

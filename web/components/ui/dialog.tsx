import { Dialog } from 'radix-ui';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { canTakeFocus, focusMainHeading } from '../../lib/focus';
import { Button } from './button';

/** Closing gives the focus back to what opened it, or to the screen's heading when that is gone (a deleted row): never to <body>. */
export function Modal(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  /** What gets the focus on open (radix focuses the first control otherwise). */
  initialFocus?: React.RefObject<HTMLElement | null>;
}) {
  // read while rendering the opening: radix moves the focus into the dialog in its own effects, before ours run
  const { t } = useTranslation();
  const opener = useRef<Element | null>(null);
  const wasOpen = useRef(false);
  if (props.open && !wasOpen.current) opener.current = document.activeElement;
  wasOpen.current = props.open;
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={`dialog-content${props.wide ? ' dialog-wide' : ''}`}
          aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            if (props.initialFocus?.current) {
              e.preventDefault();
              props.initialFocus.current.focus();
            }
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            const back = opener.current;
            opener.current = null;
            if (canTakeFocus(back) && back !== document.body) back.focus();
            else focusMainHeading();
          }}
        >
          <Dialog.Title className="dialog-title">{props.title}</Dialog.Title>
          <div className="dialog-body">{props.children}</div>
          {props.footer && <div className="dialog-footer">{props.footer}</div>}
          <Dialog.Close className="dialog-x" aria-label={t('common.close')}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Cancel has the focus when it opens (rule 0139), so Enter or a stray key press never deletes. */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title?: string;
  message: ReactNode;
  confirmLabel?: string;
  /** The button that closes without doing it (default "Cancel"; say "Keep …" when the action itself is a cancel). */
  dismissLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
  /** More under the message: a choice that changes what the confirmation does, its warning, its error. */
  children?: ReactNode;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const { t } = useTranslation();
  return (
    <Modal
      open={props.open}
      onOpenChange={props.onOpenChange}
      initialFocus={cancel}
      title={props.title ?? t('common.confirm.title')}
      footer={
        <>
          <Button variant="danger" onClick={props.onConfirm} disabled={props.busy}>
            {props.confirmLabel ?? t('common.confirm.delete')}
          </Button>
          <Button ref={cancel} variant="ghost" onClick={() => props.onOpenChange(false)}>
            {props.dismissLabel ?? t('common.confirm.cancel')}
          </Button>
        </>
      }
    >
      <p>{props.message}</p>
      {props.children}
    </Modal>
  );
}

import { Dialog } from 'radix-ui';
import { type ReactNode, useRef } from 'react';
import { Button } from './button';

/** A modal dialog (radix Dialog: focus trap, Escape closes, labelled by its title). */
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
        >
          <Dialog.Title className="dialog-title">{props.title}</Dialog.Title>
          <div className="dialog-body">{props.children}</div>
          {props.footer && <div className="dialog-footer">{props.footer}</div>}
          <Dialog.Close className="dialog-x" aria-label="Close">
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * "Are you sure…?" with a destructive confirm button and Cancel. Cancel has the focus when it
 * opens (issue 16 item 7), so Enter or a stray key press never deletes.
 */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title?: string;
  message: ReactNode;
  confirmLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={props.open}
      onOpenChange={props.onOpenChange}
      initialFocus={cancel}
      title={props.title ?? 'Please confirm'}
      footer={
        <>
          <Button variant="danger" onClick={props.onConfirm} disabled={props.busy}>
            {props.confirmLabel ?? 'Delete'}
          </Button>
          <Button ref={cancel} variant="ghost" onClick={() => props.onOpenChange(false)}>
            Cancel
          </Button>
        </>
      }
    >
      <p>{props.message}</p>
    </Modal>
  );
}
